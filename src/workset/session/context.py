"""From a session's trajectory and notices to the next request: the one place requests are made.

:class:`RequestMaker` is what the agent's session engine, the side session of a parallel
question, subagents and ``workset eval`` all use, so what an evaluation measures is what the
agent sends. Per call it takes the recorded trajectory, asks the history policy for its view,
asks the item sources (memory, evidence) for candidates, places the flushed notices (status
block, pinned notes, "answer now"), and builds one frozen
:class:`~workset.context.assemble.AssembleInput`; :meth:`RequestMaker.build` turns it into
the request and its manifest, and the :class:`~workset.events.records.RequestRef` that lets
the log rebuild that request byte for byte.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from workset.context.assemble import (
    AssembledRequest,
    AssembleInput,
    Assembler,
    BudgetConfig,
    PreviousRequest,
)
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


@dataclass(frozen=True, slots=True)
class Made:
    """A built request with what the log needs to store it by reference."""

    assembled: AssembledRequest
    ref: RequestRef
    blobs: dict[str, str]
    view: HistoryView


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
    ) -> Made:
        """The next request of the session, from its recorded ``messages`` (``seqs``: the log
        record of each) and the suffix ``notices`` flushed for this call."""
        inp, view = await self.input(
            request_id=request_id,
            messages=messages,
            tools=tools,
            notices=notices,
            withheld=withheld,
            withheld_reason=withheld_reason,
            iteration=iteration,
            now=now,
            query=query,
            notes=notes,
        )
        assembled = self.build(inp)
        ref, blobs = request_ref(assembled, view, messages, seqs)
        return Made(assembled, ref, blobs, view)

    async def input(
        self,
        *,
        request_id: str,
        messages: Sequence[Message],
        tools: Sequence[ToolSpec],
        notices: Sequence[Notice] = (),
        withheld: Sequence[ToolSpec] = (),
        withheld_reason: str = "",
        iteration: int = 1,
        now: float | None = None,
        query: str = "",
        notes: dict[str, str] | None = None,
    ) -> tuple[AssembleInput, HistoryView]:
        """The frozen input of the next build, and the policy's view it was made from."""
        s = self.settings
        history = list(messages)
        query = query or last_user_words(history)
        view = await self._view(history, tools, query)
        system = s.system_prompt
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
        all_notes = dict(notes or {})
        if view.notices:
            all_notes["history"] = " ".join(view.notices)
        if view.pinned and view.pinned_at == "system":
            system = f"{system}\n\n{pinned_block(view.pinned)}"
        elif view.pinned:
            items.append(pinned_item(view.pinned))
        offered = tuple(tools)
        inp = AssembleInput(
            session_id=self.session_id,
            request_id=request_id,
            system=system,
            tools=offered,
            history=view.messages,
            budget=s.budget,
            seqs=view.seqs,
            suffix=tuple(suffix),
            through_seq=len(history),
            max_tokens=s.max_tokens,
            temperature=s.temperature,
            json_schema=decision_schema(offered) if s.constrained and offered else None,
            withheld_tools=tuple(withheld),
            withheld_reason=withheld_reason,
            items=tuple(items),
            scope=s.scope,
            now=now,
            policy=self.policy.name if self.policy is not None else "",
            policy_omitted=view.omitted,
            kept_because=view.kept_because,
            notes=all_notes,
            previous=self.previous,
        )
        return inp, view

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
        s = self.settings
        head = s.counter.count_request(s.system_prompt, tuple(tools), ())
        room = s.budget.window - s.budget.output_reserve - s.budget.margin - head.total
        context = PolicyContext(room, s.summarizer, query, s.counter)
        return await self.policy.view(history, context)


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
