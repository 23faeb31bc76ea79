"""Model calls stored as what changed since an earlier call of the session, rebuilt exactly.

A session's manifests differ little from call to call: the trajectory items of the last call
come back (the window may drop some from the front), a few are new, the buckets and prefix
numbers move; the message references of its request (:class:`~workset.events.records.
RequestRef`) likewise. So the log keeps, for a model call, either its whole manifest and
request or a ``delta`` against an earlier call of the session (its ``base`` seq), for each:

- ``fields``: the top-level fields whose value changed (the budget, the buckets, the prefix
  numbers...), whole;
- the manifest's ``included`` and ``omitted`` and the request's ``messages``: edit scripts over
  the base's lists: ``[start, end]`` copies ``base[start:end]``, ``{"add": [...]}`` inserts new
  items. An item's ``position`` is left out while it equals the item's index, so items that
  only moved (everything after a new message) still match their old selves.

:func:`rebuild` applies a delta to its base: the JSON value that was written, exactly. A
chain of deltas is cut every :data:`KEYFRAME_EVERY` calls by a whole record, so reading any
one call rebuilds a bounded number of deltas (reading a session in order rebuilds each once);
a delta that is not smaller than the whole is not used.
"""

from __future__ import annotations

import difflib
import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from workset.errors import SessionLogError

KEYFRAME_EVERY = 100
MANIFEST_LISTS = ("included", "omitted")
REQUEST_LISTS = ("messages",)

Json = Any


def manifest_delta(
    base: dict[str, Json], manifest: dict[str, Json], lists: Sequence[str] = MANIFEST_LISTS
) -> dict[str, Json]:
    """What turns ``base`` (a manifest's JSON value, or a request's) into ``manifest``."""
    fields = {k: v for k, v in manifest.items() if k not in lists and base.get(k) != v}
    gone = [k for k in base if k not in manifest]
    delta: dict[str, Json] = {"fields": fields}
    if gone:
        delta["gone"] = gone
    positioned = lists == MANIFEST_LISTS
    for name in lists:
        delta[name] = _script(base.get(name) or [], manifest.get(name) or [], positioned)
    return delta


def rebuild(
    base: dict[str, Json], delta: dict[str, Json], lists: Sequence[str] = MANIFEST_LISTS
) -> dict[str, Json]:
    """The value ``delta`` describes against ``base`` (both JSON values)."""
    rebuilt = {k: v for k, v in base.items() if k not in delta.get("gone", ())}
    rebuilt.update(delta["fields"])
    positioned = lists == MANIFEST_LISTS
    for name in lists:
        rebuilt[name] = _apply(base.get(name) or [], delta[name], positioned)
    return rebuilt


def smaller(delta: Json, whole: Json) -> bool:
    return len(_dumps(delta)) < len(_dumps(whole))


def _script(
    old: Sequence[dict[str, Json]], new: Sequence[dict[str, Json]], positioned: bool
) -> list[Json]:
    a, b = _keys(old, positioned), _keys(new, positioned)
    script: list[Json] = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            script.append([i1, i2])
        elif j2 > j1:  # replace or insert: the new items (a position equal to the index left out)
            added = new[j1:j2]
            if positioned:
                added = [_unplaced(new[j], j) for j in range(j1, j2)]
            script.append({"add": list(added)})
    return script


def _apply(
    old: Sequence[dict[str, Json]], script: Sequence[Json], positioned: bool
) -> list[dict[str, Json]]:
    out: list[dict[str, Json]] = []
    for step in script:
        if isinstance(step, list):  # copied: a position that was its old index follows it
            for i in range(step[0], step[1]):
                item = old[i]
                moved = positioned and item.get("position") == i
                out.append({**item, "position": len(out)} if moved else item)
        else:  # added: a missing position is the index
            for item in step["add"]:
                out.append({"position": len(out), **item} if positioned else item)
    return out


def _keys(items: Sequence[dict[str, Json]], positioned: bool) -> list[str]:
    if not positioned:
        return [_dumps(item) for item in items]
    return [_dumps(_unplaced(item, i)) for i, item in enumerate(items)]


