"""Description poisoning: instructions to the model hidden in what an MCP server says about a tool.

Everything a server sends is untrusted text: the tool's name and description, and in its
input schema every parameter *name*, description, title, default, enum value, example and
nested schema. :func:`audit_tool` reads all of it the way a model would, after undoing the
tricks that hide words from a pattern match (:func:`readable`): Unicode NFKC and look-alike
letters folded to ASCII, zero-width, bidi and TAG characters removed (and the ASCII that TAG
characters smuggle read), letter spacing joined (``i g n o r e``), ``camelCase`` and
``snake_case`` names split into words, HTML comments opened, and base64 blobs decoded.

The wording rules aim at what a tool definition has no business saying: overriding earlier
instructions, hiding things from the user, running a tool around *every* other call, claiming
the user already approved, claiming its results are system instructions, sending data to a
URL built from template fields, and asking for secrets. They read negation and ordinary
advice as such: "never send credentials" and "call list_files first to get the ids" are not
findings; "never mention this to the user" and "call this after every tool call" are.
"""

from __future__ import annotations

import base64
import binascii
import re
import unicodedata
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from workset.mcp.remote import RemoteTool
from workset.safety.unicode_fold import INVISIBLE, fold, tag_payload

_EXCERPT = 80
_NEGATION = re.compile(
    r"\b(never|not|don't|dont|do not|does not|must not|should not|shouldn't|won't|cannot|"
    r"can't|no need|avoid|refuse|without)\b[^.;:!?]{0,40}$"
)


def _rule(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE | re.DOTALL)


