"""Tool calls that small models write as text in ``content``.

Small models (Qwen2.5-Coder-0.5B among them) often answer a tool-calling turn with JSON in the
message text instead of structured ``tool_calls``: bare, fenced in ```json, several objects in
a row, inside ``<tool_call>…</tool_call>`` tags, as a list, with ``"arguments"`` as an object
or a JSON string, ``"parameters"`` instead of ``"arguments"``, or wrapped as
``{"function": {"name": …, "arguments": …}}``, or as a known tool's name followed by its
arguments object (``Tool: archive_email, arguments: {…}``, ``Action: grep`` / ``Action Input:
{…}``, ``read_file {…}``: transcript-like forms small models copy from few-shot prompts), or
as tags (``<name>read_file</name><arguments><path>a.py</path></arguments>``, a known tool only).
:func:`parse_tool_calls` accepts all of these.

It is strict about what counts as a call: an object whose keys are only call keys (``name``,
``arguments``/``parameters``, ``id``, ``type``), with a string ``name`` and object arguments.
A bare ``{"name": …}`` is a call only when the name is a known tool. Prose and JSON that is
not a call (a quoted config object) give no calls and no errors; a clear attempt that is
malformed (truncated JSON in a fence or tags, non-string name, non-object arguments) gives an
error saying what a valid call looks like. Unknown tool names are kept as calls: the registry
answers them with a suggestion.

Call ids are derived from the content, so the same content always yields the same ids and
replays stay byte-identical.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from workset.messages import ToolCall

_CALL_KEYS = frozenset({"name", "arguments", "parameters", "id", "type"})
_WRAPPER_KEYS = frozenset({"function", "id", "type"})
_OPEN_TAG = re.compile(r"<tool_call>", re.IGNORECASE)
_CLOSE_TAG = re.compile(r"</tool_call>", re.IGNORECASE)
_MARKERS = re.compile(r"<tool_call>|<name>|```|[{\[]", re.IGNORECASE)
# Tags instead of JSON (the 0.5B once wrote <name>read_file</name><arguments><path>…</path>…).
_XML_CALL = re.compile(
    r"<name>\s*([\w.-]+)\s*</name>\s*(?:<arguments>(.*?)(?:</arguments>|\Z))?", re.S | re.I
)
_XML_ARGUMENT = re.compile(r"<([A-Za-z_][\w-]*)>(.*?)</\1>", re.S)
_ATTEMPT = re.compile(r"""["'](?:name|function)["']\s*:""")
_STARTS_LIKE_CALL = re.compile(r"""[\[{\s]*["'](?:name|function)["']""")
_ARGUMENTS_KEY = re.compile(r"""["'](?:arguments|parameters|function)["']""")
_FENCE = re.compile("```")
# Text right before an arguments object that names the call: "Tool: NAME, arguments:",
# "Action: NAME\nAction Input:", "NAME(" or plain "NAME"; NAME must be a known tool.
_NAMED = re.compile(
    r"(?:^|(?<=[\s>*`\"']))(?:(?:tool|action|call|function)\s*:\s*)?[`\"']?"
    r"(?P<name>[A-Za-z_][\w.-]*)[`\"']?\s*(?:[,:]?\s*(?:\n\s*)?(?:action\s+input|arguments|"
    r"args|parameters|input)\s*[:=]?|\(|:)?\s*$",
    re.IGNORECASE,
)
_CALL_FENCES = frozenset({"", "json", "jsonc", "json5", "tool_call", "tool_calls", "tool_code"})
_FENCE_INFO = re.compile(r"```[\w+-]*")
_DECODER = json.JSONDecoder()
CUT_OFF = "it looks cut off"  # in the error for a call whose text ends mid-JSON


@dataclass(frozen=True, slots=True)
class ParsedToolCalls:
    """Calls found in a message's text, problems with attempted calls, and the remaining text."""

    calls: tuple[ToolCall, ...]
    errors: tuple[str, ...]
    text: str


@dataclass(frozen=True, slots=True)
class _Found:
    name: str
    arguments: str


def parse_tool_calls(content: str, known_tools: Collection[str]) -> ParsedToolCalls:
    """Extract the tool calls written as text in ``content``."""
    parser = _Parser(content, frozenset(known_tools))
    parser.run()
    digest = hashlib.sha256(content.encode("utf-8")).hexdigest()[:12]
    calls = tuple(
        ToolCall(id=f"call_{digest}_{index}", name=found.name, arguments=found.arguments)
        for index, found in enumerate(parser.found)
    )
    return ParsedToolCalls(calls, tuple(parser.errors), _tidy(parser.kept))


class _Parser:
    def __init__(self, content: str, known: frozenset[str]) -> None:
        self.content = content
        self.known = known
        self.found: list[_Found] = []
        self.errors: list[str] = []
        self.kept: list[str] = []  # text outside the removed call regions

    def run(self) -> None:
        content, pos, kept_from = self.content, 0, 0
        while (marker := _MARKERS.search(content, pos)) is not None:
            start = marker.start()
            token = marker.group()
            end: int | None
            if token.lower() == "<tool_call>":
                end = self._tagged(marker.end())
            elif token.lower() == "<name>":
                end = self._xml(start)
            elif token == "```":
                end = self._fenced(start)
            else:
                end = self._bare(start)
                if end is None and token == "{":
                    named = self._named(start)
                    if named is not None:
                        start, end = named
            if end is None:  # not a call: keep the text and move on
                pos = self._skip(start, token)
                continue
            self.kept.append(content[kept_from:start])
            pos = kept_from = end
        self.kept.append(content[kept_from:])

    def _skip(self, start: int, token: str) -> int:
        """Where to resume after text at ``start`` that holds no call."""
        if token == "```":  # skip the whole fenced block: quoted code is not a call
            close = self.content.find("```", start + 3)
            return len(self.content) if close < 0 else close + 3
        if token in "{[":  # skip a whole JSON value so its nested objects are not re-read
            try:
                return _DECODER.raw_decode(self.content, start)[1]
            except json.JSONDecodeError:
                return start + 1
        return start + len(token)

    # --- the wrappings ---------------------------------------------------------------------

    def _xml(self, start: int) -> int | None:
        """``<name>tool</name><arguments><key>value</key>…</arguments>``, for a known tool."""
        match = _XML_CALL.match(self.content, start)
        if match is None or match.group(1) not in self.known:
            return None
        arguments = {k: _scalar(v.strip()) for k, v in _XML_ARGUMENT.findall(match.group(2) or "")}
        self.found.append(_Found(match.group(1), json.dumps(arguments, ensure_ascii=False)))
        return match.end()

    def _tagged(self, body_start: int) -> int:
        """Parse ``<tool_call> … </tool_call>``; always consumes the tagged region."""
        values, end, problem = _read_values(self.content, body_start, _CLOSE_TAG, fences=True)
        close = _CLOSE_TAG.match(self.content, end) if problem is None else None
        region_end = close.end() if close else _after_close(self.content, body_start)
        if problem is not None:
            self._error(f"the JSON inside <tool_call> is invalid ({problem})")
        elif not values:
            self._error("<tool_call> holds no JSON object")
        else:
            self._take(values, where="<tool_call>", strict=True)
        return region_end

    def _fenced(self, start: int) -> int | None:
        """Parse a ``` block; None when it holds no attempted call (kept as text)."""
        newline = self.content.find("\n", start)
        info = self.content[start + 3 : newline if newline >= 0 else len(self.content)].strip()
        if newline < 0 or info.lower() not in _CALL_FENCES:  # ```python etc. is quoted code
            return None
        values, end, problem = _read_values(self.content, newline + 1, _FENCE, fences=False)
        close = self.content.find("```", newline + 1)
        if problem is None:
            region_end = end + 3 if self.content.startswith("```", end) else len(self.content)
            if not any(self._callish(v) for v in values):
                return None
            self._take(values, where="```" + info + " block", strict=True)
            return region_end
        body = self.content[newline + 1 : close if close >= 0 else len(self.content)]
        if not _looks_like_call(body, self.known):
            return None
        self._error(f"the JSON in the ```{info} block is invalid ({problem})")
        return len(self.content) if close < 0 else close + 3

    def _bare(self, start: int) -> int | None:
        """Parse a bare JSON value in prose; None when it is not a call."""
        try:
            value, end = _DECODER.raw_decode(self.content, start)
        except json.JSONDecodeError as exc:
            end = _balanced_end(self.content, start)
            span = self.content[start:end]
            if not (_STARTS_LIKE_CALL.match(span) and _looks_like_call(span, self.known)):
                return None
            self._error(f"a tool call is not valid JSON ({_describe(exc, end)})")
            return end
        if not self._callish(value):
            return None
        self._take([value], where="the text", strict=False)
        return end

    def _named(self, start: int) -> tuple[int, int] | None:
        """An arguments object at ``start`` that the text before it names as a known tool's
        call; the region (from the name) and its end, or None."""
        line_start = max(self.content.rfind("\n", 0, start - 1) + 1, 0)
        # the connector may sit on the line before ("Action: grep\nAction Input: {...}")
        before = self.content.rfind("\n", 0, max(line_start - 1, 0)) + 1
        for head in (line_start, before):
            match = _NAMED.search(self.content, head, start)
            if match is None or match.group("name") not in self.known:
                continue
            try:
                value, end = _DECODER.raw_decode(self.content, start)
            except json.JSONDecodeError:
                return None
            if not isinstance(value, dict) or self._classify(value) is not None:
                return None
            if self.content.startswith(")", end):
                end += 1
            self.found.append(_Found(match.group("name"), json.dumps(value, ensure_ascii=False)))
            return match.start(), end
        return None

    # --- values ---------------------------------------------------------------------------

    def _take(self, values: list[Any], *, where: str, strict: bool) -> None:
        for value in values:
            for item in _items(value):
                outcome = self._classify(item)
                if isinstance(outcome, _Found):
                    self.found.append(outcome)
                elif outcome is not None:
                    self._error(outcome)
                elif strict or item is not value:
                    self._error(f"{_preview(item)} in {where} is not a tool call")

    def _callish(self, value: Any) -> bool:
        """Whether ``value`` (or, for a list, one of its items) is a call or an attempt."""
        return any(self._classify(item) is not None for item in _items(value))

    def _classify(self, value: Any) -> _Found | str | None:
        """A call, the error of a malformed attempt, or None when ``value`` is not a call."""
        if not isinstance(value, dict):
            return None
        if "function" in value and set(value) <= _WRAPPER_KEYS:
            inner = value["function"]
            if not isinstance(inner, dict):
                return '"function" must be an object with "name" and "arguments"'
            value = inner
        if not set(value) <= _CALL_KEYS or "name" not in value:
            return None
        if value.get("type", "function") != "function":
            return None  # e.g. a JSON Schema object that happens to have "name"
        has_arguments = "arguments" in value or "parameters" in value
        if not has_arguments and value["name"] not in self.known:
            return None  # {"name": "Ada"} in an answer is data, not a call
        name = value["name"]
        if not isinstance(name, str) or not name:
            return f'"name" must be a non-empty string naming the tool, got {_preview(name)}'
        if "arguments" in value and "parameters" in value:
            return f'the call to "{name}" has both "arguments" and "parameters"; use one'
        raw = value.get("arguments", value.get("parameters", {}))
        arguments = raw
        if isinstance(raw, str):
            try:
                arguments = json.loads(raw) if raw.strip() else {}
            except json.JSONDecodeError as exc:
                problem = _describe(exc, len(raw))
                return f'the "arguments" string of "{name}" is not valid JSON ({problem})'
        if not isinstance(arguments, dict):
            return f'the "arguments" of "{name}" must be an object, got {_preview(raw)}'
        return _Found(name, json.dumps(arguments, ensure_ascii=False))

    def _error(self, problem: str) -> None:
        name = min(self.known) if self.known else "tool_name"
        example = json.dumps({"name": name, "arguments": {}})
        self.errors.append(
            f"Could not read a tool call: {problem}. Write each call as one JSON object "
            f"with a string name and an object of arguments, e.g. {example}"
        )


def _read_values(
    text: str, pos: int, stop: re.Pattern[str], *, fences: bool
) -> tuple[list[Any], int, str | None]:
    """JSON values from ``pos`` (separated by whitespace or commas) up to ``stop`` or the end.

    Returns the values, where reading stopped, and a problem description or None. With
    ``fences``, fence markers in the region (```json inside tags) are skipped.
    """
    values: list[Any] = []
    while True:
        while pos < len(text) and (text[pos].isspace() or text[pos] == ","):
            pos += 1
        fence = _FENCE_INFO.match(text, pos) if fences else None
        if fence:
            pos = fence.end()
            continue
        if pos >= len(text) or stop.match(text, pos):
            return values, pos, None
        try:
            value, pos = _DECODER.raw_decode(text, pos)
        except json.JSONDecodeError as exc:
            marker = stop.search(text, pos)
            return values, pos, _describe(exc, marker.start() if marker else len(text))
        values.append(value)


def _items(value: Any) -> list[Any]:
    """The candidate calls in one JSON value: a list, ``{"tool_calls": [...]}``, or itself."""
    if isinstance(value, list):
        return value
    if isinstance(value, dict) and set(value) == {"tool_calls"}:
        inner = value["tool_calls"]
        return inner if isinstance(inner, list) else [inner]
    return [value]


# What may come before a reply's first call: the tool's bare name (the
# 0.5B's "read_file\n\n{...}"), a fence, a tag, an array's bracket.
_OPENING = re.compile(
    r"\s*(?:[A-Za-z_][\w-]*\s+)?(?:```[\w-]*\s*)?(?:<tool_call>\s*)?(?:\[\s*)?",
    re.IGNORECASE,
)
_NEXT_CALL = re.compile(
    r"\s*,?\s*(?:```\s*)?(?:[A-Za-z_][\w-]*\s+)?(?:```[\w-]*\s*)?(?:<tool_call>\s*)?\{"
)


def second_call_began(text: str) -> bool:
    """Whether ``text`` (a reply so far) opens with one whole JSON object, bare, fenced or in
    tags, and a second object has begun after it: the point where a small model that writes
    calls as text goes on to repeat them until its token limit (the 0.5B spent 64 % of its
    time so)."""
    end = _first_object_end(text)
    if end is None or end >= len(text):
        return False
    return _NEXT_CALL.match(_CLOSE_TAG.sub("", text[end:], count=1)) is not None


def through_first_call(text: str) -> str:
    """``text`` cut after its first whole object, its fence or tag closed as it was opened."""
    end = _first_object_end(text)
    if end is None:
        return text
    start = _OPENING.match(text)
    opening = text[: start.end()] if start else ""
    close = "\n```" if "```" in opening else "\n</tool_call>" if "<tool_call>" in opening else ""
    return text[:end] + ("]" if opening.rstrip().endswith("[") else "") + close


def _first_object_end(text: str) -> int | None:
    """Where the whole object the text opens with ends (after an optional fence or tag)."""
    start = _OPENING.match(text)
    at = start.end() if start else 0
    if at >= len(text) or text[at] != "{":
        return None
    end = _balanced_end(text, at)
    if end == len(text) and not text.rstrip().endswith("}"):
        return None
    return end


def _scalar(text: str) -> Any:
    """A tag's text as JSON would have it: a whole number, true/false, else the string."""
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    return {"true": True, "false": False}.get(text.lower(), text)


def _looks_like_call(text: str, known: frozenset[str]) -> bool:
    """Whether text that failed to parse was meant as a call (single quotes count too)."""
    if _ATTEMPT.search(text) is None:
        return False
    if _ARGUMENTS_KEY.search(text):
        return True
    return any(f'"{name}"' in text or f"'{name}'" in text for name in known)


def _after_close(text: str, pos: int) -> int:
    close = _CLOSE_TAG.search(text, pos)
    return close.end() if close else len(text)


def _balanced_end(text: str, start: int) -> int:
    """End of the brace-balanced span from ``start`` (string-aware), or the end of the text."""
    depth, in_string, escaped = 0, False, False
    for index in range(start, len(text)):
        char = text[index]
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "{[":
            depth += 1
        elif char in "}]":
            depth -= 1
            if depth == 0:
                return index + 1
    return len(text)


def _describe(exc: json.JSONDecodeError, end: int) -> str:
    """The decoder's complaint; "cut off" when nothing but whitespace follows the failure."""
    if exc.msg.startswith("Unterminated string") or not exc.doc[exc.pos : end].strip():
        return f"the JSON stops before it is complete: {CUT_OFF}"
    return f"{exc.msg} at line {exc.lineno} column {exc.colno}"


def _preview(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:60] + "…"


def _tidy(parts: list[str]) -> str:
    return re.sub(r"\n{3,}", "\n\n", "".join(parts)).strip()
