"""Anchored iterative summary and full compaction: old turns folded into one summary.

:class:`AnchoredSummary` keeps the last ``keep_turns`` turns as they are and folds everything
older into one summary with fixed sections. It updates in batches: when ``batch_turns`` older
turns have piled up unsummarised, or when the view passes ``trigger`` × the window, it sends
the previous summary plus the new span and gets the whole new summary back. Between updates
the view reuses the same summary bytes, so the prompt prefix stays cacheable.

:func:`full_compaction` is the last resort: the same layer with only the current turn kept,
run only when the view passes the trigger. Text already marked ``[COMPRESSED]`` (an archive
entry, a compressed result, an earlier summary) is never put in a span: it stays in the view
as it is. Both stop calling the model after three
consecutive failures (a model error, an empty summary or one missing sections) and say so.
"""

from __future__ import annotations

from dataclasses import replace

from workset.history.base import PolicyContext
from workset.history.draft import (
    COMPRESSED,
    Block,
    Draft,
    omitted_items,
    view_tokens,
)
from workset.history.summary import (
    CircuitBreaker,
    anchored_prompt,
    ask,
    check_anchored,
    summary_id,
)
from workset.messages import UserMessage
from workset.models.base import Usage

DEFAULT_TRIGGER = 0.8


class AnchoredSummary:
    """Fold turns older than the last ``keep_turns`` into one anchored, sectioned summary."""

    def __init__(
        self,
        *,
        keep_turns: int = 4,
        batch_turns: int | None = 4,
        trigger: float | None = DEFAULT_TRIGGER,
        cite: bool = False,
        max_tokens: int = 600,
        failures_allowed: int = 3,
        what: str = "anchored summary",
    ) -> None:
        self.keep_turns = keep_turns
        self.batch_turns = batch_turns
        self.trigger = trigger
        self.cite = cite
        self.max_tokens = max_tokens
        self.what = what
        self.breaker = CircuitBreaker(what, failures_allowed)
        self.summary: str | None = None
        self.covered_seq = -1  # every recorded message up to this seq is in the summary
        self.covered_turns = (0, 0)

    def _pending(self, draft: Draft) -> list[int]:
        return [
            i
            for i in draft.older(self.keep_turns)
            if self._eligible(draft.blocks[i]) and not self._is_covered(draft.blocks[i])
        ]

    @staticmethod
    def _eligible(block: Block) -> bool:
        """Recorded and not already compressed: compressed text is never compressed again."""
        return block.recorded and not block.compressed

    def _is_covered(self, block: Block) -> bool:
        last = block.last_seq
        return self._eligible(block) and last is not None and last <= self.covered_seq

    def _due(self, draft: Draft, pending: list[int], context: PolicyContext) -> bool:
        if not pending:
            return False
        turns = {draft.blocks[i].turn for i in pending}
        if self.batch_turns is not None and len(turns) >= self.batch_turns:
            return True
        if self.trigger is None:
            return False
        sent = self._fold(draft, context).blocks  # what goes out with the current summary
        return view_tokens(sent, context) > self.trigger * context.window

    async def apply(self, draft: Draft, context: PolicyContext) -> Draft:
        pending = self._pending(draft)
        notices = list(draft.notices)
        cost = Usage(0, 0)
        if not self.breaker.open and self._due(draft, pending, context):
            span = [draft.blocks[i] for i in pending]
            prompt = anchored_prompt(
                self.summary,
                span,
                query=context.query,
                accumulated="\n".join(draft.pinned),
                cite=self.cite,
            )
            answer = await ask(
                context, prompt, max_tokens=self.max_tokens, purpose=f"{self.what} layer"
            )
            cost = answer.usage
            error = answer.error or check_anchored(answer.text or "", cite=self.cite)
            self.breaker.record(error)
            if error is None and answer.text is not None:
                self._accept(answer.text, span)
            elif not self.breaker.open:
                notices.append(f"{self.what} failed ({error}); it is retried at the next call")
        if self.breaker.open:
            notices.append(self.breaker.notice())
        folded = self._fold(replace(draft, notices=tuple(notices)), context)
        return folded.with_cost(cost)

    def _accept(self, text: str, span: list[Block]) -> None:
        first_turn = self.covered_turns[0] if self.summary is not None else span[0].turn
        self.summary = text
        seqs = [b.last_seq for b in span if b.last_seq is not None]
        self.covered_seq = max([self.covered_seq, *seqs])
        self.covered_turns = (first_turn, max(b.turn for b in span))

    def _fold(self, draft: Draft, context: PolicyContext) -> Draft:
        if self.summary is None:
            return draft
        sid = summary_id(self.summary)
        first, last = self.covered_turns
        header = (
            f"{COMPRESSED} Summary of turns {first}-{last} of this session (messages up to "
            f"seq {self.covered_seq}; {self.what}):"
        )
        summary_block = Block((UserMessage(f"{header}\n{self.summary}"),), (None,), first)
        blocks: list[Block] = []
        omitted = list(draft.omitted)
        inserted = False
        for index, block in enumerate(draft.blocks):
            if index < draft.tail_start and self._is_covered(block):
                omitted.extend(omitted_items(block, "policy", f"summarised in {sid}", context))
                if not inserted:
                    blocks.append(summary_block)
                    inserted = True
                continue
            blocks.append(block)
        if not inserted:  # everything summarised was dropped by an earlier layer
            blocks.insert(0, summary_block)
        return replace(draft, blocks=tuple(blocks), omitted=tuple(omitted), summary_id=sid)


def full_compaction(
    *, trigger: float = DEFAULT_TRIGGER, failures_allowed: int = 3, max_tokens: int = 800
) -> AnchoredSummary:
    """The last resort: everything before the current turn, only past the trigger."""
    return AnchoredSummary(
        keep_turns=1,
        batch_turns=None,
        trigger=trigger,
        max_tokens=max_tokens,
        failures_allowed=failures_allowed,
        what="full compaction",
    )
