"""Trust controls applied when an MCP server's tools are listed, before any reach the model.

Three checks, all pure functions of the listings:

- **Description poisoning.** Names, descriptions and every description or title inside the
  input schema are untrusted input. :func:`audit_tool` flags instructions aimed at the model
  ("ignore previous instructions", "do not tell the user", ``<IMPORTANT>``, "always call…"),
  requests for secrets or sensitive paths (``~/.ssh``, ``.env``, ``/etc/passwd``), hidden
  unicode (zero-width, bidi controls, tag characters) and base64-looking blobs. A server with
  any finding is blocked unless its config says ``allow_flagged`` (findings are reported
  either way).
- **Pinning (rug pulls).** :func:`definition_hash` is the sha256 of the canonical JSON of a
  tool's name, description and input schema. Against a server's ``pinned`` hashes, a changed
  definition, or a tool added to a pinned server, is blocked until accepted
  (:meth:`TrustGate.accept`) and re-pinned in the config (:meth:`TrustGate.pins`). A server
  with no pins is trusted on first use and its hashes are reported for pinning.
- **Shadowing.** Across servers, tools whose names are the same or near-identical
  (ignoring case, ``-``/``_``, a plural ``s``; edit distance ≤ 1 for names of 4+ characters),
  or a description that names another server's tool, are reported as pairs.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

from workset.errors import ToolError, UsageError
from workset.mcp.config import MCPServerConfig
from workset.mcp.remote import RemoteTool

_EXCERPT = 80

_RULES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (rule, re.compile(pattern, re.IGNORECASE | re.DOTALL))
    for rule, pattern in (
        (
            "instruction-override",
            r"\b(ignore|disregard|forget|override)\s+(all\s+|any\s+)?(the\s+|your\s+)?"
            r"(previous|prior|above|earlier|other|system)\s+(instructions?|prompts?|rules?)",
        ),
        (
            "conceal-from-user",
            r"\b(do\s+not|don'?t|never|without)\s+(tell(ing)?|inform(ing)?|notify(ing)?|"
            r"mention(ing)?|reveal(ing)?|show(ing)?|alert(ing)?)\s+(this\s+to\s+)?(the\s+)?user"
            r"|\bkeep\s+(this|it)\s+(a\s+)?(secret|hidden|confidential)"
            r"|\b(the\s+)?user\s+(must|should)\s+not\s+(know|see|be\s+told)",
        ),
        (
            "directive-tag",
            r"<\s*/?\s*(important|system|instructions?|secret|hidden|admin)\s*>|\[/?INST\]|<!--",
        ),
        (
            "forced-call",
            r"\b(always|first)\s+(call|use|invoke|run|execute)\b"
            r"|\bbefore\s+(using|calling|invoking|running)\s+(this|any|the|other)\b"
            r"|\b(you|the\s+(assistant|model|agent))\s+must\s+(always|first|also)\b"
            r"|\binstead\s+of\s+(using|calling)\b",
        ),
        (
            "secret-request",
            r"\b(read|send|pass|include|provide|attach|share|upload|give|forward|extract|"
            r"copy|paste|print)\b.{0,60}?\b(private\s+keys?|ssh\s+keys?|api[\s_-]?keys?|"
            r"secrets?|tokens?|passwords?|passphrases?|credentials?|cookies?|seed\s+phrases?)\b",
        ),
        (
            "sensitive-path",
            r"~/\.ssh|\bid_(rsa|ed25519|ecdsa|dsa)\b|(^|[\s/'\"`(])\.env\b|/etc/(passwd|shadow)"
            r"|\.aws/credentials|\.netrc\b|\.npmrc\b|\.pgpass\b|\.git-credentials\b|"
            r"\.kube/config|\.docker/config\.json|mcp\.json\b",
        ),
    )
)
_BLOB = re.compile(r"[A-Za-z0-9+/_-]{40,}={0,2}")
_HIDDEN = re.compile(
    "[\u200b-\u200f\u2060-\u2064\ufeff\u202a-\u202e\u2066-\u2069\U000e0000-\U000e007f]"
)


@dataclass(frozen=True, slots=True)
class Finding:
    """One suspicious piece of a tool definition."""

    server: str
    tool: str
    field: str
    rule: str
    excerpt: str

    def line(self) -> str:
        return f"{self.server}/{self.tool} {self.field}: {self.rule}: {self.excerpt!r}"


def audit_tool(tool: RemoteTool) -> list[Finding]:
    """Every finding in ``tool``'s name, description and schema descriptions/titles."""
    findings: list[Finding] = []
    for where, text in _texts(tool):
        for rule, excerpt in _scan(text):
            findings.append(Finding(tool.server, tool.name, where, rule, excerpt))
    return findings


def _texts(tool: RemoteTool) -> Iterator[tuple[str, str]]:
    yield "name", tool.name
    yield "description", tool.description
    yield from _schema_texts(tool.input_schema, "inputSchema")