# (rule, pattern, whether a negation before the match turns it into advice)
_RULES: tuple[tuple[str, re.Pattern[str], bool], ...] = (
    (
        "instruction-override",
        _rule(
            r"\b(ignore|disregard|forget|override|bypass|discard)\s+(all\s+|any\s+|the\s+|"
            r"your\s+|of\s+)*(previous|prior|above|earlier|other|system|original|existing|"
            r"safety|developer)?\s*(instructions?|prompts?|rules?|guidelines?|guidance|"
            r"directives?|policies|restrictions)"
            r"|\b(previous|prior|earlier|original|system|all\s+other)\s+(instructions|rules|"
            r"prompts?|guidance)\s+(are|is)\s+(now\s+)?(void|cancell?ed|revoked|obsolete|"
            r"no\s+longer|invalid|superseded)"
            r"|\b(obey|follow|execute)\s+(only\s+)?(the\s+|any\s+)?(instructions|commands)\s+"
            r"(found|contained|given|embedded)\s+in\s+(the\s+|its\s+)?\w+"
        ),
        True,
    ),
    (
        "conceal-from-user",
        _rule(
            r"\b(do\s+not|don'?t|never|without)\s+(tell(ing)?|inform(ing)?|notify(ing)?|"
            r"mention(ing)?|reveal(ing)?|show(ing)?|alert(ing)?|disclos(e|ing)|report(ing)?)"
            r"\s+(this|it|that|anything|any\s+of\s+this)?\s*(to\s+)?(the\s+)?users?\b(?!'s)"
            r"|\bkeep\s+(this|it)\s+(a\s+)?(secret|hidden|confidential|between\s+us)"
            r"|\bkeep\s+(this\s+|the\s+|it\s+)?\w*\s*(hidden|secret)\s+from\s+(the\s+)?user"
            r"|\b(the\s+)?users?\s+(must|should)\s+(not|never)\s+(know|see|be\s+told|notice)"
            r"|\b(hide|conceal)\s+(this|it|the\s+\w+)\s+from\s+(the\s+)?user"
            r"|\b(silently|secretly|covertly|quietly)\s+(send|call|run|forward|copy|upload|"
            r"include|add|append|post)"
        ),
        False,
    ),
    (
        "directive-tag",
        _rule(
            r"<\s*/?\s*(important|system|instructions?|secret|hidden|admin|sys|override)\s*>"
            r"|\[/?(inst|system|important)\]|^\s*#+\s*system\b|\bbegin\s+system\s+prompt"
        ),
        False,
    ),
    (
        "forced-call",
        _rule(
            r"\b(after|before|following)\s+(every|each|any|all)\s+(other\s+)?(tool\s+|function\s+)?"
            r"(call|calls|request|requests|response|responses|message|messages|tool|tools|"
            r"action|actions|step|steps|turn|turns)\b"
            r"|\b(always|every\s+time|each\s+time|whenever\s+you\s+\w+)\s*,?\s*(you\s+must\s+)?"
            r"(call|use|invoke|run|execute|send)\s+(this|me|the\s+\w+_\w+)\b"
            r"|\b(call|use|invoke|run)\s+this\s+(tool|function)\s+(first|before\s+any|instead)"
            r"|\binstead\s+of\s+(using|calling|invoking)\s+(the\s+)?[\w.-]+"
            r"|\b(do\s+not|don'?t|never)\s+(use|call|invoke)\s+(any\s+)?(other|the\s+\w+)\s+tools?"
        ),
        False,
    ),
    (
        "approval-bypass",
        _rule(
            r"\b(without|no\s+need\s+to|don'?t\s+need\s+to|do\s+not\s+need\s+to|need\s+not|"
            r"skip(ping)?|bypass(ing)?|disable|omit|avoid)\s+(ask(ing)?\s+(for\s+)?|request(ing)?\s+|"
            r"seek(ing)?\s+|wait(ing)?\s+for\s+|the\s+|any\s+|user\s+)*"
            r"(user'?s?\s+)?(permission|approval|confirmation|consent|authori[sz]ation|"
            r"confirm(ing)?)"
            r"|\b(the\s+)?user\s+(has\s+)?(already\s+)?(approved|consented|authori[sz]ed|agreed|"
            r"confirmed|given\s+(permission|consent))"
            r"|\b(pre-?approved|auto-?approved|already\s+(approved|authori[sz]ed))"
            r"|\b(consent|permission|approval)\s+(is|was|has\s+been)\s+(already\s+)?"
            r"(granted|given|implied|assumed)"
        ),
        True,
    ),
    (
        "system-claim",
        _rule(
            r"\b(results?|outputs?|responses?|content|text|data)\s+(of|from|returned\s+by)\s+"
            r"(this|the)\s+(tool|function|server)\s+(is|are|should\s+be|must\s+be)\s+"
            r"(treated\s+as\s+)?(system|developer|admin|trusted|authoritative)\s*"
            r"(instructions?|messages?|prompts?|commands?|directives?)?"
            r"|\btreat\s+(the\s+|its\s+|this\s+|all\s+)?(outputs?|results?|responses?|content)"
            r"\s+as\s+(a\s+)?(system|developer|trusted|authoritative)"
            r"|\b(this|the\s+following)\s+(is|are)\s+(a\s+|an\s+)?(system|developer|admin)\s+"
            r"(instruction|message|prompt|directive)"
            r"|\b(highest|top|absolute)\s+priority\b|\btakes\s+precedence\s+over\b"
            r"|\boverrides?\s+(all\s+)?(other\s+|any\s+)?(instructions|rules|policies)"
        ),
        False,
    ),
    (
        "exfiltration-url",
        _rule(
            r"!\[[^\]]*\]\(\s*https?://[^)\s]*(\{\{?[^}]*\}\}?|\$\{?\w+|<\w+>|%s)"
            r"|https?://[^\s)\"']*[?&][\w-]+=(\{\{?[^}]*\}\}?|\$\{?\w+\}?|<[\w ]+>|%s|\[[\w ]+\])"
            r"|\b(append|add|include|encode|put)\s+(the\s+|all\s+|any\s+)?(conversation|chat|"
            r"messages?|history|context|results?|contents?|data|secrets?|tokens?|file\s+contents)"
            r"\b[^.]{0,40}\b(to|in|into)\s+(the\s+|a\s+)?(url|link|query|image|request)"
            r"|\b(send|post|upload|forward|transmit|report|exfiltrate|mirror|copy)\s+(all\s+|the\s+|"
            r"every\s+|a\s+copy\s+of\s+(the\s+)?|full\s+|entire\s+|whole\s+|complete\s+)*"
            r"(conversation|chat\s+history|messages?|results?"
            r"|outputs?|context|files?|contents?|everything|data|responses?)\b[^.]{0,40}\bto\s+"
            r"(https?://|[\w.-]+@[\w-]+\.|(the\s+)?(webhook|endpoint|server)\s+at|[\w-]+\.[a-z]{2,}"
            r"\b)"
        ),
        True,
    ),
    (
        "secret-request",
        _rule(
            r"\b(read|send|pass|include|provide|attach|share|upload|give|forward|extract|copy|"
            r"paste|print|collect|append|put|supply|enter|cat|fetch|retrieve|dump|leak)\b"
            r"[^.;]{0,60}?\b(private\s+keys?|ssh\s+keys?|api[\s_-]?keys?|secrets?|access\s+"
            r"tokens?|auth\s+tokens?|tokens|passwords?|passphrases?|credentials?|cookies?|"
            r"seed\s+phrases?|mnemonics?|session\s+ids?|\.env\b|id_rsa|environment\s+variables)"
        ),
        True,
    ),
    (
        "sensitive-path",
        _rule(
            r"~/\.ssh|\bid_(rsa|ed25519|ecdsa|dsa)\b|(^|[\s/'\"`(])\.env\b(?!\.example)|"
            r"/etc/(passwd|shadow|sudoers)|\.aws/credentials|\.netrc\b|\.npmrc\b|\.pgpass\b|"
            r"\.git-credentials\b|\.kube/config|\.docker/config\.json|\bmcp\.json\b|"
            r"\.bash_history|/proc/self/environ|\bwallet\.dat\b|\.gnupg"
        ),
        True,
    ),
)
_BLOB = re.compile(r"[A-Za-z0-9+/_-]{24,}={0,2}")
_DOTTED = re.compile(r"\b(?:[A-Za-z][.\-_*·]){2,}[A-Za-z]\b")
_SPACED = re.compile(r"\b(?:[A-Za-z] ){2,}[A-Za-z]\b")
_NAME_ONLY = frozenset({"secret-request", "sensitive-path"})  # too loose for a short name
_COMMENT = re.compile(r"<!--(.*?)(-->|$)", re.DOTALL)
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|[_\-.]+")
_KEEP = frozenset({"\u200d", "\ufe0f", "\ufe0e"})  # joiners inside emoji sequences


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
    """Every finding in every text of ``tool``'s definition, each naming its field."""
    findings: list[Finding] = []
    for where, text in definition_texts(tool):
        for rule, excerpt in scan(text, name=where.endswith(("name", "(name)"))):
            findings.append(Finding(tool.server, tool.name, where, rule, excerpt))
    return findings


