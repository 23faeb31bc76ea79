"""The families of a DBA's and data-platform engineer's day, gathered for registration: what
a database client's statements do to the server itself and restores that drop a remote
server's data (:mod:`~workset.safety.rules.db_server_harms`), a data platform harmed through
its admin tools, files and backups (:mod:`~workset.safety.rules.db_admin_harms`), and those
tools' reads and local work (:mod:`~workset.safety.rules.db_ops_reads`), and a framework's
migrations reset against a live database (:mod:`~workset.safety.rules.migration_resets`).
"""

from __future__ import annotations

from workset.safety.rules import db_admin_harms, db_ops_reads, db_server_harms, migration_resets
from workset.safety.rules.base import Handler, Voucher

VOUCHERS: dict[str, Voucher] = {**db_ops_reads.VOUCHERS}
TABLES: tuple[dict[str, Handler], ...] = (
    db_server_harms.HANDLERS,
    db_admin_harms.HANDLERS,
    migration_resets.HANDLERS,
)
