"""The families of a documentation day, gathered for registration: docs tools that only read
or write into the workspace (:mod:`~workset.safety.rules.docs_reads`), where site generators
and docs tools write (:mod:`~workset.safety.rules.site_builds`), and the harms their own
options spell out (:mod:`~workset.safety.rules.docs_harms`).
"""

from __future__ import annotations

from workset.safety.rules import docs_harms, docs_reads, site_builds
from workset.safety.rules.base import Handler, Voucher

VOUCHERS: dict[str, Voucher] = {**docs_reads.VOUCHERS}
TABLES: tuple[dict[str, Handler], ...] = (site_builds.HANDLERS, docs_harms.HANDLERS)
