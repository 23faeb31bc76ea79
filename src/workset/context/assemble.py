"""Assemble one model request: stable prefix | trajectory | dynamic suffix, with a manifest.

Layout: the system prompt, then the tool definitions in a deterministic order (the stable
prefix, byte-identical across calls); then the trajectory, append-only and ordered by sequence;
then the dynamic suffix (status and other per-call state), always last.

:meth:`Assembler.build` is the one way any request is built (the agent's session engine, the
side session of a parallel question, ``workset eval``): a pure function of one frozen
:class:`AssembleInput` — same input, same request and manifest. The previous request of the
session, against which prefix reuse is measured, is part of the input
(:attr:`AssembleInput.previous`, the :class:`PreviousRequest` the last build returned), never
hidden state. The :class:`Assembler` object is only a memo: when the history only grew, call
N+1 renders and counts the new tail and reuses the counted parts, items and bucket sums of the
rest, so its cost follows what changed, not the length of the session
(``benchmarks/assembly.py``). :meth:`Assembler.assemble` is a convenience over ``build`` for
callers that keep no state of their own: it remembers the previous request for them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from workset.context.budget import BudgetConfig, last_task_index, select_recent
from workset.context.items import ContextItem, Scope
from workset.context.manifest import (
    BudgetNumbers,
    IncludedItem,
    Manifest,
    OmittedItem,
    PrefixInfo,
)
from workset.context.packing import Packing, pack
from workset.context.parts import (
    Entry,
    bucket_sums,
    first_divergence,
    head_item,
    item_text,
    omitted_item,
    rebucket,
    split_status,
    tail_items,
    trajectory_item,
)
from workset.context.shorten import next_to_shorten, shortened_result, with_shortened
from workset.errors import UsageError
from workset.messages import Message, SystemMessage, ToolMessage, ToolSpec
from workset.models.base import ModelRequest
from workset.tokens.base import CountedPart, Part, RequestCount
from workset.tokens.counter import PartCounter, common_prefix_tokens

__all__ = [
    "AssembleInput",
    "AssembledRequest",
    "Assembler",
    "BudgetConfig",
    "PreviousRequest",
]


@dataclass(frozen=True, slots=True)
class PreviousRequest:
    """What the next build of a session needs of this one to measure prefix reuse."""

    count: RequestCount
    whole_history: bool  # every history message was included, so positions line up
    head: tuple[CountedPart, ...]


@dataclass(frozen=True, slots=True)
class AssembleInput:
    """Everything one request is made of; frozen, so a build can be repeated exactly.

    ``history`` is the trajectory the model should see (a history policy's view) and
    ``seqs[i]`` the index in the recorded history of ``history[i]`` (None for a message the
    policy made); ``policy_omitted`` is what the policy left out, for the manifest. ``items``
    are context items (memory, evidence, notes, status...): filtered by ``scope``, packed by
    utility, rendered after the trajectory in layout order with the status bar last;
    ``suffix`` messages (per-call notices such as "answer now") come last of all.
    ``withheld_tools`` are tools kept out of this request, listed as omitted with
    ``withheld_reason``.
    """

    session_id: str
    request_id: str
    system: str
    tools: tuple[ToolSpec, ...]
    history: tuple[Message, ...]
    budget: BudgetConfig
    seqs: tuple[int | None, ...] | None = None
    suffix: tuple[Message, ...] = ()
    through_seq: int = 0
    max_tokens: int | None = None
    temperature: float | None = None
    seed: int | None = None  # the sampler's seed, with a temperature above 0
    json_schema: Mapping[str, Any] | None = None
    timeout_s: float | None = None  # how long the backend may go without progress
    withheld_tools: tuple[ToolSpec, ...] = ()
    withheld_reason: str = ""
    items: tuple[ContextItem, ...] = ()
    scope: Scope = field(default_factory=Scope)
    now: float | None = None
    policy: str = ""
    policy_omitted: tuple[OmittedItem, ...] = ()
    kept_because: Mapping[int, str] = field(default_factory=dict)
    notes: Mapping[str, str] = field(default_factory=dict)
    previous: PreviousRequest | None = None


@dataclass(frozen=True, slots=True)
class AssembledRequest:
    request: ModelRequest
    manifest: Manifest
    count: RequestCount
    previous: PreviousRequest  # hand to the session's next build as ``previous``


@dataclass(slots=True)
class _History:
    """Counted parts and manifest items of the whole history, as of the last call."""

    system: str
    tools: tuple[ToolSpec, ...]
    messages: list[Message]
    seqs: list[int | None]
    parts: list[CountedPart]
    items: list[IncludedItem]
    tokens: int
    buckets: dict[str, int]
    unchanged: int = 0  # leading parts identical to the previous build's
    unchanged_tokens: int = 0
    # The count of the build this memo was made for, and of the one before it: the shortcut
    # in prefix measurement applies only when the input's previous request is that one.
    count: RequestCount | None = None
    unchanged_for: RequestCount | None = None


@dataclass
class Assembler:
    """Builds the requests of one session; a memo of counted parts, never of decisions."""

    counter: PartCounter
    budget: BudgetConfig | None = None  # the default for :meth:`assemble`
    _history: _History | None = field(default=None, repr=False)
    _previous: PreviousRequest | None = field(default=None, repr=False)
    _calls: int = 0

    def assemble(
        self,
        *,
        session_id: str,
        system: str,
        tools: Sequence[ToolSpec],
        history: Sequence[Message],
        seqs: Sequence[int | None] | None = None,
        suffix: Sequence[Message] = (),
        through_seq: int = 0,
        max_tokens: int | None = None,
        temperature: float | None = None,
        withheld_tools: Sequence[ToolSpec] = (),
        withheld_reason: str = "",
        items: Sequence[ContextItem] = (),
        scope: Scope | None = None,
        now: float | None = None,
        policy: str = "",
        policy_omitted: Sequence[OmittedItem] = (),
        kept_because: Mapping[int, str] | None = None,
        notes: Mapping[str, str] | None = None,
        json_schema: Mapping[str, Any] | None = None,
    ) -> AssembledRequest:
        """:meth:`build` for a caller that keeps no state: the previous request of this
        assembler is the previous request, and requests are numbered ``c1, c2, …``."""
        if self.budget is None:
            raise UsageError("Assembler.assemble needs the assembler's budget; or call build()")
        self._calls += 1
        built = self.build(
            AssembleInput(
                session_id=session_id,
                request_id=f"{session_id}-c{self._calls}",
                system=system,
                tools=tuple(tools),
                history=tuple(history),
                budget=self.budget,
                seqs=None if seqs is None else tuple(seqs),
                suffix=tuple(suffix),
                through_seq=through_seq,
                max_tokens=max_tokens,
                temperature=temperature,
                json_schema=json_schema,
                withheld_tools=tuple(withheld_tools),
                withheld_reason=withheld_reason,
                items=tuple(items),
                scope=scope or Scope(),
                now=now,
                policy=policy,
                policy_omitted=tuple(policy_omitted),
                kept_because=dict(kept_because or {}),
                notes=dict(notes or {}),
                previous=self._previous,
            )
        )
        self._previous = built.previous
        return built

    def build(self, inp: AssembleInput) -> AssembledRequest:
        """The request for the next call and its manifest: a function of ``inp`` alone."""
        budget = inp.budget
        system, tools, history = inp.system, inp.tools, list(inp.history)
        suffix, kept_because = inp.suffix, inp.kept_because
        seq_list: list[int | None] = (
            list(inp.seqs) if inp.seqs is not None else [None] * len(history)
        )
        head = self._head(system, tools)
        hist = self._update_history(system, tools, history, seq_list, len(head))
        fixed_base = sum(p.tokens for p in head) + sum(
            p.tokens for p in self._tail(system, tools, history, suffix)
        )
        room = budget.available(fixed_base)
        packing = self._pack(inp.items, inp.scope, room - _required(history, hist), inp.now, budget)
        before, after = split_status(packing.selected)
        entries: list[Entry] = [*before, *suffix, *after]
        suffix_messages = [e[0] if isinstance(e, tuple) else e for e in entries]
        tail = self._tail(system, tools, history, suffix_messages)
        fixed = sum(p.tokens for p in head) + sum(p.tokens for p in tail)
        room = budget.available(fixed)
        done: set[int] = set()  # indices of the results shortened
        shortened: list[str] = []  # "call id (tokens of the whole result)", for the manifest
        start = last_task_index(history)
        while _required(history, hist) > room:
            sizes = [part.tokens for part in hist.parts]
            index = next_to_shorten(history, start, sizes, done)
            if index is None:
                break  # select_recent raises the budget error with the numbers
            message = history[index]
            assert isinstance(message, ToolMessage)
            done.add(index)
            shortened.append(f"{message.tool_call_id} ({sizes[index]} tokens)")
            short = shortened_result(message, sizes[index])
            # A new list: the counting cache holds the old one and must see it unchanged.
            history = [*history[:index], short, *history[index + 1 :]]
            hist = self._update_history(system, tools, history, seq_list, len(head))

        guarded: tuple[int, ...] = ()
        if hist.tokens <= room:
            first_kept, kept_parts, kept_items = 0, hist.parts, hist.items
            kept_tokens, kept_buckets = hist.tokens, hist.buckets
        else:
            tokens = [p.tokens for p in hist.parts]
            protected = frozenset(
                i for i, seq in enumerate(seq_list) if seq is not None and seq in kept_because
            )
            chosen = select_recent(history, tokens, room, budget, fixed, protected)
            first_kept, guarded = chosen.first_kept, chosen.protected
            kept_index = [*guarded, *range(first_kept, len(history))]
            kept_parts = self._message_parts(system, tools, [history[i] for i in kept_index])
            kept_items = [
                trajectory_item(p, len(head) + k, seq_list[i])
                for k, (i, p) in enumerate(zip(kept_index, kept_parts, strict=True))
            ]
            kept_tokens = sum(p.tokens for p in kept_parts)
            kept_buckets = bucket_sums(kept_parts)
        if kept_because:
            kept_items = [
                replace(i, why=kept_because[i.seq])
                if i.seq is not None and i.seq in kept_because
                else i
                for i in kept_items
            ]

        position = len(head) + len(kept_parts)
        tail = rebucket(tail, entries)
        suffix_items = tail_items(tail, position, entries)
        parts = (*head, *kept_parts, *tail)
        count = RequestCount(
            parts, self.counter.method, self.counter.tokenizer.exact, total=fixed + kept_tokens
        )
        hist.count = count
        buckets = dict(kept_buckets)
        for p in (*head, *tail):
            buckets[p.part.bucket] = buckets.get(p.part.bucket, 0) + p.tokens

        whole = first_kept == 0 and not guarded
        manifest = Manifest(
            request_id=inp.request_id,
            session_id=inp.session_id,
            through_seq=inp.through_seq,
            total_tokens=count.total,
            count_method=count.method,
            budget=BudgetNumbers(
                budget.window, budget.output_reserve, budget.margin, fixed, room, kept_tokens
            ),
            buckets=buckets,
            prefix=self._prefix_info(count, head, hist, inp.previous, whole=whole),
            included=(
                *(head_item(p, i) for i, p in enumerate(head)),
                *kept_items,
                *suffix_items,
            ),
            omitted=(
                *self._withheld(system, inp.withheld_tools, inp.withheld_reason),
                *inp.policy_omitted,
                *(
                    omitted_item(p, seq_list[i], i)
                    for i, p in enumerate(hist.parts[:first_kept])
                    if i not in guarded
                ),
                *packing.omitted,
            ),
            history_policy=inp.policy,
            out_of_scope=packing.out_of_scope,
            notes=with_shortened(inp.notes, shortened),
        )
        kept_messages = [history[i] for i in guarded] + list(history[first_kept:])
        messages = (SystemMessage(system), *kept_messages, *suffix_messages)
        request = ModelRequest(
            messages,
            tools,
            inp.max_tokens,
            inp.temperature,
            inp.json_schema,
            inp.timeout_s,
            seed=inp.seed,
        )
        return AssembledRequest(request, manifest, count, PreviousRequest(count, whole, head))

    def _pack(
        self,
        items: Sequence[ContextItem],
        scope: Scope,
        room: int,
        now: float | None,
        budget: BudgetConfig,
    ) -> Packing:
        """Pack ``items`` into ``room``: required ones always, the rest in their share."""
        if not items:
            return Packing((), (), 0, room)

        def tokens(item: ContextItem) -> int:
            return self.counter.count_text(item_text(self.counter, item))

        required = sum(tokens(i) for i in items if i.required and scope.admits(i.scope))
        share = required + int(budget.items_share * max(room - required, 0))
        return pack(items, scope=scope, room=min(room, share), tokens=tokens, now=now)

    def _withheld(
        self, system: str, tools: tuple[ToolSpec, ...], reason: str
    ) -> tuple[OmittedItem, ...]:
        if not tools:
            return ()
        tokens = sum(p.tokens for p in self._head(system, tools) if p.part.key == "tools")
        names = ",".join(t.name for t in tools)
        return (
            OmittedItem("tools", "tool", f"tool_definitions:{names}", tokens, "policy", reason),
        )

    # -- rendering and counting ------------------------------------------------------------

    def _head(self, system: str, tools: tuple[ToolSpec, ...]) -> tuple[CountedPart, ...]:
        rendered = self.counter.chat_format.render(system, tools, ())
        return tuple(self._counted(p) for p in rendered if p.key in ("system", "tools"))

    def _tail(
        self,
        system: str,
        tools: tuple[ToolSpec, ...],
        history: Sequence[Message],
        suffix: Sequence[Message],
    ) -> list[CountedPart]:
        """The suffix messages and the template's closing part (the generation prompt)."""
        context = list(history[-1:])
        rendered = self.counter.chat_format.render(system, tools, [*context, *suffix])
        body = [p for p in rendered if p.key not in ("system", "tools")]
        return [self._counted(p) for p in body[len(context) :]]

    def _message_parts(
        self,
        system: str,
        tools: tuple[ToolSpec, ...],
        messages: Sequence[Message],
        context: int = 0,
    ) -> list[CountedPart]:
        """Counted parts of ``messages[context:]``, rendered with ``context`` messages before."""
        rendered = self.counter.chat_format.render(system, tools, messages)
        body = [p for p in rendered if p.key not in ("system", "tools")]
        return [self._counted(p) for p in body[context : len(messages)]]

    def _counted(self, part: Part) -> CountedPart:
        return CountedPart(part, self.counter.count_text(part.text))

    def _update_history(
        self,
        system: str,
        tools: tuple[ToolSpec, ...],
        history: list[Message],
        seqs: list[int | None],
        head_len: int,
    ) -> _History:
        old = self._history
        n = len(old.messages) if old else 0
        grew = (
            old is not None
            and n >= 2
            and old.system == system
            and old.tools == tools
            and len(history) >= n
            and history[:n] == old.messages
            and seqs[:n] == old.seqs
        )
        if old is not None and grew:
            # The last old message may render differently now that it has a neighbour.
            start = n - 1
            new_parts = self._message_parts(system, tools, history[start - 1 :], context=1)
            stale = old.parts[start]
            parts = old.parts[:start] + new_parts
            items = old.items[:start] + [
                trajectory_item(p, head_len + start + i, seqs[start + i])
                for i, p in enumerate(new_parts)
            ]
            buckets = dict(old.buckets)
            buckets[stale.part.bucket] -= stale.tokens
            for p in new_parts:
                buckets[p.part.bucket] = buckets.get(p.part.bucket, 0) + p.tokens
            unchanged_tokens = old.tokens - stale.tokens
            tokens = unchanged_tokens + sum(p.tokens for p in new_parts)
            hist = _History(
                system,
                tools,
                history,
                seqs,
                parts,
                items,
                tokens,
                buckets,
                start,
                unchanged_tokens,
                unchanged_for=old.count,
            )
        else:
            parts = self._message_parts(system, tools, history)
            items = [trajectory_item(p, head_len + i, seqs[i]) for i, p in enumerate(parts)]
            hist = _History(
                system,
                tools,
                history,
                seqs,
                parts,
                items,
                sum(p.tokens for p in parts),
                bucket_sums(parts),
            )
        self._history = hist
        return hist

    def _prefix_info(
        self,
        count: RequestCount,
        head: tuple[CountedPart, ...],
        hist: _History,
        previous: PreviousRequest | None,
        *,
        whole: bool,
    ) -> PrefixInfo:
        digest = hashlib.sha256("".join(p.part.text for p in head).encode()).hexdigest()[:16]
        head_tokens = sum(p.tokens for p in head)
        if previous is None:
            return PrefixInfo(digest, head_tokens, 0, 0)
        start, start_tokens = 0, 0
        if (
            previous.whole_history
            and whole
            and previous.head == head
            and hist.unchanged_for is previous.count
        ):
            start = len(head) + hist.unchanged
            start_tokens = head_tokens + hist.unchanged_tokens
        reused = common_prefix_tokens(
            previous.count, count, self.counter, start=start, start_tokens=start_tokens
        )
        # The previous request ended with the generation prompt, which the answer extends:
        # reuse is whole when everything before that closing part was reused.
        last = previous.count.parts[-1]
        closing = last.tokens if last.part.bucket == "template" else 0
        broke = reused < previous.count.total - closing
        return PrefixInfo(
            hash=digest,
            tokens=head_tokens,
            reused_tokens=reused,
            previous_total=previous.count.total,
            first_divergence=first_divergence(previous.count, count) if broke else "",
        )


def _required(history: Sequence[Message], hist: _History) -> int:
    """Tokens of the current task (the last user message) and everything after it."""
    last_user = last_task_index(history)
    return sum(p.tokens for p in hist.parts[last_user:])
