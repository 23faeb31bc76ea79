"""Trust controls applied when an MCP server's tools are listed, before any reach the model.

Three checks, all pure functions of the listings:

- **Description poisoning** (:mod:`workset.mcp.poisoning`): every text of a definition is
  read as a model would read it and checked for instructions aimed at the model by the
  wording rules; opt-in, a sentence classifier beside them (:mod:`workset.mcp.poison_learned`,
  ``learned`` findings; ``[mcp] learned = "report"|"block"`` in the config,
  ``TrustGate(learned=…)``, :func:`audit_definition`), off by default because it also flags
  benign definitions the rules pass (docs/results/safety.md). A finding
  blocks that tool; the server's other tools still load. ``block_server_on_finding`` in a
  server's config blocks all its tools instead, ``allow_flagged`` loads them anyway (the
  findings are reported either way).
- **Pinning (rug pulls).** :func:`definition_hash` is the sha256 of the canonical JSON of a
  tool's name, description and input schema. Against a server's ``pinned`` hashes, a changed
  definition, or a tool added to a pinned server, is blocked until accepted
  (:meth:`TrustGate.accept`) and re-pinned in the config (:meth:`TrustGate.pins`). A server
  with no pins is trusted on first use and its hashes are reported for pinning.
- **Shadowing.** Across servers, tools whose names normalise to the same words (case,
  ``-``/``_``/``.`` separators, ``camelCase``, look-alike letters, a plural ``s``, a version or
  trust affix such as ``_v2`` or ``official_``) or to words one look-alike letter (``fi1e``),
  one swap (``fiel``) or one letter added or dropped apart, and descriptions that name another
  server's tool, are reported as pairs (an ordinary one-letter difference such as
  ``list_tabs``/``list_tags`` is not).
  Each server has a ``trust`` level (``trusted`` or ``untrusted``, the default); when one
  side of a pair is trusted and the other is not, the report names the untrusted one as the
  shadow and that tool is blocked.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

from workset.errors import ToolError, UsageError
from workset.mcp.config import LearnedMode, MCPServerConfig
from workset.mcp.poisoning import Finding, audit_tool
from workset.mcp.remote import RemoteTool
from workset.safety.unicode_fold import fold

__all__ = [
    "Blocked",
    "Finding",
    "PinStatus",
    "ShadowPair",
    "TrustGate",
    "TrustReport",
    "audit_definition",
    "audit_tool",
    "definition_hash",
    "find_shadowing",
    "normalised_name",
]


def audit_definition(tool: RemoteTool, *, learned: bool = False) -> list[Finding]:
    """The rules' findings (:func:`audit_tool`) and, with ``learned``, the sentence
    classifier's ``learned`` ones (a UsageError says what to install when its embedder is
    missing). The classifier adds what the rules miss and never clears a rule's finding.
    """
    findings = audit_tool(tool)
    if learned:
        from workset.mcp.poison_learned import learned_findings

        findings += learned_findings(tool)
    return findings


def definition_hash(tool: RemoteTool) -> str:
    """sha256 of the canonical JSON of the tool's name, description and input schema, and its
    title and output schema when it has them (a rug pull there changes the hash too)."""
    sent: dict[str, Any] = {
        "name": tool.name,
        "description": tool.description,
        "inputSchema": tool.input_schema,
    }
    if tool.title:
        sent["title"] = tool.title
    if tool.output_schema:
        sent["outputSchema"] = tool.output_schema
    canonical = json.dumps(
        sent,
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


ShadowReason: TypeAlias = Literal["same-name", "near-identical-name", "mentions-other-tool"]


@dataclass(frozen=True, slots=True)
class ShadowPair:
    """``tool`` on ``server`` may shadow (or be shadowed by) ``other_tool`` on ``other_server``.

    ``shadow`` names the server whose tool is the likely impostor: the untrusted side when the
    other is trusted; ``None`` when both sides have the same trust (set ``trust`` to decide).
    """

    server: str
    tool: str
    other_server: str
    other_tool: str
    reason: ShadowReason
    shadow: str | None = None

    def line(self) -> str:
        who = (
            f"; the shadow is {self.shadow}"
            if self.shadow
            else "; neither server is trusted more (set trust in the config to decide)"
        )
        return (
            f"{self.server}/{self.tool} ~ {self.other_server}/{self.other_tool}: {self.reason}{who}"
        )


def find_shadowing(
    tools: Sequence[RemoteTool], trust: Mapping[str, str] | None = None
) -> list[ShadowPair]:
    """Pairs of tools on different servers that a model could confuse or be steered between.

    ``trust`` maps server names to ``trusted``/``untrusted`` (default untrusted) so each pair
    can name its shadow.
    """
    levels = trust or {}
    pairs: list[ShadowPair] = []
    names = [normalised_name(t.name) for t in tools]
    for i, a in enumerate(tools):
        for j in range(i + 1, len(tools)):
            b = tools[j]
            if a.server == b.server:
                continue
            reason: ShadowReason | None = None
            if a.name == b.name:
                reason = "same-name"
            elif _near(names[i], names[j]):
                reason = "near-identical-name"
            if reason is not None:
                pairs.append(_pair(a, b, reason, levels))
    for a in tools:
        for b in tools:
            if a.server != b.server and _mentions(a.description, b.name):
                pairs.append(_pair(a, b, "mentions-other-tool", levels))
    return pairs


def _pair(
    a: RemoteTool, b: RemoteTool, reason: ShadowReason, levels: Mapping[str, str]
) -> ShadowPair:
    ta, tb = levels.get(a.server, "untrusted"), levels.get(b.server, "untrusted")
    shadow = None
    if ta == "trusted" and tb != "trusted":
        shadow = b.server
    elif tb == "trusted" and ta != "trusted":
        shadow = a.server
    return ShadowPair(a.server, a.name, b.server, b.name, reason, shadow)


def normalised_name(name: str) -> str:
    """``readFile``, ``read-file``, ``READ_FILES``, ``rеad_file`` (Cyrillic е): ``read_file``."""
    folded = fold(name)
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", folded)
    words = re.split(r"[-_.\s/:]+", spaced.lower())
    return "_".join(w[:-1] if len(w) > 3 and w.endswith("s") else w for w in words if w)


_AFFIX = re.compile(
    r"^(official|better|fast|faster|safe|secure|real|trusted|verified|pro)_"
    r"|_(v\d+|\d+|new|official|pro|fast|faster|better|safe|secure|plus|real|latest|fixed|"
    r"updated)$|(?<=[a-z])\d+$"
)
# Characters that stand in for each other at a glance: one of these swapped is a look-alike;
# any other one-letter difference (list_tabs, list_tags) is just another word.
_LOOK_ALIKE = frozenset({"l1", "1l", "li", "il", "i1", "1i", "o0", "0o", "s5", "5s", "e3", "3e",
                         "a4", "4a", "b8", "8b", "g9", "9g", "z2", "2z", "uv", "vu"})  # fmt: skip


def _near(na: str, nb: str) -> bool:
    if na == nb or _AFFIX.sub("", na) == _AFFIX.sub("", nb):
        return True
    return min(len(na), len(nb)) >= 4 and _within_one_edit(na, nb)


def _within_one_edit(a: str, b: str) -> bool:
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) > len(b):
        a, b = b, a
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    if len(a) == len(b):  # a look-alike letter, or two neighbours swapped (a typo-squat)
        swapped = a[i : i + 2] == b[i : i + 2][::-1] and a[i + 2 :] == b[i + 2 :]
        look_alike = a[i : i + 1] + b[i : i + 1] in _LOOK_ALIKE
        return (look_alike and a[i + 1 :] == b[i + 1 :]) or swapped
    return a[i:] == b[i + 1 :]


def _mentions(description: str, name: str) -> bool:
    if len(name) < 3:
        return False
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", fold(description)) is not None


PinState: TypeAlias = Literal["unpinned", "same", "changed", "added", "accepted", "removed"]


@dataclass(frozen=True, slots=True)
class PinStatus:
    """How a listed tool compares with the hash pinned for it.

    ``unpinned``: the server has no pins (trusted on first use). ``same``: matches its pin.
    ``changed`` / ``added``: differs from the pins, or is new on a pinned server; blocked
    until accepted. ``accepted``: was changed or added and accepted in this process.
    ``removed``: pinned but no longer listed.
    """

    server: str
    tool: str
    state: PinState
    pinned_hash: str
    current_hash: str

    @property
    def blocks(self) -> bool:
        return self.state in ("changed", "added")


@dataclass(frozen=True, slots=True)
class Blocked:
    tool: RemoteTool
    reason: str


@dataclass(frozen=True, slots=True)
class TrustReport:
    """What one review loaded, what it kept out and why, and everything worth a look."""

    loaded: tuple[RemoteTool, ...]
    blocked: tuple[Blocked, ...]
    findings: tuple[Finding, ...]
    pins: tuple[PinStatus, ...]
    shadowing: tuple[ShadowPair, ...]
    unreachable: Mapping[str, str]
    learned: LearnedMode = "off"  # what the sentence classifier's findings did

    def lines(self) -> list[str]:
        """A plain-text account, one item a line, for logs and the CLI."""
        out = [f"loaded {len(self.loaded)} tools, blocked {len(self.blocked)}"]
        out += [f"blocked {b.tool.server}/{b.tool.name}: {b.reason}" for b in self.blocked]
        out += [f"finding {f.line()}" for f in self.findings]
        out += [
            f"pin {p.server}/{p.tool}: {p.state}"
            for p in self.pins
            if p.state not in ("same", "unpinned")
        ]
        unpinned = sorted({p.server for p in self.pins if p.state == "unpinned"})
        if unpinned:
            out.append(f"unpinned servers (trusted on first use): {', '.join(unpinned)}")
        out += [f"shadowing {s.line()}" for s in self.shadowing]
        out += [f"unreachable {name}: {why}" for name, why in self.unreachable.items()]
        return out


class TrustGate:
    """Applies the three checks to listings, remembering definitions accepted in this process."""

    def __init__(self, configs: Iterable[MCPServerConfig], *, learned: LearnedMode = "off") -> None:
        """``learned``: the sentence classifier beside the rules: ``off``, ``report`` (its
        findings are reported, the tools still load) or ``block`` (they block like a rule's).
        """
        self._configs = {c.name: c for c in configs}
        self._learned = learned
        self._accepted: dict[tuple[str, str], str] = {}
        self._last: TrustReport | None = None
        self._current: dict[tuple[str, str], str] = {}

    def review(self, listings: Mapping[str, Sequence[RemoteTool] | ToolError]) -> TrustReport:
        """Audit, compare with pins, look for shadowing; decide which tools load."""
        tools = [t for v in listings.values() if not isinstance(v, ToolError) for t in v]
        unreachable = {n: str(v) for n, v in listings.items() if isinstance(v, ToolError)}
        run = self._learned != "off"
        findings = [f for tool in tools for f in audit_definition(tool, learned=run)]
        blocking = [f for f in findings if f.rule != "learned" or self._learned == "block"]
        flagged_tools = {(f.server, f.tool) for f in blocking}
        flagged_servers = {f.server for f in blocking}
        pins = self._pins(listings)
        by_tool = {(p.server, p.tool): p for p in pins}
        trust = {name: config.trust for name, config in self._configs.items()}
        shadowing = find_shadowing(tools, trust)
        shadows = {
            (p.server, p.tool) if p.shadow == p.server else (p.other_server, p.other_tool): p
            for p in shadowing
            if p.shadow is not None and p.reason != "mentions-other-tool"
        }
        loaded: list[RemoteTool] = []
        blocked: list[Blocked] = []
        for tool in tools:
            config = self._configs[tool.server]
            key = (tool.server, tool.name)
            pin = by_tool[key]
            server_wide = config.block_server_on_finding and tool.server in flagged_servers
            if (key in flagged_tools or server_wide) and not config.allow_flagged:
                count = sum((f.server, f.tool) == key for f in blocking)
                blocked.append(Blocked(tool, _flagged_reason(tool, count, server_wide)))
            elif key in shadows:
                blocked.append(Blocked(tool, _shadow_reason(shadows[key])))
            elif pin.blocks:
                blocked.append(Blocked(tool, _pin_reason(pin)))
            else:
                loaded.append(tool)
        self._current = {(t.server, t.name): definition_hash(t) for t in tools}
        self._last = TrustReport(
            loaded=tuple(loaded),
            blocked=tuple(blocked),
            findings=tuple(findings),
            pins=tuple(pins),
            shadowing=tuple(shadowing),
            unreachable=unreachable,
            learned=self._learned,
        )
        return self._last

    @property
    def last_report(self) -> TrustReport | None:
        """The last review's report (None before the first review)."""
        return self._last

    def pin_report(self) -> tuple[PinStatus, ...]:
        """The pin comparison of the last review."""
        if self._last is None:
            raise UsageError("no review yet: list the servers' tools first (MCPHub.review())")
        return self._last.pins

    def accept(self, tool_names: Iterable[str]) -> None:
        """Accept the current definitions of ``server/tool`` (or ``server__tool``) names.

        They load from the next review on; write :meth:`pins` to the config to keep them.
        """
        for raw in tool_names:
            server, sep, tool = raw.partition("/") if "/" in raw else raw.partition("__")
            key = (server, tool)
            if not sep or key not in self._current:
                listed = ", ".join(f"{s}/{t}" for s, t in sorted(self._current)) or "none"
                raise UsageError(f"cannot accept {raw!r}: no such listed tool; listed: {listed}")
            self._accepted[key] = self._current[key]

    def pins(self) -> dict[str, dict[str, str]]:
        """server → tool → hash of every definition listed in the last review, for the config."""
        out: dict[str, dict[str, str]] = {}
        for (server, tool), digest in sorted(self._current.items()):
            out.setdefault(server, {})[tool] = digest
        return out

    def _pins(self, listings: Mapping[str, Sequence[RemoteTool] | ToolError]) -> list[PinStatus]:
        statuses: list[PinStatus] = []
        for server, listed in listings.items():
            if isinstance(listed, ToolError):
                continue
            pinned = self._configs[server].pinned
            for tool in listed:
                digest = definition_hash(tool)
                old = pinned.get(tool.name, "")
                state: PinState
                if not pinned:
                    state = "unpinned"
                elif old == digest:
                    state = "same"
                elif self._accepted.get((server, tool.name)) == digest:
                    state = "accepted"
                else:
                    state = "changed" if old else "added"
                statuses.append(PinStatus(server, tool.name, state, old, digest))
            names = {t.name for t in listed}
            statuses += [
                PinStatus(server, name, "removed", digest, "")
                for name, digest in sorted(pinned.items())
                if name not in names
            ]
        return statuses


def _flagged_reason(tool: RemoteTool, count: int, server_wide: bool) -> str:
    what = (
        f"the description audit flagged tools on server {tool.server!r}, whose config blocks "
        "the whole server on a finding"
        if server_wide
        else f"the description audit flagged {count} item(s) in {tool.server}/{tool.name}"
    )
    return (
        f"{what}; read the findings, and set allow_flagged = true in the server's config only "
        "if you trust it"
    )


def _shadow_reason(pair: ShadowPair) -> str:
    trusted = (
        f"{pair.other_server}/{pair.other_tool}"
        if pair.shadow == pair.server
        else f"{pair.server}/{pair.tool}"
    )
    return (
        f"its name imitates {trusted} on a trusted server ({pair.reason}), so calls meant "
        "for that tool could reach this one; rename or remove it, or mark its server trusted"
    )


def _pin_reason(pin: PinStatus) -> str:
    what = (
        "its definition changed since it was pinned"
        if pin.state == "changed"
        else ("it is new on a server whose tools are pinned")
    )
    return (
        f"{what} (possible rug pull); review it, then accept {pin.server}/{pin.tool} and pin "
        f"hash {pin.current_hash}"
    )
