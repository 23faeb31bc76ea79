"""What a session log holds and hands back, whichever database it lives in.

The record kinds besides loop events, the row and session types read back
(:class:`StoredEvent`, :class:`SessionInfo`, :class:`ResumeState`), session ids (made, checked,
taken), the statement and row mapping that list sessions, and the JSON form payloads are
stored in. The SQLite log (:mod:`workset.log.store`) and the PostgreSQL one
(:mod:`workset.stores.postgres.log`) share all of it.
"""

from __future__ import annotations

import json
import re
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias, get_args

from workset.errors import UsageError
from workset.events.records import LoopEvent
from workset.messages import Message, OpenUnit, ToolCall

RecordKind: TypeAlias = Literal["external_event", "summary"]
RunStatus: TypeAlias = Literal["finished", "failed", "interrupted", "none"]

RECORD_KINDS: frozenset[str] = frozenset(get_args(RecordKind))
_RUN_STATUS: dict[str, RunStatus] = {
    "run_started": "interrupted",
    "run_finished": "finished",
    "run_failed": "failed",
}


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """One row of the log: a loop ``event``, or a ``record`` for the non-loop kinds."""

    seq: int
    session_id: str
    kind: str
    at: float
    event: LoopEvent | None = None
    record: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class ResumeState:
    """What a resumed run needs: the conversation so far and the tool calls left hanging."""

    messages: tuple[Message, ...]
    open_unit: OpenUnit | None  # the last assistant message, when its calls lack results
    started_unfinished: tuple[ToolCall, ...]  # started, never finished: may have side effects
    finished_call_ids: frozenset[str]
    last_run_status: RunStatus


@dataclass(frozen=True, slots=True)
class SessionInfo:
    id: str
    created_at: float
    title: str
    model: str
    workspace: str
    n_events: int
    status: RunStatus  # of the last run; "interrupted" also while a run is in progress
    last_event_at: float | None
    config: dict[str, Any] | None = None


# -- session ids ------------------------------------------------------------------------------

_SESSION_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")


def new_session_id() -> str:
    """``s`` + 8 hex digits of the current second + 4 random hex digits: sortable, short."""
    return f"s{int(time.time()):08x}{secrets.randbits(16):04x}"


def session_taken(session_id: str, where: str) -> UsageError:
    """The error for a chosen session id that ``where`` already holds."""
    return UsageError(
        f"session {session_id!r} already exists in {where}; send events to it, or pick another id"
    )


def check_session_id(session_id: str) -> None:
    if not _SESSION_ID.fullmatch(session_id):
        raise UsageError(
            f"session id {session_id!r} is not usable: use 1 to 64 letters, digits, '.', '_' "
            "or '-', starting with a letter or digit (e.g. 'inbox')"
        )


# -- listing sessions -------------------------------------------------------------------------

SESSION_INFO_SQL = """
    SELECT s.id, s.created_at, s.title, s.model, s.workspace, s.config_json,
        (SELECT COUNT(*) FROM events e WHERE e.session_id = s.id),
        (SELECT e.at FROM events e WHERE e.session_id = s.id ORDER BY e.seq DESC LIMIT 1),
        (SELECT e.kind FROM events e WHERE e.session_id = s.id
            AND e.kind IN ('run_started', 'run_finished', 'run_failed')
            ORDER BY e.seq DESC LIMIT 1)
    FROM sessions s
"""


def session_info(row: Sequence[Any]) -> SessionInfo:
    """The :class:`SessionInfo` of one row of :data:`SESSION_INFO_SQL`."""
    sid, created_at, title, model, workspace, config_json, n_events, last_at, run_kind = row
    status: RunStatus = "none" if run_kind is None else _RUN_STATUS[run_kind]
    return SessionInfo(
        id=sid,
        created_at=created_at,
        title=title,
        model=model,
        workspace=workspace,
        n_events=n_events,
        status=status,
        last_event_at=last_at,
        config=None if config_json is None else json.loads(config_json),
    )


def dump_json(value: dict[str, Any], what: str) -> str:
    """``value`` as the compact JSON a payload is stored as; :class:`UsageError` if it is not
    JSON-serializable (``what`` names it in the message)."""
    try:  # ASCII escapes keep any Python string storable, lone surrogates included
        return json.dumps(value, ensure_ascii=True, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise UsageError(f"{what} must be JSON-serializable: {exc}") from exc
