"""The families of a developer on Windows working through WSL, gathered for registration:
Windows administration that takes the machine's defences apart
(:mod:`~workset.safety.rules.windows_admin`: accounts, UAC, the SAM hive, ACLs opened to
everyone, code run from the network). PowerShell acts judged as a whole
(:mod:`~workset.safety.rules.powershell_acts`) are called by
:mod:`~workset.safety.rules.powershell` itself, and the Windows profile under ``/mnt/c/Users``
is read as the home by :func:`workset.safety.paths.normalize`.
"""

from __future__ import annotations

from workset.safety.rules import windows_admin
from workset.safety.rules.base import Handler, Voucher

VOUCHERS: dict[str, Voucher] = {**windows_admin.VOUCHERS}
TABLES: tuple[dict[str, Handler], ...] = (windows_admin.HANDLERS,)
