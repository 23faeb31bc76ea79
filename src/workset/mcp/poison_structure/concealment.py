"""``hides-from-user``: an act kept from the user, in nine languages (keeping a secret from
view is not)."""

from __future__ import annotations

import re

from workset.mcp.poison_structure.sinks import ACT_RE
from workset.mcp.poison_structure.text import NEGATION, clause_at, gated

_I = re.IGNORECASE


_CONCEAL = re.compile(
    r"\b((do\s+not|don['’]?t|never|(must|should|shall|may)\s+not|mustn['’]t|shouldn['’]t|no\s+need\s+to|needn['’]?t|need\s+not|(there\s+is\s+|there['’]s\s+)?no\s+"
    r"(reason|point|use)(\s+in|\s+to)?|(it\s+is\s+)?(un)?necessary\s+to|not\s+necessary\s+to|without|avoid|refrain"
    r"\s+from)\s+(\w+\s+){0,2}(mention\w*|tell\w*|inform\w*|notify\w*|alert\w*|reveal\w*|"
    r"disclos\w*|surfac\w*|bring\w*\s+(it|this|that)\s+up|point\w*\s+(it|this|that)\s+out|"
    r"flag\w*|explain\w*|bother\w*|burden\w*|trouble\w*|worry\w*|confus\w*|draw\w*\s+attention|"
    r"call\w*\s+attention|highlight\w*|narrat\w*|list\s+it|avisar|(list|name|include)\s+"
    r"(\w+\s+){1,3}in\s+(your|the)\s+(reply|replies|answers?|responses?|summary|recap)\b|show\w*\s+(\w+\s+){0,3}(in|to)\s+the\s+"
    r"(transcript|user|chat)|report\w*\s+(it|this|that)\s+to)"
    r"|(need|needs)\s+not\s+be\s+(mentioned|narrated|reported|shown|disclosed|surfaced|"
    r"explained)|(does|do)\s+not\s+need\s+to\s+be\s+(mentioned|narrated|reported|shown|"
    r"disclosed|surfaced|explained|brought\s+up)"
    r"|muss\s+(dem\s+\w+\s+)?(gegenüber\s+)?nicht\s+erwähnt|nicht\s+erwähn\w*|(erwähne|erwähnen|sage|sag|"
    r"verrate|zeige)\w*\s+(\w+\s+){0,3}(das|es|dies|davon)\s+nicht\b|teile\s+dem\s+"
    r"\w+\s+nicht|ohne\s+(den\s+\w+\s+)?zu\s+(informieren|benachrichtigen)|ne\s+(pas\s+)?"
    r"(le|la|les|l['’]en)\s+(signaler|dire|mentionner)|ne\s+pas\s+(en\s+)?(informer|parler|"
    r"mentionner|signaler|prévenir)|sans\s+(le\s+)?(dire|signaler|mentionner|prévenir)|"
    r"sin\s+(avisar|decir|mencionar|informar|notificar)|no\s+(hace\s+falta|es\s+necesario)\s+"
    r"(comentarlo|mencionarlo|decírselo|informar|avisar)|en\s+silencio|sem\s+(avisar|informar|"
    r"mencionar)|não\s+(é\s+necessário|precisa)\s+(mencionar|informar|avisar)|senza\s+"
    r"(avvisare|dire|menzionare|informare)|non\s+(è\s+necessario|serve)\s+(menzionarlo|dirlo|"
    r"informare)|не\s+(сообща\w*|говор\w*|упомина\w*|уведомля\w*|показыва\w*|рассказыва\w*)"
    r"|(silently|quietly|covertly|discreetly|secretly|invisibly|in\s+the\s+background|"
    r"behind\s+the\s+scenes|on\s+the\s+side)\b"
    r"|not\s+(user[- ]facing|visible\s+to\s+the\s+user|shown\s+to\s+the\s+user)|hidden\s+from|"
    r"invisible\s+to|(keep|leave)\s+(?!(\w+\s+){0,3}(secrets?|keys?|tokens?|passwords?|credentials?|"
    r"personal|pii)\b)(\w+\s+){1,6}out\s+of\s+(your|the)\s+(summary|summaries|reply|replies|answers?|"
    r"responses?|reports?|messages?|recap)\b|(keep|leave)\s+(this|it|that|them)\s+(between|to\s+yourself|out\s+of|"
    r"confidential|private|off)|the\s+user\s+(does\s+not|doesn['’]?t|need\s+not|needn['’]?t|"
    r"won['’]?t|should\s+not|must\s+not)\s+(need\s+to\s+)?(know(?=\s*($|[.,;:]|about\b|that\b|"
    r"this\b|it\b|of\b|what\b))|be\s+told|see\s+(this|it|that|them)|notice|hear|learn\s+(of|about))"
    r"|(disclose|notify|show|tell)_(to_)?user\W{0,3}\s*(false|no|0)\b)"
    r"|strictly\s+between|better\s+off\s+not\s+knowing|spare\s+(the\s+)?(user|them)|"
    r"stay\s+silent|(keep|leave)\s+(the\s+)?(user|them|the\s+person|person|customer|people)\s+(\w+\s+){0,4}(unaware|"
    r"in\s+the\s+dark|out\s+of\s+the\s+loop)|darf\s+nicht\s+erfahren|inutile\s+de\s+(prévenir|dire|signaler|mentionner)|"
    r"não\s+(conte|diga|mencione|informe)|no\s+(le\s+)?(digas|cuentes|menciones|informes)|"
    r"non\s+(dire|dirlo|menzionare|informare)"
    r"|不要告诉|无需告知|不必告诉|无需通知|不要通知|无需让用户知道|사용자에게\s*(알리지|말하지)|알릴\s*필요|必要はありません|伝えないで|知らせないで|"
    r"आवश्यकता\s+नहीं|न\s+बताएं",
    _I,
)


