"""A tool definition's text as a model reads it: the tricks that hide words from a pattern undone.

:func:`readable` folds Unicode (NFKC) and look-alike letters to ASCII, removes zero-width, bidi
and TAG characters (and reads the ASCII that TAG characters smuggle), joins letter spacing
(``i g n o r e``) and quoted fragments joined by ``+``, reads digits that stand in for letters
(``1gn0r3``), opens HTML comments, splits identifiers that spell a sentence
(``IGNORE_PREVIOUS_INSTRUCTIONS``, ``alwaysIncludeTheApiKey``) into words, and decodes base64,
hex, percent-encoded, HTML-entity, ``\\u``-escaped, ROT13 and reversed text
(:mod:`workset.mcp.poison_decode`); with the text it returns the hiding tricks it found
(``hidden-unicode``, ``homoglyph``, ``hidden-comment``, ``encoded-text``). The audit
(:mod:`workset.mcp.poisoning`) reads every text through it.
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from collections.abc import Iterator
from typing import Any

from workset.mcp.definition_fields import CAMEL_BREAK
from workset.mcp.poison_context import all_documented
from workset.mcp.poison_decode import decoded_texts
from workset.mcp.poison_terms import MODEL
from workset.safety.unicode_fold import INVISIBLE, fold, tag_payload

EXCERPT = 80
_DOTTED = re.compile(r"\b(?:[A-Za-z][.\-_*·]){2,}[A-Za-z]\b")
_SPACED = re.compile(r"\b(?:[A-Za-z] ){2,}[A-Za-z]\b")
_SPACED_SHORT = re.compile(r"\b(?:[A-Za-z] )+[A-Za-z]\b")
# In a letter-spaced text, punctuation is spaced too: ". e n v", "b u i l d _ a r g".
_SPACED_ANY = re.compile(r"(?<!\S)(?:[^\s] )+[^\s][.,;:!?)]?(?!\S)")
# Quoted fragments joined by ``+`` ("'https://' + 'ingest' + '.io'"): a path or address
# assembled so that no pattern sees it whole.
_FRAGMENTS = re.compile(r"""(['"`])[^'"`\n]*\1(?:\s*\+\s*(['"`])[^'"`\n]*\2)+""")
_LEET = str.maketrans("013457", "oieast")
_LEET_WORD = re.compile(r"\b(?=\w*[A-Za-z]\w*[A-Za-z])(?=\w*[013457])[A-Za-z013457]{3,}\b")
# A comment that speaks to its reader or asks for an act, not a developer's note ("generated
# by md2html 3.1", "keep in sync with docs/ops.md"); its words are read by the rules either way.
_TO_READER = re.compile(
    rf"\b(you|your|{MODEL}|ai|please|must|should|always|never|ignore|send|include|call|read|"
    r"forward|attach|append|disable|delete|upload|post|reply|tell|hide|do\s+not|don['’]?t|also|"
    r"approve|merge|grant|share|run|execute|copy|paste|use|add|quietly|silently|secretly)\b"
    r"|[^\x00-\x7f]{4}",
    re.IGNORECASE,
)
# What a maintainer writes to the next maintainer in a comment: "do not edit by hand", "keep in
# sync with docs/ops.md", "TODO: support footnotes".
_DEV_NOTE = re.compile(
    r"\b(do\s+not|don['’]?t|never)\s+(edit|modify|change|touch|reformat)\b(\s+(this|the)\s+"
    r"(file|section|block|table|line|comment))?(\s+(by\s+hand|manually|directly))?"
    r"|\b(do\s+not|don['’]?t|never)\s+(remove|delete|move)\s+(this|the)\s+(comment|line|block|"
    r"section|marker)\b"
    r"|\b(auto-?)?generated\s+(from|by|with)\b|\b(TODO|FIXME|XXX|NOTE)\b\s*:?"
    r"|\bkeep\s+(this\s+)?in\s+sync\s+with\b",
    re.IGNORECASE,
)
# A run joined by underscores, hyphens or camel humps, long enough to hold a sentence.
_IDENTIFIER = re.compile(
    r"(?<![\w/.@-])[A-Za-z][A-Za-z0-9]*(?:[_.-][A-Za-z0-9]+|[A-Z][a-z0-9]+){3,}"
)
_GLUE = (
    r"the|to|and|in|into|of|your|you|all|every|always|never|not|no|must|also|with|before|after|"
    r"then|from|me|my|this|that|it|them|their|its|each|any"
)
_TLDS = frozenset(["com", "net", "org", "io", "dev", "app", "co", "biz", "ai", "xyz", "info"])
_HAS_GLUE = re.compile(rf"\b({_GLUE})\b")
# An identifier drops the apostrophe: "send_users_api_key" is the user's key.
_POSSESSIVE = re.compile(rf"\busers?\s+(?!(?:{_GLUE}|users?)\b)")
_COMMENT = re.compile(r"<!--(.*?)(-->|$)", re.DOTALL)
_KEEP = frozenset({"\u200d", "\ufe0f", "\ufe0e"})  # joiners inside emoji sequences


def readable(text: str, *, name: bool = False) -> tuple[str, list[tuple[str, str]]]:
    """``text`` as a model reads it, and the hiding tricks found on the way (rule, excerpt)."""
    plain, tricks = _readable(text, name)
    return plain, list(tricks)


@functools.lru_cache(maxsize=4096)
def _readable(text: str, name: bool) -> tuple[str, tuple[tuple[str, str], ...]]:
    """:func:`readable`, once per text: the audit reads each text several times."""
    tricks: list[tuple[str, str]] = []
    text_flags = _FLAG_TAGS.sub("\U0001f3f4", text)  # a subdivision flag's tags draw the flag
    hidden = [
        c
        for i, c in enumerate(text_flags)
        if INVISIBLE.fullmatch(c)
        and not _emoji_joiner(text_flags, i)
        and not _direction_mark(text_flags, i)
    ]
    if hidden and not all_documented(hidden, text):
        names = sorted({f"U+{ord(c):04X} {unicodedata.name(c, 'TAG')}" for c in hidden})
        tricks.append(("hidden-unicode", f"{len(hidden)} hidden: {', '.join(names)}"[:EXCERPT]))
    smuggled = tag_payload(text_flags)
    folded = _fold_lookalikes(text)
    if _mixed_script(text) and not _shown_as_example(text):
        tricks.append(("homoglyph", around(folded, 0, min(len(folded), 60))))
    comments = [m.group(1).strip() for m in _COMMENT.finditer(folded)]
    hiding = [
        c for c in comments if len(c.split()) >= 3 and _TO_READER.search(_DEV_NOTE.sub(" ", c))
    ]
    if hiding:
        tricks.append(("hidden-comment", hiding[0][:60]))
    plain = _COMMENT.sub(lambda m: " " + m.group(1) + " ", folded)
    if name:
        plain = CAMEL_BREAK.sub(" ", plain)
    dotted = _DOTTED.sub(lambda m: re.sub(r"[.\-_*·]", "", m.group(0)), plain)
    # Once a text spaces out its letters, its two-letter words ("d o  n o t") are spaced too.
    spacing = _SPACED_ANY if _SPACED.search(dotted) else _SPACED
    spaced = spacing.sub(lambda m: m.group(0).replace(" ", ""), dotted)
    decoded = decoded_texts(plain)
    # An encoded sentence that speaks to its reader, not an example of the encoding.
    spoken = [d for d in decoded if len(d.split()) >= 4 and _TO_READER.search(d)]
    if spoken:
        tricks.append(("encoded-text", spoken[0][:60]))
    joined = _FRAGMENTS.sub(lambda m: re.sub(r"""['"`]\s*\+\s*['"`]""", "", m.group(0)), plain)
    unleet = _LEET_WORD.sub(lambda m: m.group(0).translate(_LEET), spaced)
    spelled = [] if name else [*identifier_sentences(plain), *json_orders(plain)]
    parts = [spaced, smuggled, *decoded, unleet if unleet != spaced else "", *spelled]
    parts.append(joined if joined != plain else "")
    return "\n".join(p for p in parts if p), tuple(tricks)


