"""JSON payloads for loop events, exact in both directions.

Events are frozen dataclasses; a payload is the plain JSON value of their fields (nested
dataclasses become objects, tuples become lists). Decoding is driven by the field types, so
tuples come back as tuples and ``None`` stays ``None``. The kind column of the log picks the
event class from :data:`EVENT_TYPES`; an unknown kind is an error, never a silent skip.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Mapping
from typing import Any, Literal, TypeAlias, get_args, get_origin

from workset.errors import SessionLogError
from workset.events.records import LoopEvent

EVENT_TYPES: Mapping[str, type[LoopEvent]] = {
    cls.__dataclass_fields__["kind"].default: cls for cls in get_args(LoopEvent)
}

Json: TypeAlias = Any  # a value json.loads returns


def event_to_payload(event: LoopEvent) -> dict[str, Json]:
    """The JSON object for ``event`` (``kind`` included)."""
    payload = _encode(event)
    assert isinstance(payload, dict)
    return payload


def event_from_payload(kind: str, payload: Mapping[str, Json]) -> LoopEvent:
    """The event of ``kind`` that ``payload`` encodes; raises :class:`SessionLogError`."""
    cls = EVENT_TYPES.get(kind)
    if cls is None:
        raise SessionLogError(
            f"unknown event kind {kind!r}; known kinds are {', '.join(EVENT_TYPES)}. "
            "The log may have been written by a newer workset: upgrade workset to read it."
        )
    event = _decode(cls, payload, kind)
    assert isinstance(event, cls)
    return event


def _encode(value: Any) -> Json:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [_encode(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _encode(v) for k, v in value.items()}
    return value


@functools.cache
def _field_types(cls: type) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    return {f.name: hints[f.name] for f in dataclasses.fields(cls)}


def _decode(tp: Any, value: Json, where: str) -> Any:
    if tp is Any:  # a JSON payload kept as it is (an event's content)
        return value
    origin = get_origin(tp)
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        return _decode_dataclass(tp, value, where)
    if origin is types.UnionType or origin is typing.Union:
        return _decode_union(get_args(tp), value, where)
    if origin is Literal:
        if value not in get_args(tp):
            raise _bad(where, f"one of {get_args(tp)}", value)
        return value
    if origin is tuple:
        args = get_args(tp)
        if not isinstance(value, list):
            raise _bad(where, "a list", value)
        if len(args) == 2 and args[1] is Ellipsis:  # tuple[X, ...]
            return tuple(_decode(args[0], v, f"{where}[{i}]") for i, v in enumerate(value))
        if len(value) != len(args):  # tuple[str, float]: one type per place
            raise _bad(where, f"a list of {len(args)}", value)
        pairs = enumerate(zip(args, value, strict=True))
        return tuple(_decode(t, v, f"{where}[{i}]") for i, (t, v) in pairs)
    if origin is dict or origin is Mapping:
        value_type = get_args(tp)[1]
        if not isinstance(value, dict):
            raise _bad(where, "an object", value)
        return {k: _decode(value_type, v, f"{where}.{k}") for k, v in value.items()}
    return _decode_scalar(tp, value, where)


def _decode_dataclass(cls: type, value: Json, where: str) -> Any:
    if not isinstance(value, dict):
        raise _bad(where, f"an object for {cls.__name__}", value)
    kwargs: dict[str, Any] = {}
    for name, field_type in _field_types(cls).items():
        if name in value:  # absent fields take their defaults; unknown keys are ignored
            kwargs[name] = _decode(field_type, value[name], f"{where}.{name}")
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise SessionLogError(f"cannot rebuild {cls.__name__} at {where}: {exc}") from exc


def _decode_union(options: tuple[Any, ...], value: Json, where: str) -> Any:
    if value is None:
        if type(None) in options:
            return None
        raise _bad(where, "a value", value)
    non_none = [t for t in options if t is not type(None)]
    if len(non_none) == 1:
        return _decode(non_none[0], value, where)
    for option in non_none:  # unions of scalars only: pick the first that accepts the value
        try:
            return _decode(option, value, where)
        except SessionLogError:
            continue
    raise _bad(where, " or ".join(map(str, non_none)), value)


def _decode_scalar(tp: Any, value: Json, where: str) -> Any:
    if tp is float:
        ok = isinstance(value, int | float) and not isinstance(value, bool)
    elif tp is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif tp in (str, bool):
        ok = isinstance(value, tp)
    else:
        raise SessionLogError(f"the session codec cannot decode type {tp!r} at {where}")
    if not ok:
        raise _bad(where, tp.__name__, value)
    return value


def _bad(where: str, expected: str, value: Json) -> SessionLogError:
    return SessionLogError(
        f"corrupt session log payload: {where} should be {expected}, got {value!r:.80}"
    )
