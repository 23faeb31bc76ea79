"""The policy table: replay under each policy, then ask every probe in every phrasing.

Each finished cell (a policy's replay numbers, one probe phrasing's answer) goes to the
checkpoint as soon as it is known, so an interrupted run resumes where it stopped. The control
row asks the same questions with only the planted turns in a short prompt, so that a zero in a
policy row reads as a loss of the fact, not as a task the model cannot do.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from workset.errors import UsageError
from workset.history.base import HistoryPolicy, PolicyContext
from workset.messages import (
    AssistantMessage,
    Message,
    SystemMessage,
    ToolSpec,
    UserMessage,
    from_wire,
    group_units,
    to_wire,
)
from workset.models.base import Model, ModelRequest
from workset.tokens.counter import PartCounter

from .checkpoint import Checkpoint
from .formats import Probe, Transcript
from .replay import Prompt, replay
from .score import Outcome, Tally, classify, tally

CONTROL = "control"
Progress = Callable[[str], None]  # called once per finished cell, with a short label


@dataclass(frozen=True, slots=True)
class ProbeAnswer:
    probe_id: str
    phrasing: int
    answer: str
    outcome: Outcome
    prompt_tokens: int


@dataclass(frozen=True, slots=True)
class PolicyRow:
    """One row of the table: a policy's token numbers and its answers (or the control row)."""

    name: str
    billed: int
    cached: int
    final_context: int
    calls: int
    cost_prompt: int  # what the policy's own model calls billed (summaries, notes)
    cost_completion: int
    answers: tuple[ProbeAnswer, ...]

    def tally(self, probe_id: str | None = None) -> Tally:
        return tally(a.outcome for a in self.answers if probe_id in (None, a.probe_id))


@dataclass(frozen=True, slots=True)
class PolicyReport:
    transcript: str
    model: str
    probes: tuple[Probe, ...]
    rows: tuple[PolicyRow, ...]


def answer_text(content: str | None, arguments: Sequence[str]) -> str:
    """What the model said: its text plus any tool-call arguments (a ticket it tried to file)."""
    return "\n".join([content or "", *arguments]).strip()


async def ask(
    model: Model,
    prompt: Prompt,
    tools: Sequence[ToolSpec],
    question: str,
    *,
    max_tokens: int,
) -> tuple[str, int]:
    """Ask ``question`` after ``prompt``, greedy and short; the answer and its prompt tokens."""
    head: tuple[Message, ...] = () if prompt.system is None else (SystemMessage(prompt.system),)
    request = ModelRequest(
        (*head, *prompt.messages, UserMessage(question)),
        tuple(tools),
        max_tokens=max_tokens,
        temperature=0.0,
    )
    response = await model.complete(request)
    arguments = [c.arguments for c in response.message.tool_calls]
    return answer_text(response.message.content, arguments), response.usage.prompt_tokens


def control_prompt(transcript: Transcript, probes: Sequence[Probe]) -> Prompt:
    """The planted turns alone: each turn's user message, or the whole turn when the fact is
    not in the user's own words (it came in a tool result)."""
    messages: list[Message] = []
    for turn in sorted({p.planted_turn for p in probes}):
        recorded = transcript.turn_messages(turn)
        if not recorded:
            raise UsageError(
                f"a probe is planted at turn {turn}, but {transcript.source} has no such turn"
            )
        users = [m for m in recorded if isinstance(m, UserMessage)]
        facts = [p for p in probes if p.planted_turn == turn]
        in_user_words = all(
            any(
                classify(u.content, p.expected, regex=p.expected_is_regex) == "correct"
                for u in users
            )
            for p in facts
        )
        messages.extend(users if in_user_words and users else _whole_units(recorded))
    return Prompt(transcript.system, tuple(messages))


def _whole_units(messages: Sequence[Message]) -> list[Message]:
    _, open_unit = group_units(messages)
    if open_unit is None:
        return list(messages)
    return list(messages[: list(messages).index(open_unit.call)])  # drop an unfinished call


def other_values(
    probe: Probe, probes: Sequence[Probe], transcript: Transcript | None = None
) -> tuple[str, ...]:
    """Values that would be another record's answer: the distractors, the other probes'
    facts, and values of the expected one's shape found in the transcript (for ``4417``
    other 4-digit numbers; for ``pay-shard-7`` other ``pay-shard-N``)."""
    others = [p.expected for p in probes if p.id != probe.id and not p.expected_is_regex]
    found: list[str] = []
    if transcript is not None and not probe.expected_is_regex:
        shape = re.compile(shape_pattern(probe.expected), re.IGNORECASE)
        texts = [getattr(m, "content", None) or "" for m in transcript.messages]
        texts += [
            c.arguments
            for m in transcript.messages
            if isinstance(m, AssistantMessage)
            for c in m.tool_calls
        ]
        seen = {v.lower() for v in (probe.expected, *probe.distractors, *others)}
        for text in texts:
            for value in shape.findall(text):
                if value.lower() not in seen:
                    seen.add(value.lower())
                    found.append(value)
    return (*probe.distractors, *others, *found)


