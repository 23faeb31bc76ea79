"""The families of Linux packaging and release engineering, gathered for registration:
packages built, inspected and signed in the workspace (:mod:`~workset.safety.rules.pkg_builds`),
fpm's packing and what its packages must not carry (:mod:`~workset.safety.rules.fpm_packs`),
repositories and release files read or kept in the workspace
(:mod:`~workset.safety.rules.pkg_repos`) and the system's package trust switched off or a
published release pulled (:mod:`~workset.safety.rules.pkg_harms`).
"""

from __future__ import annotations

from workset.safety.rules import fpm_packs, pkg_builds, pkg_harms, pkg_repos
from workset.safety.rules.base import Handler, Voucher

VOUCHERS: dict[str, Voucher] = {**pkg_builds.VOUCHERS, **fpm_packs.VOUCHERS, **pkg_repos.VOUCHERS}
TABLES: tuple[dict[str, Handler], ...] = (fpm_packs.HANDLERS, pkg_harms.HANDLERS)
