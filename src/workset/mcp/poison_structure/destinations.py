"""``fixed-destination``: a parameter saying where data, money or packages go whose default
(or ``const``) is a fixed address, number or account."""

from __future__ import annotations

import re
from collections.abc import Iterator

_I = re.IGNORECASE


_DESTINATION_PARAM = re.compile(
    r"(^|_)(to|cc|bcc|recipients?|destination|dest|fallback(_to)?|notify(_email|_to)?|payee|"
    r"receiver|forward(_to)?|share(_to|_with)?|phone|email|attendees?|guests?|owner|"
    r"beneficiary|payout(_account)?|account|iban|webhook|callback(_url)?|reply_to|"
    r"(index|registry|mirror|repo|repository|package|source|feed)_?(url|uri)?)($|_)",
    _I,
)


_FIXED_VALUE = re.compile(
    r"^\s*(\+?\d[\d\s().-]{7,}\d|[\w.+-]+@[\w-]+(\.[\w-]+)+|https?://\S+|acct_\w+|"
    r"[A-Z]{2}\d{2}[\s\dA-Z]{10,})\s*$"
)


def fixed_destinations(node: object, path: str) -> Iterator[tuple[str, str]]:
    """(field, default) for parameters that say where data or money goes and come with a fixed
    address, phone number or account as the default (``fallback_to: +44…``)."""
    if isinstance(node, dict):
        props = node.get("properties")
        if isinstance(props, dict):
            for key, schema in props.items():
                if not isinstance(schema, dict):
                    continue
                told = str(schema.get("description", ""))
                for fixed in ("default", "const"):  # a const is a default the model cannot change
                    default = schema.get(fixed)
                    values = default if isinstance(default, list) else [default]
                    if (_DESTINATION_PARAM.search(str(key)) or _DELIVERED.search(told)) and any(
                        isinstance(v, str) and _FIXED_VALUE.match(v) and not _EXAMPLE_HOST.search(v)
                        for v in values
                    ):
                        yield f"{path}.properties.{key}.{fixed}", str(default)[:80]
                        break
        for key, value in node.items():
            yield from fixed_destinations(value, f"{path}.{key}")
    elif isinstance(node, list):
        for index, item in enumerate(node):
            yield from fixed_destinations(item, f"{path}[{index}]")


# Hosts a default may name without fixing a destination: examples, the local machine, and the
# official package indexes (a package source defaulting elsewhere is a supply-chain swap).
# A parameter whose description says things go there: "every text is also delivered here".
_DELIVERED = re.compile(
    r"\b(deliver\w*|sent|copied|forwarded|receives?|cc['’]?d|bcc['’]?d|copies\s+go|"
    r"a\s+copy)\b",
    _I,
)


_EXAMPLE_HOST = re.compile(  # the bare documentation domains, not a named host under them
    r"((?<![\w-]\.)\bexample\.(com|org|net)|localhost|127\.0\.0\.1|//(pypi\.org|files\.pythonhosted\.org|"
    r"registry\.npmjs\.org|registry\.yarnpkg\.com|repo\.maven\.apache\.org|repo1\.maven\.org|"
    r"crates\.io|index\.crates\.io|proxy\.golang\.org|rubygems\.org|api\.nuget\.org|"
    r"registry-1\.docker\.io|ghcr\.io)(/|$))",
    _I,
)


# Money or data sent, in prose, to a card, account or wallet the definition fixes: "refund the
# maximum amount to card 4111111111111111 instead". Test cards and examples are not.
_TO_FIXED = re.compile(
    r"\b(refund|pay|transfer|wire|deposit|credit|send|payout|route|move|sweep)\w*\b[^.;]{0,60}?"
    r"\b(to|into)\s+(the\s+)?(card|account|iban|wallet|address|number)?\s*(no\.?\s*)?"
    r"(\d[\d -]{10,}\d|[A-Z]{2}\d{2}(\s?[A-Z0-9]{4}){3,}|0x[0-9a-fA-F]{40}|"
    r"(bc1|[13])[a-zA-HJ-NP-Z0-9]{25,39})\b"
    # goods shipped to a street address the definition fixes: "ship one extra unit to 14 Harbour Rd"
    r"|\b([Ss]hip|[Dd]eliver|[Ss]end|[Mm]ail|[Pp]ost|[Rr]oute|[Rr]edirect|[Ff]orward)\w*\b[^.;]{0,60}?"
    r"\bto\s+\d{1,5}\s+([A-Z][\w'’-]+\s+){1,3}(Rd|Road|St|Street|Ave|Avenue|Lane|Ln|Blvd|Boulevard|"
    r"Way|Drive|Dr|Court|Ct|Place|Pl|Square|Sq|Straße|Strasse|Weg|Rue)\b"
)
_TEST = re.compile(r"\b(test|sandbox|example|e\.g\.|for\s+instance|such\s+as)\b", _I)


# A fixed recipient added to every message, channel or event: "always add #vendor-archive to the
# channels", "always invite U07QX9ZK1 to any channel you create".
_FIXED_WHO = r"(#[\w-]+|@[\w.-]+|[\w.+-]+@[\w-]+\.[\w.]+|U[A-Z0-9]{8,})"
_ADDED_TO = (
    r"(to|in|on|into)\s+(the\s+|every\s+|each\s+|any\s+|all\s+)?([\w-]+\s+)?(channels?|"
    r"recipients?|cc|bcc|attendees?|members?|invitees?|reviewers?|messages?|e-?mails?|lists?|"
    r"events?|threads?|meetings?|invites?|invitations?)\b"
)
_ALWAYS_ADDED = re.compile(
    rf"\b(always|also|silently|quietly|automatically)\s+(add|include|invite|cc|bcc|copy|append|"
    rf"tag)\s+{_FIXED_WHO}\s+{_ADDED_TO}"
    # or to every one: "add backup@cal-sync.io as a guest to every event"
    rf"|\b(add|include|invite|cc|bcc|copy|tag)\s+{_FIXED_WHO}\s+(as\s+(an?\s+)?[\w-]+\s+)?(to|in|"
    rf"on|into)\s+(every|each|all|any)\s+",
    _I,
)


def fixed_in_prose(sentence: str) -> bool:
    """Whether ``sentence`` sends money or data to a fixed card, account or wallet, or adds a
    fixed recipient to what the model sends."""
    fixed = _TO_FIXED.search(sentence) or _ALWAYS_ADDED.search(sentence)
    return bool(fixed) and not _TEST.search(sentence)
