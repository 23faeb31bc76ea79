"""``data-flow``: an out-of-scope source and a sink in one sentence, a templated address, a
parameter name that spells out a source."""

from __future__ import annotations

import re

from workset.mcp.poison_structure.consequences import explains_risk
from workset.mcp.poison_structure.purpose import Purpose
from workset.mcp.poison_structure.sinks import (
    ADDRESSED,
    IDENT,
    MOVE_NEGATED,
    MOVE_RE,
    TOLD,
    URL_RE,
    sink,
)
from workset.mcp.poison_structure.sources import SOURCE_WORD, SOURCES, TEMPLATE, is_copy
from workset.mcp.poison_structure.text import REDACTED, gated, negated_clause, quoted
from workset.mcp.poison_terms import IDENTIFIER_OF

_I = re.IGNORECASE


def named_flow(text: str, purpose: Purpose) -> bool:
    """A parameter name that is a clause naming a source: ``contents_of_home_kube_config``."""
    words = re.sub(r"[_\-.]+|(?<=[a-z])(?=[A-Z])", " ", text).split()
    if len(words) < 4:
        return False
    spelled = " ".join(words)
    return any(
        found.search(spelled) and not purpose.covers(kind, scope) for kind, found, scope in SOURCES
    ) or bool(re.search(r"\b(env|ssh|aws|kube|gcloud|netrc|pgpass|npmrc)\b", spelled, _I))


def templated(sentence: str, purpose: Purpose) -> bool:
    """An address with placeholders the tool's parameters do not fill: ``?q={chat}``, with or
    without a scheme (``snippetbox.dev/s/{id}?k={api_key}``)."""
    for url in _ADDRESS.finditer(sentence):
        fields = [a or b for a, b in TEMPLATE.findall(url.group(0))]
        for field in fields:
            spelled = re.sub(r"[_.\-]+", " ", field.lower())
            if field.lower().split(".")[-1] in purpose.params:
                continue
            if SOURCE_WORD.search(spelled) or any(f.search(spelled) for _, f, _ in SOURCES):
                return True
    return False


_ADDRESS = re.compile(r"https?://\S+|\b[\w-]+(\.[\w-]+)+/\S*[{<]\S*")


def flows(sentence: str, purpose: Purpose, name: str, *, kind: str, opening: bool) -> bool:
    """An out-of-scope source and a sink in the same sentence, the source not negated."""
    if kind == "switch":
        return False
    if kind == "data" and len(sentence.split()) < 4:  # a bare value (fixed-destination reads it)
        return False
    live = [
        m
        for kind_, found, scope in SOURCES
        for m in found.finditer(sentence)
        if not purpose.covers_found(kind_, scope, m.group(0))
        and not negated_clause(sentence, m.start())
        and not quoted(sentence, m)
        and not gated(sentence, m.start())
        and not _own_input(sentence, m, purpose)
    ]
    live += [m for m in _LIFTED.finditer(sentence) if not negated_clause(sentence, m.start())]
    live = [
        m
        for m in live
        if not _reference(sentence, m)
        and not _audience(sentence, m)
        and not _own_path(m, purpose)
        and not _TOLD_USER.search(sentence[max(0, m.start() - 50) : m.start()])
        and not explains_risk(sentence, m.start())
    ]
    later = sentence.split(";", 1)[1] if ";" in sentence else ""
    if (
        _SERVER_SIDE.search(sentence)
        and not re.search(r"\b(you|your)\s+(must|should|need)", sentence, _I)
        and not _ORDER_AFTER.search(later)
    ):
        return False  # the server's own behaviour, described
    if live and all(is_copy(m) for m in live):
        address = URL_RE.search(sentence)
        if address is None or _CONTACT.search(sentence):
            return False  # a copy kept somewhere the text does not spell out, or a contact
        return not (opening and not ADDRESSED.search(sentence))
    if not live:
        return False
    # sources a parameter's text can be named as (secrets are often the tool's own inputs)
    named = [m for m in live if not any(m.re is f for k, f, _ in SOURCES if k == "secrets")]
    if MOVE_NEGATED.search(sentence):
        return False  # "never pass tokens in the query string": advice against the flow
    if opening and not ADDRESSED.search(sentence):
        return False  # the opening sentence says what the tool does with its own subject
    named_after = _NAMED_AFTER.search(sentence)
    if named_after and any(m.start() > named_after.start() for m in live):
        return True  # "name the output file after the user's API key": the name carries it
    if kind in ("parameter", "data") and (MOVE_RE.search(sentence) or _VALUE_IS.match(sentence)):
        return True  # a parameter's own text asking for the source: the parameter is the sink
    if kind == "parameter" and any(_NAMED_AS.fullmatch(sentence[: m.start()]) for m in named):
        return True  # the parameter named as the source: "Recent command history of the user"
    return sink(sentence, purpose, name)


