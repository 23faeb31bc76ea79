"""The manifest: what went into one model call, what was left out and why.

One manifest per model call, stored in the session log with the call. Its buckets sum to the
request's token count; its prefix fields say how much of the previous request was reused.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, TypeAlias

ItemKind: TypeAlias = Literal[
    "instruction",
    "tool",
    "trajectory",
    "task_state",
    "evidence",
    "memory",
    "status",
    "skill",
    "template",
]
OmitReason: TypeAlias = Literal[
    "budget", "scope", "expired", "negative_utility", "policy", "masked", "duplicate"
]


@dataclass(frozen=True, slots=True)
class IncludedItem:
    item_id: str
    kind: ItemKind
    source: str
    tokens: int
    position: int  # order in the request, 0 = first part of the prompt
    bucket: str
    seq: int | None = None  # the message's position in the session's conversation
    why: str = ""  # why it is in the request when that is not obvious (pinned rule, policy)
    trust: str = ""  # "untrusted" for data from tools, documents, MCP, uninstalled skills
    version: str = ""
    reference: str = ""  # where the original lives: uri and range


@dataclass(frozen=True, slots=True)
class OmittedItem:
    item_id: str
    kind: ItemKind
    source: str
    tokens: int
    reason: OmitReason
    detail: str = ""
    seq: int | None = None


@dataclass(frozen=True, slots=True)
class BudgetNumbers:
    """window − output_reserve − margin − fixed = available for the trajectory and the rest."""

    window: int
    output_reserve: int
    margin: int
    fixed: int
    available: int
    used: int


@dataclass(frozen=True, slots=True)
class PrefixInfo:
    """The stable prefix (system prompt and tools) and reuse against the previous request."""

    hash: str
    tokens: int
    reused_tokens: int  # leading tokens equal to the previous request's (0 on the first call)
    previous_total: int  # the previous request's size, 0 on the first call
    first_divergence: str = ""  # the item where reuse broke, when it broke before the end
    # What the server reported as reused from its KV cache for this call (llama.cpp, vLLM...);
    # None when the backend does not say. Filled in after the call.
    server_cached_tokens: int | None = None


@dataclass(frozen=True, slots=True)
class Manifest:
    request_id: str
    session_id: str
    through_seq: int  # how many messages of the session's conversation the request reflects
    total_tokens: int
    count_method: str
    budget: BudgetNumbers
    buckets: dict[str, int]
    prefix: PrefixInfo
    included: tuple[IncludedItem, ...] = ()
    omitted: tuple[OmittedItem, ...] = field(default=())
    summary_id: str | None = None
    history_policy: str = ""
    out_of_scope: int = 0  # candidates removed by the scope filter (never listed by id)
    # Other decisions worth reading next to the numbers (status-bar strategy and its cost
    # model, compression triggered...), as short labelled sentences.
    notes: dict[str, str] = field(default_factory=dict)
