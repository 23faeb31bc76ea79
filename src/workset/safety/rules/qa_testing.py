"""The families of a QA and test-automation engineer's day, gathered for registration: load
tests of the project's scripts against this machine (:mod:`~workset.safety.rules.load_tests`),
the harms of mock servers, coverage uploads, test toolchains and their settings
(:mod:`~workset.safety.rules.qa_harms`) and lines that carry test work to production
(:mod:`~workset.safety.rules.qa_chains`).
"""

from __future__ import annotations

from workset.safety.rules import load_tests, qa_chains, qa_harms
from workset.safety.rules.base import Handler, Voucher

VOUCHERS: dict[str, Voucher] = {**load_tests.VOUCHERS}
TABLES: tuple[dict[str, Handler], ...] = (
    load_tests.HANDLERS,
    qa_harms.HANDLERS,
    qa_chains.HANDLERS,
)
