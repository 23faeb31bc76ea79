"""Manifests stored as what changed since an earlier call of the session, rebuilt exactly.

A session's manifests differ little from call to call: the trajectory items of the last call
come back (the window may drop some from the front), a few are new, the buckets and prefix
numbers move. So the log keeps, for a model call, either the whole manifest or a delta
against the manifest of an earlier call (its ``base`` seq):

- ``fields``: the top-level fields whose value changed (the budget, the buckets, the prefix
  numbers...), whole;
- ``included`` and ``omitted``: edit scripts over the base's lists: ``[start, end]`` copies
  ``base[start:end]``, ``{"add": [...]}`` inserts new items. An item's ``position`` is left out
  while it equals the item's index, so items that only moved (everything after a new message)
  still match their old selves.

:func:`rebuild` applies a delta to its base: the JSON value of the manifest that was written,
exactly. A chain of deltas is cut every :data:`KEYFRAME_EVERY` calls by a whole manifest, so
reading any one call rebuilds a bounded number of deltas; a delta that is not smaller than
the whole manifest is not used.
"""

from __future__ import annotations

import difflib
import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from workset.errors import SessionLogError

KEYFRAME_EVERY = 32
LISTS = ("included", "omitted")

Json = Any


def manifest_delta(base: dict[str, Json], manifest: dict[str, Json]) -> dict[str, Json]:
    """What turns ``base`` (a manifest's JSON value) into ``manifest``."""
    fields = {k: v for k, v in manifest.items() if k not in LISTS and base.get(k) != v}
    gone = [k for k in base if k not in manifest]
    delta: dict[str, Json] = {"fields": fields}
    if gone:
        delta["gone"] = gone
    for name in LISTS:
        delta[name] = _script(base.get(name, []), manifest.get(name, []))
    return delta


def rebuild(base: dict[str, Json], delta: dict[str, Json]) -> dict[str, Json]:
    """The manifest ``delta`` describes against ``base`` (both JSON values)."""
    rebuilt = {k: v for k, v in base.items() if k not in delta.get("gone", ())}
    rebuilt.update(delta["fields"])
    for name in LISTS:
        rebuilt[name] = _apply(base.get(name, []), delta[name])
    return rebuilt


def smaller(delta: dict[str, Json], manifest: dict[str, Json]) -> bool:
    return len(_dumps(delta)) < len(_dumps(manifest))


def _script(old: Sequence[dict[str, Json]], new: Sequence[dict[str, Json]]) -> list[Json]:
    a, b = _keys(old), _keys(new)
    script: list[Json] = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            script.append([i1, i2])
        elif j2 > j1:  # replace or insert: the new items, without a position equal to index
            script.append({"add": [_compact(new[j], j) for j in range(j1, j2)]})
    return script


def _apply(old: Sequence[dict[str, Json]], script: Sequence[Json]) -> list[dict[str, Json]]:
    out: list[dict[str, Json]] = []
    for step in script:
        if isinstance(step, list):  # copied: a position that was its old index follows it
            for i in range(step[0], step[1]):
                item = old[i]
                moved = item.get("position") == i
                out.append({**item, "position": len(out)} if moved else item)
        else:  # added: a missing position is the index
            for item in step["add"]:
                out.append({"position": len(out), **item})
    return out


def _keys(items: Sequence[dict[str, Json]]) -> list[str]:
    return [_dumps(_compact(item, i)) for i, item in enumerate(items)]


def _compact(item: dict[str, Json], index: int) -> dict[str, Json]:
    if item.get("position") == index:
        return {k: v for k, v in item.items() if k != "position"}
    return item


def _dumps(value: Json) -> str:
    return json.dumps(value, ensure_ascii=True, separators=(",", ":"), sort_keys=True)


class ManifestChain:
    """What a log remembers to write manifests as deltas and to read them back.

    Per session, the last manifest it wrote or read (the base of the next delta); and the
    manifests it rebuilt recently, so reading a session in order rebuilds each call once.
    ``load(seq)`` reads record ``seq`` (which passes its manifest through :meth:`expand`).
    """

    def __init__(self, load: Callable[[int], object], *, keep: int = 64) -> None:
        self._load = load
        self._keep = keep
        self._lock = threading.Lock()
        self._recent: OrderedDict[int, tuple[dict[str, Json], int]] = OrderedDict()
        self._last: OrderedDict[str, tuple[int, dict[str, Json], int]] = OrderedDict()

    def compact(self, session_id: str, payload: dict[str, Json]) -> tuple[dict[str, Json], int]:
        """``payload`` of a model call to store (its manifest as a delta when that is worth
        it) and the manifest's depth in its chain (0: whole)."""
        manifest = payload["manifest"]
        with self._lock:
            last = self._last.get(session_id)
        if last is None or last[2] + 1 >= KEYFRAME_EVERY:
            return payload, 0
        base_seq, base, depth = last
        delta = manifest_delta(base, manifest)
        if not smaller(delta, manifest):
            return payload, 0
        stored = {k: v for k, v in payload.items() if k != "manifest"}
        stored["manifest_delta"] = {"base": base_seq, "depth": depth + 1, **delta}
        return stored, depth + 1

    def wrote(self, session_id: str, seq: int, manifest: dict[str, Json], depth: int) -> None:
        with self._lock:
            self._remember(session_id, seq, manifest, depth)

    def expand(self, session_id: str, seq: int, payload: dict[str, Json]) -> dict[str, Json]:
        """A stored model-call payload with its whole manifest (rebuilt from its chain)."""
        delta = payload.get("manifest_delta")
        if delta is None:
            if "manifest" in payload:
                with self._lock:
                    self._remember(session_id, seq, payload["manifest"], 0)
            return payload
        base = self._manifest(int(delta["base"]))
        manifest = rebuild(base, delta)
        with self._lock:
            self._remember(session_id, seq, manifest, int(delta["depth"]))
        full = {k: v for k, v in payload.items() if k != "manifest_delta"}
        full["manifest"] = manifest
        return full

    def _manifest(self, seq: int) -> dict[str, Json]:
        with self._lock:
            found = self._recent.get(seq)
        if found is None:
            self._load(seq)  # decoding the record rebuilds and remembers its manifest
            with self._lock:
                found = self._recent.get(seq)
        if found is None:
            raise SessionLogError(f"record {seq} holds no manifest, but a later one is based on it")
        return found[0]

    def _remember(self, session_id: str, seq: int, manifest: dict[str, Json], depth: int) -> None:
        self._recent[seq] = (manifest, depth)
        self._recent.move_to_end(seq)
        while len(self._recent) > self._keep:
            self._recent.popitem(last=False)
        last = self._last.get(session_id)
        if last is None or last[0] <= seq:
            self._last[session_id] = (seq, manifest, depth)
            self._last.move_to_end(session_id)
            while len(self._last) > self._keep * 16:
                self._last.popitem(last=False)
