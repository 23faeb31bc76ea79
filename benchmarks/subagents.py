"""Subagent isolation and handoff strategies on the embedded model (SPEC C14, seeds 000/003/004).

1. **Isolation** (seed 000, "El aislamiento es preferible a la compresión"): "find the
   function that handles payment callbacks" in a real code base (django-payments 4.1.0, 60
   Python files, BSD licence, under ``benchmarks/data``), asked in three phrasings, done
   (a) by the main agent directly with grep/find_files/read_file/list_dir, and (b) by a main
   agent that can only delegate, to a ``code-searcher`` subagent with those tools. Side by
   side: the tokens of the main agent's final context and the tool-result tokens in it, the
   billed tokens of every call (main, subagent, its repair call), and whether the answer
   names a function that handles callbacks in a file that defines it.

2. **Seed 003's isolation result, re-measured with the eval harness**: the turn-19 fact of
   ``examples/transcripts/incident`` asked in six phrasings (plus the turn-2 fact) (a) after
   the whole history and (b) by a subagent given the system prompt and turns 17-19 only.

3. **Handoff strategies** (Experiment 4-3): six delegated tasks over the same code base
   where the fact the subagent needs (which payment provider) was said by the user two turns
   earlier. ``minimal`` passes only the task; ``extracted`` distils a handoff from the
   parent's trajectory with one extra call. Success and tokens per strategy, on tasks 1-3
   (used while writing the prompts) and 4-6 (not looked at before the run) apart.

Every finished cell is checkpointed under ``--out`` so an interrupted run resumes.
Run: ``python -u benchmarks/subagents.py --out /tmp/subagents`` (``--part 1,2,3``;
``--scripted`` checks the plumbing with a test model in seconds).
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio

from workset.collab import AgentDefinition, AgentLimits, Collaboration, subagent_tools
from workset.collab.result import result_from_json
from workset.eval.checkpoint import Checkpoint
from workset.eval.formats import load_probes, load_tools, load_transcript
from workset.eval.probes import ask
from workset.eval.replay import Prompt
from workset.eval.score import classify
from workset.events import AgentUpdated, ModelCalled
from workset.log.store import SessionLog
from workset.messages import AssistantMessage, ToolMessage, UserMessage
from workset.models.base import Model, ModelInfo, ModelRequest, ModelResponse
from workset.session.agent import Agent, AgentConfig
from workset.testing import FunctionModel, call
from workset.tokens.counter import PartCounter
from workset.tools.perception import perception_tools
from workset.tools.registry import ToolRegistry
from workset.tools.workspace import Workspace

ROOT = Path(__file__).resolve().parent.parent
REPO = ROOT / "benchmarks" / "data" / "django-payments"
INCIDENT = ROOT / "examples" / "transcripts" / "incident"
WINDOW = 16384

QUESTIONS = (
    "Find the function that handles payment callbacks in this repository. Give its name and file.",
    "Which function processes the callback requests that payment providers send to the "
    "shop? Name the function and the file it is in.",
    "Where in this code base is a payment provider's webhook notification handled? Give the "
    "function and its file.",
)
HANDLERS = ("process_data", "static_callback", "process_callback", "process_notification")

DIRECT_PROMPT = (
    "You answer questions about the Python code base in the workspace. Use the tools to "
    "search and read it (grep for names, read_file for a file); never guess. When you know "
    "the answer, reply with the function name and its file path, and no tool call."
)
DELEGATE_PROMPT = (
    "You answer questions about the Python code base in the workspace, but you cannot read it "
    "yourself. Delegate every search: call spawn_subagent with agent code-searcher and a task "
    "that says exactly what to find. When its result arrives, reply to the user with the "
    "function name and its file path, and no tool call."
)
SEARCHER = AgentDefinition(
    name="code-searcher",
    description="Finds where something is implemented in the workspace's code base.",
    role="You are a helper agent specialised in finding code in a Python repository.",
    instructions=(
        "Search with grep first (a function name, a word from the question), then read only "
        "the lines you need with read_file offset/limit. Name functions exactly as they are "
        "defined, with their file path."
    ),
    tools=("grep", "find_files", "read_file", "list_dir"),
    limits=AgentLimits(max_model_calls=8, token_budget=80_000, wall_time_s=1800),
)


class Counting:
    """A model that sums the usage of every call made through it (main, subagent, repairs)."""

    def __init__(self, model: Model) -> None:
        self.model = model
        self.prompt = 0
        self.completion = 0
        self.calls = 0

    @property
    def info(self) -> ModelInfo:
        return self.model.info

    def token_counter(self) -> PartCounter:
        return self.model.token_counter()

    async def complete(self, request: ModelRequest) -> ModelResponse:
        response = await self.model.complete(request)
        self.prompt += response.usage.prompt_tokens
        self.completion += response.usage.completion_tokens
        self.calls += 1
        return response

    async def aclose(self) -> None:
        return None

    def reset(self) -> tuple[int, int, int]:
        taken = (self.prompt, self.completion, self.calls)
        self.prompt = self.completion = self.calls = 0
        return taken


def names_a_handler(answer: str, root: Path) -> bool:
    """True when ``answer`` names a callback handler and a file of ``root`` that defines it."""
    for name in HANDLERS:
        if name not in answer:
            continue
        for path in re.findall(r"[\w./-]+\.py", answer):
            candidates = [root / path, *root.glob(f"**/{Path(path).name}")]
            for file in candidates:
                if file.is_file() and f"def {name}(" in file.read_text(encoding="utf-8"):
                    return True
    return False


# -- part 1 ------------------------------------------------------------------------------------


async def isolation_run(
    model: Counting, question: str, delegated: bool, db: Path
) -> dict[str, Any]:
    perception = perception_tools(Workspace(REPO))
    log = SessionLog(db)
    seen: list[Any] = []
    config = AgentConfig(max_iterations=8, constrained_decisions=True, max_tokens=400)
    if delegated:
        team = Collaboration(perception, [SEARCHER], max_depth=1, subscribers=[seen.append])
        tools = [t for t in subagent_tools(team) if t.name == "spawn_subagent"]
        agent = Agent(
            model, ToolRegistry(tools), log, _prompt(config, DELEGATE_PROMPT),
            subscribers=[seen.append],
        )  # fmt: skip
    else:
        agent = Agent(
            model, ToolRegistry(perception), log, _prompt(config, DIRECT_PROMPT),
            subscribers=[seen.append],
        )  # fmt: skip
    model.reset()
    begun = time.monotonic()
    result = await agent.run(question, workspace=str(REPO))
    prompt, completion, calls = model.reset()
    main_calls = [
        e for e in seen if isinstance(e, ModelCalled) and e.session_id == result.session_id
    ]
    last = main_calls[-1].manifest if main_calls else None
    agents = [e for e in seen if isinstance(e, AgentUpdated) and e.final]
    return {
        "answer": result.answer or result.error,
        "correct": names_a_handler(result.answer, REPO),
        "main_context": last.total_tokens if last else 0,
        "main_tool_results": last.buckets.get("tool_results", 0) if last else 0,
        "main_calls": len(main_calls),
        "billed": prompt + completion,
        "calls": calls,
        "subagents": [
            {"status": e.status, "tokens": e.tokens, "result": e.result[:600]} for e in agents
        ],
        "seconds": round(time.monotonic() - begun, 1),
    }


def _prompt(config: AgentConfig, text: str) -> AgentConfig:
    from dataclasses import replace

    return replace(config, system_prompt=text)


async def part_isolation(
    model: Counting, checkpoint: Checkpoint, work: Path, questions: int = len(QUESTIONS)
) -> list[str]:
    rows = []
    for n, question in enumerate(QUESTIONS[:questions], 1):  # both arms per question first
        for arm in ("direct", "delegated"):
            key = f"isolation/{arm}/{n}"
            if key not in checkpoint:
                row = await isolation_run(model, question, arm == "delegated", work / "log.db")
                checkpoint.put(key, row)
                print(f"  {key}: correct={row['correct']} {row['answer'][:90]!r}", flush=True)
            rows.append((arm, checkpoint.get(key)))
    lines = [
        "arm        correct  main context  tool results in main  main calls  billed total  calls",
    ]
    for arm in ("direct", "delegated"):
        got = [r for a, r in rows if a == arm and r is not None]

        def mean(key: str, got: list[dict[str, Any]] = got) -> float:
            return sum(r[key] for r in got) / len(got)

        right = f"{sum(r['correct'] for r in got)}/{len(got)}"
        lines.append(
            f"{arm:<10} {right:<8} {mean('main_context'):>12,.0f}"
            f"  {mean('main_tool_results'):>20,.0f}  {mean('main_calls'):>10.1f}"
            f"  {mean('billed'):>12,.0f}  {mean('calls'):>5.1f}"
        )
    return lines


# -- part 2 ------------------------------------------------------------------------------------


async def part_incident(model: Model, checkpoint: Checkpoint) -> list[str]:
    transcript = load_transcript(INCIDENT / "transcript.jsonl")
    tools = load_tools(INCIDENT / "tools.json")
    probes = load_probes(INCIDENT / "probes.yaml")
    turns = [m for m, t in zip(transcript.messages, transcript.turns, strict=True) if 17 <= t <= 19]
    arms = {
        "full history": Prompt(transcript.system, transcript.messages),
        "subagent, turns 17-19": Prompt(transcript.system, tuple(turns)),
    }
    lines = ["arm                     prompt tokens  " + "  ".join(f"{p.id:>24}" for p in probes)]
    for arm, prompt in arms.items():
        cells, size = [], 0
        for probe in probes:
            correct = 0
            for i, question in enumerate(probe.questions):
                key = f"incident/{arm}/{probe.id}/{i}"
                if key not in checkpoint:
                    answer, tokens = await ask(model, prompt, tools, question, max_tokens=48)
                    outcome = classify(answer, probe.expected, regex=probe.regex or None)
                    checkpoint.put(key, {"answer": answer, "outcome": outcome, "tokens": tokens})
                    print(f"  {key}: {outcome} {answer[:70]!r}", flush=True)
                row = checkpoint.get(key)
                assert row is not None
                correct += row["outcome"] == "correct"
                size = row["tokens"]
            cells.append(f"{correct}/{len(probe.questions)} (turn {probe.planted_turn})")
        lines.append(f"{arm:<22} {size:>14,}  " + "  ".join(f"{c:>24}" for c in cells))
    return lines


# -- part 3 ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HandoffTask:
    setting: str  # what the user said two turns before (the fact the subagent needs)
    request: str  # the user's request, which does not repeat it
    task: str  # what the main agent delegates
    expected: str  # a regex the subagent's result must match


HANDOFF_TASKS = (
    HandoffTask(
        "I maintain our shop's payment code. This sprint we are integrating Stripe.",
        "Where is the webhook signature checked for our provider?",
        "Find the function that verifies the webhook signature for the payment provider the "
        "user is integrating. Give the function and file.",
        r"return_event_payload|construct_event",
    ),
    HandoffTask(
        "Our shop takes payments through PayPal; that provider is the one I work on.",
        "How does our provider get its OAuth token?",
        "Find the function the user's payment provider uses to obtain its access token. Give "
        "the function and file.",
        r"get_access_token",
    ),
    HandoffTask(
        "We sell in Argentina, so our payment provider is MercadoPago.",
        "Which method handles the notifications our provider sends?",
        "Find the method that handles the notifications sent by the user's payment provider. "
        "Give the method and file.",
        r"process_notification",
    ),
    HandoffTask(
        "Our German customers pay with Sofort, and that provider is what I am debugging.",
        "How are refunds requested in our provider?",
        "Find the refund method of the user's payment provider and the file it is in.",
        r"sofort",
    ),
    HandoffTask(
        "Our card payments go through CyberSource.",
        "Which function turns a reason code into a payment status for our provider?",
        "Find the function that sets the payment status from a reason code in the user's "
        "payment provider. Give the function and file.",
        r"_set_proper_payment_status_from_reason_code",
    ),
    HandoffTask(
        "We moved our checkout to Stripe last month.",
        "Where are amounts converted to the smallest currency unit for our provider?",
        "Find the function that converts amounts to the smallest currency unit for the user's "
        "payment provider. Give the function and file.",
        r"convert_amount",
    ),
)
PARENT_PROMPT = "You coordinate work on a payments code base and delegate searches."


def scripted_parent(real: Model, task: HandoffTask, strategy: str) -> Model:
    """The parent's own turns scripted (so both strategies share one trajectory); every other
    request (the handoff extraction, the subagent) goes to the real model."""

    async def fn(request: ModelRequest) -> AssistantMessage | str:
        last = request.messages[-1]
        parent = request.messages[0].content == PARENT_PROMPT and request.tools
        if not parent or not isinstance(last, UserMessage | ToolMessage):
            return (await real.complete(request)).message
        if isinstance(last, ToolMessage):
            return "Done."
        if last.content.startswith(task.setting[:20]):
            return "Noted. What do you need?"
        arguments = json.dumps({"agent": "code-searcher", "task": task.task, "handoff": strategy})
        return AssistantMessage(None, (call("spawn_subagent", arguments, "sp1"),))

    scripted = FunctionModel(fn, context_window=real.info.context_window)
    scripted.token_counter = real.token_counter  # type: ignore[method-assign]
    return scripted


async def handoff_run(real: Counting, task: HandoffTask, strategy: str, db: Path) -> dict[str, Any]:
    perception = perception_tools(Workspace(REPO))
    seen: list[Any] = []
    model = scripted_parent(real, task, strategy)
    team = Collaboration(perception, [SEARCHER], max_depth=1, models={}, subscribers=[seen.append])
    config = AgentConfig(system_prompt=PARENT_PROMPT, max_iterations=4, constrained_decisions=True)
    agent = Agent(
        model, ToolRegistry(subagent_tools(team)), SessionLog(db), config,
        subscribers=[seen.append],
    )  # fmt: skip
    real.reset()
    async with agent.session() as session:
        from workset.events import new_event

        for text in (task.setting, task.request):
            await session.deliver(new_event("user.input", text))
            await session.run_until_idle()
    billed = sum(real.reset()[:2])
    [final] = [e for e in seen if isinstance(e, AgentUpdated) and e.final]
    result = result_from_json(final.result)
    text = final.result if result is None else json.dumps(result.to_json())
    briefs = [e.task for e in seen if isinstance(e, AgentUpdated) and e.detail.startswith("brief")]
    return {
        "correct": bool(re.search(task.expected, text, re.IGNORECASE)),
        "status": final.status,
        "tokens": final.tokens,
        "billed": billed,
        "brief": briefs[-1] if briefs else "",
        "result": text[:800],
    }


async def part_handoff(real: Counting, checkpoint: Checkpoint, work: Path) -> list[str]:
    lines = ["strategy    tasks 1-3 (prompts written on)   tasks 4-6 (held out)   tokens/task"]
    for strategy in ("minimal", "extracted"):
        rows = []
        for n, task in enumerate(HANDOFF_TASKS, 1):
            key = f"handoff/{strategy}/{n}"
            if key not in checkpoint:
                row = await handoff_run(real, task, strategy, work / "log.db")
                checkpoint.put(key, row)
                print(f"  {key}: correct={row['correct']} tokens={row['tokens']}", flush=True)
            got = checkpoint.get(key)
            assert got is not None
            rows.append(got)
        first = sum(r["correct"] for r in rows[:3])
        second = sum(r["correct"] for r in rows[3:])
        tokens = sum(r["tokens"] for r in rows) / len(rows)
        lines.append(f"{strategy:<11} {first}/3{'':<30} {second}/3{'':<19} {tokens:>10,.0f}")
    return lines


# -- running ----------------------------------------------------------------------------------


def scripted_model() -> Model:
    """A test model that plays every role, to check the plumbing without the real model."""

    def fn(request: ModelRequest) -> AssistantMessage | str:
        last = request.messages[-1]
        system = request.messages[0].content or ""
        tools = {t.name for t in request.tools}
        if "spawn_subagent" in tools and not isinstance(last, ToolMessage):
            arguments = json.dumps({"agent": "code-searcher", "task": "find the callback handler"})
            return AssistantMessage(None, (call("spawn_subagent", arguments),))
        if "grep" in tools and not isinstance(last, ToolMessage):
            return AssistantMessage(None, (call("grep", '{"pattern": "def process_data"}'),))
        if "labelled by source" in system:
            return json.dumps(
                {"status": "completed", "summary": "process_data in payments/urls.py",
                 "findings": [], "artifacts": ["payments/urls.py"], "open_questions": []}
            )  # fmt: skip
        return "process_data in payments/urls.py"

    return FunctionModel(fn, context_window=WINDOW)


async def main(args: argparse.Namespace) -> None:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)  # noqa: ASYNC240
    parts = {int(p) for p in args.part.split(",")}
    if args.scripted:
        base: Model = scripted_model()
    else:
        from workset.models.embedded import EmbeddedModel

        base = EmbeddedModel(args.model, context_window=WINDOW)
        await base.start()  # type: ignore[attr-defined]
    model = Counting(base)
    checkpoint = Checkpoint(out / ("scripted.jsonl" if args.scripted else "checkpoint.jsonl"))
    report: list[str] = [f"model: {base.info.name}, window {WINDOW}"]
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        try:
            steps: Sequence[tuple[int, str, Callable[[], Any]]] = (
                (1, "1. isolation: main agent directly vs a search subagent",
                 lambda: part_isolation(model, checkpoint, work, args.questions)),
                (2, "2. seed 003: turn-19 question, full history vs subagent on turns 17-19",
                 lambda: part_incident(model, checkpoint)),
                (3, "3. handoff strategies on six delegated tasks",
                 lambda: part_handoff(model, checkpoint, work)),
            )  # fmt: skip
            for number, title, step in steps:
                if number in parts:
                    print(title, flush=True)
                    lines = await step()
                    report += ["", title, *lines]
        finally:
            await base.aclose()
    text = "\n".join(report)
    print("\n" + text)
    (out / "report.txt").write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default="subagents-out")
    parser.add_argument("--part", default="1,2,3")
    parser.add_argument("--model", default="qwen2.5-coder-0.5b")
    parser.add_argument("--scripted", action="store_true")
    parser.add_argument("--questions", type=int, default=len(QUESTIONS), help="part 1: how many")
    anyio.run(main, parser.parse_args())
