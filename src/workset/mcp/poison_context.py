"""Context that makes a match honest wording: the precision side of the description audit.

A benign definition uses the audit's vocabulary for its own reasons, and these checks name
the common ones, each a shape rather than a phrase:

- a **quoted example**: "pages may contain text such as 'ignore previous instructions'" quotes
  an attack to warn about it (:func:`quoted_example`);
- a **refusal or exclusion**: the credential file or secret is the subject of a negative
  predicate after it ("dotfiles such as .ssh are excluded", "private keys are never read",
  "values are masked") (:func:`refused`);
- the **user's own choice**: the file is the one the user points to, names or gives ("check a
  .env file the user points to") (:func:`refused` too);
- the tool's **declared subject**: an opening sentence whose verb is the tool's inspection of
  such files ("Scan a repository for committed secrets (… .env files)"); the same file kind
  named again in the tool's own parameters is that subject (:func:`subject_files`);
- a **public key** (``id_ed25519.pub``) holds no secret (in :data:`CREDENTIAL_FILE`);
- **routing advice**: a call demand whose sentence opens with the user's request or a specific
  task ("If a user mentions a champion, you must always call this function") (:func:`routed`);
- **documented characters**: invisible characters whose code points the same text spells out
  ("strip zero-width characters (U+200B …)") are the topic, not a hiding place
  (:func:`documented_code_points`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from workset.mcp.poison_terms import CREDENTIAL_FILE

_I = re.IGNORECASE
_QUOTES = {"'": "'", '"': '"', "‘": "’", "“": "”", "`": "`", "«": "»"}
_MENTION = re.compile(
    r"\b(e\.?g\.?|for\s+(example|instance)|such\s+as|like|looks?\s+like|resembles?|text|"
    r"phrases?|strings?|lines?|wording|words|patterns?|called|named|saying|says|reads|"
    r"contains?|containing|including|includes?|as)\s*[:,]?\s*\(?\s*$",
    _I,
)
# After the match, in the same clause: the thing is excluded, refused, masked or not read.
_REFUSED = re.compile(
    r"^([^.;]|\.(?=\S)){0,80}?\b((are|is|get|gets|stay|stays|remain|remains)\s+(always\s+)?(excluded|"
    r"skipped|ignored|masked|redacted|hidden|filtered(\s+out)?|left\s+out|omitted|rejected|"
    r"refused|blocked)|(are|is)\s+(never|not)\s+(read|opened|returned|sent|shown|uploaded|"
    r"stored|logged|accessed|touched|included|printed|transmitted|committed|tracked)|never\s+(read|"
    r"open|return|send|upload|store|log|touch|access|commit|push|share|cop(y|ie)|include|expose)"
    r"(s|ed|d)?\b|(the\s+tool|it)\s+(refuses|rejects|declines)|(are|is)\s+(listed|kept)\s+in\s+"
    r"\.gitignore)"
    # The same refusals in French, Spanish, German, Portuguese, Italian and Russian.
    r"|^([^.;]|\.(?=\S)){0,80}?(ne\s+sont\s+jamais|n['’]est\s+jamais|ne\s+sont\s+pas|nunca\s+se|no\s+se|"
    r"werden\s+nie(mals)?|werden\s+nicht|wird\s+nie(mals)?|nunca\s+são|não\s+são|non\s+vengono(\s+mai)?|"
    r"никогда\s+не|не)\s+(lus?|ouverts?|envoyés?|lee[n]?|leíd[oa]s|abre[n]?|env[ií]a[n]?|gelesen|"
    r"geöffnet|gesendet|übertragen|lidos?|abertos?|enviados?|letti|aperti|inviati|чита\w*|"
    r"открыва\w*|отправля\w*)\b",
    _I,
)
# Within the clause: a file the user points to, names, gives or selects.
_USER_CHOSEN = re.compile(
    r"\b(the\s+)?user\s+(points?\s+(to|at)|names|gives|selects|chooses|picks|provides|"
    r"specifies|supplies|opens|passes)\b|\b(path|file|repository|folder|directory)\s+(the\s+)?"
    r"user\s+(gives|names|chooses|selects|provides|specifies)\b",
    _I,
)
# An opening sentence whose verb is the tool inspecting such files: its subject, not a demand.
_INSPECTS = re.compile(
    r"^\s*(scan|scans|detect|detects|find|finds|search|searches|lint|lints|check|checks|"
    r"validate|validates|audit|audits|inspect|inspects|flag|flags|locate|locates|"
    r"rotate|rotates|mask|masks|redact|redacts|list|lists|count|counts)\b",
    _I,
)
_CODE_POINT = re.compile(
    r"U\+([0-9A-F]{4,6})(?:\s*(?:–|—|-|…|\.\.\.?|to|through)\s*U\+([0-9A-F]{4,6}))?", _I
)


def quoted_example(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` sits inside quotes that follow a mention ("such as", "for
    example", "text like", "e.g.")."""
    for index in range(start - 1, max(-1, start - 80), -1):
        opening = text[index]
        closing = _QUOTES.get(opening)
        if closing is None or (opening == "'" and index and text[index - 1].isalnum()):
            continue
        close = text.find(closing, end)
        if close < 0 or "\n" in text[index:close]:
            return False
        return bool(_MENTION.search(text[max(0, index - 40) : index]))
    return False


