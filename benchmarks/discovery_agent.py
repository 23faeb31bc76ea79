"""End to end on the embedded model: tasks that need one or two tools out of a 527-tool catalog.

Each LiveMCPBench task picked here names at most two annotated tools. The agent runs it three
ways, side by side in one run, with simulated tools (each returns "ok" and its arguments, so
what is measured is the choice of tool, not the tool's work):

- ``all``: all 527 tool definitions up front (what a naive agent sends);
- ``slice``: up front, only the task's own tools plus distractors (a generous baseline that
  presumes someone already knew which tools matter);
- ``discovery``: only ``tool_search`` in the prefix; schemas arrive in its results;
- ``cascade`` (with ``--cascade``): the same, searching the cascade index (MiniLM, then
  all-mpnet-base-v2 when MiniLM is unsure: :class:`workset.discovery.CascadeIndex`);
- ``memory`` (with ``--memory``): discovery whose index remembers the answerable needs of the
  tuning halves of our three need sets with the tools that serve them
  (:class:`workset.discovery.RememberingIndex`; none of them is a LiveMCPBench task).

A task succeeds when the agent calls one of its annotated tools. Printed per mode: successes,
prompt tokens of the first request, billed prompt tokens, and wall time.

Run: ``python benchmarks/discovery_agent.py [--tasks 6] [--slice 24] [--cascade] [--memory]
[--modes discovery,memory]`` (needs the
``[embedded]`` and ``[retrieval]`` extras and the MiniLM package; about 10 minutes here).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import jsonschema

sys.path.insert(0, str(Path(__file__).parent))
from tool_catalog import DATA, EXPANSIONS, Task, load_catalog, load_tasks, need_sets

from workset import Agent, AgentConfig, SessionLog, ToolRegistry
from workset.discovery import CascadeIndex, Searchable, ToolIndex, tool_search_tool
from workset.discovery.expansions import requests_by_key
from workset.discovery.memory import NeedMemory, Remembered, RememberingIndex
from workset.events import LoopEvent, ModelCalled, ToolFinished
from workset.loop.offer import ToolOffer
from workset.messages import ToolSpec
from workset.models.embedded import EmbeddedModel
from workset.retrieval import Embedder, MPNetEmbedder
from workset.tools.base import Tool

SYSTEM = (
    "You complete tasks by calling tools. Call the tool that does what the task needs, with "
    "arguments taken from the task. When the tool result shows it worked, reply with a short "
    "plain-text summary and no tool call.\n\nExample:\nUser: Convert report.docx to PDF.\n"
    'Assistant: {"name": "convert_to_pdf", "arguments": {"path": "report.docx"}}\n'
    "Tool: ok\nAssistant: Converted report.docx to PDF."
)
DISCOVERY_HINT = (
    "\n\nAt first you only have tool_search. Call it with what you need, e.g. "
    '{"name": "tool_search", "arguments": {"query": "convert a document to pdf"}}; it returns '
    "matching tools with their schemas. Then call the best one."
)


@dataclass
class Outcome:
    success: bool
    first_prompt: int
    billed: int
    seconds: float
    called: list[str]
    error: str = ""


def simulated(spec: ToolSpec) -> Tool | None:
    def run(**arguments: Any) -> str:
        return f"ok: {spec.name} ran with {json.dumps(arguments, ensure_ascii=False)[:200]}"

    try:
        jsonschema.Draft202012Validator.check_schema(dict(spec.parameters))
    except jsonschema.SchemaError:  # some catalog schemas are draft-4 style: left out
        return None
    return Tool(spec, run)


def unique_tools(servers: dict[str, list[ToolSpec]]) -> dict[str, Tool]:
    tools: dict[str, Tool] = {}
    for specs in servers.values():
        for spec in specs:
            if spec.name not in tools and (made := simulated(spec)) is not None:
                tools[spec.name] = made
    return tools


def pick_tasks(tasks: Sequence[Task], tools: dict[str, Tool], n: int) -> list[Task]:
    fit = [t for t in tasks if 1 <= len(t.tools) <= 2 and t.tools <= set(tools)]
    return sorted(fit, key=lambda t: (len(t.question), t.task_id))[:n]


async def attempt(
    model: EmbeddedModel,
    tools: Sequence[Tool],
    task: Task,
    *,
    system: str,
    index: Searchable | None,
) -> Outcome:
    events: list[LoopEvent] = []
    loaded: set[str] = set()
    if index is None:
        registry = ToolRegistry(tools)
        offer = ToolOffer(registry)
    else:  # only tool_search up front; what it finds is loaded
        registry = ToolRegistry([*tools, tool_search_tool(index, loaded)])
        offer = ToolOffer(registry, core=["tool_search"], loaded=loaded)
    with tempfile.TemporaryDirectory() as folder:
        agent = Agent(
            model,
            registry,
            SessionLog(Path(folder) / "log.db"),
            AgentConfig(system_prompt=system, max_iterations=5, max_tokens=200, output_reserve=256),
            subscribers=[events.append],
            offer=offer,
        )
        started = time.perf_counter()
        result = await agent.run(task.question)
        seconds = time.perf_counter() - started
    calls = [e.manifest.total_tokens for e in events if isinstance(e, ModelCalled)]
    billed = sum(e.usage.prompt_tokens for e in events if isinstance(e, ModelCalled))
    called = [e.call.name for e in events if isinstance(e, ToolFinished)]
    success = any(name in task.tools for name in called)
    return Outcome(success, calls[0] if calls else 0, billed, seconds, called, result.error[:80])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=6)
    parser.add_argument("--slice", type=int, default=24, help="tools up front in 'slice' mode")
    parser.add_argument(
        "--cascade", action="store_true", help="also run discovery over the cascade index"
    )
    parser.add_argument(
        "--memory", action="store_true", help="also run discovery with the need memory"
    )
    parser.add_argument("--modes", default="", help="run only these modes (comma-separated)")
    args = parser.parse_args()
    servers, descriptions = load_catalog(DATA)
    tools = unique_tools(servers)
    tasks, _ = load_tasks(DATA, set(tools))
    chosen = pick_tasks(tasks, tools, args.tasks)
    vectors = Path(tempfile.gettempdir()) / "workset-bench" / "tool-vectors.npz"
    expansions = requests_by_key(EXPANSIONS)
    index = ToolIndex.build(
        servers, Embedder.load(), descriptions=descriptions, expansions=expansions, store=vectors
    )
    cascade = None
    if args.cascade:
        cascade = CascadeIndex(
            index,
            ToolIndex.build(
                servers,
                MPNetEmbedder.load(),
                descriptions=descriptions,
                expansions=expansions,
                store=vectors.with_name("tool-vectors-mpnet.npz"),
            ),
        )
    remembering = None
    if args.memory:
        tune = [n for ns in need_sets().values() for n in ns if n.split == "tune" and n.answerable]
        remembered = [Remembered(n.need, e.server, e.tool) for n in tune for e in n.expected]
        remembering = RememberingIndex(index, NeedMemory(index, remembered))
    wanted = {m for m in args.modes.split(",") if m}
    model = EmbeddedModel(context_window=8192)
    anyio.run(model.start)
    others = sorted(tools)
    rows: list[tuple[str, str, Outcome]] = []
    for task in chosen:
        distractors = [n for n in others if n not in task.tools][:: max(1, len(others) // 64)]
        slice_names = [*sorted(task.tools), *distractors][: args.slice]
        modes: dict[str, tuple[list[Tool], str, Searchable | None]] = {
            "all": (list(tools.values()), SYSTEM, None),
            "slice": ([tools[n] for n in slice_names], SYSTEM, None),
            "discovery": (list(tools.values()), SYSTEM + DISCOVERY_HINT, index),
        }
        if cascade is not None:
            modes["cascade"] = (list(tools.values()), SYSTEM + DISCOVERY_HINT, cascade)
        if remembering is not None:
            modes["memory"] = (list(tools.values()), SYSTEM + DISCOVERY_HINT, remembering)
        if wanted:
            modes = {m: v for m, v in modes.items() if m in wanted}
        for mode, (offered, system, idx) in modes.items():
            outcome = anyio.run(
                lambda: attempt(model, offered, task, system=system, index=idx)  # noqa: B023
            )
            rows.append((task.task_id[:8], mode, outcome))
            print(
                f"{task.task_id[:8]} {mode:<9} success={outcome.success!s:<5} "
                f"first={outcome.first_prompt:>6} billed={outcome.billed:>6} "
                f"{outcome.seconds:6.1f}s called={outcome.called[:4]} {outcome.error}",
                flush=True,
            )
    anyio.run(model.aclose)
    print()
    print(f"{'mode':<10} {'success':>8} {'first request':>14} {'billed':>8} {'seconds':>8}")
    for mode in dict.fromkeys(m for _, m, _ in rows):
        mine = [o for _, m, o in rows if m == mode]
        wins, n = sum(o.success for o in mine), len(mine)
        first = sum(o.first_prompt for o in mine) // n
        billed = sum(o.billed for o in mine) // n
        seconds = sum(o.seconds for o in mine) / n
        print(f"{mode:<10} {wins:>3}/{n:<4} {first:>14} {billed:>8} {seconds:>8.1f}")
    for task in chosen:
        print(f"  task {task.task_id[:8]}: tools {sorted(task.tools)} — {task.question[:90]}")


if __name__ == "__main__":
    main()
