"""LiveMCPBench's 527 real tools (all benign) through the audit: how many each rule flags.

Run: ``PYTHONPATH=src python benchmarks/mcp_livemcp.py [--show]``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from workset.mcp import RemoteTool, audit_tool


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--show", action="store_true", help="print each flagged tool's findings")
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


if __name__ == "__main__":
    main()