# Before the match, in the same clause: a negation that a list of paths carries ("never reads
# ~/.ssh, ~/.aws/credentials or .env files"), with no turn ("but", "then") after it.
_NEGATED_CLAUSE = re.compile(
    r"\b(never|not|don'?t|do\s+not|does\s+not|without|excluding|except|skips?|refuses?|"
    r"ignores?)\b[^.;:!?]{0,40}$",
    _I,
)
# The items of a list ahead of the match: "~/.ssh, ~/.aws/credentials or ".
_LIST_AHEAD = re.compile(r"(\S*[/.~_]\S*\s*(,|\bor\b|\band\b)\s*)*\S*$")
_SAFEGUARD_VERB = re.compile(
    r"\s+(\w+\s+)?(ask|check|confirm|consult|wait|tell|notify|warn|inform|mention|bother)\w*\b", _I
)
_CLAUSE_END = re.compile(r"[;!?\n]|\.(?!\S)")
# A condition that closes before what follows ("if the user gave none, read …"): a negation in
# it does not govern the clause after it.
CONDITION = re.compile(r"\b(if|when|unless|where|whenever)\b[^,;:.]*,", _I)
# A clause that opens with a prohibition covers all it names ("Never use this tool to read
# credential files such as ~/.ssh"), unless it turns ("but", "instead", "except").
_PROHIBITION = re.compile(
    r"^\W*(never|do\s+not|don['’]?t|must\s+not|should\s+not|may\s+not|avoid|refuse\s+to)\b"
    r"(?!\s+(\w+\s+)?(ask|check|confirm|consult|wait|tell|notify|warn|inform|mention|bother)\w*\b)"
    r"(?![^.;]*\b(but|instead|rather|except|then)\b)",
    _I,
)


def refused(text: str, start: int, end: int) -> bool:
    """Whether the clause holding ``text[start:end]`` excludes, refuses, masks or negates it,
    or names it as the user's own choice of input."""
    lo = max([m.end() for m in _CLAUSE_END.finditer(text, 0, start)], default=0)
    after = _CLAUSE_END.search(text, end)
    clause = text[lo : after.start() if after else len(text)]
    return bool(
        _REFUSED.search(text[end:])
        or _USER_CHOSEN.search(clause)
        or _negated_act(_LIST_AHEAD.sub("", CONDITION.sub(" ", text[lo:start])))
        or _PROHIBITION.match(text[lo:start])
    )


def _negated_act(ahead: str) -> bool:
    """A negation before the match that governs it: "never read ~/.ssh", not "do not ask the
    user before reading ~/.ssh" (what is negated there is the asking)."""
    negation = _NEGATED_CLAUSE.search(ahead)
    return negation is not None and not _SAFEGUARD_VERB.match(ahead, negation.end(1))


def inspected(text: str, start: int) -> bool:
    """Whether the match at ``start`` is in the text's opening sentence and that sentence opens
    with the tool's inspection verb ("Scan … for committed secrets (… .env files)")."""
    first = re.split(r"(?<=[.!?])\s+|\n", text, maxsplit=1)[0]
    return start < len(first) and bool(_INSPECTS.search(first))


def file_kinds(text: str) -> set[str]:
    """The credential-file names in ``text``, lower case (``.env``, ``~/.ssh``, ``id_rsa``)."""
    return {m.group(0).strip(" /'\"`(").lower() for m in re.finditer(CREDENTIAL_FILE, text, _I)}


def subject_files(description: str) -> frozenset[str]:
    """Credential-file names that ``description`` makes the tool's subject: named in an
    inspecting opening sentence, as the file the user points to, or read by a tool that
    says their secrets stay on the machine (:func:`kept_local`)."""
    out: set[str] = set()
    local = kept_local(description)
    for match in re.finditer(CREDENTIAL_FILE, description, _I):
        if (
            local
            or inspected(description, match.start())
            or refused(description, match.start(), match.end())
        ):
            out |= file_kinds(match.group(0))
    return frozenset(out)