def _unplaced(item: dict[str, Json], index: int) -> dict[str, Json]:
    if item.get("position") == index:
        return {k: v for k, v in item.items() if k != "position"}
    return item


def _dumps(value: Json) -> str:
    return json.dumps(value, ensure_ascii=True, separators=(",", ":"), sort_keys=True)


class ManifestChain:
    """What a log remembers to write model calls' manifests (and the message references of
    their requests) as deltas, and to read them back.

    Per session, the last call it wrote or read (the base of the next delta); and the calls it
    rebuilt recently, so reading a session in order rebuilds each once. ``load(seq)`` reads
    record ``seq`` (which passes it through :meth:`expand`).
    """

    def __init__(self, load: Callable[[int], object], *, keep: int = 64) -> None:
        self._load = load
        self._keep = keep
        self._lock = threading.Lock()
        self._recent: OrderedDict[int, tuple[_Parts, int]] = OrderedDict()
        self._last: OrderedDict[str, tuple[int, _Parts, int]] = OrderedDict()

    def compact(self, session_id: str, payload: dict[str, Json]) -> tuple[dict[str, Json], int]:
        """``payload`` of a model call to store (as a delta when that is worth it) and its
        depth in its chain (0: whole)."""
        with self._lock:
            last = self._last.get(session_id)
        if last is None or last[2] + 1 >= KEYFRAME_EVERY:
            return payload, 0
        base_seq, base, depth = last
        parts = _parts(payload)
        delta: dict[str, Json] = {"base": base_seq, "depth": depth + 1}
        delta["manifest"] = manifest_delta(base["manifest"], parts["manifest"])
        whole = {"manifest": parts["manifest"]}
        if parts["request"] is not None and base["request"] is not None:
            delta["request"] = manifest_delta(base["request"], parts["request"], REQUEST_LISTS)
            whole["request"] = parts["request"]
        if not smaller(delta, whole):
            return payload, 0
        stored = {k: v for k, v in payload.items() if k not in whole}
        stored["delta"] = delta
        return stored, depth + 1

    def wrote(self, session_id: str, seq: int, payload: dict[str, Json], depth: int) -> None:
        with self._lock:
            self._remember(session_id, seq, _parts(payload), depth)

    def expand(self, session_id: str, seq: int, payload: dict[str, Json]) -> dict[str, Json]:
        """A stored model-call payload made whole again (rebuilt from its chain)."""
        delta = payload.get("delta")
        if delta is None:
            if "manifest" in payload:
                with self._lock:
                    self._remember(session_id, seq, _parts(payload), 0)
            return payload
        base = self._parts_of(int(delta["base"]))
        full = {k: v for k, v in payload.items() if k != "delta"}
        full["manifest"] = rebuild(base["manifest"], delta["manifest"])
        if "request" in delta:
            full["request"] = rebuild(base["request"] or {}, delta["request"], REQUEST_LISTS)
        with self._lock:
            self._remember(session_id, seq, _parts(full), int(delta["depth"]))
        return full

    def _parts_of(self, seq: int) -> _Parts:
        with self._lock:
            found = self._recent.get(seq)
        if found is None:
            self._load(seq)  # decoding the record rebuilds and remembers it
            with self._lock:
                found = self._recent.get(seq)
        if found is None:
            raise SessionLogError(f"record {seq} is no model call, but a later one is based on it")
        return found[0]

    def _remember(self, session_id: str, seq: int, parts: _Parts, depth: int) -> None:
        self._recent[seq] = (parts, depth)
        self._recent.move_to_end(seq)
        while len(self._recent) > self._keep:
            self._recent.popitem(last=False)
        last = self._last.get(session_id)
        if last is None or last[0] <= seq:
            self._last[session_id] = (seq, parts, depth)
            self._last.move_to_end(session_id)
            while len(self._last) > self._keep * 16:
                self._last.popitem(last=False)


_Parts = dict[str, Json]  # {"manifest": ..., "request": ... or None}


def _parts(payload: dict[str, Json]) -> _Parts:
    return {"manifest": payload["manifest"], "request": payload.get("request")}
