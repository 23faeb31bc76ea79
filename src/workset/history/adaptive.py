"""Adaptive, context-aware compression of tool results, in batch, past a threshold.

Nothing is compressed while the view fits ``fraction`` × the window (default 80 %): early on
the agent keeps every original. Once the view passes it, every tool result before the current
turn not yet compressed is compressed in one batch, each with a prompt that carries the
current query and the context accumulated so far (pinned blocks, earlier compressions), so
the same output compresses differently for different tasks. Compressed results start with
``[COMPRESSED]`` and are never compressed again; their bytes are kept for the rest of the
session. The citation variant ends each compressed result with its source (seq, turn, call).
"""

from __future__ import annotations

from dataclasses import replace

from workset.context.manifest import OmittedItem
from workset.history.base import PolicyContext
from workset.history.draft import (
    COMPRESSED,
    Block,
    Draft,
    add_usage,
    omitted_items,
    replace_results,
    view_tokens,
)
from workset.history.summary import CircuitBreaker, ask
from workset.messages import AssistantMessage, Message, SystemMessage, ToolMessage, UserMessage
from workset.models.base import Usage

COMPRESS_INSTRUCTIONS = (
    "You compress one tool result for an agent that is working on the current query. Keep "
    "only what helps with that query: facts, identifiers, numbers, dates, paths and errors, "
    "copied exactly. Drop boilerplate and repetition. Do not add anything that is not in the "
    "result. Output a few short lines of plain text."
)
MAX_RESULT_CHARS = 8_000
MAX_ACCUMULATED_CHARS = 2_000


class AdaptiveCompression:
    """Compress old tool results in one batch once the view passes ``fraction`` × window."""

    def __init__(
        self,
        *,
        fraction: float = 0.8,
        cite: bool = False,
        max_tokens: int = 200,
        failures_allowed: int = 3,
    ) -> None:
        self.fraction = fraction
        self.cite = cite
        self.max_tokens = max_tokens
        self.breaker = CircuitBreaker("adaptive compression", failures_allowed)
        self.compressed: dict[str, str] = {}  # call id -> compressed content, frozen

    async def apply(self, draft: Draft, context: PolicyContext) -> Draft:
        cost = Usage(0, 0)
        notices = list(draft.notices)
        sent = self._fold(draft, context).blocks  # what goes out with past compressions
        over = view_tokens(sent, context) > self.fraction * context.window
        if over and not self.breaker.open:
            for index in range(draft.tail_start):
                block = draft.blocks[index]
                for result, seq in _results(block):
                    if result.tool_call_id in self.compressed:
                        continue
                    if result.content.startswith(COMPRESSED) or self.breaker.open:
                        continue
                    answer = await ask(
                        context,
                        self._prompt(result, block, draft, context),
                        max_tokens=self.max_tokens,
                        purpose="adaptive compression",
                    )
                    cost = add_usage(cost, answer.usage)
                    error = answer.error or ("" if answer.text else "the compression is empty")
                    self.breaker.record(error or None)
                    if not error and answer.text:
                        self.compressed[result.tool_call_id] = self._label(
                            result, seq, block.turn, answer.text
                        )
            if self.breaker.open:
                notices.append(self.breaker.notice())
        return self._fold(replace(draft, notices=tuple(notices)), context).with_cost(cost)

    def _label(self, result: ToolMessage, seq: int | None, turn: int, text: str) -> str:
        name = result.name or "tool"
        head = f"{COMPRESSED} {name} result from turn {turn}, {len(result.content):,} chars:"
        source = f"\n[source: seq {seq}, turn {turn}, call {result.tool_call_id}]"
        return f"{head} {text}{source if self.cite else ''}"

    def _prompt(
        self, result: ToolMessage, block: Block, draft: Draft, context: PolicyContext
    ) -> tuple[Message, ...]:
        call = block.messages[0]
        arguments = ""
        if isinstance(call, AssistantMessage):
            arguments = next(
                (c.arguments for c in call.tool_calls if c.id == result.tool_call_id), ""
            )
        accumulated = "\n".join([*draft.pinned, *self.compressed.values()])
        accumulated = accumulated[-MAX_ACCUMULATED_CHARS:]
        content = result.content
        if len(content) > MAX_RESULT_CHARS:
            half = MAX_RESULT_CHARS // 2
            content = (
                f"{content[:half]}\n[... {len(content) - 2 * half:,} chars ...]\n"
                + (content[-half:])
            )
        parts = [
            f"Current query: {context.query or '(not given)'}",
            f"Current context:\n{accumulated or '(nothing yet)'}",
            f"Tool {result.name or 'tool'} called with {arguments or '{}'} returned:\n{content}",
            "Write the compressed result now.",
        ]
        return (SystemMessage(COMPRESS_INSTRUCTIONS), UserMessage("\n\n".join(parts)))

    def _fold(self, draft: Draft, context: PolicyContext) -> Draft:
        blocks = list(draft.blocks)
        omitted: list[OmittedItem] = list(draft.omitted)
        for index in range(draft.tail_start):
            block = blocks[index]
            done = {
                r.tool_call_id: self.compressed[r.tool_call_id]
                for r, _ in _results(block)
                if r.tool_call_id in self.compressed
            }
            if not done:
                continue
            blocks[index] = replace_results(block, done)
            for result, seq in _results(block):
                if result.tool_call_id in done:
                    single = Block((result,), (seq,), block.turn)
                    omitted.extend(omitted_items(single, "policy", "compressed", context))
        return replace(draft, blocks=tuple(blocks), omitted=tuple(omitted))


def _results(block: Block) -> list[tuple[ToolMessage, int | None]]:
    return [
        (m, s)
        for m, s in zip(block.messages, block.seqs, strict=True)
        if isinstance(m, ToolMessage)
    ]
