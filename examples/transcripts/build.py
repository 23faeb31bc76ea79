"""Shared by the fixture generators: write a transcript one turn at a time, deterministically.

A generator (``incident/make.py``, ``coding/make.py``) describes its session as user turns,
tool-call rounds and assistant replies; :class:`TranscriptBuilder` numbers the turns, gives
every tool call a stable id from a seeded random generator and writes the JSONL fixture
(SPEC §3: one OpenAI-shape message per line with a ``turn`` field).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

Call = tuple[str, Mapping[str, Any], str]  # tool name, arguments, the result's text


class TranscriptBuilder:
    def __init__(self, seed: int, *, avoid: Iterable[str] = ()) -> None:
        self.rng = random.Random(seed)
        self.avoid = tuple(avoid)  # strings random ids and numbers must never contain
        self.turn = 0
        self.lines: list[dict[str, Any]] = []

    # -- random pieces that never spell a planted fact ---------------------------------

    def hex_id(self, length: int = 8) -> str:
        while True:
            value = "".join(self.rng.choice("0123456789abcdef") for _ in range(length))
            if self.clean(value):
                return value

    def number(self, low: int, high: int) -> int:
        while True:
            value = self.rng.randint(low, high)
            if self.clean(str(value)):
                return value

    def clean(self, text: str) -> bool:
        return not any(bad in text for bad in self.avoid)

    # -- the conversation --------------------------------------------------------------

    def user(self, text: str) -> None:
        self.turn += 1
        self.lines.append({"turn": self.turn, "role": "user", "content": text})

    def calls(self, *calls: Call, content: str | None = None) -> None:
        """One assistant message asking for ``calls``, then one tool message per call."""
        ids = [f"call_{self.hex_id(12)}" for _ in calls]
        self.lines.append(
            {
                "turn": self.turn,
                "role": "assistant",
                "content": content,
                "tool_calls": [
                    {
                        "id": call_id,
                        "type": "function",
                        "function": {"name": name, "arguments": json.dumps(dict(args))},
                    }
                    for call_id, (name, args, _) in zip(ids, calls, strict=True)
                ],
            }
        )
        for call_id, (name, _, result) in zip(ids, calls, strict=True):
            self.lines.append(
                {
                    "turn": self.turn,
                    "role": "tool",
                    "tool_call_id": call_id,
                    "name": name,
                    "content": result.strip("\n"),
                }
            )

    def say(self, text: str) -> None:
        self.lines.append({"turn": self.turn, "role": "assistant", "content": text})

    def write(self, path: Path) -> None:
        text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in self.lines)
        path.write_text(text, encoding="utf-8")


def write_json(path: Path, value: Any) -> None:
    path.write_text(json.dumps(value, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def tool(name: str, description: str, properties: dict[str, Any], required: list[str]) -> dict:
    """One OpenAI tool definition."""
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": description,
            "parameters": {
                "type": "object",
                "properties": properties,
                "required": required,
                "additionalProperties": False,
            },
        },
    }


def check_planted(b: TranscriptBuilder, facts: Iterable[tuple[str, int]]) -> None:
    """Each planted fact is said once, by the user at its turn, and nowhere else."""
    facts = tuple(facts)
    for line in b.lines:
        text = str(line)
        for fact, turn in facts:
            if fact in text and not (line["turn"] == turn and line["role"] == "user"):
                raise SystemExit(f"{fact!r} leaked into turn {line['turn']}: {text[:200]}")


def where_said(b: TranscriptBuilder, value: str) -> list[tuple[int, str]]:
    """Each (turn, role) that says ``value``: user, assistant, tool, or call (the arguments
    of an assistant's tool call), in order and without repeats."""
    found: list[tuple[int, str]] = []
    for line in b.lines:
        places = []
        if line["role"] == "assistant":
            if value in (line.get("content") or ""):
                places.append("assistant")
            if any(value in c["function"]["arguments"] for c in line.get("tool_calls") or []):
                places.append("call")
        elif value in line["content"]:
            places.append(line["role"])
        for role in places:
            if (line["turn"], role) not in found:
                found.append((line["turn"], role))
    return found


def check_once(b: TranscriptBuilder, value: str, expected: list[tuple[int, str]]) -> None:
    """``value`` is said exactly where ``expected`` says (turn, role), and nowhere else."""
    found = where_said(b, value)
    if sorted(found) != sorted(expected):
        raise SystemExit(f"{value!r} is said at {found}, expected only at {expected}")


def write_fixture(b: TranscriptBuilder, here: Path, tools: Any, probes: str) -> None:
    """The transcript, its tools and its probes, written next to the generator."""
    b.write(here / "transcript.jsonl")
    write_json(here / "tools.json", tools)
    (here / "probes.yaml").write_text(probes, encoding="utf-8")
    print(f"wrote {len(b.lines)} messages over {b.turn} turns to {here}")


# Parameter schemas and result text the generators share.


def p(description: str, **extra: object) -> dict[str, object]:
    """A string parameter."""
    return {"type": "string", "description": description, **extra}


def flag(description: str) -> dict[str, object]:
    return {"type": "boolean", "description": description}


def money(description: str) -> dict[str, object]:
    return {"type": "number", "description": description}


def count(description: str) -> dict[str, object]:
    return {"type": "integer", "description": description}


def pretty(value: Any) -> str:
    """A JSON tool result as a service prints it: indented, non-ASCII kept."""
    return json.dumps(value, indent=2, ensure_ascii=False)
