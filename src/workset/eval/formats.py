"""Loaders for the harness's files (SPEC §3): transcript JSONL, tools JSON, probes YAML/JSON.

Every error names the file, the line or entry, what is wrong and what to write instead.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path
from typing import Any

from workset.errors import UsageError
from workset.messages import (
    AssistantMessage,
    Message,
    SystemMessage,
    ToolMessage,
    ToolSpec,
    UserMessage,
    from_wire,
    group_units,
)

from .match import Value


@dataclass(frozen=True, slots=True)
class Transcript:
    """A recorded session: the system prompt apart, then the messages with their turn numbers.

    ``turns[i]`` is the turn of ``messages[i]``: the ``"turn"`` field when the line has one,
    otherwise 1 for the first user message and everything up to the next, 2 for the second...
    """

    system: str | None
    messages: tuple[Message, ...]
    turns: tuple[int, ...]
    source: str = ""

    def turn_messages(self, turn: int) -> tuple[Message, ...]:
        return tuple(m for m, t in zip(self.messages, self.turns, strict=True) if t == turn)


@dataclass(frozen=True, slots=True)
class Probe:
    """A planted fact asked at the end of a replay in several phrasings.

    ``expected`` is the value (matched whole-word in canonical form: case, ``-``/``_``/space,
    numbers, currencies, units and dates normalised, see :mod:`workset.eval.match`), or a
    tuple of parts that must all be named (a table and a partition); ``regex``
    is a pattern that also counts as correct (either may be empty, not both).
    ``distractors`` are other records' values that a confused model might give instead: a
    string, or a tuple of parts that must all be named (a wrong partition of the right table).
    ``kind`` says what sort of fact it is (``user``, ``tool_result``, ``revised``,
    ``rejected``, ``rule``, ``summary``…), for the reports.
    """

    id: str
    planted_turn: int
    questions: tuple[str, ...]
    expected: Value = ""
    regex: str | None = None
    distractors: tuple[Value, ...] = ()
    kind: str = "fact"

    def __post_init__(self) -> None:
        empty = not self.expected if isinstance(self.expected, tuple) else not self.expected.strip()
        if empty and not self.regex:
            raise UsageError(f"probe {self.id!r} needs an expected value or a regex")


def load_transcript(path: Path) -> Transcript:
    """Read a transcript: one OpenAI-shape message per line, optional integer ``"turn"``."""
    text = read_file(path, "transcript")
    system: str | None = None
    messages: list[Message] = []
    turns: list[int] = []
    turn = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            data = json.loads(line)
        except json.JSONDecodeError as error:
            raise UsageError(
                f"{where}: not valid JSON ({error.msg}); write one message per line"
            ) from None
        if not isinstance(data, dict):
            raise UsageError(f"{where}: expected a JSON object with a 'role', got {data!r:.60}")
        try:
            message = from_wire(data)
        except UsageError as error:
            raise UsageError(f"{where}: {error}") from error
        if isinstance(message, SystemMessage):
            if messages or system is not None:
                raise UsageError(f"{where}: a system message is allowed only on the first line")
            system = message.content
            continue
        given = data.get("turn")
        if given is None:
            turn += 1 if isinstance(message, UserMessage) else 0
        elif isinstance(given, int) and not isinstance(given, bool) and given >= turn:
            turn = given
        else:
            raise UsageError(
                f"{where}: 'turn' must be an integer not smaller than the previous line's "
                f"turn ({turn}), got {given!r}"
            )
        if isinstance(message, ToolMessage) and not message.name:
            message = replace(message, name=_called(messages, message.tool_call_id) or "")
        messages.append(message)
        turns.append(turn)
    if not messages:
        raise UsageError(f"{path}: the transcript has no messages besides the system prompt")
    try:
        group_units(messages)
    except UsageError as error:
        raise UsageError(f"{path}: {error}; every tool call needs its result") from error
    return Transcript(system, tuple(messages), tuple(turns), str(path))


def _called(messages: Sequence[Message], call_id: str) -> str | None:
    """The name of the tool that call ``call_id`` asked for (a result without ``name``)."""
    for message in reversed(messages):
        if isinstance(message, AssistantMessage):
            for call in message.tool_calls:
                if call.id == call_id:
                    return call.name
    return None


def require_answered(transcript: Transcript) -> None:
    """Probes are asked after the last reply: the transcript must end on one.

    A transcript that ends on a user message (or a tool result) would turn every probe into
    a second message in a row, answered as a reply to the unanswered one; it is refused.
    """
    last = transcript.messages[-1]
    if isinstance(last, AssistantMessage) and not last.tool_calls:
        return
    what = (
        "an unanswered user message"
        if isinstance(last, UserMessage)
        else (
            "a tool result the assistant never read"
            if isinstance(last, ToolMessage)
            else "an assistant message that calls tools"
        )
    )
    raise UsageError(
        f"{transcript.source or 'the transcript'} ends on {what} (turn "
        f"{transcript.turns[-1]}); probes are asked after the assistant's last reply, so end "
        "the transcript with the assistant's answer, or cut the unanswered tail"
    )


def load_tools(path: Path) -> tuple[ToolSpec, ...]:
    """Read a JSON list of OpenAI tool definitions (``{"type": "function", "function": …}``)."""
    try:
        data = json.loads(read_file(path, "tools"))
    except json.JSONDecodeError as error:
        raise UsageError(f"{path}:{error.lineno}: not valid JSON ({error.msg})") from error
    if isinstance(data, Mapping) and "tools" in data:
        data = data["tools"]
    if not isinstance(data, list):
        raise UsageError(f"{path}: expected a JSON list of tool definitions")
    return tuple(_tool(entry, f"{path}: tool {i}") for i, entry in enumerate(data))


def _tool(entry: Any, where: str) -> ToolSpec:
    if not isinstance(entry, Mapping):
        raise UsageError(f"{where}: expected an object")
    function = entry.get("function", entry)
    if not isinstance(function, Mapping):
        raise UsageError(f"{where}: 'function' must be an object")
    name, description = function.get("name"), function.get("description", "")
    parameters = function.get("parameters", {"type": "object", "properties": {}})
    if not isinstance(name, str) or not name:
        raise UsageError(f"{where}: needs a non-empty string 'function.name'")
    if not isinstance(description, str):
        raise UsageError(f"{where} ({name}): 'description' must be a string")
    if not isinstance(parameters, Mapping):
        raise UsageError(f"{where} ({name}): 'parameters' must be a JSON schema object")
    return ToolSpec(name, description, dict(parameters))


def load_probes(path: Path) -> tuple[Probe, ...]:
    """Read probes from YAML (``.yaml``/``.yml``) or JSON: a list, or ``{"probes": [...]}``."""
    text = read_file(path, "probes")
    if path.suffix.lower() in (".yaml", ".yml"):
        data = parse_yaml(text, path)
    else:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise UsageError(f"{path}:{error.lineno}: not valid JSON ({error.msg})") from error
    if isinstance(data, Mapping) and "probes" in data:
        data = data["probes"]
    if not isinstance(data, list) or not data:
        raise UsageError(f"{path}: expected a non-empty list of probes (or a 'probes' key)")
    probes = tuple(_probe(entry, f"{path}: probe {i + 1}") for i, entry in enumerate(data))
    ids = [p.id for p in probes]
    duplicated = sorted({i for i in ids if ids.count(i) > 1})
    if duplicated:
        raise UsageError(f"{path}: probe ids must be unique; repeated: {duplicated}")
    return probes


def _probe(entry: Any, where: str) -> Probe:
    if not isinstance(entry, Mapping):
        raise UsageError(f"{where}: expected a mapping with id, planted_turn, question, expected")
    probe_id = entry.get("id")
    if not isinstance(probe_id, str) or not probe_id:
        raise UsageError(f"{where}: needs a non-empty string 'id'")
    where = f"{where} ({probe_id})"
    turn = entry.get("planted_turn")
    if not isinstance(turn, int) or isinstance(turn, bool) or turn < 0:
        raise UsageError(f"{where}: 'planted_turn' must be a non-negative integer, got {turn!r}")
    questions = entry.get("question", entry.get("questions"))
    if isinstance(questions, str):
        questions = [questions]
    if not _strings(questions) or not questions:
        raise UsageError(f"{where}: 'question' must be a string or a non-empty list of strings")
    expected, regex = _expected(entry, where)
    distractors = tuple(_distractor(d, where) for d in entry.get("distractors") or [])
    kind = entry.get("kind", "fact")
    if not isinstance(kind, str) or not kind:
        raise UsageError(f"{where}: 'kind' must be a non-empty string, e.g. tool_result")
    return Probe(probe_id, turn, tuple(questions), expected, regex, distractors, kind)


def _expected(entry: Mapping[str, Any], where: str) -> tuple[Value, str | None]:
    expected = entry.get("expected")
    regex = entry.get("expected_regex")
    if isinstance(expected, Mapping):
        regex = expected.get("regex", regex)
        expected = expected.get("value")
    if regex is not None:
        if not isinstance(regex, str) or not regex:
            raise UsageError(f"{where}: 'expected_regex' must be a non-empty pattern")
        try:
            re.compile(regex)
        except re.error as error:
            raise UsageError(f"{where}: the expected regex {regex!r} is invalid: {error}") from None
    if isinstance(expected, list):  # a composite: every part must be named
        return _distractor(expected, where), regex
    expected = _scalar(expected) if expected is not None else ""
    if not isinstance(expected, str) or (not expected.strip() and regex is None):
        raise UsageError(
            f"{where}: 'expected' must be a non-empty string, or give 'expected_regex: "
            "PATTERN' (both may be given: either counts as correct)"
        )
    return expected, regex


def _distractor(value: Any, where: str) -> Value:
    """A distractor: a value, or a list of parts that must all be named (a composite)."""
    if isinstance(value, list):
        parts = tuple(_scalar(v) for v in value)
        if parts and all(isinstance(p, str) and p for p in parts):
            return parts
    else:
        value = _scalar(value)
        if isinstance(value, str) and value:
            return value
    raise UsageError(
        f"{where}: each distractor must be a string, or a list of strings that must all "
        f"appear (e.g. [orders, 2026-03-13]), got {value!r}"
    )


def _scalar(value: Any) -> Any:
    """YAML reads ``4417`` as a number and ``2026-03-13`` as a date: probe values are text."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, date):  # a datetime is a date too
        return value.isoformat()
    return value


def _strings(value: Any) -> bool:
    return (
        isinstance(value, Sequence)
        and not isinstance(value, str)
        and all(isinstance(v, str) and v for v in value)
    )


def parse_yaml(text: str, path: Path) -> Any:
    try:
        import yaml
    except ImportError:
        raise UsageError(
            f"reading {path} needs PyYAML: pip install 'workset[eval]' (or write the probes "
            "as JSON)"
        ) from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = f":{mark.line + 1}" if mark is not None else ""
        raise UsageError(f"{path}{line}: not valid YAML ({error})") from None


def read_file(path: Path, what: str) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as error:
        raise UsageError(f"cannot read the {what} file {path}: {error.strerror}") from error
