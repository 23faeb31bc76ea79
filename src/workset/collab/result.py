"""The one shape a subagent returns, how it is checked, and the short text the parent sees.

Seed 004 ("El formato de salida debe estar estandarizado"): every subagent ends with one JSON
object — ``status``, ``summary``, ``findings`` (each a claim with its sources), ``artifacts``
(paths it wrote or that hold the answer), ``open_questions`` — so the parent parses one shape
and error handling is reliable. :func:`parse_result` checks a subagent's final answer against
it (a JSON object anywhere in the text, the fields typed, unknown fields dropped);
:func:`render_for_parent` is the single, clipped tool result the parent receives, with what
the run cost and, when a limit ended it, which one. Nothing else of the subagent's work
reaches the parent's context.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal, TypeAlias

ResultStatus: TypeAlias = Literal["completed", "failed", "cancelled"]
MAX_SUMMARY_CHARS = 600
MAX_ITEMS = 8
MAX_ITEM_CHARS = 300

RESULT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "status": {"enum": ["completed", "failed"]},
        "summary": {"type": "string"},
        "findings": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "claim": {"type": "string"},
                    "sources": {"type": "array", "items": {"type": "string"}},
                },
                "required": ["claim", "sources"],
            },
        },
        "artifacts": {"type": "array", "items": {"type": "string"}},
        "open_questions": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["status", "summary", "findings", "artifacts", "open_questions"],
}

# Placeholders only: an example with plausible content (a function name, a path) was copied
# into results as if found (the 0.5B "found" src/payment/callbacks.py in django-payments).
RESULT_EXAMPLE = (
    '{"status": "completed", "summary": "<the answer in one or two sentences>", "findings": '
    '[{"claim": "<what you found>", "sources": ["<file>:<line> you read it in"]}], '
    '"artifacts": ["<file you wrote or relied on>"], "open_questions": []}'
)
_PLACEHOLDER = re.compile(r"<(?:the answer|what you found|file)\b[^<>]*>")


@dataclass(frozen=True, slots=True)
class Finding:
    claim: str
    sources: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SubagentResult:
    """What a subagent returned, with what the runtime knows about its run.

    ``limit`` names the limit that ended it (``token_budget``, ``wall_time``,
    ``max_model_calls``), empty otherwise; ``note`` says what the runtime did to the answer
    (e.g. that it was not in the shape and was repaired or quoted).
    """

    status: ResultStatus
    summary: str
    findings: tuple[Finding, ...] = ()
    artifacts: tuple[str, ...] = ()
    open_questions: tuple[str, ...] = ()
    agent_id: str = ""
    agent: str = ""
    limit: str = ""
    note: str = ""
    tokens: int = 0
    model_calls: int = 0
    seconds: float = 0.0
    extra: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "agent_id": self.agent_id,
            "agent": self.agent,
            "status": self.status,
            "summary": self.summary,
            "findings": [{"claim": f.claim, "sources": list(f.sources)} for f in self.findings],
            "artifacts": list(self.artifacts),
            "open_questions": list(self.open_questions),
            "cost": {"tokens": self.tokens, "model_calls": self.model_calls},
            "seconds": round(self.seconds, 1),
        }
        if self.limit:
            data["limit"] = self.limit
        if self.note:
            data["note"] = self.note
        return data


def parse_result(text: str) -> tuple[SubagentResult | None, str]:
    """The result in ``text`` (a JSON object, possibly inside prose or a code fence), or None
    and what is wrong with it."""
    data = _first_object(text)
    if data is None:
        return None, "the answer holds no JSON object"
    problems: list[str] = []
    status = data.get("status", "completed")
    if status not in ("completed", "failed"):
        problems.append(f"status must be completed or failed, not {status!r}")
    summary = data.get("summary")
    if not isinstance(summary, str) or not summary.strip():
        problems.append("summary must be a non-empty string")
    elif _PLACEHOLDER.search(json.dumps(data)):
        problems.append("it copies the example's <placeholders>: write what you found instead")
    findings = _findings(data.get("findings", []), problems)
    artifacts = _strings(data.get("artifacts", []), "artifacts", problems)
    questions = _strings(data.get("open_questions", []), "open_questions", problems)
    if problems:
        return None, "; ".join(problems)
    assert isinstance(summary, str)
    return (
        SubagentResult(
            status="failed" if status == "failed" else "completed",
            summary=_clip(summary.strip(), MAX_SUMMARY_CHARS),
            findings=findings,
            artifacts=artifacts,
            open_questions=questions,
        ),
        "",
    )


def quoted_result(text: str, problem: str) -> SubagentResult:
    """A final answer that is not in the shape, kept as the summary, saying so."""
    return SubagentResult(
        status="completed",
        summary=_clip(" ".join(text.split()) or "(empty answer)", MAX_SUMMARY_CHARS),
        note=f"the subagent's answer was not in the result shape ({problem}); it is quoted as "
        "the summary, unverified",
    )


def with_run(result: SubagentResult, **run: Any) -> SubagentResult:
    """``result`` with the runtime's facts about the run (agent id, cost, limit...)."""
    return replace(result, **run)


