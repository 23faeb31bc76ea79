"""The families of a systems and embedded developer's day, gathered for registration:
cross and versioned toolchains (:mod:`~workset.safety.rules.toolchain_names`), firmware tools
(:mod:`~workset.safety.rules.firmware`), disk images, emulators and serial consoles
(:mod:`~workset.safety.rules.emulators`), a compute cluster (:mod:`~workset.safety.rules.hpc`)
and changes made as root that reach past one file (:mod:`~workset.safety.rules.root_changes`).
"""

from __future__ import annotations

from workset.safety.rules import emulators, firmware, hpc, root_changes, toolchain_names
from workset.safety.rules.base import Handler, Voucher

VOUCHERS: dict[str, Voucher] = {
    **toolchain_names.VOUCHERS,
    **firmware.VOUCHERS,
    **emulators.VOUCHERS,
    **hpc.VOUCHERS,
}
TABLES: tuple[dict[str, Handler], ...] = (
    toolchain_names.HANDLERS,
    firmware.HANDLERS,
    emulators.HANDLERS,
    hpc.HANDLERS,
    root_changes.HANDLERS,
)
