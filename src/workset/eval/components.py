"""Component evals and ablations: run each case through the agent, check what was assembled.

Each case runs as a real agent task on the chosen model (:class:`~workset.session.agent.Agent`
with the suite's canned tools, a fresh memory store, an evidence index over the documents,
the safety gate and the registered secrets), and is checked at the component level, not only
by its answer:

* ``evidence`` — every required document is among the included items of some call;
* ``tools`` — every required tool was called; no forbidden tool was proposed or run;
* ``leaks`` — no ``must_not_contain`` string in any request the model received, nor in the
  answer (nor an ``answer_must_not_contain`` string in the answer);
* ``outcome`` — the answer matches ``expected_outcome``.

Ablations drop one component at a time (seed 001: "elimina la memoria, el reranking, los
ejemplos o la compresión de uno en uno"): ``no_memory`` (no memory source), ``no_rerank``
(evidence ranked by BM25 alone, without the embedding fusion), ``no_examples`` (the few-shot
examples left out of the system prompt), ``no_compression`` (large tool results enter whole
instead of as a frozen preview). A component that adds tokens without improving any check
should not load by default. Each finished (ablation, case) cell goes to a checkpoint.
"""

from __future__ import annotations

import functools
import re
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from workset.context.items import Scope
from workset.context.sources import ItemSource
from workset.context.trust import Secrets
from workset.errors import UsageError
from workset.events import LoopEvent, ModelCalled, ToolStarted
from workset.log.store import SessionLog
from workset.loop.settings import AgentConfig
from workset.models.base import Model, ModelInfo, ModelRequest, ModelResponse
from workset.session.agent import Agent
from workset.tokens.counter import PartCounter
from workset.tools.registry import ToolRegistry

from .cases import Case, CaseSuite
from .checkpoint import Checkpoint

Ablation = Literal["full", "no_memory", "no_rerank", "no_examples", "no_compression"]
ABLATIONS: tuple[Ablation, ...] = (
    "full",
    "no_memory",
    "no_rerank",
    "no_examples",
    "no_compression",
)
CHECKS = ("evidence", "tools", "leaks", "outcome")
Progress = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class CaseResult:
    """One case under one ablation: each check, the answer and what it cost."""

    case: str
    ablation: str
    checks: dict[str, bool]
    answer: str
    tools_run: tuple[str, ...]
    forbidden_proposed: tuple[str, ...]
    leaked: tuple[str, ...]
    missing_evidence: tuple[str, ...]
    prompt_tokens: int
    calls: int
    status: str = "finished"

    @property
    def passed(self) -> bool:
        return all(self.checks.values())


@dataclass(frozen=True, slots=True)
class ComponentReport:
    suite: str
    model: str
    results: tuple[CaseResult, ...]
    ablations: tuple[str, ...] = field(default=ABLATIONS)

    def rows(self, ablation: str) -> list[CaseResult]:
        return [r for r in self.results if r.ablation == ablation]


class _Watching:
    """The run's model, with every request it receives kept (for the leak check)."""

    def __init__(self, model: Model) -> None:
        self.model = model
        self.requests: list[ModelRequest] = []

    @property
    def info(self) -> ModelInfo:
        return self.model.info

    def token_counter(self) -> PartCounter:
        return self.model.token_counter()

    async def complete(self, request: ModelRequest) -> ModelResponse:
        self.requests.append(request)
        return await self.model.complete(request)

    async def aclose(self) -> None:
        """The wrapped model belongs to the caller."""


async def evaluate_components(
    suite: CaseSuite,
    model: Model,
    *,
    checkpoint: Checkpoint,
    ablations: Sequence[str] = ABLATIONS,
    progress: Progress | None = None,
) -> ComponentReport:
    """Run every case under every ablation (finished cells are read from the checkpoint)."""
    known: dict[str, Ablation] = {a: a for a in ABLATIONS}
    unknown = sorted(set(ablations) - set(known))
    if unknown:
        raise UsageError(f"unknown ablations {unknown}; choose from {', '.join(ABLATIONS)}")
    results: list[CaseResult] = []
    for ablation in (known[a] for a in ablations):
        for case in suite.cases:
            key = f"component/{model.info.name}/{ablation}/{case.name}"
            stored = checkpoint.get(key)
            if stored is None:
                result = await run_case(suite, case, ablation, model)
                stored = checkpoint.put(key, _to_json(result))
            results.append(_from_json(stored))
            if progress is not None:
                progress(f"{ablation} {case.name}")
    return ComponentReport(suite.source, model.info.name, tuple(results), tuple(ablations))


async def run_case(
    suite: CaseSuite,
    case: Case,
    ablation: Ablation,
    model: Model,
) -> CaseResult:
    """One agent run of ``case`` with ``ablation``'s component left out, and its checks."""
    watching = _Watching(model)
    events: list[LoopEvent] = []
    ran: list[str] = []
    with tempfile.TemporaryDirectory(prefix="workset-case-") as folder:
        root = Path(folder)
        sources, closers = _sources(suite, case, ablation, root)
        try:
            agent = Agent(
                watching,
                ToolRegistry([t.tool(ran) for t in suite.tools]),
                SessionLog(root / "log.db"),
                AgentConfig(system_prompt=_system_prompt(suite, ablation), max_iterations=6),
                subscribers=[events.append],
                gate=_gate(),
                sources=sources,
                scope=Scope(case.tenant, case.subject),
                history_policy=_compression(ablation, root),
                secrets=Secrets(dict(suite.secrets)),
            )
            run = await agent.run(case.input)
        finally:
            for close in closers:
                close()
    answer = run.answer if run.status == "finished" else f"[{run.status}] {run.error}"
    return score(case, ablation, answer, run.status, events, watching.requests, ran)


