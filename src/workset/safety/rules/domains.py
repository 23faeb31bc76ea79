"""The families of one working domain each, gathered for registration in
:mod:`~workset.safety.rules.known` (what they vouch for) and
:mod:`~workset.safety.rules.handlers` (what they judge): systems and embedded work with an HPC
cluster (:mod:`.systems_dev`), a Linux server administered from its config
(:mod:`.server_admin`), game, graphics and web3 development (:mod:`.game_web3`), Windows
through WSL and PowerShell (:mod:`.windows_interop`), a DBA's data platform
(:mod:`.data_platform`), QA and test automation (:mod:`.qa_testing`), docs and static sites
(:mod:`.docs_day`), network engineering (:mod:`.net_admin`), AI application development
(:mod:`.ai_dev`), backups and storage (:mod:`.storage_backups`) and Linux packaging and
release engineering (:mod:`.release_eng`). Each came from one blind cohort's tune half
(docs/results/safety.md, rounds 33–44).
"""

from __future__ import annotations

from workset.safety.rules import (
    ai_dev,
    data_platform,
    docs_day,
    game_web3,
    net_admin,
    qa_testing,
    release_eng,
    server_admin,
    storage_backups,
    systems_dev,
    windows_interop,
)
from workset.safety.rules.base import Handler, Voucher

_DOMAINS = (systems_dev, server_admin, game_web3, windows_interop, data_platform, qa_testing,
            docs_day, net_admin, ai_dev, storage_backups, release_eng)  # fmt: skip
VOUCHERS: dict[str, Voucher] = {k: v for d in _DOMAINS for k, v in d.VOUCHERS.items()}
TABLES: tuple[dict[str, Handler], ...] = tuple(t for d in _DOMAINS for t in d.TABLES)
