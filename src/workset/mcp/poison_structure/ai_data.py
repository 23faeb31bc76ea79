"""Round 28's readers of orders in AI and data tools (retrieval, gateways, memory stores),
gathered for :func:`workset.mcp.poisoning.audit_tool`: a memory store told to keep the whole
conversation, the user's secrets or content the definition dictates (:mod:`.memory_hoard`), a
default prompt for the tool's own model written against the caller (:mod:`.prompt_defaults`),
an order in a display title
(:mod:`.titles`) and a value parameter whose default is an order (:mod:`.default_orders`)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from workset.mcp.poison_structure.default_orders import REASON as DEFAULT_REASON
from workset.mcp.poison_structure.default_orders import default_orders
from workset.mcp.poison_structure.memory_hoard import REASON as HOARD_REASON
from workset.mcp.poison_structure.memory_hoard import hoarded_memories, planted_in_store
from workset.mcp.poison_structure.prompt_defaults import REASON as PROMPT_REASON
from workset.mcp.poison_structure.prompt_defaults import default_prompt_orders
from workset.mcp.poison_structure.titles import REASON as TITLE_REASON
from workset.mcp.poison_structure.titles import title_orders

AI_DATA_REASONS = {
    "hoards-memory": HOARD_REASON,
    "default-prompt-order": PROMPT_REASON,
    "order-in-title": TITLE_REASON,
    "order-as-default": DEFAULT_REASON,
}


def ai_data_findings(
    name: str, description: str, schema: Mapping[str, Any], texts: Sequence[tuple[str, str, str]]
) -> Iterator[tuple[str, str, str]]:
    """(field, rule, excerpt) for every finding of these readers; ``texts`` are (field, kind,
    readable text) as :func:`workset.mcp.poison_structure.structural_findings` takes them."""
    for where, excerpt in hoarded_memories(name, description, texts):
        yield where, "hoards-memory", excerpt
    for where, excerpt in planted_in_store(name, description, texts):
        yield where, "plants-memory", excerpt
    for where, excerpt in default_prompt_orders(schema, texts):
        yield where, "default-prompt-order", excerpt
    for where, excerpt in title_orders(texts):
        yield where, "order-in-title", excerpt
    for where, excerpt in default_orders(schema, texts):
        yield where, "order-as-default", excerpt
