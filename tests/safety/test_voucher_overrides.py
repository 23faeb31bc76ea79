"""Vouchers are merged by program name: a later module's voucher replaces an earlier one's
silently (round 44's gpg voucher hid round 43's until a test failed on the merge). Every
program vouched for by two modules is listed here, checked to chain to the one it replaces;
a new overlap fails this test until it is chained and added."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

from workset.safety.rules import domains

# Each replaces the earlier voucher and falls back to it (read on 2026-12-08).
CHAINED = frozenset(
    {"borg", "brew", "duplicity", "firebase", "fnm", "gpg", "gpg2", "k6", "kafka-consumer-groups",
     "kafka-consumer-groups.sh", "netlify", "nft", "nmap", "nodenv", "nvidia-smi", "pyenv",
     "rbenv", "restic", "supabase", "tcpdump", "tshark", "vercel", "volta", "wrangler"}
)  # fmt: skip


def test_every_program_vouched_for_twice_is_a_known_chain() -> None:
    known = Path(importlib.import_module("workset.safety.rules.known").__file__ or "")
    names = re.findall(r"\*\*(\w+)\.VOUCHERS", known.read_text())
    owners: dict[str, set[str]] = {}
    for name in names:
        if name == "domains":
            modules = [(d.__name__, d.VOUCHERS) for d in domains._DOMAINS]
        else:
            module = importlib.import_module(f"workset.safety.rules.{name}")
            modules = [(module.__name__, module.VOUCHERS)]
        for module_name, vouchers in modules:
            for program in vouchers:
                owners.setdefault(program, set()).add(module_name)
    twice = {p for p, m in owners.items() if len(m) > 1}
    assert twice - CHAINED == set(), "chain the new voucher to the one it replaces, then list it"
    assert CHAINED - twice == set(), "no longer vouched for twice: take it off the list"
