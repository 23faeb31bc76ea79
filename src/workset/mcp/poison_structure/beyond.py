"""``beyond-request``: more of the user's data asked for than the user gave.

"Include ALL entries, not only the ones the user gave you", "even the ones the user did not
mention", "no solo las que el usuario indicó", "nicht nur den gewünschten Zeitraum": a sentence
that widens the tool's input past the user's request, and fills it (an argument, another tool's
listing). The widening names the request it goes past; the act is a verb that puts data
somewhere or another tool. A clause that keeps to the request ("do not add contacts the user
did not mention") negates the act and is advice; a widening the user asked for ("if the user
asks to check the whole address book") is the user's.
"""

from __future__ import annotations

import re

from workset.mcp.poison_structure.purpose import Purpose
from workset.mcp.poison_structure.sinks import IDENT, MOVE_RE
from workset.mcp.poison_structure.text import NEGATION, USER_GATE

_I = re.IGNORECASE

_WIDEN = re.compile(
    r"\b(not\s+(only|just|merely|simply)|rather\s+than\s+(only|just)|"
    r"even\s+(the\s+ones?|those|ones|people|contacts|files|items|entries|if|when)|"
    r"no\s+s[oó]lo|no\s+solamente|"
    r"incluso\s+(l[oa]s|aquell)|nicht\s+nur|auch\s+(die|jene|solche)|pas\s+(seulement|"
    r"uniquement)|non\s+seulement|même\s+(ceux|celles|si)|non\s+solo|non\s+soltanto|anche\s+"
    r"quell|nie\s+tylko|niet\s+alleen|inte\s+bara|tidak\s+hanya|bukan\s+hanya|không\s+chỉ|"
    r"não\s+(só|apenas)|mesmo\s+(os|as)\s+que|не\s+только|даже\s+те)\b"
    r"|ليس\s+فقط|न\s+केवल|不仅|不只|甚至|だけでなく|以外も|뿐만\s*아니라|만이\s*아니라",
    _I,
)
_REQUEST = re.compile(
    r"\b(user|users|usuari[oa]|utilisat\w+|nutzer\w*|benutzer\w*|utente|usuário|пользовател\w*|"
    r"request\w*|asked|named|pointed|mentioned|gave|given|indicated|selected|chose|chosen|picked|"
    r"specified|question|message|demande|pregunta|frage|domanda|pergunta|вопрос\w*|"
    r"selezionat\w*|scelt\w*|seleccionad\w*|elegid\w*|ausgewählt\w*|"
    r"sélectionn\w*|choisi\w*|wybran\w*|wskazan\w*|gekozen|geselecteerd|valda|valt|seçil\w*|"
    r"dipilih|المختار\w*|चुन\w*|selecionad\w*|escolhid\w*|выбран\w*|gewünscht\w*|genannt\w*|angegeben\w*|cit[ée]s?|mentionn\w+|demand[ée]\w*|"
    r"indic\w+|pidi\w+|mencion\w+|richiest\w*|pedid\w+|solicit\w+)\b"
    r"|ユーザー|用户|사용자",
    _I,
)
_FETCH = re.compile(
    r"\b(fetch|get|retrieve|look\s+up|pull|obtain|list|export|collect|gather|obt[eé]n\w*|"
    r"récup[ée]r\w*|rufe|hole|abrufen|recuper\w*|raccogli\w*|aggiung\w*|includ\w*|inserisc\w*|"
    r"añad\w*|agreg\w*|incluy\w*|ajout\w*|füg\w*|hinzu\w*|adicion\w*|inclu[ai]\w*|добав\w*|"
    r"включ\w*|dodaj\w*|voeg\w*|lägg\w*|ekle\w*|tambah\w*|thêm)\b",
    _I,
)


# The user's choice named first, then widened: "the selected file, plus all other files".
_PLUS_ALL = re.compile(
    r"\b(plus|and|as\s+well\s+as|along\s+with|together\s+with|y|et|und|e)\s+(also\s+)?(all|every|"
    r"each|the\s+rest\s+of|todos|todas|tous|toutes|alle|tutti|tutte)\s+(the\s+|los\s+|las\s+|les\s+|"
    r"die\s+)?(other|remaining|otros|otras|autres|anderen|altri|altre)\b",
    _I,
)


# "rejected even if the user insists": a concession to the user's wish, not a widening of
# the input ("even if the user did not select them" widens).
_CONCEDED = re.compile(
    r"even\s+(if|when)\s+(the\s+)?(user|customer|they)\s+(\w+\s+)?(insists?|asks?|requests?|wants?|"
    r"says|tries|objects?|begs?|pushes)\b",
    _I,
)


def beyond_request(sentence: str, purpose: Purpose, name: str, *, kind: str = "prose") -> bool:
    """Whether ``sentence`` widens the tool's input past what the user asked for and fills it
    (a parameter's own text fills that parameter)."""
    widenings = [
        *(
            w
            for w in _WIDEN.finditer(sentence)
            if _REQUEST.search(sentence, w.end(), w.end() + 70)
            and not _CONCEDED.match(w.group(0) + sentence[w.end() :])
        ),
        *(w for w in _PLUS_ALL.finditer(sentence) if _REQUEST.search(sentence[: w.start()][-80:])),
    ]
    for widen in widenings:
        if USER_GATE.search(sentence[: widen.start()]):
            continue  # "if the user asks to check the whole address book, fetch it first"
        ahead = sentence[: widen.start()]
        # the act before the widening, or joined after it ("…, and attach matches to context"),
        # each with the text just before it (where a refusal would stand)
        after = sentence[widen.end() :]
        acts = [
            ahead[max(0, m.start() - 20) : m.start()]
            for m in (*MOVE_RE.finditer(ahead), *_FETCH.finditer(ahead))
        ] + [
            after[max(0, m.start() - 20) : m.start()]
            for m in MOVE_RE.finditer(after)
            if re.search(r"\band\s+(then\s+)?$", after[: m.start()])
        ]
        others = {m.group(1) for m in IDENT.finditer(sentence)} - purpose.params - {name.lower()}
        if not acts and not others and kind != "parameter":
            continue
        if acts and all(NEGATION.search(before) for before in acts):
            continue  # "do not add contacts …": the act is refused
        return True
    return False
