"""The families of an AI application developer's day, gathered for registration: coding
agents' command lines run by another agent (:mod:`~workset.safety.rules.agent_clis`), a local
model server, GPU sampling and training launchers (:mod:`~workset.safety.rules.ai_tools`),
and the clear harms of such a machine: agents' configuration deleted, secrets linked into the
workspace, the GPU reset or its driver removed (:mod:`~workset.safety.rules.ai_harms`).
"""

from __future__ import annotations

from workset.safety.rules import agent_clis, ai_harms, ai_tools
from workset.safety.rules.base import Handler, Voucher

VOUCHERS: dict[str, Voucher] = {**agent_clis.VOUCHERS, **ai_tools.VOUCHERS}
TABLES: tuple[dict[str, Handler], ...] = (
    agent_clis.HANDLERS,
    ai_tools.HANDLERS,
    ai_harms.HANDLERS,
)
