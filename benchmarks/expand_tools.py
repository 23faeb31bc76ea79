"""Write the example requests of every catalog tool with an embedded model (run under model-slot).

Only tools whose definition hash is missing from the output file are generated; each tool's
line is appended as soon as it is written, so an interrupted run resumes where it stopped.
``--prune`` drops lines no current tool definition uses. The committed file for LiveMCPBench
(``benchmarks/data/tool_expansions.jsonl``) was written with ``qwen2.5-coder-1.5b``.

Run: ``/work/tools/model-slot python benchmarks/expand_tools.py [--model qwen2.5-coder-1.5b]
[--out FILE] [--limit N] [--prune]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import anyio

sys.path.insert(0, str(Path(__file__).parent))
from tool_catalog import DATA, load_catalog

from workset.discovery.expansions import (
    ToolExpansion,
    definition_key,
    expand_catalog,
    prune_expansions,
)
from workset.messages import ToolSpec
from workset.models.embedded import EmbeddedModel

OUT = Path(__file__).parent / "data" / "tool_expansions.jsonl"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA, help="the livemcpbench folder")
    parser.add_argument("--model", default="qwen2.5-coder-1.5b")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--limit", type=int, help="only the first N tools of each server (a trial)")
    parser.add_argument("--prune", action="store_true", help="drop lines of vanished tools")
    parser.add_argument(
        "--minutes", type=float, help="stop starting new tools after this long (resume later)"
    )
    args = parser.parse_args()

    servers, descriptions = load_catalog(args.data)
    if args.limit is not None:
        servers = _first(servers, args.limit)
    if args.prune:
        keep = [definition_key(s, spec) for s, specs in servers.items() for spec in specs]
        print(f"pruned {prune_expansions(args.out, keep)} lines from {args.out}")
        return
    total = sum(len(specs) for specs in servers.values())
    model = EmbeddedModel(args.model, context_window=4096)
    started = time.perf_counter()
    done = 0

    deadline = started + 60 * args.minutes if args.minutes else None

    def progress(server: str, tool: str, expansion: ToolExpansion | None) -> None:
        nonlocal done
        done += 1
        if deadline is not None and time.perf_counter() > deadline:
            raise _OutOfTime
        rate = (time.perf_counter() - started) / done
        shown = expansion.requests[:2] if expansion else "FAILED"
        print(f"[{done}] {server}/{tool} ({rate:.1f} s/tool): {shown}", flush=True)

    async def run() -> None:
        try:
            report = await expand_catalog(
                model, servers, args.out, descriptions=descriptions, on_tool=progress
            )
        except _OutOfTime:
            print(f"stopped after {args.minutes} minutes; run again to resume")
            return
        finally:
            await model.aclose()
        print(
            f"{total} tools: {report.generated} generated, {report.reused} already in "
            f"{args.out}, {len(report.failed)} failed in {time.perf_counter() - started:.0f} s"
        )
        for line in report.failed:
            print(f"  failed: {line}")

    anyio.run(run)


class _OutOfTime(Exception):
    """Raised between two tools when --minutes has passed (every finished line is kept)."""


def _first(servers: dict[str, list[ToolSpec]], n: int) -> dict[str, list[ToolSpec]]:
    return {name: specs[:n] for name, specs in servers.items()}


if __name__ == "__main__":
    main()
