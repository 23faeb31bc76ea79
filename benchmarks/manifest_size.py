"""Manifest bytes per model call at 2,000 messages: stored whole vs as deltas (SPEC C18).

A session is filled with ``--messages`` messages (2,000: user lines and answers, recorded
directly), then the session engine runs ``--turns`` turns on it (a scripted model: each turn
calls a tool and answers, two model calls). The window is large enough that every message
stays in the request, so each manifest lists about 2,000 items. For each of those calls:

- **before**: the bytes of the model-call record with its whole manifest (what the log stored
  until manifests became deltas), measured by encoding the record as read back;
- **after**: the bytes the log actually stored for it (``length(payload)`` in SQLite), a delta
  against the previous call, with a whole record every 100 calls (and for the first call
  of a session opened in a new process).

It also checks that every manifest read back equals the one the engine announced on its bus.

Run: ``python benchmarks/manifest_size.py`` (about a minute).
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import tempfile
from pathlib import Path

import anyio

from workset.context.manifest import BudgetNumbers, Manifest, PrefixInfo
from workset.events import InputAppended, LoopEvent, ModelCalled, new_event
from workset.log.codec import event_to_payload
from workset.log.store import SessionLog
from workset.messages import AssistantMessage, ToolMessage
from workset.models.base import ModelRequest, Usage
from workset.session.agent import Agent, AgentConfig
from workset.testing import FunctionModel, call
from workset.tools.base import Tool
from workset.tools.registry import ToolRegistry


def answer(request: ModelRequest) -> AssistantMessage | str:
    last = request.messages[-1]
    if isinstance(last, ToolMessage):
        return "The build is green on all three targets."
    n = len(request.messages)
    return AssistantMessage(None, (call("check_build", '{"target": "all"}', f"c{n}"),))


async def check_build(target: str) -> str:
    """Check the build of a target. Use when asked about the build.

    Args:
        target: Which target, or "all".
    """
    return f"{target}: green (3 of 3 jobs passed)"


def prefill(log: SessionLog, sid: str, messages: int) -> None:
    manifest = Manifest(
        "prefill", sid, 0, 0, "exact", BudgetNumbers(0, 0, 0, 0, 0, 0), {}, PrefixInfo("", 0, 0, 0)
    )
    for n in range(messages // 2):
        text = f"Question {n}: what changed in module {n % 37} since yesterday's release?"
        log.append(InputAppended(sid, "prefill", text, float(n)))
        reply = AssistantMessage(f"Module {n % 37}: two functions renamed, one test added.")
        log.append(ModelCalled("prefill", sid, 1, manifest, reply, Usage(1, 1), float(n)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=2000)
    parser.add_argument("--turns", type=int, default=50)
    args = parser.parse_args()
    path = Path(tempfile.mkdtemp(prefix="workset-manifests-")) / "log.db"
    seen: list[LoopEvent] = []
    with SessionLog(path) as log:
        sid = log.create_session(title="long", workspace="", model="function")
        prefill(log, sid, args.messages)
        after_prefill = log.last_seq(sid)
        tools = ToolRegistry(
            [Tool.from_function(check_build, read_only=True, examples=({"target": "all"},))]
        )
        model = FunctionModel(answer, context_window=2_000_000)
        agent = Agent(model, tools, log, AgentConfig(max_iterations=4), subscribers=[seen.append])

        async def turns() -> None:
            async with agent.session(sid) as session:
                for n in range(args.turns):
                    await session.deliver(new_event("user.input", f"Is the build green? ({n})"))
                    await session.run_until_idle()

        anyio.run(turns)
        calls = [s for s in log.events(sid, after_seq=after_prefill, kinds=["model_called"])]
        announced = [e.manifest for e in seen if isinstance(e, ModelCalled)]
    with SessionLog(path) as cold:  # read back with nothing remembered
        rebuilt = [m for seq, m in cold.manifests(sid) if seq > after_prefill]
    with sqlite3.connect(path) as db:
        stored = dict(
            db.execute(
                "SELECT seq, length(payload) FROM events WHERE seq > ? AND kind = 'model_called'",
                (after_prefill,),
            ).fetchall()
        )
    before = [
        len(json.dumps(event_to_payload(s.event), ensure_ascii=True, separators=(",", ":")))
        for s in calls
        if s.event is not None
    ]
    after = [stored[s.seq] for s in calls]
    items = [len(m.included) for m in announced]
    print(
        f"{len(calls)} model calls at {args.messages}+ messages "
        f"({min(items)}-{max(items)} items per manifest)"
    )
    print(f"{'':>22} {'mean bytes':>11} {'median':>9} {'max':>9}")
    for label, sizes in (("before (whole)", before), ("after (delta)", after)):
        print(
            f"{label:>22} {statistics.mean(sizes):>11,.0f} {statistics.median(sizes):>9,.0f} "
            f"{max(sizes):>9,}"
        )
    print(
        f"stored bytes per call: {statistics.mean(after) / statistics.mean(before):.3f} of before "
        f"({statistics.mean(before) / statistics.mean(after):.1f}x smaller)"
    )
    exact = rebuilt == announced
    print(f"every manifest rebuilt exactly: {exact}")
    if not exact:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