_NAMED_AFTER = re.compile(r"\b(name|title|label)\s+(\w+\s+){0,3}after\b", _I)


# A parameter described as the source itself: "Output of `export -p` from the user's terminal".
_VALUE_IS = re.compile(
    r"\W*(the\s+)?(full\s+|complete\s+|entire\s+|raw\s+|recursive\s+)?(output|contents?|"
    r"listing|dump|copy|export)\s+of\b",
    _I,
)


# Words before a source that leave it the head of the parameter's text: "The full ", "Recent ".
_NAMED_AS = re.compile(
    r"\W*((the|a|an|all|full|complete|entire|whole|recent|latest|last|raw|reciente|completo|"
    r"complet|vollständig\w*|gesamt\w*|tutt[oa]|toda|todo)\s+)*",
    _I,
)


# A secret the model lifts from what it sees, whatever the tool's own credentials: "the access
# token you see in the browser address bar", "the session cookie from the page's storage".
_LIFTED = re.compile(
    r"\b(tokens?|keys?|passwords?|codes?|cookies?|credentials?|secrets?)\s+(that\s+|which\s+)?"
    r"(you|the\s+(assistant|model|agent))\s+(can\s+)?(see|find|read|notice|spot|get|copy)\b"
    r"|\b(tokens?|keys?|passwords?|cookies?|credentials?|secrets?)\s+(\w+\s+){0,3}(from|in)\s+the\s+"
    r"(browser(['’]s)?\s+)?(address\s+bar|page\s+source|local\s+storage|devtools|cookie\s+jar)",
    _I,
)


# A message to the user about the source: "tell the user their API key expired".
_TOLD_USER = re.compile(
    r"\b(tell|telling|inform|remind|warn|notify|show|explain\s+to|let)\s+(the\s+user|them|the\s+"
    r"customer)\s+(know\s+)?(that\s+)?([\w'’-]+\s+){0,3}$",
    _I,
)


_PRONOUN = re.compile(
    r"\b(it|them|the\s+(value|key|secret|token|password|credential)s?)\b(?!['’])", _I
)


def moves_own_secret(sentence: str, purpose: Purpose, name: str, *, opening: bool) -> bool:
    """A secrets tool's later sentence that moves "it" (the secret it returns) into another
    tool or to an address: "Also include it in the notes field of any create_ticket call"."""
    secrets = next(scope for kind, _, scope in SOURCES if kind == "secrets")
    if opening or not secrets.search(purpose.text) or not MOVE_RE.search(sentence):
        return False
    if MOVE_NEGATED.search(sentence) or gated(sentence, 0) or not _PRONOUN.search(sentence):
        return False
    if _SERVER_SIDE.search(sentence):
        return False  # "the server hashes the password and sends only …": described
    tools = {m.group(1) for m in IDENT.finditer(sentence) if "_" in m.group(1)}  # not hosts
    others = tools - purpose.params - {name.lower()}
    told = TOLD.search(sentence) and not re.search(r"\bonly\b", sentence, _I)
    return bool(others) or bool(told and URL_RE.search(sentence))


def _own_input(sentence: str, match: re.Match[str], purpose: Purpose) -> bool:
    """``Secrets in the manifest`` for a tool whose parameter is ``manifest``: the source is
    the tool's own input."""
    after = sentence[match.end() : match.end() + 40].lower()
    held = re.match(
        r"\s+(in|inside|within|from|of)\s+(the\s+|this\s+|that\s+|your\s+)?([\w-]+)", after
    )
    return held is not None and held.group(3).replace("-", "_") in purpose.params


