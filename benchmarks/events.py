"""Event handling of the session engine (SPEC C15): how long events wait, and what an
interrupt costs the prompt cache.

1. **Latency under load.** One session works on a task whose steps each take a model call
   (``--model-ms``) and a tool call (``--tool-ms``), simulated with real waits; a producer
   delivers ordinary user events at a steady rate (``--rate`` per second) for ``--seconds``.
   For every event: the time from its arrival (``EventReceived``) to its consumption at the
   next safe point (the ``InputAppended`` that carried it), median and p99, for the queue
   strategy, and for urgent events (cancel strategy) sent at the same rate in a second run.
   Printed as seconds and as multiples of one step's duration.

2. **Prefix reuse after an interrupt.** Two short sessions, scripted so both send the same
   first request: (a) a tool finishes and the next turn follows as usual; (b) the user
   interrupts while the tool runs: the tool gets its placeholder result and the interrupt
   is appended. Each session's recorded requests (rebuilt from the log, byte for byte) are
   then sent, in order, to the embedded model, which reports how many prompt tokens it took
   from its KV cache. Reuse of the call after the interrupt is printed against the plain next
   turn's: the placeholder path keeps the prefix when the ratio is close to 1. A third row,
   (c), sends the interrupt as a fresh request without the unfinished call — what a loop that
   threw the call away would do — for contrast. ``--no-model`` prints the manifest's predicted
   reuse only.

Run: ``python -u benchmarks/events.py`` (part 2 needs the ``[embedded]`` extra; it makes six
short calls).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from dataclasses import dataclass
from pathlib import Path

import anyio

from workset.events import EventContext, EventReceived, InputAppended, ModelCalled, new_event
from workset.log.store import SessionLog
from workset.messages import AssistantMessage, SystemMessage, ToolMessage, UserMessage
from workset.models.base import Model, ModelRequest
from workset.session.agent import Agent, AgentConfig
from workset.testing import FunctionModel, call
from workset.tools.base import Tool
from workset.tools.registry import ToolRegistry

SYSTEM = (
    "You are a data assistant. Use tools to look at data; never guess. When a tool result "
    "answers the question, reply in one or two sentences."
)


def step_tool(seconds: float) -> Tool:
    async def analyse(part: str) -> str:
        """Analyse one part of the data set. Use for each part in turn.

        Args:
            part: Which part, e.g. "p1".
        """
        await anyio.sleep(seconds)
        return f"part {part}: 1,204 rows, 3 outliers"

    return Tool.from_function(analyse, read_only=True, examples=({"part": "p1"},))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


@dataclass
class Latency:
    strategy: str
    waits: list[float]
    step_s: float

    def line(self) -> str:
        med, p99 = statistics.median(self.waits), percentile(self.waits, 0.99)
        return (
            f"{self.strategy:<7} {len(self.waits):>6} {med:>9.3f} {p99:>9.3f} "
            f"{med / self.step_s:>10.2f} {p99 / self.step_s:>10.2f}"
        )


async def latency_run(strategy: str, args: argparse.Namespace, folder: Path) -> Latency:
    model_s, tool_s = args.model_ms / 1000, args.tool_ms / 1000
    parts = iter(range(10**6))

    async def fn(request: ModelRequest) -> AssistantMessage:
        await anyio.sleep(model_s)
        return AssistantMessage(None, (call("analyse", f'{{"part": "p{next(parts)}"}}'),))

    log = SessionLog(folder / f"{strategy}.db")
    agent = Agent(
        FunctionModel(fn),
        ToolRegistry([step_tool(tool_s)]),
        log,
        AgentConfig(system_prompt=SYSTEM, max_iterations=10**6, answer_on_repeat=False),
    )
    mode = "cancel" if strategy == "cancel" else "queue"
    async with agent.session() as session:
        await session.deliver(new_event("user.input", "analyse every part, one after another"))
        async with anyio.create_task_group() as group:
            group.start_soon(session.run_until_idle)
            interval = 1 / args.rate
            for n in range(int(args.seconds * args.rate)):
                await anyio.sleep(interval)
                text = f"note {n}: also count the nulls"
                await session.deliver(
                    new_event("user.input", text, context=EventContext(mode=mode))  # type: ignore[arg-type]
                )
            group.cancel_scope.cancel()
        sid = session.id
    arrived: dict[str, float] = {}
    taken: dict[str, float] = {}
    for stored in log.events(sid):
        event = stored.event
        if isinstance(event, EventReceived):
            arrived[event.event.id] = event.at
        elif isinstance(event, InputAppended):
            for event_id in event.event_ids:
                taken[event_id] = event.at
    waits = [taken[e] - arrived[e] for e in arrived if e in taken][1:]  # the task itself aside
    return Latency(strategy, waits, model_s + tool_s)


# -- part 2 ---------------------------------------------------------------------------------

FIRST = AssistantMessage(None, (call("analyse", '{"part": "p1"}', "c1"),))


async def scripted_session(folder: Path, name: str, interrupt: bool) -> tuple[SessionLog, str]:
    started = anyio.Event()

    async def analyse(part: str) -> str:
        """Analyse one part of the data set. Use for each part in turn.

        Args:
            part: Which part, e.g. "p1".
        """
        started.set()
        if interrupt:
            await anyio.sleep_forever()
        return f"part {part}: 1,204 rows, 3 outliers, mean 41.7"

    def fn(request: ModelRequest) -> AssistantMessage | str:
        if any(isinstance(m, ToolMessage) for m in request.messages):
            return "Done."
        return FIRST

    log = SessionLog(folder / f"{name}.db")
    tool = Tool.from_function(analyse, read_only=True, examples=({"part": "p1"},))
    agent = Agent(FunctionModel(fn), ToolRegistry([tool]), log, AgentConfig(system_prompt=SYSTEM))
    async with agent.session() as session:
        task = "Look at part p1 of the sales data and tell me how many outliers it has."
        await session.deliver(new_event("user.input", task))
        async with anyio.create_task_group() as group:
            group.start_soon(session.run_until_idle)
            await started.wait()
            if interrupt:
                await session.deliver(
                    new_event("user.interrupt", "Stop that; just tell me which parts exist.")
                )
        return log, session.id


def recorded_requests(log: SessionLog, session_id: str) -> list[tuple[ModelRequest, int, int]]:
    """Each call's request rebuilt from the log, its predicted reuse and the size of the
    request before it."""
    found = []
    for stored in log.events(session_id, kinds=["model_called"]):
        assert isinstance(stored.event, ModelCalled)
        manifest = stored.event.manifest
        prefix = manifest.prefix
        found.append((log.request(stored.seq), prefix.reused_tokens, prefix.previous_total))
    return found


async def served_reuse(model: Model | None, requests: list[ModelRequest]) -> list[tuple[int, int]]:
    """(prompt tokens, cached tokens) for each request sent in order to ``model``."""
    if model is None:
        return []
    out = []
    for request in requests:
        response = await model.complete(ModelRequest(request.messages, request.tools, 1, 0.0))
        out.append((response.usage.prompt_tokens, response.usage.cached_prompt_tokens or 0))
    return out


async def prefix_part(args: argparse.Namespace, folder: Path) -> None:
    model: Model | None = None
    if not args.no_model:
        from workset.models.embedded import EmbeddedModel

        model = EmbeddedModel(args.model, context_window=4096, threads=args.threads)
        await model.start()  # type: ignore[attr-defined]
    try:
        rows = []
        for name, interrupt in (("plain", False), ("interrupt", True)):
            log, sid = await scripted_session(folder, name, interrupt)
            recorded = recorded_requests(log, sid)
            requests = [r for r, _, _ in recorded]
            served = await served_reuse(model, [SPACER, *requests])
            rows.append((name, recorded, served[1:] if served else []))
        # (c): the interrupt as a fresh request: the unfinished call thrown away
        interrupted = rows[1][1][1][0]
        fresh = ModelRequest(
            tuple(m for m in interrupted.messages if not _of_unit(m)), interrupted.tools
        )
        served_c = await served_reuse(model, [SPACER, rows[1][1][0][0], fresh])
        print(
            "\n2. the call after the tool: tokens of the previous request reused (predicted by "
            "the manifest; reused by the server)"
        )
        print(f"{'session':<26} {'previous':>8} {'predicted':>10} {'reused':>8} {'share':>7}")
        shares: dict[str, float] = {}
        for name, recorded, served in rows:
            _, predicted, previous = recorded[1]
            if served:
                previous = served[0][0]
            cached = served[1][1] if served else predicted
            share = shares[name] = cached / previous
            label = "(a) plain next turn" if name == "plain" else "(b) after an interrupt"
            print(f"{label:<26} {previous:>8} {predicted:>10} {cached:>8} {share:>7.0%}")
        if served_c:
            previous, cached = served_c[1][0], served_c[2][1]
            shares["fresh"] = cached / previous
            print(f"{'(c) interrupt, unit dropped':<26} {previous:>8} {'-':>10} {cached:>8} "
                  f"{shares['fresh']:>7.0%}")  # fmt: skip
        ratio = shares["interrupt"] / shares["plain"]
        print(f"reuse after an interrupt / plain next turn: {ratio:.2f}")
        if shares.get("fresh"):
            print(f"reuse (b) / (c): {shares['interrupt'] / shares['fresh']:.2f}")
    finally:
        if model is not None:
            await model.aclose()


SPACER = ModelRequest((SystemMessage("Unrelated warm-up."), UserMessage("Say ok.")))


def _of_unit(message: object) -> bool:
    return isinstance(message, ToolMessage) or (
        isinstance(message, AssistantMessage) and bool(message.tool_calls)
    )


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if not args.skip_latency:
            print(
                f"1. latency from arrival to consumption: a step is {args.model_ms} ms of model "
                f"and {args.tool_ms} ms of tool; {args.rate} events/s for {args.seconds} s"
            )
            print(f"{'strategy':<7} {'events':>6} {'median s':>9} {'p99 s':>9} "
                  f"{'med/step':>10} {'p99/step':>10}")  # fmt: skip
            results = [await latency_run(s, args, folder) for s in ("queue", "cancel")]
            for result in results:
                print(result.line())
            q, c = (statistics.median(r.waits) for r in results)
            print(f"median wait, queue / cancel: {q / c:.1f}")
        await prefix_part(args, folder)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model-ms", type=float, default=200)
    parser.add_argument("--tool-ms", type=float, default=300)
    parser.add_argument("--rate", type=float, default=5.0, help="events per second")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--skip-latency", action="store_true")
    parser.add_argument("--no-model", action="store_true", help="predicted reuse only")
    parser.add_argument("--model", default="qwen2.5-coder-0.5b")
    parser.add_argument("--threads", type=int, default=None)
    anyio.run(main, parser.parse_args())
