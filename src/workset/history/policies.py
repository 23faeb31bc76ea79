"""Named history policies: each a fixed stack of layers, selectable by name, replayable.

========================  ==============================================================
``full``                  everything, as recorded
``window``                the last ``turns`` turns (or ``messages`` messages), units whole
``compaction``            old turns folded into an anchored summary; full compaction as a
                          last resort; the artifact trail pinned
``compaction_notes``      ``compaction`` plus the note taker's pinned notes
``elide``                 old tool results replaced by stubs that say how to re-run them
``user_verbatim``         every user message verbatim plus the last ``turns`` turns (the
                          seed's measured winner: −54 % tokens, recall kept)
``pinned_system``         the last ``turns`` turns plus notes pinned in the system prompt
``pinned_end``            the same notes pinned at the end of the prompt
``retrieval``             the last ``turns`` turns, the fact ledger (decisions, standing
                          rules, corrections, rejections) pinned, and the archived pieces
                          that match the current need recalled within ``share`` of the
                          window (:mod:`~workset.history.recall`, :mod:`~workset.history.ledger`)
========================  ==============================================================

Every policy takes ``layers=`` to run first (a :class:`ToolResultBudget`, :class:`NoiseRemoval`,
:class:`AdaptiveCompression`...). Given the same history and the same summarizer outputs, a
policy returns the same view, so an evaluation can replay one transcript under each.
"""

from __future__ import annotations

import difflib
import inspect
from collections.abc import Sequence
from typing import Any

from workset.errors import UsageError
from workset.history.base import HistoryView, PinnedAt, PolicyContext
from workset.history.compaction import DEFAULT_TRIGGER, AnchoredSummary, full_compaction
from workset.history.draft import Layer, start_draft
from workset.history.ledger import Extractor, FactLedger
from workset.history.masking import ObservationMasking
from workset.history.notes import NoteTaker
from workset.history.trail import ArtifactTrail
from workset.history.window import MessageWindow, TurnWindow
from workset.messages import Message

DEFAULT_TURNS = 4
RETRIEVAL_TURNS = 1


class LayeredPolicy:
    """A policy that runs its layers in order over the recorded history."""

    name = "layered"

    def __init__(self, layers: Sequence[Layer] = ()) -> None:
        self.layers: tuple[Layer, ...] = tuple(layers)
        # What :func:`make_policy` built it with, defaults included (empty when built by hand).
        self.settings: dict[str, Any] = {}

    async def view(self, history: Sequence[Message], context: PolicyContext) -> HistoryView:
        draft = start_draft(history)
        for layer in self.layers:
            draft = await layer.apply(draft, context)
        return draft.to_view()


class FullHistory(LayeredPolicy):
    name = "full"

    def __init__(self, *, layers: Sequence[Layer] = ()) -> None:
        super().__init__(layers)


class Window(LayeredPolicy):
    name = "window"

    def __init__(
        self,
        *,
        turns: int = DEFAULT_TURNS,
        messages: int | None = None,
        layers: Sequence[Layer] = (),
    ) -> None:
        selection: Layer = MessageWindow(messages) if messages is not None else TurnWindow(turns)
        super().__init__([*layers, selection])


class Compaction(LayeredPolicy):
    name = "compaction"

    def __init__(
        self,
        *,
        turns: int = DEFAULT_TURNS,
        batch_turns: int = DEFAULT_TURNS,
        trigger: float = DEFAULT_TRIGGER,
        cite: bool = False,
        trail: bool = True,
        layers: Sequence[Layer] = (),
    ) -> None:
        self.summary = AnchoredSummary(
            keep_turns=turns, batch_turns=batch_turns, trigger=trigger, cite=cite
        )
        self.compaction = full_compaction(trigger=trigger)
        own: list[Layer] = [ArtifactTrail()] if trail else []
        super().__init__([*layers, *own, *self._extra(), self.summary, self.compaction])

    def _extra(self) -> list[Layer]:
        return []


class CompactionNotes(Compaction):
    name = "compaction_notes"

    def __init__(
        self,
        *,
        notes: Sequence[str] = (),
        pinned_at: PinnedAt = "end",
        **params: Any,
    ) -> None:
        self.notes = NoteTaker(fixed=notes, pinned_at=pinned_at)
        super().__init__(**params)

    def _extra(self) -> list[Layer]:
        return [self.notes]


class Elide(LayeredPolicy):
    name = "elide"

    def __init__(self, *, turns: int = DEFAULT_TURNS, layers: Sequence[Layer] = ()) -> None:
        super().__init__([*layers, ObservationMasking(turns)])


class UserVerbatim(LayeredPolicy):
    name = "user_verbatim"

    def __init__(self, *, turns: int = DEFAULT_TURNS, layers: Sequence[Layer] = ()) -> None:
        super().__init__([*layers, TurnWindow(turns, keep_user=True)])


class PinnedSystem(LayeredPolicy):
    name = "pinned_system"
    where: PinnedAt = "system"

    def __init__(
        self, *, turns: int = DEFAULT_TURNS, notes: Sequence[str] = (), layers: Sequence[Layer] = ()
    ) -> None:
        taker = NoteTaker(fixed=notes, pinned_at=self.where)
        super().__init__([*layers, TurnWindow(turns), taker])


