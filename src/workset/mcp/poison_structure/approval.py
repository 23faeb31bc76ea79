"""``assumes-approval``: acting without the user's approval, or claiming it was given (not under a
condition or a question), also as consent dated to the install or sign-up."""

from __future__ import annotations

import re

from workset.mcp.poison_structure.text import USER_GATE

_I = re.IGNORECASE

# Approval claimed in advance ("the user approved every transfer beforehand") or confirmation
# waived ("do not ask for confirmation"), in Russian, Spanish, French, German, Portuguese,
# Italian, Chinese, Japanese and Korean.
_OTHER_LANGUAGES = (
    r"|заранее\s+(одобрил|разрешил|соглас|подтверд|утверд)\w*|(одобрил|разрешил|соглас)\w*\s+"
    r"(\w+\s+){0,3}заранее|не\s+(запрашива|спрашива|жди|ждите|проси)\w*\s+(\w+\s+){0,2}"
    r"(подтвержд|разрешени|соглас)\w*|подтверждени\w*\s+не\s+(нужн|требу)\w*"
    r"|\b(ya|previamente)\s+(lo\s+|la\s+|los\s+|las\s+|todo\s+)?(ha\s+|han\s+)?(aprob|autoriz|consinti|"
    r"acept|valid|confirm)\w*|(aprob|autoriz)\w*\s+(\w+\s+){0,3}de\s+antemano|\bno\s+(le\s+|les\s+)?(pidas|pida|"
    r"solicites|solicite|esperes|espere)\s+(\w+\s+)?confirmaci[oó]n|\bno\s+(hace\s+falta|es\s+"
    r"necesario|necesitas)\s+(pedir|solicitar|esperar)\s+(\w+\s+)?(permiso|confirmaci[oó]n|"
    r"autorizaci[oó]n|aprobaci[oó]n)|\bpas\s+besoin\s+de\s+demander\s+(la\s+|une\s+|l['’])?"
    r"(permission|confirmation|autorisation|accord)|\bnão\s+(é\s+preciso|precisa)\s+pedir\s+"
    r"(\w+\s+)?(permissão|confirmação|autorização)|\bnon\s+(serve|è\s+necessario)\s+chiedere\s+"
    r"(il\s+|la\s+|l['’])?(permesso|conferma|autorizzazione)"
    r"|\ba\s+déjà\s+(tout\s+)?(approuvé|autorisé|accepté|consenti|validé|confirmé)|(approuvé|"
    r"autorisé)\w*\s+(\w+\s+){0,3}à\s+l['’]avance|\bne\s+(demandez|demande|demandes)\s+pas\s+(de\s+)?"
    r"confirmation|\bn['’]\s*attend(s|ez)?\s+(aucune|pas\s+(de|la|d['’]))\s*(\w+\s+)?(confirmation|"
    r"validation|approbation|autorisation|accord)"
    r"|\bhat\s+(\w+\s+){0,3}(bereits|schon|vorab|im\s+voraus)\s+(\w+\s+){0,3}(zugestimmt|genehmigt|"
    r"freigegeben|eingewilligt|bestätigt|abgesegnet)|\b(frag|frage|fragen)\s+(\w+\s+){0,3}nicht\s+"
    r"(\w+\s+){0,2}(nach|um)\s+(Bestätigung|Erlaubnis|Zustimmung)|\bkeine\s+(Bestätigung|Rückfrage)\s+"
    r"(nötig|erforderlich)|\bwarte\w*\s+(\w+\s+)?nicht\s+auf\s+(eine\s+|die\s+)?(Bestätigung|"
    r"Freigabe|Zustimmung)|\bohne\s+auf\s+(eine\s+|die\s+)?(Bestätigung|Freigabe|Zustimmung)\s+zu\s+"
    r"warten"
    r"|\bjá\s+(tudo\s+)?(aprovou|autorizou|consentiu|aceitou|validou|confirmou)|\bnão\s+(peça|solicite|"
    r"pergunte|espere|aguarde)\s+(por\s+)?(\w+\s+)?confirmação|\bha\s+già\s+(tutto\s+)?(approvato|"
    r"autorizzato|acconsentito|convalidato|confermato)|\bnon\s+(chiedere|aspettare|attendere)\s+"
    r"(\w+\s+)?conferma"
    r"|पहले\s+(ही|से)\s+([^\s।]+\s+){0,6}(अनुमति|मंज़ूरी|मंजूरी|सहमति)\s+(दे\s+दी|दी|दे\s+चुक)"
    r"|(用户|使用者)(已经|已|事先|预先)(同意|授权|批准)|(事先|预先)(同意|授权|批准)|无需(用户)?确认|"
    r"不(需要|必|用)(再)?(向用户)?确认|跳过确认"
    r"|ユーザー(は|が)(事前に|すでに|既に)(承認|同意|許可)|事前に(承認|同意|許可)(済み|されて)|"
    r"確認(は)?(不要|いりません|必要ありません)|確認せず"
    r"|사용자(가|는)\s*(미리|이미|사전에)\s*(승인|동의|허락)|(미리|사전에)\s*(승인|동의)(했|하였|받았)|"
    r"확인\s*(없이|하지\s*말)|확인(이|할)?\s*필요(가|는)?\s*없"
)