def score(
    case: Case,
    ablation: str,
    answer: str,
    status: str,
    events: Sequence[LoopEvent],
    requests: Sequence[ModelRequest],
    ran: Sequence[str],
) -> CaseResult:
    """The four checks of one run, from its events and the requests the model received."""
    called = [e for e in events if isinstance(e, ModelCalled)]
    included = [i for e in called for i in e.manifest.included]
    missing = tuple(
        need
        for need in case.required_evidence
        if not any(need in f"{i.item_id} {i.source} {i.reference}" for i in included)
    )
    started = {e.call.name for e in events if isinstance(e, ToolStarted)}
    proposed = {c.name for e in called for c in e.message.tool_calls}
    forbidden = tuple(sorted((proposed | started) & set(case.forbidden_tools)))
    sent = "\n".join(_request_text(r) for r in requests)
    leaked = tuple(s for s in case.must_not_contain if s in sent or s in answer)
    leaked += tuple(s for s in case.answer_must_not_contain if s in answer)
    outcome = case.expected_outcome is None or re.search(case.expected_outcome, answer) is not None
    checks = {
        "evidence": not missing,
        "tools": set(case.required_tools) <= started and not forbidden,
        "leaks": not leaked,
        "outcome": outcome and status == "finished",
    }
    return CaseResult(
        case.name,
        ablation,
        checks,
        answer,
        tuple(ran),
        forbidden,
        leaked,
        missing,
        sum(e.usage.prompt_tokens for e in called),
        len(called),
        status,
    )


def _system_prompt(suite: CaseSuite, ablation: Ablation) -> str:
    if ablation == "no_examples" or not suite.examples:
        return suite.system_prompt
    return f"{suite.system_prompt}\n\n{suite.examples}"


def _sources(
    suite: CaseSuite,
    case: Case,
    ablation: Ablation,
    root: Path,
) -> tuple[list[ItemSource], list[Callable[[], None]]]:
    sources: list[ItemSource] = []
    closers: list[Callable[[], None]] = []
    if ablation != "no_memory" and suite.memory:
        from workset.memory.context import MemoryContext
        from workset.memory.store import ANY_PURPOSE, MemoryStore

        store = MemoryStore(root / "memory.db")
        closers.append(store.close)
        for number, record in enumerate(suite.memory):
            store.add(
                subject=record["subject"],
                tenant=record["tenant"],
                purpose=record.get("purpose", ANY_PURPOSE),
                text=record["text"],
                source=record.get("source", "system_record"),
                provenance=f"cases:{suite.source}#memory-{number + 1}",
            )
        sources.append(MemoryContext(store))
    docs = case.docs or suite.docs
    if docs is not None:
        sources.append(_evidence(docs, rerank=ablation != "no_rerank"))
    return sources, closers


@functools.cache
def _evidence(docs: Path, *, rerank: bool) -> ItemSource:
    """An evidence source over ``docs`` (built once per process: documents are fixtures)."""
    from workset.evidence import EvidenceIndex, chunk_document, load_documents
    from workset.evidence.context import EvidenceContext
    from workset.history.recall import shared_embedder

    chunks = [c for d in load_documents(docs).documents for c in chunk_document(d)]
    if not chunks:
        raise UsageError(f"{docs} holds no readable documents for the cases' evidence")
    return EvidenceContext(EvidenceIndex.build(chunks, shared_embedder() if rerank else None))


def _compression(ablation: Ablation, root: Path) -> Any:
    if ablation == "no_compression":
        return None
    from workset.history.budget import ToolResultBudget
    from workset.history.policies import make_policy
    from workset.tools.output import ArtifactStore
    from workset.tools.workspace import Workspace

    (root / "artifacts").mkdir(exist_ok=True)
    budget = ToolResultBudget(ArtifactStore(Workspace(root / "artifacts")), session_id="case")
    return lambda: make_policy("full", layers=[budget])


def _gate() -> Any:
    from workset.safety.gate import SafetyGate

    return SafetyGate()  # no approver: a risky tool is refused, whatever the context says


def _request_text(request: ModelRequest) -> str:
    parts = []
    for message in request.messages:
        parts.append(getattr(message, "content", None) or "")
        parts += [c.arguments for c in getattr(message, "tool_calls", ())]
    return "\n".join(parts)


def _to_json(result: CaseResult) -> dict[str, Any]:
    return asdict(result)


def _from_json(data: dict[str, Any]) -> CaseResult:
    fields = {k: v for k, v in data.items() if k != "key"}
    for name in ("tools_run", "forbidden_proposed", "leaked", "missing_evidence"):
        fields[name] = tuple(fields[name])
    return CaseResult(**fields)