def _schema_texts(node: Any, path: str) -> Iterator[tuple[str, str]]:
    if isinstance(node, Mapping):
        for key, value in node.items():
            here = f"{path}.{key}"
            if key in ("description", "title") and isinstance(value, str):
                yield here, value
            elif key in ("enum", "examples", "default", "const"):
                yield from ((here, v) for v in _strings(value))
            else:
                yield from _schema_texts(value, here)
    elif isinstance(node, list):
        for index, item in enumerate(node):
            yield from _schema_texts(item, f"{path}[{index}]")


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _scan(text: str) -> Iterator[tuple[str, str]]:
    hidden = _HIDDEN.findall(text)
    if hidden:
        names = sorted({f"U+{ord(c):04X} {unicodedata.name(c, 'TAG')}" for c in hidden})
        yield "hidden-unicode", f"{len(hidden)} hidden characters: {', '.join(names)[:_EXCERPT]}"
        text = _HIDDEN.sub("", text)  # and read what they hid
    for rule, pattern in _RULES:
        match = pattern.search(text)
        if match:
            yield rule, _around(text, match.start(), match.end())
    for match in _BLOB.finditer(text):
        blob = match.group()
        kinds = sum(bool(re.search(p, blob)) for p in ("[a-z]", "[A-Z]", "[0-9]"))
        if kinds == 3:
            yield "encoded-blob", _around(text, match.start(), match.end())
            break


def _around(text: str, start: int, end: int) -> str:
    lo = max(0, start - 20)
    hi = min(len(text), max(end, start + _EXCERPT - 20))
    return ("…" if lo else "") + text[lo:hi] + ("…" if hi < len(text) else "")


def definition_hash(tool: RemoteTool) -> str:
    """sha256 of the canonical JSON of the tool's name, description and input schema."""
    canonical = json.dumps(
        {"name": tool.name, "description": tool.description, "inputSchema": tool.input_schema},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


ShadowReason: TypeAlias = Literal["same-name", "near-identical-name", "mentions-other-tool"]


@dataclass(frozen=True, slots=True)
class ShadowPair:
    """``tool`` on ``server`` may shadow (or be shadowed by) ``other_tool`` on ``other_server``."""

    server: str
    tool: str
    other_server: str
    other_tool: str
    reason: ShadowReason

    def line(self) -> str:
        return f"{self.server}/{self.tool} ~ {self.other_server}/{self.other_tool}: {self.reason}"


def find_shadowing(tools: Sequence[RemoteTool]) -> list[ShadowPair]:
    """Pairs of tools on different servers that a model could confuse or be steered between."""
    pairs: list[ShadowPair] = []
    for i, a in enumerate(tools):
        for b in tools[i + 1 :]:
            if a.server == b.server:
                continue
            if a.name == b.name:
                pairs.append(ShadowPair(a.server, a.name, b.server, b.name, "same-name"))
            elif _near(a.name, b.name):
                pairs.append(ShadowPair(a.server, a.name, b.server, b.name, "near-identical-name"))
    for a in tools:
        for b in tools:
            if a.server != b.server and _mentions(a.description, b.name):
                pairs.append(ShadowPair(a.server, a.name, b.server, b.name, "mentions-other-tool"))
    return pairs


def _normalise(name: str) -> str:
    words = re.split(r"[-_\s]+", name.lower())
    return "_".join(w[:-1] if len(w) > 3 and w.endswith("s") else w for w in words if w)


def _near(a: str, b: str) -> bool:
    na, nb = _normalise(a), _normalise(b)
    return na == nb or (min(len(na), len(nb)) >= 4 and _within_one_edit(na, nb))


def _within_one_edit(a: str, b: str) -> bool:
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) > len(b):
        a, b = b, a
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    if len(a) == len(b):
        return a[i + 1 :] == b[i + 1 :]
    return a[i:] == b[i + 1 :]


def _mentions(description: str, name: str) -> bool:
    if len(name) < 3:
        return False
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", description) is not None


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

    def __init__(self, configs: Iterable[MCPServerConfig]) -> None:
        self._configs = {c.name: c for c in configs}
        self._accepted: dict[tuple[str, str], str] = {}
        self._last: TrustReport | None = None
        self._current: dict[tuple[str, str], str] = {}

    def review(self, listings: Mapping[str, Sequence[RemoteTool] | ToolError]) -> TrustReport:
        """Audit, compare with pins, look for shadowing; decide which tools load."""
        tools = [t for v in listings.values() if not isinstance(v, ToolError) for t in v]
        unreachable = {n: str(v) for n, v in listings.items() if isinstance(v, ToolError)}
        findings = [f for tool in tools for f in audit_tool(tool)]
        flagged = {f.server for f in findings}
        pins = self._pins(listings)
        by_tool = {(p.server, p.tool): p for p in pins}
        loaded: list[RemoteTool] = []
        blocked: list[Blocked] = []
        for tool in tools:
            config = self._configs[tool.server]
            pin = by_tool[(tool.server, tool.name)]
            if tool.server in flagged and not config.allow_flagged:
                count = sum(f.server == tool.server for f in findings)
                blocked.append(Blocked(tool, _flagged_reason(tool.server, count)))
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
            shadowing=tuple(find_shadowing(tools)),
            unreachable=unreachable,
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


def _flagged_reason(server: str, count: int) -> str:
    return (
        f"the description audit flagged {count} item(s) on server {server!r}; read the "
        "findings, and set allow_flagged = true in its config only if you trust it"
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
