"""The families of backups, storage and filesystems, gathered for registration: reads of
pools, volumes, arrays and object storage (:mod:`~workset.safety.rules.storage_reads`),
backup tools kept inside the workspace (:mod:`~workset.safety.rules.backup_confined`),
storage destroyed (:mod:`~workset.safety.rules.storage_harms`) and backups turned against the
machine (:mod:`~workset.safety.rules.backup_harms`).
"""

from __future__ import annotations

from workset.safety.rules import backup_confined, backup_harms, storage_harms, storage_reads
from workset.safety.rules.base import Handler, Voucher

VOUCHERS: dict[str, Voucher] = {**storage_reads.VOUCHERS, **backup_confined.VOUCHERS}
TABLES: tuple[dict[str, Handler], ...] = (
    storage_harms.HANDLERS,
    backup_harms.HANDLERS,
    backup_harms.RESTORES,
)
