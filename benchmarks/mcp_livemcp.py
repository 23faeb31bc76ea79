"""LiveMCPBench's 527 real tools (all benign) through the audit: how many each rule flags.

``--learned`` also runs the learned layer (:mod:`workset.mcp.poison_learned`) and prints the
tools flagged by the rules or by it, and its cost per definition. Half of these tools (the
even-hash servers) are the learned layer's benign training data, so its number here is partly
in-sample; the other half is its calibration set.

Run: ``PYTHONPATH=src python benchmarks/mcp_livemcp.py [--show] [--learned]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

from workset.mcp import RemoteTool, audit_tool


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--show", action="store_true", help="print each flagged tool's findings")
    parser.add_argument("--learned", action="store_true", help="also run the learned layer")
    args = parser.parse_args()
    here = Path(__file__).resolve()
    path = next(
        (
            p / "shared" / "data" / "livemcpbench" / "tools.json"
            for p in here.parents
            if (p / "shared" / "data" / "livemcpbench" / "tools.json").exists()
        ),
        None,
    )
    if path is None:
        sys.exit("shared/data/livemcpbench/tools.json not found")
    tools = [
        RemoteTool(
            server,
            str(t.get("name", "")),
            str(t.get("description") or ""),
            t.get("inputSchema") or {},
        )
        for entry in json.loads(path.read_text("utf-8"))
        for server, listing in (entry.get("tools") or {}).items()
        for t in listing.get("tools", [])
    ]
    per: Counter[str] = Counter()
    flagged = 0
    for tool in tools:
        found = audit_tool(tool)
        flagged += bool(found)
        per.update({f.rule for f in found})
        if found and args.show:
            for f in found:
                print(f"  {f.line()[:220]}")
    print(f"LiveMCPBench real tools flagged: {flagged}/{len(tools)}; per rule: {dict(per)}")
    if args.learned:
        from workset.mcp.poison_learned import learned_findings

        learned_findings(tools[0])  # load the embedder and model before timing
        start = time.perf_counter()
        learned = [learned_findings(t) for t in tools]
        ms = (time.perf_counter() - start) * 1000 / len(tools)
        either = sum(bool(found or audit_tool(t)) for t, found in zip(tools, learned, strict=True))
        print(
            f"learned alone: {sum(map(bool, learned))}/{len(tools)}; rules or learned: "
            f"{either}/{len(tools)}; learned layer {ms:.0f} ms per definition (wall)"
        )
        if args.show:
            for found in learned:
                for f in found:
                    print(f"  {f.line()[:220]}")


if __name__ == "__main__":
    main()
