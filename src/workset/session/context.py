"""From a session's trajectory and notices to the next request: the one place requests are made.

:class:`RequestMaker` is what the agent's session engine, the side session of a parallel
question, subagents and ``workset eval`` all use, so what an evaluation measures is what the
agent sends. Per call it takes the recorded trajectory, asks the history policy for its view,
asks the item sources (memory, evidence) for candidates, places the flushed notices (status
block, pinned notes, "answer now"), and builds one frozen
:class:`~workset.context.assemble.AssembleInput`; :meth:`RequestMaker.build` turns it into
the request and its manifest, and the :class:`~workset.events.records.RequestRef` that lets
the log rebuild that request byte for byte.

The layout itself is the pure :func:`view_input` (a policy's view, items and suffix messages
to the frozen input) with :func:`policy_context` (what the policy is told, its room first):
``workset eval`` replays transcripts through these two and ``Assembler.build``, without a
session, so it measures the requests the agent would send.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from workset.context.assemble import (
    AssembledRequest,
    AssembleInput,
    Assembler,
    BudgetConfig,
    PreviousRequest,
)
from workset.context.budget import last_task_index
from workset.context.items import ContextItem, Scope
from workset.context.sources import ContextRequest, ItemSource
from workset.events.records import MessageRef, RequestRef
from workset.history.base import HistoryPolicy, HistoryView, PolicyContext, pinned_block
from workset.log.store import blob_hash, message_blob, tools_blob
from workset.messages import Message, ToolSpec, UserMessage
from workset.models.base import Model
from workset.models.constrained import decision_schema
from workset.session.notices import Notice
from workset.tokens.counter import PartCounter


@dataclass(frozen=True, slots=True)
class RequestSettings:
    """What shapes every request of an agent, whatever the session."""

    system_prompt: str
    counter: PartCounter
    budget: BudgetConfig
    max_tokens: int | None = None
    temperature: float | None = None
    constrained: bool = False
    scope: Scope = field(default_factory=Scope)
    sources: tuple[ItemSource, ...] = ()
    summarizer: Model | None = None
    # The longest the backend may go without progress on one call (``ModelRequest.timeout_s``).
    timeout_s: float | None = None


# The output schema of a request from its context items and offered tools, or None.
SchemaFor = Callable[[Sequence[ContextItem], Sequence[ToolSpec]], Mapping[str, Any] | None]


@dataclass(frozen=True, slots=True)
class Made:
    """A built request with what the log needs to store it by reference."""

    assembled: AssembledRequest
    ref: RequestRef
    blobs: dict[str, str]
    view: HistoryView
    items: tuple[ContextItem, ...]  # the candidates the sources and notices gave


class RequestMaker:
    """Makes the requests of one session (one per session: it holds the policy's state)."""

    def __init__(
        self,
        settings: RequestSettings,
        session_id: str,
        *,
        policy: HistoryPolicy | None = None,
        previous: PreviousRequest | None = None,
    ) -> None:
        self.settings = settings
        self.session_id = session_id
        self.policy = policy
        self.previous = previous
        self.assembler = Assembler(settings.counter)

    async def make(
        self,
        *,
        request_id: str,
        messages: Sequence[Message],
        seqs: Sequence[int],
        tools: Sequence[ToolSpec],
        notices: Sequence[Notice] = (),
        withheld: Sequence[ToolSpec] = (),
        withheld_reason: str = "",
        iteration: int = 1,
        now: float | None = None,
        query: str = "",
        notes: dict[str, str] | None = None,
        json_schema: Mapping[str, Any] | None = None,
        schema_for: SchemaFor | None = None,
        sampling: tuple[float, int] | None = None,
    ) -> Made:
        """The next request of the session, from its recorded ``messages`` (``seqs``: the log
        record of each) and the suffix ``notices`` flushed for this call. ``schema_for``, when
        ``json_schema`` is None, gives the output's schema from the request's items and tools
        (a guided edit chooses among the lines they show). ``sampling``: (temperature, seed)
        of this request instead of the settings' temperature (a rewrite asked for again)."""
        s = self.settings
        history = list(messages)
        query = query or last_user_words(history)
        view = await self._view(history, tools, query)
        items: list[ContextItem] = []
        if s.sources:
            request = ContextRequest(self.session_id, s.scope, history, now or 0.0, iteration)
            items += [item for source in s.sources for item in source(request)]
        suffix: list[Message] = []
        for notice in notices:
            if notice.placement != "suffix":
                continue
            if notice.item is not None:
                items.append(notice.item)
            else:
                suffix.append(UserMessage(notice.text, origin="harness"))
        if json_schema is None and schema_for is not None:
            json_schema = schema_for(items, tools)
        inp = view_input(
            s,
            view,
            session_id=self.session_id,
            request_id=request_id,
            tools=tools,
            through_seq=len(history),
            items=items,
            suffix=suffix,
            notes=notes,
            policy=self.policy.name if self.policy is not None else "",
            json_schema=json_schema,
            sampling=sampling,
            withheld=withheld,
            withheld_reason=withheld_reason,
            now=now,
            previous=self.previous,
        )
        assembled = self.build(inp)
        ref, blobs = request_ref(assembled, view, messages, seqs)
        return Made(assembled, ref, blobs, view, inp.items)

    def build(self, inp: AssembleInput) -> AssembledRequest:
        """The one assemble; remembers the result as the session's previous request."""
        assembled = self.assembler.build(inp)
        self.previous = assembled.previous
        return assembled

    async def _view(
        self, history: list[Message], tools: Sequence[ToolSpec], query: str
    ) -> HistoryView:
        if self.policy is None:
            return HistoryView(tuple(history), tuple(range(len(history))))
        return await self.policy.view(history, policy_context(self.settings, tools, query))


def history_room(settings: RequestSettings, tools: Sequence[ToolSpec]) -> int:
    """Tokens a history policy may give its view: the window less the output reserve, the
    margin, the system prompt and the tools."""
    b = settings.budget
    head = settings.counter.count_request(settings.system_prompt, tuple(tools), ())
    return b.window - b.output_reserve - b.margin - head.total


def policy_context(
    settings: RequestSettings, tools: Sequence[ToolSpec], query: str
) -> PolicyContext:
    """What a history policy is told for one call: its room, the summarizer, the query."""
    return PolicyContext(
        history_room(settings, tools), settings.summarizer, query, settings.counter
    )


def view_input(
    settings: RequestSettings,
    view: HistoryView,
    *,
    session_id: str,
    request_id: str,
    tools: Sequence[ToolSpec],
    through_seq: int,
    items: Sequence[ContextItem] = (),
    suffix: Sequence[Message] = (),
    notes: Mapping[str, str] | None = None,
    policy: str = "",
    json_schema: Mapping[str, Any] | None = None,
    sampling: tuple[float, int] | None = None,
    withheld: Sequence[ToolSpec] = (),
    withheld_reason: str = "",
    now: float | None = None,
    previous: PreviousRequest | None = None,
) -> AssembleInput:
    """The frozen input of one build from a policy's ``view``: the agent's layout.

    A pinned block at ``"system"`` is appended to the system prompt; at ``"task"`` it is a
    harness message just before the current user message; otherwise it becomes a required
    context item, rendered after the trajectory (after the current user message).
    ``items`` (memory, evidence, notices) come after the trajectory, ``suffix`` messages last;
    the view's notices go to the manifest's notes. Pure: the agent's :class:`RequestMaker`
    and ``workset eval`` both make their inputs here.
    """
    system = settings.system_prompt
    placed = list(items)
    history, seqs = view.messages, view.seqs
    if view.pinned and view.pinned_at == "system":
        system = f"{system}\n\n{pinned_block(view.pinned)}"
    elif view.pinned and view.pinned_at == "task":
        history, seqs = before_task(history, seqs, pinned_block(view.pinned))
    elif view.pinned:
        placed.append(pinned_item(view.pinned))
    all_notes = dict(notes or {})
    if view.notices:
        all_notes["history"] = " ".join(view.notices)
    offered = tuple(tools)
    if json_schema is None and settings.constrained and offered:
        json_schema = decision_schema(offered)
    return AssembleInput(
        session_id=session_id,
        request_id=request_id,
        system=system,
        tools=offered,
        history=history,
        budget=settings.budget,
        seqs=seqs,
        suffix=tuple(suffix),
        through_seq=through_seq,
        max_tokens=settings.max_tokens,
        temperature=settings.temperature if sampling is None else sampling[0],
        seed=None if sampling is None else sampling[1],
        json_schema=json_schema,
        timeout_s=settings.timeout_s,
        withheld_tools=tuple(withheld),
        withheld_reason=withheld_reason,
        items=tuple(placed),
        scope=settings.scope,
        now=now,
        policy=policy,
        policy_omitted=view.omitted,
        kept_because=view.kept_because,
        notes=all_notes,
        previous=previous,
    )


def request_ref(
    assembled: AssembledRequest,
    view: HistoryView,
    messages: Sequence[Message],
    seqs: Sequence[int],
) -> tuple[RequestRef, dict[str, str]]:
    """The request by reference: recorded messages by their log seq, the rest as blobs."""
    recorded: dict[int, int] = {}
    for message, index in zip(view.messages, view.seqs, strict=True):
        if index is not None and index < len(messages) and messages[index] == message:
            recorded[id(message)] = seqs[index]
    blobs: dict[str, str] = {}

    def blob(text: str) -> str:
        digest = blob_hash(text)
        blobs[digest] = text
        return digest

    request = assembled.request
    parts: list[MessageRef] = []
    for message in request.messages[1:]:
        seq = recorded.get(id(message))
        if seq is not None:
            parts.append(MessageRef(seq=seq))
            continue
        digest, text = message_blob(message)
        blobs[digest] = text
        parts.append(MessageRef(blob=digest))
    system = request.messages[0].content if request.messages else ""
    tools_hash, tools_text = tools_blob(request.tools)
    blobs[tools_hash] = tools_text
    schema = ""
    if request.json_schema is not None:
        import json

        schema = blob(json.dumps(request.json_schema, sort_keys=True, ensure_ascii=True))
    ref = RequestRef(
        system=blob(system or ""),
        tools=tools_hash,
        messages=tuple(parts),
        max_tokens=request.max_tokens,
        temperature=request.temperature,
        seed=request.seed,
        json_schema=schema,
    )
    return ref, blobs


def last_user_words(history: Sequence[Message]) -> str:
    """The last message in the user's own words (notices and batches of others skipped)."""
    for message in reversed(history):
        if isinstance(message, UserMessage) and message.origin == "user":
            return message.content
    for message in reversed(history):
        if isinstance(message, UserMessage) and message.origin != "harness":
            return message.content
    return ""


def before_task(
    messages: Sequence[Message], seqs: Sequence[int | None], text: str
) -> tuple[tuple[Message, ...], tuple[int | None, ...]]:
    """``text`` as a harness message just before the current user message (seq None)."""
    at = last_task_index(messages)
    note = UserMessage(text, origin="harness")
    return (*messages[:at], note, *messages[at:]), (*seqs[:at], None, *seqs[at:])


def pinned_item(pinned: Sequence[str]) -> ContextItem:
    """A history policy's pinned block, placed at the end (``pinned_at="end"``)."""
    return ContextItem(
        "pinned-notes",
        "task_state",
        pinned_block(pinned),
        "history_policy",
        required=True,
        why="pinned by the history policy so it survives any cut",
    )


OnRequest = Callable[[Made], None]