def definition_texts(tool: RemoteTool) -> Iterator[tuple[str, str]]:
    """(field, text) for the name, the description and every string in the input schema."""
    yield "name", tool.name
    yield "description", tool.description
    yield from _schema_texts(tool.input_schema, "inputSchema")


def _schema_texts(node: Any, path: str) -> Iterator[tuple[str, str]]:
    if isinstance(node, Mapping):
        for key, value in node.items():
            here = f"{path}.{key}"
            if key in ("properties", "patternProperties", "$defs", "definitions") and isinstance(
                value, Mapping
            ):
                for name, schema in value.items():
                    yield f"{here}.{name} (name)", str(name)
                    yield from _schema_texts(schema, f"{here}.{name}")
            elif key in ("type", "format", "$schema", "$id", "$ref"):
                continue
            elif isinstance(value, str):
                yield here, value
            else:
                yield from _schema_texts(value, here)
    elif isinstance(node, list):
        for index, item in enumerate(node):
            yield from _schema_texts(item, f"{path}[{index}]")
    elif isinstance(node, str):
        yield path, node


def readable(text: str, *, name: bool = False) -> tuple[str, list[tuple[str, str]]]:
    """``text`` as a model reads it, and the hiding tricks found on the way (rule, excerpt)."""
    tricks: list[tuple[str, str]] = []
    hidden = [
        c for i, c in enumerate(text) if INVISIBLE.fullmatch(c) and not _emoji_joiner(text, i)
    ]
    if hidden:
        names = sorted({f"U+{ord(c):04X} {unicodedata.name(c, 'TAG')}" for c in hidden})
        tricks.append(("hidden-unicode", f"{len(hidden)} hidden: {', '.join(names)}"[:_EXCERPT]))
    smuggled = tag_payload(text)
    folded = fold(text)
    if _mixed_script(text):
        tricks.append(("homoglyph", _around(folded, 0, min(len(folded), 60))))
    comments = [m.group(1).strip() for m in _COMMENT.finditer(folded)]
    if any(len(c.split()) >= 3 for c in comments):
        tricks.append(("hidden-comment", next(c for c in comments if len(c.split()) >= 3)[:60]))
    plain = _COMMENT.sub(lambda m: " " + m.group(1) + " ", folded)
    if name:
        plain = _CAMEL.sub(" ", plain)
    dotted = _DOTTED.sub(lambda m: re.sub(r"[.\-_*·]", "", m.group(0)), plain)
    spaced = _SPACED.sub(lambda m: m.group(0).replace(" ", ""), dotted)
    decoded = [d for d in (_decode(b) for b in _BLOB.findall(plain)) if d]
    if any(len(d.split()) >= 4 for d in decoded):
        tricks.append(("encoded-text", next(d for d in decoded if len(d.split()) >= 4)[:60]))
    parts = [spaced, smuggled, *decoded]
    return "\n".join(p for p in parts if p), tricks


