"""Need sets: needs stated in plain words, the tools that serve them, a difficulty band, a split.

A need set is a JSON-lines file, one need per line::

    {"id": "weather-umbrella-amsterdam", "need": "do I need an umbrella in Amsterdam tomorrow?",
     "expected": [{"server": "weather", "tool": "get_weather_by_city"}],
     "band": "hard", "split": "held_out"}

``expected`` lists every tool that serves the need (any of them in the top k is a hit); an
empty list means the catalog cannot serve it (band ``unservable``), and ``near_misses`` may
then name the tempting tools that do not serve it. The band of an answerable need is a
property of its words, checked by :func:`band_of` rather than trusted:

- ``name``: shares a content word with the name of an expected tool;
- ``paraphrase``: shares none with their names, at least one with their descriptions,
  parameters or server names;
- ``hard``: shares no content word with any of those.

Content words are lowercase letter/digit runs (split at anything else; a camelCase run
counts whole and as its parts), minus :data:`STOPWORDS`, reduced by the Snowball English
stemmer (the ``snowballstemmer`` package, a dev dependency: only checking needs it). The split is
fixed by the id's hash (:func:`split_of`), so it cannot drift towards what a matcher gets right.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Literal, TypeAlias

from workset.errors import UsageError
from workset.messages import ToolSpec

Band: TypeAlias = Literal["name", "paraphrase", "hard", "unservable"]
Split: TypeAlias = Literal["tune", "held_out"]
BANDS: tuple[Band, ...] = ("name", "paraphrase", "hard", "unservable")

# A standard English stopword list, plus the filler of a stated need ("I need to get ...").
_STOPWORDS_TEXT = """a about above after again against all am an and any are as at be because
    been before being below between both but by can could did do does doing down during each few
    for from
    further had has have having he her here hers herself him himself his how i if in into is it
    its itself just me more most my myself no nor not now of off on once only or other our ours
    ourselves out over own same she should so some such than that the their theirs them
    themselves then there these they this those through to too under until up very was we were
    what when where which while who whom why will with would you your yours yourself
    yourselves let lets please need needs want wants get gets got like tell give show me using
    use tool tools something anything way also one s t d ll m re ve"""
STOPWORDS = frozenset(_STOPWORDS_TEXT.split())
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_NON_WORD = re.compile(r"[^0-9A-Za-z]+")


@cache
def _stemmer() -> Any:
    try:
        import snowballstemmer
    except ImportError as exc:
        raise UsageError(
            "checking need bands needs the snowballstemmer package: pip install snowballstemmer"
        ) from exc
    return snowballstemmer.stemmer("english")


def content_words(text: str) -> frozenset[str]:
    """The stemmed content words of ``text`` (see the module docstring)."""
    words = []
    for chunk in _NON_WORD.split(text):
        # Both the whole run and its camelCase parts: "YouTube" is one word in a need and
        # "getStories" two in a tool name; keeping both can only make "hard" stricter.
        for part in {chunk, *_CAMEL.split(chunk)}:
            word = part.lower()
            if word and word not in STOPWORDS:
                words.append(word)
    return frozenset(_stemmer().stemWords(words))


@dataclass(frozen=True, slots=True)
class ToolRef:
    server: str
    tool: str


@dataclass(frozen=True, slots=True)
class Need:
    id: str
    need: str
    expected: tuple[ToolRef, ...]
    band: Band
    split: Split
    near_misses: tuple[ToolRef, ...] = field(default=())
    note: str = ""

    @property
    def answerable(self) -> bool:
        return bool(self.expected)

    def to_json(self) -> str:
        row: dict[str, Any] = {
            "id": self.id,
            "need": self.need,
            "expected": [{"server": r.server, "tool": r.tool} for r in self.expected],
            "band": self.band,
            "split": self.split,
        }
        if self.near_misses:
            row["near_misses"] = [{"server": r.server, "tool": r.tool} for r in self.near_misses]
        if self.note:
            row["note"] = self.note
        return json.dumps(row, ensure_ascii=False)


def split_of(need_id: str) -> Split:
    """``tune`` or ``held_out`` by the parity of the id's sha256: fixed before any tuning."""
    return "tune" if hashlib.sha256(need_id.encode()).digest()[0] % 2 == 0 else "held_out"


def tool_words(server: str, spec: ToolSpec) -> tuple[frozenset[str], frozenset[str]]:
    """(words of the tool's name, words of its description, parameters and server name)."""
    parts = [spec.description, server]
    properties = spec.parameters.get("properties", {})
    if isinstance(properties, Mapping):
        for name, schema in properties.items():
            parts.append(str(name))
            if isinstance(schema, Mapping):
                parts.append(str(schema.get("description", "")))
    return content_words(spec.name), content_words(" ".join(parts))


def band_of(need: str, tools: Sequence[tuple[str, ToolSpec]]) -> Band:
    """The band of an answerable ``need`` against its expected (server, spec) pairs."""
    if not tools:
        return "unservable"
    words = content_words(need)
    described = False
    for server, spec in tools:
        name, rest = tool_words(server, spec)
        if words & name:
            return "name"
        described = described or bool(words & rest)
    return "paraphrase" if described else "hard"


def _refs(value: Any, where: str) -> tuple[ToolRef, ...]:
    if not isinstance(value, list):
        raise UsageError(f"{where}: expected a list of {{server, tool}} objects")
    return tuple(ToolRef(str(r["server"]), str(r["tool"])) for r in value)


def json_lines(path: Path) -> Iterator[tuple[str, Any]]:
    """(``path:line``, the parsed value) for each non-blank line of a JSON-lines file; a line
    that is not JSON raises a UsageError naming it."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            yield where, json.loads(line)
        except json.JSONDecodeError as exc:
            raise UsageError(f"{where}: not a JSON object ({exc})") from exc


def read_needs(path: Path) -> list[Need]:
    """The needs of a JSON-lines file; a malformed line raises a UsageError naming it."""
    needs, seen = [], set()
    for where, row in json_lines(path):
        try:
            need = Need(
                str(row["id"]),
                str(row["need"]),
                _refs(row["expected"], where),
                row["band"],
                row["split"],
                _refs(row.get("near_misses", []), where),
                str(row.get("note", "")),
            )
        except (KeyError, TypeError) as exc:
            raise UsageError(
                f"{where} is not a need line ({exc}); each line needs id, need, expected, "
                "band and split"
            ) from exc
        if need.band not in BANDS or need.split not in ("tune", "held_out"):
            raise UsageError(f"{where}: unknown band {need.band!r} or split {need.split!r}")
        if need.id in seen:
            raise UsageError(f"{where}: the id {need.id!r} is used twice; ids must be unique")
        seen.add(need.id)
        needs.append(need)
    return needs


def check_needs(needs: Iterable[Need], servers: Mapping[str, Sequence[ToolSpec]]) -> list[str]:
    """Every problem found: unknown tools, a band or split that the rules disagree with."""
    specs = {(name, spec.name): spec for name, group in servers.items() for spec in group}
    problems = []
    for need in needs:
        unknown = [
            r for r in (*need.expected, *need.near_misses) if (r.server, r.tool) not in specs
        ]
        if unknown:
            problems.append(f"{need.id}: not in the catalog: {unknown}")
            continue
        band = band_of(need.need, [(r.server, specs[r.server, r.tool]) for r in need.expected])
        if band != need.band:
            problems.append(f"{need.id}: band is {band!r}, the file says {need.band!r}")
        if split_of(need.id) != need.split:
            problems.append(
                f"{need.id}: split is {split_of(need.id)!r}, the file says {need.split!r}"
            )
    return problems
