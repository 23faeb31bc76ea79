"""How request parts become manifest entries: items, buckets, and where reuse broke.

Helpers of :mod:`workset.context.assemble`: the context items rendered as user-role messages
after the trajectory (each counted in its own bucket), the included and omitted entries of
the manifest, and the description of the first part that differs from the previous request.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from workset.context.items import ContextItem
from workset.context.manifest import IncludedItem, ItemKind, OmittedItem
from workset.messages import AssistantMessage, Message, ToolMessage, UserMessage
from workset.tokens.base import Bucket, CountedPart, Part, RequestCount
from workset.tokens.counter import PartCounter

Entry = Message | tuple[Message, ContextItem]  # a suffix message, and its item if it is one

# The token bucket an item's message is counted in.
_ITEM_BUCKETS: dict[str, Bucket] = {
    "memory": "memory",
    "task_state": "memory",
    "evidence": "evidence",
    "status": "status",
    "skill": "system",
    "instruction": "system",
    "tool": "tools",
}


def item_text(counter: PartCounter, item: ContextItem) -> str:
    """The rendered text of ``item`` as the user-role message it becomes."""
    rendered = counter.chat_format.render(None, (), [UserMessage(item.text)])
    return next(p.text for p in rendered if isinstance(p.key, UserMessage))


def split_status(selected: Sequence[ContextItem]) -> tuple[list[Entry], list[Entry]]:
    """Selected items as messages: the status bar goes after everything else."""
    before: list[Entry] = [
        (UserMessage(i.text, origin="harness"), i) for i in selected if i.kind != "status"
    ]
    after: list[Entry] = [
        (UserMessage(i.text, origin="harness"), i) for i in selected if i.kind == "status"
    ]
    return before, after


def rebucket(tail: list[CountedPart], entries: Sequence[Entry]) -> list[CountedPart]:
    """Tail parts of item messages moved to their item's bucket (memory, evidence, status)."""
    out = list(tail)
    for k, entry in enumerate(entries):
        if isinstance(entry, tuple):
            part = out[k]
            item = entry[1]
            bucket = _ITEM_BUCKETS.get(item.kind, part.part.bucket)
            key = ItemKey(item.item_id, item.kind)
            out[k] = CountedPart(Part(key, bucket, part.part.text), part.tokens)
    return out


def tail_items(
    tail: Sequence[CountedPart],
    position: int,
    entries: Sequence[Entry],
) -> list[IncludedItem]:
    out: list[IncludedItem] = []
    for k, part in enumerate(tail):
        entry = entries[k] if k < len(entries) else None
        if isinstance(entry, tuple):
            item = entry[1]
            ref = item.reference
            out.append(
                IncludedItem(
                    item.item_id,
                    item.kind,
                    item.source,
                    part.tokens,
                    position + k,
                    part.part.bucket,
                    why=item.why,
                    trust=item.trust if item.trust == "untrusted" else "",
                    version=item.version,
                    reference=" ".join(x for x in (ref.uri, ref.range) if x) if ref else "",
                )
            )
        else:
            out.append(_tail_item(part, position + k))
    return out


def bucket_sums(parts: Sequence[CountedPart]) -> dict[str, int]:
    sums: dict[str, int] = {}
    for p in parts:
        sums[p.part.bucket] = sums.get(p.part.bucket, 0) + p.tokens
    return sums


def _kind_and_source(message: object) -> tuple[ItemKind, str]:
    if isinstance(message, ToolMessage):
        return "trajectory", f"tool:{message.name or message.tool_call_id}"
    if isinstance(message, AssistantMessage) and message.tool_calls:
        return "trajectory", "assistant:calls:" + ",".join(c.name for c in message.tool_calls)
    return "trajectory", str(getattr(message, "role", message))


def trajectory_item(part: CountedPart, position: int, seq: int | None) -> IncludedItem:
    kind, source = _kind_and_source(part.part.key)
    item_id = f"seq:{seq}" if seq is not None else f"pos:{position}"
    return IncludedItem(item_id, kind, source, part.tokens, position, part.part.bucket, seq)


def head_item(part: CountedPart, position: int) -> IncludedItem:
    if part.part.key == "tools":
        return IncludedItem("tools", "tool", "tool_definitions", part.tokens, position, "tools")
    return IncludedItem("system", "instruction", "system_prompt", part.tokens, position, "system")


def _tail_item(part: CountedPart, position: int) -> IncludedItem:
    if part.part.bucket == "template":
        return IncludedItem(
            str(part.part.key), "template", "chat_template", part.tokens, position, "template"
        )
    _, source = _kind_and_source(part.part.key)
    return IncludedItem(
        f"suffix:{position}", "status", f"suffix:{source}", part.tokens, position, part.part.bucket
    )


def omitted_item(part: CountedPart, seq: int | None, index: int) -> OmittedItem:
    kind, source = _kind_and_source(part.part.key)
    return OmittedItem(
        f"seq:{seq}" if seq is not None else f"msg:{index}",
        kind,
        source,
        part.tokens,
        "budget",
        "older than the most recent trajectory that fits the budget",
        seq,
    )


@dataclass(frozen=True, slots=True)
class ItemKey:
    """The part key of a context item's message, so a divergence can name the item."""

    item_id: str
    kind: str


def _describe(part: CountedPart) -> str:
    key = part.part.key
    if isinstance(key, ItemKey):
        return f"{key.kind} item {key.item_id}"
    return key if isinstance(key, str) else f"{getattr(key, 'role', 'item')} message"


# Why reuse breaks at a part of each kind: the usual cause and where to look.
_WHY = {
    "system": "the system prompt changed (a timestamp or per-call text in it breaks the cache)",
    "tools": "the tool definitions changed (a tool added, removed, reordered or re-described)",
    "template": "the generation prompt moved",
}


def first_divergence(previous: RequestCount, current: RequestCount) -> str:
    for position, (old, new) in enumerate(zip(previous.parts, current.parts, strict=False)):
        if old.part.text != new.part.text:
            now, before = _describe(new), _describe(old)
            was = "" if now == before else f" (was {before})"
            return f"position {position}: {now} changed{was}: {_cause(old, new)}"
    return ""


def _cause(old: CountedPart, new: CountedPart) -> str:
    key = new.part.key
    if isinstance(key, str) and key in _WHY:
        return _WHY[key]
    if isinstance(old.part.key, ItemKey) and isinstance(key, ItemKey):
        if old.part.key.item_id == key.item_id:
            return f"{key.kind} item {key.item_id} changed its text"
        return "per-call context items come after the trajectory; the previous call's were replaced"
    if isinstance(old.part.key, ItemKey):
        return (
            "the trajectory grew where the previous call's context items were (replaced each round)"
        )
    if isinstance(key, ItemKey):
        return "a context item now sits where a message was: messages were dropped before it"
    return "a message was edited, removed or replaced (a history policy, masking or a deletion)"
