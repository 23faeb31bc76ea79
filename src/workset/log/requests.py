"""Model requests stored by reference, and rebuilt from it byte for byte.

A recorded model call keeps a :class:`~workset.events.records.RequestRef`: the trajectory
messages by the seq of their record, and the parts made for that one call (the system prompt,
the tool list, extra messages, the JSON schema) as content-addressed blobs. This module makes
those blobs (:func:`blob_hash`, :func:`message_blob`, :func:`tools_blob`) and turns a reference
back into the request (:func:`rebuild_request`), given how to read a blob and a record.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence

from workset.errors import SessionLogError
from workset.events.records import ModelCalled, RequestRef, ToolFinished
from workset.log.records import StoredEvent
from workset.log.trajectory import Trajectory
from workset.messages import Message, ToolSpec, from_wire, to_wire
from workset.models.base import ModelRequest


def blob_hash(text: str) -> str:
    """The content address of ``text`` in the blob store."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def message_blob(message: Message) -> tuple[str, str]:
    """(hash, text) of a message made for one call: its wire JSON, exactly reversible."""
    text = json.dumps(to_wire(message, keep_reasoning=True), ensure_ascii=True, sort_keys=True)
    return blob_hash(text), text


def tools_blob(tools: Sequence[ToolSpec]) -> tuple[str, str]:
    text = json.dumps([t.to_wire() for t in tools], ensure_ascii=True)
    return blob_hash(text), text


def rebuild_request(
    ref: RequestRef, blob: Callable[[str], str], record: Callable[[int], StoredEvent]
) -> ModelRequest:
    """The request ``ref`` refers to, its blobs read with ``blob`` and its records with
    ``record``."""
    messages: list[Message] = [from_wire({"role": "system", "content": blob(ref.system)})]
    for part in ref.messages:
        if part.blob:
            messages.append(from_wire(json.loads(blob(part.blob))))
        else:
            messages.append(_message_of(record(part.seq), part.seq))
    tools = tuple(
        ToolSpec(f["name"], f["description"], f["parameters"])
        for f in (t["function"] for t in json.loads(blob(ref.tools)))
    )
    schema = json.loads(blob(ref.json_schema)) if ref.json_schema else None
    return ModelRequest(
        tuple(messages), tools, ref.max_tokens, ref.temperature, schema, seed=ref.seed
    )


def _message_of(stored: StoredEvent, seq: int) -> Message:
    trajectory = Trajectory()
    event = stored.event
    if isinstance(event, ModelCalled):
        return event.message
    if isinstance(event, ToolFinished):
        return event.result
    if event is not None:
        added = trajectory.add(seq, event)
        if added is not None:
            return added
    raise SessionLogError(f"record {seq} ({stored.kind}) holds no trajectory message")
