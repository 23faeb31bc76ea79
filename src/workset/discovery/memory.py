"""Needs a tool served before: discovery that learns from use (opt-in).

A need that shares no word with its tool ("do I need a warm coat in Reykjavik tonight?") is
hard for any index of the tools' own texts, but it is often close to a need the catalog has
already served: "will it be cold in Oslo tomorrow?" was answered by the weather tool last
week. :class:`NeedMemory` keeps needs with the tool that served them: labelled needs, or
what a run's trajectory shows (:meth:`NeedMemory.learn`, :func:`served_needs`: a
``tool_search`` query, then a successful call of a tool that search listed), and
:class:`RememberingIndex` wraps an index so that the tools of the ``k`` remembered needs most
like the query (cosine at least ``floor``) score ``weight`` × that cosine on top of the
index's own score, min–max normalised over its best ``depth`` candidates. "Not found" is the
index's decision: a memory only reorders.

Chosen on the tuning halves of the three need sets by leave-one-out (each tune need searched
with the others remembered): ``k`` 3, ``floor`` 0.65, ``weight`` 1.0. Measured in
``benchmarks/discovery_memory.py``; docs/results/discovery.md.
"""

from __future__ import annotations

import contextlib
import json
import re
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from workset.discovery.index import ToolIndex
from workset.discovery.results import Match, Searchable, SearchResult
from workset.errors import UsageError
from workset.loop.offer import SEARCH_TOOL
from workset.messages import AssistantMessage, Message, ToolCall, ToolMessage

try:
    import fcntl
except ImportError:  # Windows: no flock
    fcntl = None  # type: ignore[assignment]

