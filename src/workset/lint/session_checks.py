"""Checks on a recorded session, read from the manifests of its model calls.

Each manifest records the stable-prefix hash, the tokens reused from the previous request and
the first item where reuse broke, and which history messages (by ``seq``) went in. Comparing
consecutive calls shows what moved the prefix. Call numbers count from 1 in session order.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from workset.config import AgentSection, WorksetConfig
from workset.context.manifest import Manifest
from workset.lint.config_checks import lint_config
from workset.lint.findings import Finding, Severity
from workset.stores.protocols import SessionStore

_DIVERGENCE = re.compile(r"position (\d+): (.+?) changed(?: \(was (.+?)\))?(?::|$)")
# Reuse that ends in the first half of the previous request's trajectory (what follows the
# system prompt and tools) counts as breaking "near the start".
NEAR_START = 0.5


@dataclass(frozen=True, slots=True)
class _Break:
    call: int  # the later call of the pair
    detail: str


def lint_session(log: SessionStore, session_id: str) -> list[Finding]:
    """Lint the recorded system prompt and every pair of consecutive model calls."""
    info = log.get_session(session_id)
    findings: list[Finding] = []
    prompt = (info.config or {}).get("system_prompt")
    if isinstance(prompt, str) and prompt:
        recorded = WorksetConfig(
            agent=AgentSection(system_prompt=prompt), source=f"session {info.id} (recorded)"
        )
        findings += [f for f in lint_config(recorded) if f.code == "WS101"]
    manifests = [m for _, m in log.manifests(info.id)]
    return findings + lint_manifests(manifests, where=f"session {info.id}")


# What each kind of break becomes: (bucket, code, severity, what happened, fix).
_REPORTS: tuple[tuple[str, str, Severity, str, str], ...] = (
    ("system", "WS202", "error", "the system prompt changed",
     "build the system prompt once per session from constant text; move per-call values to "
     "the end of the request"),
    ("tools", "WS201", "error", "the tool definitions changed",
     "offer the same tools in the same order on every call; load more tools through "
     "discovery, appended at the end"),
    ("withheld", "WS201", "warning", "the tools were withheld",
     "announced by policy; if it happens often, let the model answer with the tools still "
     "offered"),
    ("rotating", "WS203", "error", "prefix reuse broke early in the trajectory",
     "find the item that changes each round (status, time, counters) and append it at the "
     "end instead"),
    ("deleted", "WS204", "error", "earlier messages were dropped while later ones stayed",
     "keep the trajectory append-only; compact it in one announced step (a history policy "
     "with a summary) instead of deleting messages"),
    ("trimmed", "WS204", "warning", "the budget dropped the oldest messages (a sliding window)",
     "use a compacting history policy before the window fills, or a larger context window"),
)  # fmt: skip


def lint_manifests(manifests: Sequence[Manifest], *, where: str = "session") -> list[Finding]:
    """Prefix breakers visible between consecutive manifests of one session.

    Rotating state is reported only when reuse broke early at two calls or more: a single
    early break is more often a one-off edit than something that rotates.
    """
    breaks: dict[str, list[_Break]] = {report[0]: [] for report in _REPORTS}
    for index in range(1, len(manifests)):
        prev, cur, call = manifests[index - 1], manifests[index], index + 1
        pair = f"calls {call - 1}→{call}"
        divergence = _divergence(cur)
        head = _head_change(prev, cur, divergence)
        if head == "system":
            detail = divergence or "the system prompt hash changed"
        elif head == "withheld":
            reason = _withheld_reason(prev) or _withheld_reason(cur)
            detail = f"tools withheld by policy ({reason})"
        elif head == "tools":
            detail = divergence or _tools_detail(prev, cur)
        if head is not None:
            breaks[head].append(_Break(call, f"{pair}: {detail}"))
        missing = _deleted(prev, cur)
        if missing:
            kept = max(s for s in _seqs(prev) if s in _seqs(cur))
            detail = f"seq {_ranges(missing)} left out while seq {kept} stays"
            if divergence:
                detail += f"; first diverging item {divergence}"
            bucket = "trimmed" if _budget_trim(cur, missing) else "deleted"
            breaks[bucket].append(_Break(call, f"{pair}: {detail}"))
        if head is None and not missing and _broke_near_start(cur):
            breaks["rotating"].append(_Break(call, f"{pair}: {divergence}"))
    return [
        _finding(code, severity, where, what, breaks[bucket], fix)
        for bucket, code, severity, what, fix in _REPORTS
        if len(breaks[bucket]) >= (2 if bucket == "rotating" else 1)
    ]


def _finding(
    code: str, severity: Severity, where: str, what: str, breaks: list[_Break], fix: str
) -> Finding:
    calls = ", ".join(str(b.call) for b in breaks[:12]) + ("…" if len(breaks) > 12 else "")
    shown = "; ".join(b.detail for b in breaks[:3]) + ("; …" if len(breaks) > 3 else "")
    times = "once" if len(breaks) == 1 else f"{len(breaks)} times"
    return Finding(code, severity, where, f"{what} {times} (at calls {calls}): {shown}", fix)


def _divergence(manifest: Manifest) -> str:
    return manifest.prefix.first_divergence if manifest.prefix.previous_total else ""


def _head_change(prev: Manifest, cur: Manifest, divergence: str) -> str | None:
    """Which part of the stable prefix moved: "system", "tools", "withheld" or None."""
    withheld = _withheld_reason(prev) or _withheld_reason(cur)
    if withheld and _tokens(prev, "tools") != _tokens(cur, "tools"):
        return "withheld"
    if prev.prefix.hash == cur.prefix.hash:
        return None
    match = _DIVERGENCE.match(divergence)
    if match:
        now, was = match.group(2), match.group(3) or match.group(2)
        if "system" in (now, was):
            return "system"
        if "tools" in (now, was):
            return "tools"
    if _tokens(prev, "system") != _tokens(cur, "system"):
        return "system"
    if _tokens(prev, "tools") != _tokens(cur, "tools"):
        return "tools"
    return "system"  # same sizes, different bytes: most often a timestamp in the prompt


def _tokens(manifest: Manifest, item_id: str) -> int | None:
    for item in manifest.included:
        if item.item_id == item_id and item.seq is None:
            return item.tokens
    return None


def _tools_detail(prev: Manifest, cur: Manifest) -> str:
    before, after = _tokens(prev, "tools"), _tokens(cur, "tools")
    return f"tool definitions went from {before or 0} to {after or 0} tokens"


def _withheld_reason(manifest: Manifest) -> str:
    for item in manifest.omitted:
        if item.item_id == "tools" and item.reason == "policy":
            return item.detail or "no reason recorded"
    return ""


def _seqs(manifest: Manifest) -> set[int]:
    return {i.seq for i in manifest.included if i.seq is not None}


def _deleted(prev: Manifest, cur: Manifest) -> list[int]:
    """Seqs of ``prev`` missing from ``cur`` while a later seq of ``prev`` is still there."""
    if cur.summary_id != prev.summary_id:
        return []  # an announced compaction rewrites the history once, on purpose
    before, after = _seqs(prev), _seqs(cur)
    if not after:
        return []
    last_kept = max((s for s in before if s in after), default=None)
    if last_kept is None:
        return []
    return sorted(s for s in before if s not in after and s < last_kept)


def _budget_trim(cur: Manifest, missing: list[int]) -> bool:
    trimmed = {o.seq for o in cur.omitted if o.reason == "budget"}
    return all(s in trimmed for s in missing)


def _broke_near_start(cur: Manifest) -> bool:
    prefix = cur.prefix
    if not prefix.previous_total or not prefix.first_divergence:
        return False
    head = prefix.tokens  # the system prompt and tools, unchanged here
    return prefix.reused_tokens - head < NEAR_START * (prefix.previous_total - head)


def _ranges(seqs: list[int]) -> str:
    parts: list[str] = []
    start = prev = seqs[0]
    for s in [*seqs[1:], None]:
        if s is not None and s == prev + 1:
            prev = s
            continue
        parts.append(str(start) if start == prev else f"{start}-{prev}")
        if s is not None:
            start = prev = s
    return ", ".join(parts)