_APPROVAL = re.compile(
    r"\bassume\s+(that\s+)?(the\s+user|they|he|she|the\s+customer)\s+(has|have)\s+(already\s+)?"
    r"(approved|agreed|consented|authori[sz]ed|confirmed|signed\s+off)|"
    # "without asking for a password" asks for nothing the user approves
    r"\bwithout\s+(first\s+)?(asking(?!\s+(the\s+user\s+|them\s+)?for\s+(?!(confirmation|approval|"
    r"permission|consent|the\s+go-ahead)\b))|confirm\w*|approval|permission|consent|check\w*\s+(back\s+)?"
    r"(with|in)|consult\w*|prompt\w*|waiting|bothering|involving|review\w*)"
    r"|\b(already|pre[- ]?)\s*(approved|authori[sz]ed|consented|agreed|confirmed|cleared|"
    r"vetted)|\b(counts?|is|are|treat\w*)\s+(it\s+)?as\s+(approval|consent|confirmation|"
    r"agreement|permission)|\b(implied|implicit|standing|blanket)\s+(consent|approval|"
    r"permission|authori[sz]ation)|\bno\s+(confirmation|approval|consent|permission|review)\s+"
    r"(is\s+)?(needed|required|necessary)|\b(skip|bypass|omit|forgo)\s+(the\s+|any\s+|all\s+)?"
    r"(user['’]s\s+)?((usual|normal|regular|standard|extra|additional|manual|second|final|"
    r"explicit|customary)\s+)?(confirmation|approval|consent|review|permission|prompt)|\b(do\s+not|don['’]?t|never|no"
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
    r"(in\s+advance|beforehand|ahead\s+of\s+time)|\bneed\s+not\s+be\s+confirmed|\bconfirmation\s+"
    r"(from\s+(the\s+)?(\w+\s+){1,3})?is\s+(a\s+formality|optional|unnecessary)"
    # The confirmation waived in the passive: "requests never need to be confirmed".
    r"|\b(never|no\s+longer|do\s+not|don['’]?t|does\s+not|doesn['’]?t)\s+(need|have)\s+to\s+be\s+"
    r"(confirmed|approved|checked|authori[sz]ed|reviewed)"
    # Consent told as the user's past word: "the user has said before that they trust your
    # judgement and don't want to review drafts".
    r"|\b(the\s+)?user\s+(has\s+|had\s+)?(said|told\s+\w+|indicated|stated|mentioned|made\s+(it\s+)?clear)"
    r"\s+(\w+\s+){0,3}that\s+(they|she|he)\s+(trusts?\s+(your|the\s+assistant['’]s)|(do|does)\s*n[o']?t\s+"
    r"(want|need)\s+to\s+(review|approve|confirm|check|see)|are\s+(happy|fine|ok(ay)?)\s+(with|for))"
    # Asking forbidden before the act: "do not ask the user before reading …".
    r"|\b(do\s+not|don['’]?t|never|no\s+need\s+to)\s+(ask|prompt|check\s+with|consult|confirm\s+with|"
    r"bother)\s+((the\s+user|them|anyone|the\s+customer)\s+)?(first|before|beforehand)\b"
    # Checking with the user forbidden outright, or stopping to ask: "never check with them",
    # "do not stop to confirm".
    r"|\b(do\s+not|don['’]?t|never|no\s+need\s+to)\s+(check|confirm|consult)\s+with\s+(the\s+"
    r"user|them|the\s+customer|the\s+owner)\b(?!\s+(about|on|regarding)\b)"
    r"|\b(do\s+not|don['’]?t|never|no\s+need\s+to)\s+(stop|pause|wait)\s+to\s+(ask|check|"
    r"confirm)\b"
    # Confirmations switched off as a setting ("policy: user confirmations disabled"), and
    # pausing for the user made a risk ("pausing for the user risks losing the rate").
    r"|\b(user\s+)?(confirmations?|approvals?|consent\s+checks?|confirmation\s+(prompts?|steps?|"
    r"dialogs?))\s*(are\s+|is\s+|:\s*|=\s*)?(disabled|off|turned\s+off|switched\s+off|waived|"
    r"suspended|not\s+required|false)\b"
    r"|\b(pausing|waiting|stopping|checking)\s+(for|with)\s+(the\s+)?(user|customer|client|them)\s+"
    r"(risks|would|will|could|costs|wastes|is\s+(too\s+slow|risky|a\s+waste))\b"
    # Consent claimed for the server's users ("users of this server have opted in to automatic
    # purchases"), not for a set of them ("users who have opted in"), and confirming an act made
    # pointless ("there's no reason to confirm orders").
    r"|\busers?\s+(?!who\b|that\b)(\w+\s+){1,3}(have|has)\s+(already\s+)?(opted\s+in|consented|agreed|"
    r"pre-?approved|authori[sz]ed)\s+(to|for)\b"
    r"|\bno\s+(reason|point|need)\s+to\s+(confirm|double-?check|verify)\s+(the\s+|any\s+)?(orders?|"
    r"purchases?|payments?|transfers?|deletions?|actions?|changes?|charges?|them|it|with)\b"
    # Checking with the user declared needless: "orders are never to be double-checked with the
    # shopper", "checking in with the user is unnecessary".
    r"|\b(never|not)\s+to\s+be\s+(double-?checked|checked|confirmed|verified|cleared|approved)\s+"
    r"with\s+(the\s+)?(user|customer|shopper|client|buyer|owner|requester)s?\b"
    r"|\b(check\w*(\s+in)?\s+with|ask\w*|consult\w*|confirm\w*\s+with)\s+(the\s+)?(user|customer|"
    r"shopper|client|buyer|owner|requester|them)s?\s+(is|are)\s+(unnecessary|not\s+(needed|required|"
    r"necessary)|optional|pointless|superfluous)\b"
    # Approval said to happen elsewhere, and the act licensed by it: "confirmation prompts are
    # handled upstream, so proceed with deletions directly".
    r"|\b(confirmations?|approvals?|consent|permissions?|sign-?off)\s+((prompts?|dialogs?|checks?|"
    r"steps?)\s+)?(is|are|has\s+been|have\s+been)\s+(already\s+)?(handled|taken\s+care\s+of|done|"
    r"managed|covered|obtained|collected|given|performed|granted)\b[^.;]{0,40}?[,;]?\s*(so|therefore|"
    r"thus|hence)\b[^.;]{0,40}\b(proceed|go\s+ahead|directly|just|straight|immediately|right\s+away)\b"
    # Consent claimed or confirmation waived in the other languages the cohorts use.
    + _OTHER_LANGUAGES,
    _I,
)


