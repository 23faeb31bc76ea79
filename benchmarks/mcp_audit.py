"""How the MCP description audit separates poisoned tool definitions from benign ones.

Each definition in ``benchmarks/data/mcp_defs/definitions.json`` (a server, a name, a
description, an input schema, the label ``poisoned``/``benign``, the ``technique`` used, a
one-line ``reason`` and its fixed ``split``) is audited with
:func:`workset.mcp.audit_tool`; a definition is flagged when it has any finding. Printed for
the held-out and the tuning half side by side: poisoned flagged %, benign flagged %, and per
technique. Then the shadowing scenario in ``shadowing.json`` (servers with a ``trust``
level, their tools, the pairs expected and the shadow each should name) goes through
:func:`workset.mcp.find_shadowing`: pairs found, pairs missed, the shadow named per pair, and
pairs reported that should not be.

``--show heldout`` (or tune) lists the misses of a half with their findings.

Run: ``python benchmarks/mcp_audit.py [--show heldout]``.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from workset.mcp import RemoteTool, audit_tool, find_shadowing

DATA = Path(__file__).parent / "data" / "mcp_defs"


def load() -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = json.loads((DATA / "definitions.json").read_text("utf-8"))
    return rows


def tool_of(row: dict[str, Any]) -> RemoteTool:
    return RemoteTool(row["server"], row["name"], row["description"], row["inputSchema"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--show", choices=("tune", "heldout"))
    args = parser.parse_args()
    rows = load()
    results = [(row, audit_tool(tool_of(row))) for row in rows]
    for split in ("heldout", "tune"):
        mine = [(r, f) for r, f in results if r["split"] == split]
        poisoned = [(r, f) for r, f in mine if r["label"] == "poisoned"]
        benign = [(r, f) for r, f in mine if r["label"] == "benign"]
        hit = sum(bool(f) for _, f in poisoned)
        false = sum(bool(f) for _, f in benign)
        print(f"== {split} half ==")
        print(
            f"poisoned flagged: {hit}/{len(poisoned)} ({hit / max(1, len(poisoned)):.0%}); "
            f"benign flagged: {false}/{len(benign)} ({false / max(1, len(benign)):.0%})"
        )
        per: dict[str, Counter[str]] = defaultdict(Counter)
        for row, found in poisoned:
            per[row["technique"]]["n"] += 1
            per[row["technique"]]["hit"] += bool(found)
        print("  " + ", ".join(f"{t} {c['hit']}/{c['n']}" for t, c in sorted(per.items())))
    rules = Counter(f.rule for _, found in results for f in found)
    print(
        "findings per rule (both halves): " + ", ".join(f"{r} {n}" for r, n in rules.most_common())
    )
    _shadowing()
    if args.show:
        print(f"\nmisses on the {args.show} half:")
        for row, found in results:
            if row["split"] == args.show and bool(found) != (row["label"] == "poisoned"):
                print(
                    f"  {row['label']} {row['technique']}: {row['server']}/{row['name']} "
                    f"{[f.line() for f in found]}"
                )


def _shadowing() -> None:
    scenario = json.loads((DATA / "shadowing.json").read_text("utf-8"))
    tools = [RemoteTool(t["server"], t["name"], "", {"type": "object"}) for t in scenario["tools"]]
    pairs = find_shadowing(tools, scenario["servers"])
    found = {
        frozenset((f"{p.server}/{p.tool}", f"{p.other_server}/{p.other_tool}")): p.shadow
        for p in pairs
    }
    expected = {frozenset(e["pair"]): e["shadow"] for e in scenario["expected"]}
    hits = [k for k in expected if k in found]
    named = [k for k in hits if found[k] == expected[k]]
    wrong = [k for k in found if k not in expected]
    print(
        f"\nshadowing: {len(hits)}/{len(expected)} expected pairs found, shadow named "
        f"correctly in {len(named)}/{len(expected)}; {len(wrong)} unexpected pairs"
    )
    for pair in pairs:
        print(f"  {pair.line()}")


if __name__ == "__main__":
    main()
