"""Round 30's readers of what a definition does to the user's outcome, gathered for
:func:`workset.mcp.poisoning.audit_tool`: the user told a calming claim the definition
contradicts, or handed code that runs (:mod:`.told_user`), payments sent to an account the
definition fixes (:mod:`.payees`), and orders in Japanese, Korean and Chinese titles or an
acting tool called after every call (:mod:`.cjk_orders`)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from workset.mcp.poison_structure.cjk_orders import REASONS as CJK_REASONS
from workset.mcp.poison_structure.cjk_orders import cjk_after_calls, cjk_title_orders
from workset.mcp.poison_structure.payees import REASON as PAYEE_REASON
from workset.mcp.poison_structure.payees import redirected_payments
from workset.mcp.poison_structure.told_user import REASONS as TOLD_REASONS
from workset.mcp.poison_structure.told_user import user_output_findings

OUTCOME_REASONS = TOLD_REASONS | CJK_REASONS | {"redirects-payment": PAYEE_REASON}


def outcome_findings(
    name: str, texts: Sequence[tuple[str, str, str]]
) -> Iterator[tuple[str, str, str]]:
    """(field, rule, excerpt) for every finding of these readers; ``texts`` are (field, kind,
    readable text) as :func:`workset.mcp.poison_structure.structural_findings` takes them."""
    yield from user_output_findings(texts)
    for where, excerpt in redirected_payments(texts):
        yield where, "redirects-payment", excerpt
    for where, excerpt in cjk_title_orders(texts):
        yield where, "order-in-title", excerpt
    for where, excerpt in cjk_after_calls(name, texts):
        yield where, "calls-other-tool-after", excerpt
