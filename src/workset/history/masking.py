"""Observation masking: old tool results become typed stubs that say how to get them back.

A result older than the last ``keep_turns`` turns is replaced, in place and inside its unit,
by the stub of the seed's ``elide`` policy: which tool, which turn, how big, and that calling
the tool again with the same arguments re-reads it. The call message stays, so the unit stays
whole and the arguments stay visible. Results already compressed or masked are left alone.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from workset.context.manifest import OmittedItem
from workset.history.base import PolicyContext
from workset.history.draft import COMPRESSED, Block, Draft, omitted_items, replace_results
from workset.messages import AssistantMessage, ToolMessage

MAX_ARGUMENT_CHARS = 300


def elide_stub(result: ToolMessage, *, turn: int, arguments: str, tool: str | None = None) -> str:
    """The stub that stands for ``result``: tool, turn, size and how to re-run it.

    ``tool`` is the name the call asked for, used when the result itself carries none.
    """
    name = result.name or tool or "the tool"
    if len(arguments) <= MAX_ARGUMENT_CHARS:
        again = f"call {name} again with the same arguments ({arguments}) to re-read it"
    else:
        again = f"call {name} again with the same arguments (in the call above) to re-read it"
    return f"[{name} result from turn {turn}, {len(result.content):,} chars, elided; {again}]"


def is_stub(content: str) -> bool:
    return content.startswith(COMPRESSED) or (content.startswith("[") and ", elided; " in content)


@dataclass(frozen=True, slots=True)
class ObservationMasking:
    """Replace tool results older than the last ``keep_turns`` turns by stubs."""

    keep_turns: int = 4

    async def apply(self, draft: Draft, context: PolicyContext) -> Draft:
        blocks = list(draft.blocks)
        omitted = list(draft.omitted)
        for index in draft.older(self.keep_turns):
            block = blocks[index]
            if not block.is_unit:
                continue
            masked, items = _mask(block, context)
            blocks[index] = masked
            omitted.extend(items)
        return replace(draft, blocks=tuple(blocks), omitted=tuple(omitted))


def _mask(block: Block, context: PolicyContext) -> tuple[Block, list[OmittedItem]]:
    call = block.messages[0]
    assert isinstance(call, AssistantMessage)
    arguments = {c.id: c.arguments for c in call.tool_calls}
    names = {c.id: c.name for c in call.tool_calls}
    stubs: dict[str, str] = {}
    items: list[OmittedItem] = []
    for message, seq in zip(block.messages, block.seqs, strict=True):
        if not isinstance(message, ToolMessage) or is_stub(message.content):
            continue
        stubs[message.tool_call_id] = elide_stub(
            message,
            turn=block.turn,
            arguments=arguments.get(message.tool_call_id, "{}"),
            tool=names.get(message.tool_call_id),
        )
        single = Block((message,), (seq,), block.turn)
        items.extend(omitted_items(single, "masked", "replaced by a stub", context))
    return replace_results(block, stubs), items