# A found result's lines, as the tool_search meta-tool writes them: "1. name (server s, score".
_LISTED = re.compile(r"^\d+\. (\S+) \(server (.+?), score ", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class Remembered:
    """A need, and the tool that served it."""

    need: str
    server: str
    tool: str


class NeedMemory:
    """Needs and the tools that served them, embedded by the index they help.

    A need served by several tools (overlapping servers) is one remembered need with each
    of them: the ``k`` nearest are needs, not (need, tool) pairs.
    """

    def __init__(self, index: ToolIndex, remembered: Iterable[Remembered] = ()) -> None:
        self.index = index
        self._tools: dict[str, list[tuple[str, str]]] = {}  # need -> its tools, row order
        self._vectors = np.zeros((0, 0), dtype=np.float32)
        self.add(remembered)

    def __len__(self) -> int:
        return len(self._tools)

    def remembered(self) -> list[Remembered]:
        """Every (need, tool) pair, in the order they were remembered."""
        return [Remembered(n, s, t) for n, tools in self._tools.items() for s, t in tools]

    def add(self, remembered: Iterable[Remembered]) -> None:
        """Remember more needs (a tool this index does not hold is refused)."""
        fresh = list(remembered)
        unknown = [f"{r.server}/{r.tool}" for r in fresh if not self.index.holds(r.server, r.tool)]
        if unknown:
            raise UsageError(
                f"no such tool in the index: {', '.join(unknown[:3])}; remember only tools "
                "the index holds"
            )
        new_needs = list(dict.fromkeys(r.need for r in fresh if r.need not in self._tools))
        for r in fresh:
            tools = self._tools.setdefault(r.need, [])
            if (r.server, r.tool) not in tools:
                tools.append((r.server, r.tool))
        if new_needs:
            vectors = np.asarray(self.index.embed(new_needs), dtype=np.float32)
            old = self._vectors if self._vectors.size else vectors[:0]
            self._vectors = np.vstack([old, vectors])

    def learn(self, messages: Sequence[Message]) -> int:
        """Remember the needs a run's tools served (:func:`served_needs`) whose tools this
        index holds; how many (need, tool) pairs were new."""
        before = set(self.remembered())
        fresh = [r for r in served_needs(messages) if self.index.holds(r.server, r.tool)]
        self.add(fresh)
        return len(set(fresh) - before)

    def votes(self, query: str, *, k: int, floor: float) -> dict[tuple[str, str], float]:
        """Each tool that served one of the ``k`` remembered needs most like ``query`` (cosine
        at least ``floor``), with the best such cosine."""
        if not self._tools:
            return {}
        asked = self.index.embed([query], transient=(query,))[0]
        cosines = self._vectors @ np.asarray(asked, dtype=np.float32)
        rows = list(self._tools.values())
        votes: dict[tuple[str, str], float] = {}
        for i in np.argsort(-cosines, kind="stable")[:k]:
            if cosines[i] < floor:
                break
            for key in rows[i]:
                votes[key] = max(votes.get(key, 0.0), float(cosines[i]))
        return votes

    def save(self, path: Path) -> None:
        """One JSON object per line: need, server, tool (vectors are recomputed on load);
        the file is replaced whole (:func:`merged_save` keeps what other processes saved)."""
        rows = (
            json.dumps({"need": r.need, "server": r.server, "tool": r.tool})
            for r in self.remembered()
        )
        # Written beside it under a name of this process's own, then moved over it: a crash
        # mid-write leaves the previous file, and two writers never share a partial file.
        with tempfile.NamedTemporaryFile(
            "w", encoding="utf-8", dir=path.parent, prefix=f".{path.name}.", suffix=".partial",
            delete=False,
        ) as partial:  # fmt: skip
            partial.write("".join(f"{row}\n" for row in rows))
        Path(partial.name).replace(path)

    @classmethod
    def load(cls, path: Path, index: ToolIndex) -> NeedMemory:
        if not path.is_file():
            raise UsageError(f"no need memory at {path}; save one with NeedMemory.save")
        return cls(index, read_needs(path))


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """An exclusive lock on ``path`` (created if missing) for the block, between processes
    (``flock``; where there is none, as on Windows, the block runs unlocked)."""
    with path.open("a") as handle:
        if fcntl is not None:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            if fcntl is not None:
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def merged_save(memory: NeedMemory, path: Path) -> None:
    """Save ``memory`` at ``path`` with what other processes saved there since it was read
    (two runs sharing a log folder each learn, then each save): under a lock, the file's
    pairs whose tools the index holds are added first, then the whole is written."""
    with _locked(path.with_name(path.name + ".lock")):
        memory.add(r for r in read_needs(path) if memory.index.holds(r.server, r.tool))
        memory.save(path)


def read_needs(path: Path) -> list[Remembered]:
    """The remembered needs saved at ``path`` (:meth:`NeedMemory.save`; none when there is
    no file). A line that is not one raises :class:`UsageError` naming it; the file is left
    as it is."""
    if not path.is_file():
        return []
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            rows.append(Remembered(row["need"], row["server"], row["tool"]))
        except (ValueError, KeyError, TypeError) as exc:
            raise UsageError(
                f"{path}:{number} is not a remembered need (need, server, tool); fix or "
                "delete that line, or delete the file to start afresh"
            ) from exc
    return rows


def served_needs(messages: Sequence[Message]) -> list[Remembered]:
    """The needs a trajectory shows served: each ``tool_search`` query whose result listed
    tools, then a later call of one of those tools that did not fail, remembered with the
    server the search named (the latest search that listed the tool). A call succeeding is
    the evidence: it does not prove the result answered the need."""
    calls: dict[str, ToolCall] = {}
    searches: list[tuple[str, dict[str, str]]] = []  # (query, tool -> server), in order
    served: list[Remembered] = []
    for message in messages:
        if isinstance(message, AssistantMessage):
            calls.update((c.id, c) for c in message.tool_calls)
            continue
        if not isinstance(message, ToolMessage) or message.is_error:
            continue
        call = calls.get(message.tool_call_id)
        if call is None:
            continue
        if call.name == SEARCH_TOOL:
            query = _query(call.arguments)
            listed = {name: server for name, server in _LISTED.findall(message.content)}
            if query and listed:
                searches.append((query, listed))
            continue
        for query, listed in reversed(searches):
            if call.name in listed:
                found = Remembered(query, listed[call.name], call.name)
                if found not in served:
                    served.append(found)
                break
    return served


def _query(arguments: str) -> str:
    try:
        parsed = json.loads(arguments)
    except ValueError:
        return ""
    query = parsed.get("query") if isinstance(parsed, dict) else None
    return query.strip() if isinstance(query, str) else ""


@dataclass(frozen=True, slots=True)
class Recollection:
    """How a :class:`RememberingIndex` uses its memory (chosen on tune; see the module)."""

    k: int = 3
    floor: float = 0.65
    weight: float = 1.0
    depth: int = 30  # the index's candidates the memory reorders


class RememberingIndex:
    """``inner``'s searches, reordered by the tools that served remembered needs like the
    query. ``memory`` embeds with ``basis`` (``inner`` or the first index of a cascade)."""

    def __init__(
        self, inner: Searchable, memory: NeedMemory, how: Recollection | None = None
    ) -> None:
        self.inner = inner
        self.memory = memory
        self.how = how or Recollection()

    def search(self, query: str, k: int = 5, *, also: Sequence[str] = ()) -> SearchResult:
        result = self.inner.search(query, k=self.how.depth, also=also)
        if result.found:
            return replace(result, matches=tuple(self._fused(query, result.matches)[:k]))
        return replace(result, suggestions=tuple(self._fused(query, result.suggestions)[:3]))

    def rank(self, query: str, k: int = 10, *, also: Sequence[str] = ()) -> list[Match]:
        ranked = self.inner.rank(query, k=self.how.depth, also=also)
        return self._fused(query, ranked)[:k]

    def _fused(self, query: str, matches: Sequence[Match]) -> list[Match]:
        votes = self.memory.votes(query, k=self.how.k, floor=self.how.floor)
        if not votes or not matches:
            return list(matches)
        scores = [m.score for m in matches]
        low, span = min(scores), (max(scores) - min(scores)) or 1.0
        by_key = {(m.server, m.tool): m for m in matches}
        fused: dict[tuple[str, str], float] = {
            key: (m.score - low) / span for key, m in by_key.items()
        }
        for key, cosine in votes.items():
            fused[key] = fused.get(key, 0.0) + self.how.weight * cosine
        ordered = sorted(fused, key=lambda key: -fused[key])
        out = []
        for key in ordered:
            match = by_key.get(key)
            why = (
                f"served a similar need before (similarity {votes[key]:.2f})"
                if key in votes
                else ""
            )
            if match is None:
                match = Match(key[0], key[1], fused[key], why, self.memory.index.spec_of(*key))
            elif why:
                match = replace(match, why=f"{match.why}; {why}" if match.why else why)
            out.append(replace(match, score=round(fused[key], 4)))
        return out