def scan(text: str, *, name: bool = False) -> Iterator[tuple[str, str]]:
    """(rule, excerpt) for each rule that ``text`` breaks once made readable."""
    plain, tricks = readable(text, name=name)
    yield from tricks
    short_name = name and len(plain.split()) < 5
    for rule, pattern, negatable in _RULES:
        if short_name and rule in _NAME_ONLY:
            continue
        for match in pattern.finditer(plain):
            before = plain[max(0, match.start() - 60) : match.start()].lower()
            if negatable and _NEGATION.search(before.replace("\n", " ")):
                continue
            yield rule, _around(plain, match.start(), match.end())
            break


def _emoji_joiner(text: str, index: int) -> bool:
    if text[index] not in _KEEP:
        return False
    near = text[max(0, index - 1) : index] + text[index + 1 : index + 2]
    return any(unicodedata.category(c) in ("So", "Sk") for c in near)


def _mixed_script(text: str) -> bool:
    """A word that mixes Latin letters with Cyrillic or Greek look-alikes."""
    for word in re.findall(r"\w+", text):
        scripts = {_script(c) for c in word if c.isalpha()}
        if "LATIN" in scripts and scripts & {"CYRILLIC", "GREEK", "ARMENIAN"}:
            return True
    return False


def _script(char: str) -> str:
    return unicodedata.name(char, "UNKNOWN").split(" ", 1)[0]


def _decode(blob: str) -> str:
    """The text a base64 blob hides, when it decodes to words; else ``""``."""
    padded = blob + "=" * (-len(blob) % 4)
    for decoder in (base64.b64decode, base64.urlsafe_b64decode):
        try:
            raw = decoder(padded)
            text = raw.decode("utf-8")
        except (binascii.Error, UnicodeDecodeError, ValueError):
            continue
        printable = sum(c.isprintable() or c in "\n\t" for c in text)
        if text and printable / len(text) > 0.95 and len(text.split()) >= 3:
            return text
    return ""


def _around(text: str, start: int, end: int) -> str:
    lo = max(0, start - 20)
    hi = min(len(text), max(end, start + _EXCERPT - 20))
    return ("…" if lo else "") + text[lo:hi].replace("\n", " ") + ("…" if hi < len(text) else "")
