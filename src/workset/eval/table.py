"""The policy table: the control row, then each policy's replay and its answers to every probe.

Per policy: the transcript is replayed (each call point counted, flagged when it would not
have fitted the model's window), then each probe phrasing gets the policy's view of the whole
transcript with that phrasing as the current query (a policy that retrieves by the current
need retrieves for the question; the others give the same view every time), and is asked on
top of it. A policy whose probe prompt does not fit the window is recorded as "does not fit"
and not asked; the run goes on.

Everything finished goes to the checkpoint as soon as it is known: each call point's count,
each of the policy's own model calls (summaries, notes: :class:`RecordingModel`), the probe
prompts, each answer. An interrupted run resumes where it stopped; an interrupted compaction
replay re-derives its summaries from the checkpoint instead of asking the model again.

The control row (the planted turns alone) comes first: a probe whose control row is below
:data:`INFORMATIVE` is marked uninformative for the model, since the model cannot answer it
even with the fact in front of it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from workset.context.assemble import Assembler
from workset.errors import UsageError
from workset.history.base import HistoryPolicy
from workset.messages import ToolSpec, to_wire
from workset.models.base import Model
from workset.session import context as session_context
from workset.session.context import RequestSettings, policy_context
from workset.tokens.counter import PartCounter
from workset.tools.compact import agent_specs

from .checkpoint import Checkpoint
from .formats import Probe, Transcript, require_answered
from .match import Value
from .probes import ask, control_prompt, other_values
from .recording import RecordingModel
from .replay import CallCount, replay
from .request import LAYOUT, Prompt, apply_view, build, eval_settings
from .score import Outcome, Tally, classify, tally

CONTROL = "control"
INFORMATIVE = 5 / 6  # the control row's share correct below which a probe says nothing
# Tokens a probe's answer may take. Room for a tool call that carries the fact: asked which
# employee number a ticket is filed under, the 1.5B wrote the whole ``create_ticket`` call
# (title, severity, team, then ``reporter_employee_number``), cut at the old 48 before the
# number, so its control row scored 1/6 on a fact it had used.
ANSWER_TOKENS = 128
GOAL_TOKEN_SHARE = 0.40  # the goal: at most 40 % of full history's billed input
Progress = Callable[[str], None]  # called once per finished cell, with a short label
Labelled = tuple[str, HistoryPolicy]  # a row label (a policy with its parameters) and policy


@dataclass(frozen=True, slots=True)
class ProbeAnswer:
    probe_id: str
    phrasing: int
    answer: str
    outcome: Outcome
    prompt_tokens: int


@dataclass(frozen=True, slots=True)
class PolicyRow:
    """One row of the table: a policy's token numbers and its answers (or the control row).

    ``fits`` is False when a probe prompt (plus the answer's tokens) would not fit the
    model's window: the row has no answers. ``over_window`` counts the replay's call points
    that would not have fitted.
    """

    name: str
    billed: int
    cached: int
    final_context: int
    calls: int
    cost_prompt: int  # what the policy's own model calls billed (summaries, notes)
    cost_completion: int
    answers: tuple[ProbeAnswer, ...]
    over_window: int = 0
    fits: bool = True
    largest_prompt: int = 0

    def tally(self, probe_id: str | None = None) -> Tally:
        return tally(a.outcome for a in self.answers if probe_id in (None, a.probe_id))


@dataclass(frozen=True, slots=True)
class PolicyReport:
    transcript: str
    model: str
    window: int
    probes: tuple[Probe, ...]
    rows: tuple[PolicyRow, ...]  # the control row first
    # The largest prompt that fits: the window less the answer's tokens and the agent's
    # margin (0 when unknown: the window is the limit).
    prompt_limit: int = 0

    @property
    def control(self) -> PolicyRow | None:
        return next((r for r in self.rows if r.name == CONTROL), None)

    def informative(self, probe_id: str) -> bool:
        """Whether the control row answers the probe at least :data:`INFORMATIVE` of the time."""
        control = self.control
        if control is None:
            return True
        result = control.tally(probe_id)
        return result.n > 0 and result.counts["correct"] / result.n >= INFORMATIVE - 1e-9

    def meets_goal(self, row: PolicyRow) -> bool | None:
        """The issue's goal for ``row`` against full history: on every informative probe at or
        above full history's recall and right at least once (a tie at 0 keeps nothing), at
        most 40 % of its billed input tokens, fewer confident-wrong answers. None when there
        is no full-history row to compare with."""
        full = next((r for r in self.rows if r.name == "full" and r.fits), None)
        if full is None or row is full or row.name == CONTROL or not row.fits:
            return None
        ids = [p.id for p in self.probes if self.informative(p.id)]
        recall = all(
            row.tally(i).counts["correct"] >= max(full.tally(i).counts["correct"], 1) for i in ids
        )
        wrong = sum(row.tally(i).counts["other_record"] for i in ids)
        full_wrong = sum(full.tally(i).counts["other_record"] for i in ids)
        cheap = row.billed <= GOAL_TOKEN_SHARE * full.billed
        return recall and cheap and (wrong < full_wrong or wrong == full_wrong == 0)


def fingerprint(
    transcript: Transcript,
    tools: Sequence[ToolSpec],
    probes: Sequence[Probe],
    model: str,
    *,
    window: int,
    max_tokens: int,
) -> str:
    """What a checkpoint's cells depend on: change any of it and they are not reused."""
    data = [
        transcript.system,
        [to_wire(m) for m in transcript.messages],
        [t.to_wire() for t in tools],
        [[p.id, p.planted_turn, p.questions] for p in probes],
        model,
        window,
        max_tokens,
        LAYOUT,
    ]
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


async def evaluate_policies(
    transcript: Transcript,
    tools: Sequence[ToolSpec],
    probes: Sequence[Probe],
    policies: Sequence[HistoryPolicy | Labelled],
    model: Model,
    counter: PartCounter,
    *,
    checkpoint: Checkpoint,
    max_tokens: int = ANSWER_TOKENS,
    progress: Progress | None = None,
    compact_tools: bool | None = None,
) -> PolicyReport:
    """The control row, then each policy's replay and answers; see the module docstring.

    ``tools`` are sent as the agent would send them to this model
    (:func:`~workset.tools.compact.agent_specs`: compact on a small window unless
    ``compact_tools`` says otherwise), to every policy alike."""
    require_answered(transcript)
    window = model.info.context_window
    tools = agent_specs(tools, window, compact_tools)
    _check_meta(
        checkpoint,
        fingerprint(
            transcript, tools, probes, model.info.name, window=window, max_tokens=max_tokens
        ),
    )
    run = _Run(transcript, tools, probes, model, counter, checkpoint, max_tokens, progress)
    control = control_prompt(transcript, probes)
    rows = [await run.control_row(control)]
    for entry in policies:
        label, policy = entry if isinstance(entry, tuple) else (entry.name, entry)
        rows.append(await run.policy_row(label, policy))
    limit = run.settings.budget.available(0)
    return PolicyReport(
        transcript.source, model.info.name, window, tuple(probes), tuple(rows), limit
    )


def history_room(settings: RequestSettings, tools: Sequence[ToolSpec]) -> int:
    """Tokens left for the history once the system prompt, tools, the answer and the margin
    are kept free (what the agent gives its policy); an error when nothing is left."""
    room = session_context.history_room(settings, tools)
    if room <= 0:
        b = settings.budget
        raise UsageError(
            f"the system prompt and tools leave {room:,} tokens of the {b.window:,}-token "
            f"window for the history once the answer ({b.output_reserve:,}) and the margin "
            f"({b.margin:,}) are kept free; use a model with a larger window or fewer tools"
        )
    return room


class _Run:
    """One table being filled: the inputs, the checkpoint and the shared policy context."""

    def __init__(
        self,
        transcript: Transcript,
        tools: Sequence[ToolSpec],
        probes: Sequence[Probe],
        model: Model,
        counter: PartCounter,
        checkpoint: Checkpoint,
        max_tokens: int,
        progress: Progress | None,
    ) -> None:
        self.transcript = transcript
        self.tools = tuple(tools)
        self.model = model
        self.counter = counter
        self.checkpoint = checkpoint
        self.max_tokens = max_tokens
        self.progress = progress
        self.window = model.info.context_window
        self.others: Mapping[Probe, tuple[Value, ...]] = {
            p: other_values(p, probes, transcript) for p in probes
        }
        self.settings = eval_settings(
            transcript.system,
            counter,
            window=self.window,
            answer=max_tokens,
            summarizer=RecordingModel(model, checkpoint),
        )
        history_room(self.settings, tools)
        self.assembler = Assembler(counter)

    def _tell(self, label: str) -> None:
        if self.progress is not None:
            self.progress(label)

    async def control_row(self, prompt: Prompt) -> PolicyRow:
        prompts = {(p.id, i): prompt for p in self.others for i in range(len(p.questions))}
        largest, fits = self._fit(prompts)
        answers = await self._answers(CONTROL, prompts) if fits else self._skip(CONTROL)
        built, _ = build(self.assembler, self.settings, prompt.view(), self.tools)
        tokens = built.count.total
        return PolicyRow(CONTROL, tokens, 0, tokens, 0, 0, 0, answers, 0, fits, largest)

    async def policy_row(self, label: str, policy: HistoryPolicy) -> PolicyRow:
        """``label``'s row; its cells are keyed by the label and the policy's settings."""
        cell = f"{label}{_settings_tag(policy)}"
        stored = self.checkpoint.get(f"replay/{cell}")
        if stored is None:
            stored = await self._replay(cell, policy)
        self._tell(f"replay {label}")
        prompts = {
            (probe, int(phrasing)): self._stored_prompt(digest)
            for name, digest in stored["prompts"].items()
            for probe, phrasing in [name.rsplit("/", 1)]
        }
        answers = await self._answers(cell, prompts) if stored["fits"] else self._skip(label)
        return PolicyRow(
            label,
            stored["billed"],
            stored["cached"],
            stored["final_context"],
            stored["calls"],
            stored["cost_prompt"],
            stored["cost_completion"],
            answers,
            stored["over_window"],
            stored["fits"],
            stored["largest_prompt"],
        )

    async def _replay(self, label: str, policy: HistoryPolicy) -> dict[str, Any]:
        def on_call(n: int, call: CallCount) -> None:
            self.checkpoint.put(f"call/{label}/{n}", asdict(call))

        result = await replay(self.transcript, self.tools, policy, self.settings, on_call=on_call)
        cost = result.cost
        prompts: dict[tuple[str, int], Prompt] = {}
        for probe in self.others:
            for phrasing, question in enumerate(probe.questions):
                asked = policy_context(self.settings, self.tools, question)
                view = await policy.view(self.transcript.messages, asked)
                cost = replace(
                    cost,
                    prompt_tokens=cost.prompt_tokens + view.cost.prompt_tokens,
                    completion_tokens=cost.completion_tokens + view.cost.completion_tokens,
                )
                prompts[(probe.id, phrasing)] = apply_view(self.transcript.system, view)
        largest, fits = self._fit(prompts)
        return self.checkpoint.put(
            f"replay/{label}",
            {
                "billed": result.billed,
                "cached": result.cached,
                "final_context": result.final_context,
                "calls": len(result.calls),
                "cost_prompt": cost.prompt_tokens,
                "cost_completion": cost.completion_tokens,
                "over_window": result.over_window,
                "fits": fits,
                "largest_prompt": largest,
                "prompts": {f"{p}/{i}": self._store_prompt(v) for (p, i), v in prompts.items()},
            },
        )

    def _skip(self, row: str) -> tuple[ProbeAnswer, ...]:
        """A row that does not fit: nothing is asked (its cells still count as done)."""
        for probe in self.others:
            for phrasing in range(len(probe.questions)):
                self._tell(f"{row} {probe.id} #{phrasing + 1}: does not fit")
        return ()

    def _fit(self, prompts: Mapping[tuple[str, int], Prompt]) -> tuple[int, bool]:
        """The largest probe request (question included) and whether it fits the window."""
        questions = {(p.id, i): q for p in self.others for i, q in enumerate(p.questions)}
        built = [
            build(self.assembler, self.settings, prompt.view(), self.tools, questions[key])
            for key, prompt in prompts.items()
        ]
        return max(b.count.total for b, _ in built), all(fits for _, fits in built)

    def _store_prompt(self, prompt: Prompt) -> str:
        data = prompt.to_json()
        digest = hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:24]
        if f"prompt/{digest}" not in self.checkpoint:
            self.checkpoint.put(f"prompt/{digest}", data)
        return digest

    def _stored_prompt(self, digest: str) -> Prompt:
        data = self.checkpoint.get(f"prompt/{digest}")
        if data is None:
            raise UsageError(
                f"the checkpoint {self.checkpoint.path} lost a probe prompt ({digest}); "
                "delete the checkpoint or choose another --out folder"
            )
        return Prompt.from_json(data)

    async def _answers(
        self, row: str, prompts: Mapping[tuple[str, int], Prompt]
    ) -> tuple[ProbeAnswer, ...]:
        answers: list[ProbeAnswer] = []
        for probe, others in self.others.items():
            for phrasing, question in enumerate(probe.questions):
                key = f"probe/{row}/{probe.id}/{phrasing}"
                stored = self.checkpoint.get(key)
                if stored is None:
                    prompt = prompts[(probe.id, phrasing)]
                    text, tokens = await ask(
                        self.model,
                        prompt,
                        self.tools,
                        question,
                        max_tokens=self.max_tokens,
                        counter=self.counter,
                    )
                    stored = self.checkpoint.put(key, {"answer": text, "prompt_tokens": tokens})
                # classified on every run, so a better classifier applies to old checkpoints
                outcome = classify(
                    stored["answer"], probe.expected, regex=probe.regex, others=others
                )
                answers.append(
                    ProbeAnswer(
                        probe.id, phrasing, stored["answer"], outcome, stored["prompt_tokens"]
                    )
                )
                self._tell(f"{row} {probe.id} #{phrasing + 1}")
        return tuple(answers)


def _settings_tag(policy: HistoryPolicy) -> str:
    """A short hash of what the policy was built with (defaults included), so a replay
    stored for other settings under the same name is never reused."""
    settings = getattr(policy, "settings", None)
    if not settings:
        return ""
    text = json.dumps(settings, sort_keys=True, default=str)
    return "#" + hashlib.sha256(text.encode()).hexdigest()[:8]


def total_cells(policies: int, probes: Sequence[Probe]) -> int:
    """How many progress steps :func:`evaluate_policies` reports."""
    phrasings = sum(len(p.questions) for p in probes)
    return policies + (policies + 1) * phrasings


def _check_meta(checkpoint: Checkpoint, print_: str) -> None:
    meta = checkpoint.get("meta")
    if meta is None:
        checkpoint.put("meta", {"fingerprint": print_})
    elif meta.get("fingerprint") != print_:
        raise UsageError(
            f"the checkpoint {checkpoint.path} was written for another transcript, tools, "
            "probes, model, context window, answer length or request layout (an older "
            "workset); delete it or choose another --out folder"
        )