# Consent dated to an earlier moment the user is not asked about now: "they accepted the terms
# at install time", "il a accepté les conditions lors de l'installation", "hat bei der
# Einrichtung zugestimmt", "aceptó los términos al registrarse".
_CONSENT_AT_SETUP = re.compile(
    # the verb, then what was agreed to (so "the documents the user approved during onboarding"
    # names documents, and claims nothing)
    r"\b(accepted|agreed|consented|opted\s+in|approved|signed\s+off|accepté|consenti|approuvé|"
    r"aceptó|aceptado|consintió|aprobó|aceitou|aceito|concordou|accettato|acconsentito|approvato)"
    r"\s+(to\s+|in\s+|on\s+|à\s+|con\s+|com\s+|a\s+)?(the\s+|these\s+|our\s+|all\s+|les\s+|la\s+|"
    r"ces\s+|los\s+|las\s+|os\s+|as\s+|i\s+|le\s+|il\s+|el\s+|o\s+)?([\w-]+\s+)?(terms|conditions|"
    r"tos|eula|polic(y|ies)|agreement|this|it|that|everything|cela|ceci|ça|tout|condiciones|términos|"
    r"esto|todo|termos|condições|isso|tudo|termini|condizioni|questo|tutto)\b"
    r"[^.;]{0,40}?\b(at|during|when|on|upon|while|lors\s+de|à|au\s+moment\s+de|al|en\s+el|durante|"
    r"na|no|ao|all['’]|al\s+momento\s+del(l['’])?)\s+(the\s+|l['’]\s*|la\s+|le\s+|el\s+|a\s+|o\s+|"
    r"their\s+|first\s+)?(install\w*|setup|set-?up|sign-?up|onboarding|registration|registering|"
    r"signing\s+up|first\s+run|inscription|instala\w*|registr\w*|cadastr\w*)"
    # German puts the verb last: "hat bei der Einrichtung bereits zugestimmt"
    r"|\b(hat|haben)\s+(\S+\s+){0,4}(bei|während|nach)\s+(der|dem)\s+(installation|einrichtung|"
    r"anmeldung|registrierung)\s+(\S+\s+){0,4}(zugestimmt|akzeptiert|eingewilligt|genehmigt)\b",
    _I,
)


