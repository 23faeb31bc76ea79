"""The harness's requests, built the way the agent builds them: one code path, not two.

Every request ``workset eval`` counts or sends (each replay call point, each probe question,
the control prompt) is a history policy's view turned into an
:class:`~workset.context.assemble.AssembleInput` by the agent's own
:func:`~workset.session.context.view_input`, then :meth:`Assembler.build`. So the layout is
the agent's: the system prompt (with the pinned block appended when the policy pins it at
``"system"``), the tools, the view's messages, then a probe's question where the agent puts
the current user message, then the pinned block (a required context item) after it.

Nothing is cut to fit. Where the assembler would drop history (or cannot fit the current
task at all), the request is built whole against an unbounded window and reported as not
fitting: a call point is flagged and a probe row is "does not fit", never answered on less.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from workset.context.assemble import AssembledRequest, Assembler, BudgetConfig, PreviousRequest
from workset.errors import ContextBudgetError
from workset.history.base import HistoryView, PinnedAt
from workset.messages import Message, ToolSpec, UserMessage, from_wire, to_wire
from workset.models.base import Model, ModelRequest
from workset.session.context import RequestSettings, view_input
from workset.tokens.chatml import ChatMLFormat
from workset.tokens.counter import PartCounter
from workset.tokens.estimate import EstimateTokenizer

SESSION = "eval"  # the session id of every harness request (its manifests say so)
UNBOUNDED = 1 << 40  # the window a request that does not fit is built whole against
# Names the request layout in checkpoint fingerprints: change the layout, bump it, and cells
# stored for the old one are refused instead of mixed in.
LAYOUT = "assembler-v1"


@dataclass(frozen=True, slots=True)
class Prompt:
    """What a policy's view shows of a transcript, without the tools or a question.

    ``pinned`` is the view's pinned block and ``pinned_at`` where it goes; ``seqs`` the index
    in the transcript of each message (None for one the policy made), all messages by
    default.
    """

    system: str | None
    messages: tuple[Message, ...]
    pinned: tuple[str, ...] = ()
    pinned_at: PinnedAt = "end"
    seqs: tuple[int | None, ...] | None = None

    def view(self) -> HistoryView:
        """The view this prompt was made from (what the request needs of it)."""
        seqs = self.seqs if self.seqs is not None else tuple(range(len(self.messages)))
        return HistoryView(self.messages, seqs, pinned=self.pinned, pinned_at=self.pinned_at)

    def to_json(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "messages": [to_wire(m) for m in self.messages],
            "pinned": list(self.pinned),
            "pinned_at": self.pinned_at,
            "seqs": None if self.seqs is None else list(self.seqs),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Prompt:
        seqs = data.get("seqs")
        return cls(
            data["system"],
            tuple(from_wire(m) for m in data["messages"]),
            tuple(data.get("pinned", ())),
            data.get("pinned_at", "end"),
            None if seqs is None else tuple(seqs),
        )


def apply_view(system: str | None, view: HistoryView) -> Prompt:
    """The prompt ``view`` makes of a transcript whose system prompt is ``system``."""
    return Prompt(system, view.messages, view.pinned, view.pinned_at, view.seqs)


def eval_settings(
    system: str | None,
    counter: PartCounter,
    *,
    window: int,
    answer: int,
    summarizer: Model | None = None,
) -> RequestSettings:
    """The agent's request settings for a harness run: the model's window with the answer's
    tokens as output reserve (margin and items share the agent's defaults), greedy."""
    return RequestSettings(
        system_prompt=system or "",
        counter=counter,
        budget=BudgetConfig(window, output_reserve=answer),
        max_tokens=answer,
        temperature=0.0,
        summarizer=summarizer,
    )


def build(
    assembler: Assembler,
    settings: RequestSettings,
    view: HistoryView,
    tools: Sequence[ToolSpec],
    question: str | None = None,
    *,
    request_id: str = "probe",
    previous: PreviousRequest | None = None,
) -> tuple[AssembledRequest, bool]:
    """The request for a policy's ``view`` (``question`` appended to its messages as the
    current user message) and whether it fits the window uncut; one that does not is built
    whole (see the module docstring)."""
    through = max((s for s in view.seqs if s is not None), default=-1) + 1
    if question is not None:
        messages, seqs = (*view.messages, UserMessage(question)), (*view.seqs, through)
        view, through = replace(view, messages=messages, seqs=seqs), through + 1
    inp = view_input(
        settings,
        view,
        session_id=SESSION,
        request_id=request_id,
        tools=tools,
        through_seq=through,
        previous=previous,
    )
    try:
        built = assembler.build(inp)
    except ContextBudgetError:
        built = None
    if built is not None and not any(o.reason == "budget" for o in built.manifest.omitted):
        return built, True
    whole = replace(inp, budget=replace(inp.budget, window=UNBOUNDED))
    return assembler.build(whole), False


def to_request(
    prompt: Prompt,
    tools: Sequence[ToolSpec],
    question: str | None = None,
    *,
    max_tokens: int,
    counter: PartCounter | None = None,
) -> ModelRequest:
    """The request for ``prompt`` as the agent lays it out, whatever the window (use
    :func:`build` to know whether it fits); ``counter`` only counts, estimated by default."""
    counter = counter or PartCounter(ChatMLFormat(), EstimateTokenizer())
    settings = eval_settings(prompt.system, counter, window=UNBOUNDED, answer=max_tokens)
    built, _ = build(Assembler(counter), settings, prompt.view(), tools, question)
    return built.request