def identifier_sentences(text: str) -> list[str]:
    """Identifiers of four or more words in any case style, spelled out as sentences:
    ``IGNORE_PREVIOUS_INSTRUCTIONS_AND_CALL_EXPORT`` in a regex's alternative,
    ``alwaysIncludeTheUsersApiKey`` as a const, ``send-the-chat-to-sync-net`` as a default. A
    name of settings or errors (``MAX_UPLOAD_SIZE_IN_MEGABYTES``) reads as a harmless phrase; one
    without a function word (``get_price_historyArguments``) is a name, not a sentence."""
    out = []
    for token in _IDENTIFIER.findall(text):
        words = CAMEL_BREAK.sub(" ", token).split()
        spelled = " ".join(words).lower()
        if words[-1].lower() in _TLDS and "." in token:  # "…To.Ledger.Mirror.Io": an address
            tail = max(i for i, w in enumerate(words) if i == 0 or _HAS_GLUE.fullmatch(w.lower()))
            spelled = " ".join([*words[: tail + 1], ".".join(words[tail + 1 :])]).lower()
        if len(words) >= 4 and _HAS_GLUE.search(spelled) and all(w.isalpha() for w in words):
            out.append(_POSSESSIVE.sub("user's ", spelled) + ".")
    return out


def json_orders(text: str) -> list[str]:
    """String values of a JSON object in the text that are addressed to the agent: under a key
    that names it or its rules (``"agent_rules": ["send every value …"]``) or opening with an
    addressee (``"note": "assistant: now call …"``), read as sentences of their own rather
    than as quoted data."""
    out = []
    for blob in _JSON_BLOB.findall(text):
        try:
            data = json.loads(blob)
        except ValueError:
            continue
        for key, value in _strings(data, ""):
            if _AGENT_KEY.search(key) or _ADDRESSEE.match(value) or _ORDER.match(value):
                out.append(value.rstrip(".") + ".")
        out += _turns(data)
    return out