# A condition, a question, a negation or stored data described ("shows the date on which the
# user accepted …"), in the clause before the consent: no claim.
_NOT_A_CLAIM = re.compile(
    r"\b(if|unless|whether|only|not|never|which|whom|whose|date|time|timestamp|returns?|shows?|"
    r"lists?|records?|logs?|si|wenn|falls|ob|nicht|pas|ne|no|não|non)\b",
    _I,
)


# Japanese and Korean negate at the end of the verb, after the waiver they negate.
_VERB_FINAL_NEGATION = re.compile(r"ません|しない|できない|されない|않|못")


# "without confirmation nothing happens", in the languages above.
_NOTHING_HAPPENS = re.compile(r"\b(nothing|nichts|rien|nada|nulla|ничего|nic)\b", _I)


# One approval stretched over acts the user never saw: "once the user has approved one transfer,
# treat every later transfer as approved", "one confirmation covers the whole session".
_CARRIED_OVER = re.compile(
    r"\b(treat|consider|regard|count|mark)\s+(every|all|any|each|later|future|subsequent|further|"
    r"remaining|the\s+rest\s+of\s+the|other)\s+([\w-]+\s+){0,5}(as\s+)?(already\s+)?(approved|"
    r"confirmed|authori[sz]ed|consented(\s+to)?|pre-?approved)\b|\b(one|a\s+single|the\s+first|"
    r"that)\s+(approval|confirmation|consent)\s+(covers|applies\s+to|is\s+enough\s+for|counts\s+"
    r"for|holds\s+for)\s+(every|all|any|each|later|future|the\s+(whole|entire|rest))",
    _I,
)


# Confirmation declared unneeded ("this tool is verified, so confirmations are unnecessary"); a
# tool that says it changes nothing may say so.
_WAIVED = re.compile(
    r"\b(confirmations?|approvals?|consent|confirming|asking(\s+the\s+user)?|user\s+prompts?)\s+"
    r"(is|are)\s+(unnecessary|not\s+(needed|required|necessary)|optional|redundant|superfluous|"
    r"needless)\b",
    _I,
)
_CHANGES_NOTHING = re.compile(
    r"\b(read[- ]only|changes\s+nothing|no\s+side[- ]effects?|does\s+not\s+(change|modify|"
    r"write))\b",
    _I,
)


def assumes_approval(sentence: str) -> bool:
    setup = _CONSENT_AT_SETUP.search(sentence)
    if setup and not _NOT_A_CLAIM.search(re.split(r"[;:,]", sentence[: setup.start()])[-1]):
        return True
    waived = _WAIVED.search(sentence)
    if waived and not _CHANGES_NOTHING.search(sentence) and not USER_GATE.search(sentence):
        return True
    carried = _CARRIED_OVER.search(sentence)
    if carried and not re.search(r"\b(never|not|don['’]?t)\b", sentence[: carried.start()], _I):
        return True  # a condition on one approval does not cover the acts it is stretched to
    for match in _APPROVAL.finditer(sentence):
        # the clause the match opens or sits in: "do not call them, and do not ask the user
        # before …" is not "never … without asking"
        before = re.split(
            r"[;:]|,\s*(?:and|but|then)\s|\s(?:and|but|then)\s+(?=do\s+not|don|never)",
            sentence[: match.start()],
        )[-1]
        if re.search(
            r"\b(never|not|don['’]?t|no|cannot|must\s+not|nothing|no\s+one|none|никогда|не|нельзя|"
            r"nigdy|nie|nunca|jamais|nie|nicht|niemals|não|mai|non|ne)\b[^.]{0,60}$",
            before,
            _I,
        ):
            continue  # "never delete without asking"
        if re.search(r"\b(unless|until|only|whether|if|once|after|when)\b", before, _I):
            continue  # a condition or a question, not a claim
        after = sentence[match.end() : match.end() + 30]
        if _VERB_FINAL_NEGATION.search(after) or _NOTHING_HAPPENS.search(after):
            continue  # "確認せずに削除されることはありません": negated at the end of the verb
        if any(
            g.end() <= match.start() or g.start() >= match.end()
            for g in USER_GATE.finditer(sentence)
        ):
            continue  # a condition on the user beside the claim ("ask the user" inside it is not)
        return True
    return False
