"""Record lists for the position and length tests: where the fact sits, how many neighbours.

Two tasks. ``tickets`` is seed 003's: generated ticket lines with an owner and a 4-digit
extension, asked for one owner's extension. ``kv`` is the key–value retrieval of "Lost in the
Middle" (Liu et al. 2023): a JSON object of UUID pairs, asked for one key's value. Each trial
places the gold record at a slot among ``n - 1`` others; the first value the model names is
correct, another record's value (a confident neighbour: the failure that ships), a refusal, or
other. Trials and records are deterministic in the trial number.
"""

from __future__ import annotations

import gzip
import json
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workset.errors import UsageError
from workset.models.base import Model

from .checkpoint import Checkpoint
from .probes import ask
from .request import Prompt
from .score import Outcome, Tally, is_refusal

_FIRST = (
    "Maria",
    "James",
    "Aiko",
    "Omar",
    "Lena",
    "Ravi",
    "Sofia",
    "Chen",
    "Noah",
    "Fatima",
    "Lucas",
    "Ingrid",
    "Mateo",
    "Priya",
    "Jonas",
    "Amara",
    "Diego",
    "Yuki",
    "Elena",
    "Kofi",
)
_LAST = (
    "Lopez",
    "Smith",
    "Tanaka",
    "Haddad",
    "Novak",
    "Patel",
    "Rossi",
    "Wang",
    "Keller",
    "Okafor",
    "Silva",
    "Berg",
    "Garcia",
    "Iyer",
    "Weber",
    "Mensah",
    "Ruiz",
    "Sato",
    "Popescu",
    "Boateng",
)
_UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"


@dataclass(frozen=True, slots=True)
class Record:
    key: str  # what the question names (an owner, a JSON key)
    value: str  # the answer (an extension, a JSON value)
    line: str  # the record as it appears in the prompt


Source = Callable[[int, int], tuple[Record, list[Record]]]  # (n, trial) -> gold, n-1 others


@dataclass(frozen=True, slots=True)
class RecordTask:
    """How records become a prompt, and how a value is read back out of an answer."""

    name: str
    system: str
    intro: str
    question: str  # with {key}
    value_pattern: str
    source: Source
    joiner: str = "\n"
    wrap: tuple[str, str] = ("", "")

    def prompt(self, lines: Sequence[str], key: str) -> str:
        body = self.wrap[0] + self.joiner.join(lines) + self.wrap[1]
        return f"{self.intro}\n\n{body}\n\n{self.question.format(key=key)}"

    def said(self, answer: str) -> str | None:
        match = re.search(self.value_pattern, answer, re.IGNORECASE)
        return match.group(0).lower() if match else None


def ticket_records(n: int, seed: int) -> list[Record]:
    """``n`` tickets with unique owners and unique 4-digit extensions (n ≤ 400)."""
    owners = [f"{f} {last}" for f in _FIRST for last in _LAST]
    if not 1 <= n <= len(owners):
        raise UsageError(f"ticket lists hold 1 to {len(owners)} records, not {n}")
    rng = random.Random(seed)
    chosen = rng.sample(owners, n)
    extensions = rng.sample(range(1000, 10000), n)
    numbers = rng.sample(range(10000, 100000), n)
    return [
        Record(owner, str(ext), f"Ticket TKT-{num} is owned by {owner}, extension {ext}.")
        for owner, ext, num in zip(chosen, extensions, numbers, strict=True)
    ]


def ticket_source(n: int, trial: int) -> tuple[Record, list[Record]]:
    records = ticket_records(n, 1000 + trial)
    gold = records[random.Random(7 + trial).randrange(n)]  # a different one each trial
    return gold, [r for r in records if r is not gold]


def kv_source(path: Path) -> Source:
    """Trials from a lost-in-the-middle ``kv-retrieval-*.jsonl.gz`` file (one example each)."""
    examples = _kv_examples(path)

    def source(n: int, trial: int) -> tuple[Record, list[Record]]:
        example = examples[trial % len(examples)]
        gold_key, gold_value = example["key"], example["value"]
        pairs = [(k, v) for k, v in example["ordered_kv_records"] if k != gold_key]
        if n - 1 > len(pairs):
            raise UsageError(f"{path} has {len(pairs) + 1} keys per example; ask for n ≤ that")
        return _kv(gold_key, gold_value), [_kv(k, v) for k, v in pairs[: n - 1]]

    return source


def _kv(key: str, value: str) -> Record:
    return Record(key, value.lower(), json.dumps(key) + ": " + json.dumps(value))