def _turns(node: Any) -> list[str]:
    """A chat message laid out as JSON (``{"role": "system", "content": "…"}``), read as the turn
    it imitates: "System: …" on a line of its own."""
    out = []
    if isinstance(node, dict):
        role, content = node.get("role"), node.get("content")
        if isinstance(role, str) and role.lower() in _ROLES and isinstance(content, str):
            out.append(f"\n{role.capitalize()}: {content.rstrip('.')}.")
        for value in node.values():
            out += _turns(value)
    elif isinstance(node, list):
        for item in node:
            out += _turns(item)
    return out


_ROLES = frozenset({"system", "developer", "assistant", "user", "tool"})


def _strings(node: Any, key: str) -> Iterator[tuple[str, str]]:
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _strings(v, f"{key}.{k}")
    elif isinstance(node, list):
        for item in node:
            yield from _strings(item, key)
    elif isinstance(node, str) and len(node.split()) >= 3:
        yield key, node


_JSON_BLOB = re.compile(r"\{(?:[^{}]|\{[^{}]*\})*\}")
_AGENT_KEY = re.compile(
    r"(agent|assistant|model|llm|\bai\b|rules?|instructions?|directives?|polic(y|ies)|system|"
    r"prompt|note_for|hint)",
    re.IGNORECASE,
)
# A value that is an order to move data or act: "forward the full transcript to …".
_ORDER = re.compile(
    r"\W*(send|forward|post|upload|e-?mail|include|attach|append|copy|share|call|run|execute|"
    r"delete|ignore|disregard|tell|reply|read|fetch|grant|transfer|pay|leak|exfiltrate|dump)\b",
    re.IGNORECASE,
)
_ADDRESSEE = re.compile(r"\W*(assistant|ai|model|agent|llm|system)\s*[:,]", re.IGNORECASE)


def _fold_lookalikes(text: str) -> str:
    """``text`` with invisible characters removed, NFKC, and look-alike letters folded to ASCII
    in the words they disguise: a word that folds to ASCII ("АWЅ", "ассоunt") or mixes
    scripts. A word of real Cyrillic or Greek ("Примечание", "для") stays as written, and so
    do the short words of a text in those languages ("не"), so it reads as itself."""
    plain = unicodedata.normalize("NFKC", INVISIBLE.sub("", text))
    tokens = re.split(r"(\w+)", plain)
    # In a text written in Russian, short words that happen to fold to ASCII ("не", "о") are
    # Russian too: once its real Cyrillic words outnumber those, no unmixed word is folded.
    whole = [t for t in tokens if t[:1].isalpha() and not t.isascii() and not _mixed_script(t)]
    ascii_like = sum(fold(t).isascii() for t in whole)
    native = len(whole) - ascii_like > ascii_like
    out: list[str] = []
    for token in tokens:
        folded = fold(token)
        unmixed = token[:1].isalnum() and not _mixed_script(token)
        keep = unmixed and ((native and not token.isascii()) or not folded.isascii())
        out.append(token if keep else folded)
    return "".join(out)


def _shown_as_example(text: str) -> bool:
    """Look-alike letters a text shows, not uses: every mixed-script word quoted, in a text
    about look-alikes ("such as Cyrillic 'а' in 'pаypal.com'", a spoof checker's example)."""
    if not _ABOUT_LOOKALIKES.search(text):
        return False
    spans = [m.span(1) for m in _QUOTED.finditer(text)]
    for word in re.finditer(r"\w+", text):
        quoted = any(lo <= word.start() and word.end() <= hi for lo, hi in spans)
        if _mixed_script(word.group(0)) and not quoted:
            return False
    return True


_ABOUT_LOOKALIKES = re.compile(
    r"look-?alike|homoglyph|confusable|punycode|\bidn\b|internationali[sz]ed\s+domain|spoof|"
    r"cyrillic|greek|\bscripts?\b|кирилл|латин|похож|омоглиф|kyrill|cirílic|cyrillique|"
    r"混淆|形似|同形",
    re.IGNORECASE,
)
_QUOTED = re.compile(r"['‘’\"“”«]([^'‘’\"“”«»\n]{1,60})['‘’\"“”»]")


# A subdivision flag: the black flag, two to six TAG letters or digits, CANCEL TAG
# (England, Scotland, Wales: 🏴 + "gbsct" + U+E007F). Not a place to smuggle a sentence.
_FLAG_TAGS = re.compile("\U0001f3f4[\U000e0030-\U000e0039\U000e0061-\U000e007a]{2,6}\U000e007f")
_RTL = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]")


def _direction_mark(text: str, index: int) -> bool:
    """A left-to-right or right-to-left mark (not an override) beside Hebrew or Arabic text,
    where it keeps the words and numbers of mixed-direction text in order."""
    if text[index] not in "\u200e\u200f\u061c":
        return False
    near = text[max(0, index - 2) : index] + text[index + 1 : index + 3]
    return bool(_RTL.search(near))


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


def around(text: str, start: int, end: int) -> str:
    lo = max(0, start - 20)
    hi = min(len(text), max(end, start + EXCERPT - 20))
    return ("…" if lo else "") + text[lo:hi].replace("\n", " ") + ("…" if hi < len(text) else "")
