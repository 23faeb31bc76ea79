"""Memory: what the agent may carry across calls and sessions, and under which checks.

Three lifetimes, three stores: the working context (one call, built elsewhere), session notes
(:class:`SessionNotes`, until the session ends) and long-term memory (:class:`MemoryStore`,
until changed or deleted), the last two in one SQLite file. Every long-term record names its
subject, tenant, purpose, source label, provenance and expiry; :func:`load_memory` admits only
records for this subject and tenant, relevant to this purpose, unexpired, active and from an
accepted source, and returns model inferences apart as hypotheses. Writes derived from
untrusted content are quarantined until a human approves them; a model's answer is never
stored as a user fact. Standing rules the user states ("file every ticket with employee
number 4417") are found deterministically (:mod:`workset.memory.rules`) and pinned, so they
survive compaction as required context items rather than by luck of a recent message.
"""

from __future__ import annotations

from workset.memory.loader import load_memory, memory_items
from workset.memory.notes import Note, SessionNotes, note_items
from workset.memory.rules import find_standing_rules, pin_standing_rules
from workset.memory.store import ANY_PURPOSE, MemoryRecord, MemorySource, MemoryStore
from workset.memory.tools import memory_tools

__all__ = [
    "ANY_PURPOSE",
    "MemoryRecord",
    "MemorySource",
    "MemoryStore",
    "Note",
    "SessionNotes",
    "find_standing_rules",
    "load_memory",
    "memory_items",
    "memory_tools",
    "note_items",
    "pin_standing_rules",
]