# "no hace falta que el usuario sepa", "the user need never know": a negation before it.
_UNAWARE = re.compile(
    r"\b(user|person|customer|usuario|utilisateur|nutzer|benutzer|usuário|utente)\s+"
    r"(\w+\s+){0,2}(sepa|saber|savoir|sache|sapere|erfahren|know|learn|notice|find\s+out)\b",
    _I,
)


_ABOUT_USER = re.compile(
    r"\b(user|users|them|they|him|her|person|customer|human|requester|anyone|it|this|that|"
    r"das|es|dies|davon|cela|ça|eso|esto|isso|isto|ciò|questo|"
    r"the\s+(copy|step|call|addition|trailer|field|extra|cc|bcc))\b",
    _I,
)


def hides(sentence: str) -> bool:
    """Whether ``sentence`` keeps an act from the user; a condition on the user governs only
    its own clause ("do not show them to the user; if the user asks, say …" still hides)."""
    for match in _UNAWARE.finditer(sentence):
        if gated(sentence, match.start()):
            continue
        before = sentence[max(0, match.start() - 40) : match.start()]
        if re.search(
            r"\b(no|not|never|need\s+never|nicht|ne|pas|nunca|não|non|falta)\b", before, _I
        ) or re.search(r"\b(never|not)\b", match.group(0), _I):
            return True
    for match in _CONCEAL.finditer(sentence):
        if gated(sentence, match.start()):
            continue
        clause = clause_at(sentence, match.start())
        if re.search(r"\b(secrets?|passwords?|tokens?|keys?|credentials?|values?)\b", clause, _I):
            continue  # keeping a secret from view protects it
        if re.search(r"\b(silently|quietly|in\s+the\s+background|behind)\b", match.group(0), _I):
            if not ACT_RE.search(clause) or NEGATION.search(clause):
                continue  # "fails silently": behaviour, not a covert act
            return True
        after = sentence[match.end() : match.end() + 40]
        if re.match(
            r"\s*(to\s+)?(anyone|anybody|someone|others|third\s+parties)\s+else\b|\s*to\s+"
            r"(third\s+parties|others)\b",
            after,
            _I,
        ):
            continue  # "does not need to be reported to anyone else": not the user
        if re.match(r"without", match.group(0), _I) and not re.match(
            r"\s*(the\s+)?(user|them|anyone|the\s+person|the\s+customer)\b(?!['’]s)", after, _I
        ):
            continue  # "without notifying the user's followers"
        if (
            _ABOUT_USER.search(_subject(sentence, match) + match.group(0) + after)
            or re.search(
                r"\b(user|person|customer|usuari[oa]|utilisat\w+|nutzer\w*|benutzer\w*|usuário|utente|"
                r"пользовател\w*|list)\b|用户|ユーザー|사용자",
                match.group(0) + after,
                _I,
            )
            or not re.search(r"[a-z]", match.group(0)[:3], _I)
        ):
            return True
    return False


def _subject(sentence: str, match: re.Match[str]) -> str:
    """The words before a passive form ("it need not be explained"): what is not told."""
    if re.match(r"(need|needs|does|do)\b", match.group(0), _I):
        return sentence[max(0, match.start() - 12) : match.start()]
    return ""
