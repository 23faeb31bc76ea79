"""The structural detector (:mod:`workset.mcp.poison_structure`) beside the wording rules.

Per half and cohort: poisoned and benign flagged by the structural findings alone, by the
other rules alone (every rule but the structural ones), and by both together (what
:func:`workset.mcp.audit_tool` reports). ``--leave-out``/``--only``/``--totals-only`` work as
in ``mcp_audit.py``; ``--show`` lists the structural detector's misses and false flags on the
*tune* half only (never on held-out cases).

Run: ``PYTHONPATH=src python benchmarks/mcp_structure.py --leave-out 11``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from mcp_audit import groups, load, rates, tool_of

from workset.mcp import audit_tool
from workset.mcp.poison_structure import STRUCTURE_REASONS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--leave-out", nargs="+", default=[], metavar="COHORT")
    parser.add_argument("--only", nargs="+", default=[], metavar="COHORT")
    parser.add_argument("--totals-only", action="store_true")
    parser.add_argument("--show", action="store_true", help="structural misses on tune cases")
    args = parser.parse_args()
    rows = [
        r
        for r in load()
        if r["corpus"].removeprefix("new") not in args.leave_out
        and (not args.only or r["corpus"].removeprefix("new") in args.only)
    ]
    began = time.perf_counter()
    found = {id(r): audit_tool(tool_of(r)) for r in rows}
    per = (time.perf_counter() - began) / max(1, len(rows))
    structural = {id(r): [f for f in found[id(r)] if f.rule in STRUCTURE_REASONS] for r in rows}
    others = {id(r): [f for f in found[id(r)] if f.rule not in STRUCTURE_REASONS] for r in rows}
    print(f"{'':16} {'structure: poisoned benign':28} {'other rules: p.   benign':28} all rules")
    for label, mine in groups(rows):
        s = rates(mine, lambda r: bool(structural[id(r)]))
        o = rates(mine, lambda r: bool(others[id(r)]))
        a = rates(mine, lambda r: bool(found[id(r)]))
        print(f"{label:16} {s:28} {o:28} {a}")
    print(f"audit_tool: {per * 1000:.1f} ms per definition ({len(rows)} definitions)")
    if args.totals_only or not args.show:
        return
    for row in rows:
        if row["split"] != "tune":
            continue
        hits = structural[id(row)]
        if bool(hits) != (row["label"] == "poisoned"):
            print(f"\n{row['corpus']} {row['label']} {row['technique']} {row['name']}")
            for f in hits:
                print(f"   {f.rule} {f.field}: {f.excerpt!r}")
            if not hits:
                print(f"   {row['description'][:300]!r}")
                print(f"   {str(row['inputSchema'])[:300]}")


if __name__ == "__main__":
    main()