# The secrets a tool reads stay with it: "the private key never leaves the machine",
# "credentials in it are used only to talk to the API server and are never included in
# responses", "secret keys are never read into the response or passed anywhere else".
_KEPT_LOCAL = re.compile(
    r"\b(keys?|credentials?|secrets?|tokens?|passwords?|contents?|it|they)\b[^.;]{0,60}?\b("
    r"never\s+(leaves?|leave)\s+(the|this|your)\s+(machine|host|device|computer|laptop)|"
    r"(is|are)\s+(never|not)\s+(included|returned|passed|sent|shown|exposed|echoed|printed|"
    r"read|uploaded|logged|transmitted)\b|(are|is)\s+used\s+only\s+(to|for|locally)|"
    r"stays?\s+(local|on\s+(the|this|your)\s+machine))",
    _I,
)
# A credential file in a sentence that moves something: put, pass, send, include, attach.
_MOVED = re.compile(
    r"\b(send|pass|include|put|attach|copy|paste|upload|post|forward|add|append|embed|provide|"
    r"supply|record|write|fill)\w*\b",
    _I,
)
_BY_USER = re.compile(
    r"\b(the\s+)?user\s+(can|may|will|should|could)\s+$|\b(never|not)\s+(be\s+)?$", _I
)


def kept_local(description: str) -> bool:
    """Whether ``description`` says the secrets it reads stay local, and no sentence naming a
    credential file moves anything (except what the user does, "so the user can add it", and
    what it never does, "are never included")."""
    if not _KEPT_LOCAL.search(description):
        return False
    return not any(
        re.search(CREDENTIAL_FILE, sentence, _I) and moves(sentence)
        for sentence in re.split(r"(?<=[.!?])\s+|\n+", description)
    )


def moves(sentence: str) -> bool:
    """Whether ``sentence`` puts, passes, sends or includes something (not what the user does,
    "so the user can add it", nor what it never does, "are never included")."""
    return any(not _BY_USER.search(sentence[: v.start()]) for v in _MOVED.finditer(sentence))


def documented_code_points(text: str) -> set[int]:
    """Code points ``text`` spells out as ``U+XXXX`` (and ranges ``U+202A–U+202E``)."""
    out: set[int] = set()
    for match in _CODE_POINT.finditer(text):
        first = int(match.group(1), 16)
        last = int(match.group(2), 16) if match.group(2) else first
        if 0 <= last - first <= 64:
            out.update(range(first, last + 1))
        else:
            out.add(first)
    return out


def all_documented(hidden: Iterable[str], text: str) -> bool:
    """Whether every hidden character's code point is spelled out in ``text``."""
    named = documented_code_points(text)
    return bool(named) and all(ord(c) in named for c in hidden)


# A parameter whose name says it carries the tool's own credential.
_CREDENTIAL_PARAM = re.compile(
    r"(^|_|-)(api_?key|apikey|key|token|access_?token|auth(_?token)?|authorization|bearer|"
    r"password|secret|credentials?|pat)$",
    _I,
)
_FOREIGN = re.compile(
    rf"{CREDENTIAL_FILE}|\buser['’]s\b|\bconversation|\bchat\b|\bhistory\b|\bprompt\b", _I
)
_ENV_NAME = re.compile(r"(?-i:\b([A-Z][A-Z0-9]*)(?:_[A-Z0-9]+)+\b)")


def credential_params(params: Iterable[str]) -> frozenset[str]:
    """The tool's own parameters named for a credential (``api_key``, ``access_token``)."""
    return frozenset(p for p in params if _CREDENTIAL_PARAM.search(p))


def own_credential(text: str, where: str, own: frozenset[str], words: frozenset[str]) -> bool:
    """Whether ``text`` documents the tool's own authentication: it sits in, or names, one of
    the tool's credential parameters (``own``), and names no one else's secret: no credential
    file, nothing of the user's or the conversation, and no environment variable whose first
    part is not a word of the tool's or server's name (``words``; ``ALPHAGENOME_API_KEY`` for
    ``alphagenome_predictor``)."""
    field = re.search(r"\.properties\.([^.]+)\.description$", where)
    names_own = bool(field and field.group(1).lower() in own) or any(
        re.search(rf"(?<![\w-]){re.escape(p).replace('_', '[ _]')}(?![\w-])", text, _I) for p in own
    )
    if not names_own or _FOREIGN.search(text):
        return False
    return all(m.group(1).lower() in words for m in _ENV_NAME.finditer(text))


# A sentence that opens with a condition on the user's request, or on a specific task of the
# model's, routes that request here: "If a user mentions a champion, you must always call
# this function"; "When you retrieve summoner data, call this first". A universal condition
# ("when you finish any other tool") is not routing.
_ROUTED = re.compile(
    r"^\s*(if|when|whenever|once)\s+((a|the|any)\s+user\s+(mentions?|asks?|wants?|requests?|"
    r"needs?|says|types|searches|is\s+asking|inquires?|enquires?)|you\s+(retrieve|fetch|look\s+up|"
    r"search(\s+for)?|get|need|want|are\s+asked)\b)(?![^,]*\b(every|each|all|other|another)\b)"
    r"[^.;]{0,160},",
    _I,
)


def routed(text: str, start: int) -> bool:
    """Whether the sentence holding ``start`` opens with a user's or a specific task's
    condition (routing advice, not a demand around every call)."""
    lo = max([m.end() for m in _CLAUSE_END.finditer(text, 0, start)], default=0)
    return bool(_ROUTED.search(text[lo:start]))
