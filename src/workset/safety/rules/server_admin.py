"""The families of administering a Linux server from the project that holds its
configuration, gathered for registration: a server's reads and configuration tests
(:mod:`~workset.safety.rules.admin_reads`; what ``sudo`` may run without asking is
:mod:`~workset.safety.rules.root_reads`), the server opened to everyone or its SSH cut off
(:mod:`~workset.safety.rules.exposure`) and its data lost or published
(:mod:`~workset.safety.rules.server_data`).
"""

from __future__ import annotations

from workset.safety.rules import admin_reads, exposure, server_data
from workset.safety.rules.base import Handler, Voucher

VOUCHERS: dict[str, Voucher] = {**admin_reads.VOUCHERS}
TABLES: tuple[dict[str, Handler], ...] = (exposure.HANDLERS, server_data.HANDLERS)