def _kv_examples(path: Path) -> list[dict[str, Any]]:
    try:
        with gzip.open(path, "rt", encoding="utf-8") as lines:
            examples = [json.loads(line) for line in lines if line.strip()]
    except (OSError, json.JSONDecodeError) as error:
        raise UsageError(f"cannot read the key-value set {path}: {error}") from error
    if not examples or "ordered_kv_records" not in examples[0]:
        raise UsageError(f"{path} is not a lost-in-the-middle kv-retrieval file")
    return examples


TICKETS = RecordTask(
    name="tickets",
    system="You answer questions about a list of support tickets. Answer with the number only.",
    intro="Here are the open support tickets:",
    question="What is the phone extension of {key}? Answer with the 4-digit extension only.",
    value_pattern=r"(?<!\d)\d{4}(?!\d)",
    source=ticket_source,
)


def kv_task(path: Path) -> RecordTask:
    return RecordTask(
        name="kv",
        system="You are a helpful assistant.",
        intro="Extract the value corresponding to the specified key in the JSON object below.",
        question='Key: "{key}"\nCorresponding value:',
        value_pattern=_UUID,
        joiner=",\n ",
        wrap=("JSON data:\n{", "}"),
        source=kv_source(path),
    )


@dataclass(frozen=True, slots=True)
class TrialResult:
    axis: float  # the depth (position test) or the number of records (length test)
    trial: int
    said: str | None
    outcome: Outcome
    prompt_tokens: int


def classify_said(said: str | None, answer: str, gold: Record, rest: Sequence[Record]) -> Outcome:
    if said is not None and said == gold.value.lower():
        return "correct"
    if said is not None and any(said == r.value.lower() for r in rest):
        return "other_record"
    return "refusal" if said is None and (is_refusal(answer) or not answer.strip()) else "other"


async def run_trial(
    model: Model,
    task: RecordTask,
    *,
    n: int,
    slot: int,
    trial: int,
    axis: float,
    max_tokens: int = 24,
) -> TrialResult:
    """One call: the gold record at ``slot`` among ``n - 1`` others, asked by key."""
    gold, rest = task.source(n, trial)
    slot = min(max(slot, 0), len(rest))
    lines = [r.line for r in rest[:slot]] + [gold.line] + [r.line for r in rest[slot:]]
    question = task.prompt(lines, gold.key)
    answer, prompt_tokens = await ask(
        model, Prompt(task.system, ()), (), question, max_tokens=max_tokens
    )
    said = task.said(answer)
    outcome = classify_said(said, answer, gold, rest)
    return TrialResult(axis, trial, said, outcome, prompt_tokens)


@dataclass(frozen=True, slots=True)
class AxisRow:
    axis: float
    tally: Tally
    mean_prompt_tokens: float


@dataclass(frozen=True, slots=True)
class AxisReport:
    kind: str  # "position" or "length"
    task: str
    model: str
    rows: tuple[AxisRow, ...]


async def run_axis(
    model: Model,
    task: RecordTask,
    kind: str,
    cells: Sequence[tuple[float, int, int]],  # (axis value, n, slot) per axis point
    *,
    trials: int,
    checkpoint: Checkpoint,
    progress: Callable[[str], None] | None = None,
    max_tokens: int = 24,
) -> AxisReport:
    rows: list[AxisRow] = []
    for axis, n, slot in cells:
        results: list[TrialResult] = []
        for trial in range(trials):
            key = f"{kind}/{task.name}/{model.info.name}/{axis:g}/{n}/{trial}"
            stored = checkpoint.get(key)
            if stored is None:
                result = await run_trial(
                    model, task, n=n, slot=slot, trial=trial, axis=axis, max_tokens=max_tokens
                )
                checkpoint.put(
                    key,
                    {
                        "said": result.said,
                        "outcome": result.outcome,
                        "prompt_tokens": result.prompt_tokens,
                    },
                )
            else:
                result = TrialResult(
                    axis, trial, stored["said"], stored["outcome"], stored["prompt_tokens"]
                )
            results.append(result)
            if progress is not None:
                progress(f"{kind} {axis:g} #{trial + 1}")
        counts = Tally()
        for result in results:
            counts.add(result.outcome)
        mean = sum(r.prompt_tokens for r in results) / len(results) if results else 0.0
        rows.append(AxisRow(axis, counts, mean))
    return AxisReport(kind, task.name, model.info.name, tuple(rows))