class PinnedEnd(PinnedSystem):
    name = "pinned_end"
    where: PinnedAt = "end"


class Retrieval(LayeredPolicy):
    """Keep buried facts: a short window, the pinned fact ledger, recall by the current need.

    Defaults (the current turn only; up to 12 recalled excerpts when the need asks for a
    value, 3 for another question ("how is it classified?", "remind me why") and 1 for a
    request, within 6 % of the window and 15 % of the archived messages; BM25 weighted 0.2
    against the embeddings; the task state at a quarter of the query's weight; the evidence
    priors of :mod:`~workset.history.evidence`) were tuned on
    ``examples/transcripts/support``, ``payroll``, ``biobank``, ``telecom`` and
    ``warehouse`` only, by ``benchmarks/policy_context.py`` (docs/results/policies.md).
    ``ledger=False`` or ``recall=False`` drops one half. The pinned block (ledger and recalled
    pieces) goes just before the current user message (``recall_at="task"``), so the
    question is read last: on the 0.5B that answered 12/12 against 3/12 on ``incident`` and
    14/42 against 1/42 on ``pipeline`` with the block after the trajectory
    (``recall_at="end"``; docs/results/incident-policies.md).
    """

    name = "retrieval"

    def __init__(
        self,
        *,
        turns: int = RETRIEVAL_TURNS,
        keep_user: bool = False,
        share: float = 0.06,
        k: int = 12,
        bm25_weight: float = 0.2,
        task_weight: float = 0.25,
        whole_tokens: int = 60,
        lines: int = 8,
        min_cosine: float = 0.15,
        min_relative: float = 0.0,
        answer_weight: float = 0.5,
        echo_weight: float = 0.5,
        archive_share: float | None = 0.15,
        request_k: int | None = 1,
        question_k: int | None = 3,
        recall_at: PinnedAt = "task",
        dense: bool = True,
        ledger: bool = True,
        recall: bool = True,
        extractor: Extractor = "rules",
        layers: Sequence[Layer] = (),
    ) -> None:
        own: list[Layer] = [TurnWindow(turns, keep_user=keep_user)]
        facts = FactLedger(extractor=extractor, at=recall_at) if ledger else None
        if facts is not None:
            own.append(facts)
        if recall:
            from workset.history.recall import Recall  # numpy: loaded when the policy is made

            own.append(
                Recall(
                    share=share,
                    k=k,
                    bm25_weight=bm25_weight,
                    task_weight=task_weight,
                    whole_tokens=whole_tokens,
                    lines=lines,
                    min_cosine=min_cosine,
                    min_relative=min_relative,
                    answer_weight=answer_weight,
                    echo_weight=echo_weight,
                    archive_share=archive_share,
                    request_k=request_k,
                    question_k=question_k,
                    at=recall_at,
                    dense=dense,
                    superseded=facts.ledger.superseded if facts is not None else None,
                    covered=facts.ledger.covered if facts is not None else None,
                )
            )
        super().__init__([*layers, *own])


_POLICIES: dict[str, type[LayeredPolicy]] = {
    p.name: p
    for p in (
        FullHistory,
        Window,
        Compaction,
        CompactionNotes,
        Elide,
        UserVerbatim,
        PinnedSystem,
        PinnedEnd,
        Retrieval,
    )
}


def policy_names() -> tuple[str, ...]:
    return tuple(_POLICIES)


def make_policy(name: str, **params: Any) -> LayeredPolicy:
    """A new policy instance (one per session) by name, with its parameters.

    Raises :class:`UsageError` for an unknown name (suggesting the closest) or a parameter
    the policy does not take (listing the ones it does).
    """
    cls = _POLICIES.get(name)
    if cls is None:
        close = difflib.get_close_matches(name, _POLICIES, n=1)
        hint = f"did you mean {close[0]!r}? " if close else ""
        raise UsageError(
            f"unknown history policy {name!r}; {hint}choose one of {', '.join(_POLICIES)}"
        )
    accepted = _parameters(cls)
    unknown = sorted(set(params) - accepted)
    if unknown:
        raise UsageError(
            f"history policy {name!r} does not take {unknown}; it takes {sorted(accepted)}"
        )
    try:
        policy = cls(**params)
    except ValueError as exc:
        raise UsageError(f"history policy {name!r}: {exc}") from exc
    policy.settings = {**_defaults(cls), **params}
    return policy


def _defaults(cls: type[LayeredPolicy]) -> dict[str, Any]:
    """Every keyword parameter's default, so a policy's settings say what it ran with."""
    found: dict[str, Any] = {}
    for klass in reversed(cls.__mro__):
        init = klass.__dict__.get("__init__")
        if init is None or klass is LayeredPolicy:
            continue
        for p in inspect.signature(init).parameters.values():
            if p.kind is inspect.Parameter.KEYWORD_ONLY and p.name != "layers":
                found[p.name] = p.default
    return found


def _parameters(cls: type[LayeredPolicy]) -> set[str]:
    names: set[str] = set()
    for klass in cls.__mro__:
        init = klass.__dict__.get("__init__")
        if init is None or klass is LayeredPolicy:
            continue
        signature = inspect.signature(init)
        names |= {
            p.name
            for p in signature.parameters.values()
            if p.kind is inspect.Parameter.KEYWORD_ONLY
        }
    return names