def render_for_parent(result: SubagentResult) -> str:
    """The one tool result the parent receives: compact JSON of the result."""
    return json.dumps(result.to_json(), ensure_ascii=False, separators=(", ", ": "))


def result_from_json(text: str) -> SubagentResult | None:
    """A result recorded with :func:`render_for_parent` (None when ``text`` is not one)."""
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    cost = data.get("cost") if isinstance(data.get("cost"), dict) else {}
    assert isinstance(cost, dict)
    status = data.get("status")
    return SubagentResult(
        status=status if status in ("completed", "failed", "cancelled") else "failed",
        summary=str(data.get("summary", "")),
        findings=_findings(data.get("findings", []), []),
        artifacts=_strings(data.get("artifacts", []), "artifacts", []),
        open_questions=_strings(data.get("open_questions", []), "open_questions", []),
        agent_id=str(data.get("agent_id", "")),
        agent=str(data.get("agent", "")),
        limit=str(data.get("limit", "")),
        note=str(data.get("note", "")),
        tokens=int(cost.get("tokens", 0)),
        model_calls=int(cost.get("model_calls", 0)),
        seconds=float(data.get("seconds", 0.0)),
    )


def _first_object(text: str) -> dict[str, Any] | None:
    decoder = json.JSONDecoder()
    start = text.find("{")
    while start != -1:
        try:
            value, _ = decoder.raw_decode(text, start)
        except ValueError:
            start = text.find("{", start + 1)
            continue
        if isinstance(value, dict):
            return value
        start = text.find("{", start + 1)
    return None


def _findings(value: Any, problems: list[str]) -> tuple[Finding, ...]:
    if not isinstance(value, list):
        problems.append("findings must be a list of {claim, sources}")
        return ()
    found: list[Finding] = []
    for item in value[:MAX_ITEMS]:
        if isinstance(item, str):
            found.append(Finding(_clip(item, MAX_ITEM_CHARS)))
            continue
        if not isinstance(item, dict) or not isinstance(item.get("claim"), str):
            problems.append("each finding must be an object with a 'claim' string")
            continue
        sources = item.get("sources", [])
        if isinstance(sources, str):
            sources = [sources]
        if not isinstance(sources, list):
            sources = []
        found.append(
            Finding(
                _clip(item["claim"], MAX_ITEM_CHARS),
                tuple(_clip(str(s), MAX_ITEM_CHARS) for s in sources[:MAX_ITEMS]),
            )
        )
    return tuple(found)


def _strings(value: Any, name: str, problems: list[str]) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value] if value.strip() else []
    if not isinstance(value, list):
        problems.append(f"{name} must be a list of strings")
        return ()
    return tuple(_clip(str(v), MAX_ITEM_CHARS) for v in value[:MAX_ITEMS] if str(v).strip())


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