def shape_pattern(value: str) -> str:
    """A regex for values shaped like ``value``: a number of the same length, or the same
    words with any number where ``value`` has digits."""
    text = value.strip()
    if text.isdigit():
        body = rf"\d{{{len(text)}}}"
    else:
        body = "".join(
            r"\d+" if part.isdigit() else re.escape(part)
            for part in re.split(r"(\d+)", text)
            if part
        )
    return rf"(?<![\w-]){body}(?![\w-])"


def fingerprint(
    transcript: Transcript, tools: Sequence[ToolSpec], probes: Sequence[Probe], model: str
) -> str:
    data = [
        transcript.system,
        [to_wire(m) for m in transcript.messages],
        [t.to_wire() for t in tools],
        [[p.id, p.planted_turn, p.questions, p.expected, p.distractors] for p in probes],
        model,
    ]
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


async def evaluate_policies(
    transcript: Transcript,
    tools: Sequence[ToolSpec],
    probes: Sequence[Probe],
    policies: Sequence[HistoryPolicy],
    model: Model,
    counter: PartCounter,
    *,
    checkpoint: Checkpoint,
    max_tokens: int = 48,
    progress: Progress | None = None,
) -> PolicyReport:
    """Replay under each policy, ask each probe phrasing, and add the control row."""
    _check_meta(checkpoint, fingerprint(transcript, tools, probes, model.info.name))
    context = PolicyContext(window=model.info.context_window, summarizer=model)
    asked = {p: other_values(p, probes, transcript) for p in probes}
    rows: list[PolicyRow] = []
    for policy in policies:
        key = f"replay/{policy.name}"
        stored = checkpoint.get(key)
        if stored is None:
            result = await replay(transcript, tools, policy, counter, context)
            stored = checkpoint.put(
                key,
                {
                    "billed": result.billed,
                    "cached": result.cached,
                    "final_context": result.final_context,
                    "calls": len(result.calls),
                    "cost_prompt": result.cost.prompt_tokens,
                    "cost_completion": result.cost.completion_tokens,
                    "end": _prompt_json(result.end),
                },
            )
        if progress is not None:
            progress(f"replay {policy.name}")
        end = _prompt_from_json(stored["end"])
        answers = await _ask_all(
            policy.name, end, tools, asked, model, checkpoint, max_tokens, progress
        )
        rows.append(
            PolicyRow(
                policy.name,
                stored["billed"],
                stored["cached"],
                stored["final_context"],
                stored["calls"],
                stored["cost_prompt"],
                stored["cost_completion"],
                answers,
            )
        )
    control = control_prompt(transcript, probes)
    answers = await _ask_all(
        CONTROL, control, tools, asked, model, checkpoint, max_tokens, progress
    )
    control_tokens = counter.count_request(control.system, tools, control.messages).total
    rows.append(PolicyRow(CONTROL, control_tokens, 0, control_tokens, 0, 0, 0, answers))
    return PolicyReport(transcript.source, model.info.name, tuple(probes), tuple(rows))


async def _ask_all(
    row: str,
    prompt: Prompt,
    tools: Sequence[ToolSpec],
    probes: Mapping[Probe, tuple[str, ...]],  # each probe with its other records' values
    model: Model,
    checkpoint: Checkpoint,
    max_tokens: int,
    progress: Progress | None,
) -> tuple[ProbeAnswer, ...]:
    answers: list[ProbeAnswer] = []
    for probe, others in probes.items():
        for phrasing, question in enumerate(probe.questions):
            key = f"probe/{row}/{probe.id}/{phrasing}"
            stored = checkpoint.get(key)
            if stored is None:
                text, tokens = await ask(model, prompt, tools, question, max_tokens=max_tokens)
                outcome = classify(
                    text, probe.expected, regex=probe.expected_is_regex, others=others
                )
                stored = checkpoint.put(
                    key, {"answer": text, "outcome": outcome, "prompt_tokens": tokens}
                )
            # classified on every run, so a better classifier applies to old checkpoints
            outcome = classify(
                stored["answer"], probe.expected, regex=probe.expected_is_regex, others=others
            )
            answers.append(
                ProbeAnswer(probe.id, phrasing, stored["answer"], outcome, stored["prompt_tokens"])
            )
            if progress is not None:
                progress(f"{row} {probe.id} #{phrasing + 1}")
    return tuple(answers)


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
            "probes or model; delete it or choose another --out folder"
        )


def _prompt_json(prompt: Prompt) -> dict[str, Any]:
    return {"system": prompt.system, "messages": [to_wire(m) for m in prompt.messages]}


def _prompt_from_json(data: dict[str, Any]) -> Prompt:
    return Prompt(data["system"], tuple(from_wire(m) for m in data["messages"]))
