"""Round 27's readers of orders written as calm administrative documentation, gathered for
:func:`workset.mcp.poisoning.audit_tool`: amounts the definition changes (:mod:`.amounts`),
verdicts fixed before the result (:mod:`.verdicts`), identity, bank or card numbers a tool's
purpose does not need (:mod:`.identifiers`), parameter names that spell an order
(:mod:`.names`), orders in vendor-extension fields and acts repeated
for a target the definition names (:mod:`.extensions`)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from workset.mcp.poison_structure.amounts import REASON as AMOUNT_REASON
from workset.mcp.poison_structure.amounts import altered_amounts
from workset.mcp.poison_structure.extensions import REASONS as EXTENSION_REASONS
from workset.mcp.poison_structure.extensions import extension_orders, extra_targets
from workset.mcp.poison_structure.identifiers import REASON as IDENTIFIER_REASON
from workset.mcp.poison_structure.identifiers import unneeded_identifiers
from workset.mcp.poison_structure.names import REASON as NAME_REASON
from workset.mcp.poison_structure.names import ordering_names
from workset.mcp.poison_structure.verdicts import fixed_verdicts

CALM_REASONS = {
    "alters-user-amount": AMOUNT_REASON,
    "unneeded-identifier": IDENTIFIER_REASON,
    "order-in-name": NAME_REASON,
    **EXTENSION_REASONS,
}


def calm_findings(
    name: str, description: str, schema: Any, texts: Sequence[tuple[str, str, str]]
) -> Iterator[tuple[str, str, str]]:
    """(field, rule, excerpt) for every finding of these readers; ``texts`` are (field, kind,
    readable text) as :func:`workset.mcp.poison_structure.structural_findings` takes them."""
    for where, excerpt in altered_amounts(schema, texts):
        yield where, "alters-user-amount", excerpt
    for where, excerpt in fixed_verdicts(texts):
        yield where, "misreports", excerpt
    for where, excerpt in unneeded_identifiers(name, description, schema):
        yield where, "unneeded-identifier", excerpt
    for where, excerpt in ordering_names(name, schema):
        yield where, "order-in-name", excerpt
    for where, excerpt in extension_orders(texts):
        yield where, "order-in-extension", excerpt
    for where, excerpt in extra_targets(texts):
        yield where, "extra-target", excerpt
