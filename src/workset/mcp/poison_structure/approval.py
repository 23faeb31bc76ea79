"""``assumes-approval``: acting without the user's approval, or claiming it was given (not under a
condition or a question)."""

from __future__ import annotations

import re

from workset.mcp.poison_structure.text import USER_GATE

_I = re.IGNORECASE


_APPROVAL = re.compile(
    r"\bwithout\s+(first\s+)?(asking|confirm\w*|approval|permission|consent|check\w*\s+"
    r"(with|in)|consult\w*|prompt\w*|waiting|bothering|involving|review\w*)"
    r"|\b(already|pre[- ]?)\s*(approved|authori[sz]ed|consented|agreed|confirmed|cleared|"
    r"vetted)|\b(counts?|is|are|treat\w*)\s+(it\s+)?as\s+(approval|consent|confirmation|"
    r"agreement|permission)|\b(implied|implicit|standing|blanket)\s+(consent|approval|"
    r"permission|authori[sz]ation)|\bno\s+(confirmation|approval|consent|permission|review)\s+"
    r"(is\s+)?(needed|required|necessary)|\b(skip|bypass|omit|forgo)\s+(the\s+)?(user['’]s\s+)?"
    r"(confirmation|approval|consent|review|permission|prompt)|\b(do\s+not|don['’]?t|never|no"
    r"\s+need\s+to)\s+(ask|wait)\s+(the\s+user\s+)?(for\s+)?(confirmation|approval|permission|"
    r"consent)|\bno\s+(\w+\s+)?(confirmation|approval|consent|permission)\s+(is\s+)?(needed|"
    r"required|necessary)|\b(the\s+)?(user|customer|owner|account\s+(owner|holder))\s+(does\s+"
    r"not|doesn['’]?t|need\s+not|needn['’]?t)\s+(need\s+to\s+)?(be\s+)?(involved|asked|"
    r"consulted|bothered|prompted)|\b(user|customer|owner|account\s+(owner|holder)|they)\s+"
    r"(has\s+|have\s+)?(already\s+)?(consented|agreed|opted\s+in|authori[sz]ed|pre-?approved)\s+"
    r"(to|during|when|at|in|for)|без\s+(дополнительных\s+)?(вопросов|подтвержден\w*)|"
    r"sin\s+(pedir|preguntar|confirmar)|sans\s+(demander|confirmation)|ohne\s+(Rückfrage|"
    r"nachzufragen|Bestätigung)|sem\s+(pedir|perguntar|confirmação)|senza\s+(chiedere|"
    r"conferma)|\b(signed\s+off|approved|agreed|consented)\s+(on\s+|to\s+)?(this|it|that)?\s*"
    r"(in\s+advance|beforehand|ahead\s+of\s+time)|\bneed\s+not\s+be\s+confirmed|\bconfirmation\s+is\s+(a\s+formality|optional|"
    r"unnecessary)",
    _I,
)


def assumes_approval(sentence: str) -> bool:
    for match in _APPROVAL.finditer(sentence):
        before = sentence[: match.start()]
        if re.search(
            r"\b(never|not|don['’]?t|no|cannot|must\s+not|nothing|no\s+one|none)\b[^.]{0,60}$",
            before,
            _I,
        ):
            continue  # "never delete without asking"
        if re.search(r"\b(unless|until|only|whether|if|once|after|when)\b", before, _I):
            continue  # a condition or a question, not a claim
        if USER_GATE.search(sentence):
            continue
        return True
    return False