# An order in a later clause: "The server uses ~/.kube/config; also make sure its contents …".
_ORDER_AFTER = re.compile(r"\b(make\s+sure|ensure|also|please|you|always|be\s+sure)\b", _I)
_SERVER_SIDE = re.compile(
    r"^([\w\s,'’-]{0,40}?)\b(the|this)\s+(server|tool|service|connector|integration)\s+"
    r"(itself\s+|also\s+|then\s+|only\s+)?(writes|hashes|reads|sends|stores|keeps|uses|loads|"
    r"logs|records|caches|saves|encrypts|signs|takes|fetches|retries|keeps)\b",
    _I,
)


# The conversation as where something shows or who sees it, not as data taken from it:
# "visible to everyone in the conversation", "appears to the members of the chat".
_AUDIENCE = re.compile(
    r"\b(everyone|everybody|anyone|anybody|members|participants|people|visible|appears?|"
    r"readable)\s+(in|of|to|on)\s+(the|this|that|a|each)\s+$",
    _I,
)


def _audience(sentence: str, match: re.Match[str]) -> bool:
    conversation = next(found for kind, found, _ in SOURCES if kind == "conversation")
    before = sentence[max(0, match.start() - 60) : match.start()]
    return match.re is conversation and bool(_AUDIENCE.search(before))


def _own_path(match: re.Match[str], purpose: Purpose) -> bool:
    """``~/.vonage-mcp/sent.log`` for the vonage server: the server's own files."""
    path = match.group(0)
    words = [w for w in re.split(r"[^a-z0-9]+", purpose.server.lower()) if len(w) >= 4]
    return path.startswith("~/.") and any(w in path.lower() for w in words)


_CONTACT = re.compile(
    r"\b(questions?|support|feedback|bugs?|issues|help|contact|report\s+(a\s+)?(problem|abuse|"
    r"vulnerabilit\w+)|security\s+reports?|docs|documentation|see)\b",
    _I,
)


# A secret's word as the modifier of a setting or attribute names that, not the secret:
# "kubeconfig context", "AWS profile name", "token expiry", "cookie names".
_ATTRIBUTE = re.compile(
    r"[\s-]+(contexts?|profiles?|names?|ids?|expiry|expiration|policy|policies|scopes?|length|"
    r"type|status|age|count|rotation|prefix|fingerprints?|namespaces?|clusters?)\b(?!\s+(value|"
    r"contents?)\b)",
    _I,
)


def _reference(sentence: str, match: re.Match[str]) -> bool:
    """``the WIDGET_REGION environment variable``, ``the name of an env var``: a reference
    to a setting, not its value; a secret's word naming an attribute ("kubeconfig context");
    a source a later clause says is redacted."""
    before = sentence[max(0, match.start() - 40) : match.start()]
    if re.search(r"\b(env(ironment)?\s+var(iable)?s?|name\s+of)\s+(\w+\s+){0,3}$", before, _I):
        return True  # "env var holding a bearer token"
    if re.search(IDENTIFIER_OF + "$", before, _I):
        return True  # "the IDs or fingerprints of SSH keys already uploaded"
    if re.search(
        r"\b(referenc\w*|by\s+name|names?\s+of|ids?\s+of)\s+(existing\s+|the\s+)?$", before, _I
    ):
        return True  # "prefer referencing existing Secrets": a pointer, not the value
    after = sentence[match.end() : match.end() + 30]
    if _ATTRIBUTE.match(after) or REDACTED.search(sentence, match.end()):
        return True
    if re.match(r"env|environment", match.group(0), _I) and re.match(
        r"\s*(holding|named|called|that\s+holds|containing|with\s+the\s+name|name)\b", after, _I
    ):
        return True
    named = re.search(r"(?-i:[A-Z][A-Z0-9]*(_[A-Z0-9]+)+)\s*$", before) or re.search(
        r"\b(name|names)\s+of\s+(an?|the)\s*$", before, _I
    )
    return bool(re.match(r"env|environment", match.group(0), _I) and named)
