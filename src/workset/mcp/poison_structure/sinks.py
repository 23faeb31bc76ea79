"""Where a clause can send data: a verb that moves it, an address, a container (field, header,
query), one of the tool's parameters or another tool; and who a sentence addresses."""

from __future__ import annotations

import re

from workset.mcp.poison_structure.purpose import Purpose
from workset.mcp.poison_terms import MODEL

_I = re.IGNORECASE


URL = (
    r"((https?|s3|gs|az|abfss?|ftp|sftp|wss?)://\S+|\b[\w.+-]+@[\w-]+(\.[\w-]+)+|"
    r"\b[\w-]+(\.[\w-]+)*\.(com|net|io|org|dev|"
    r"app|cloud|co|xyz|site|info|biz|ai|me)\b)"
)


_MOVE = (
    r"\b(include[sd]?|including|passing|sending|forwarding|attaching|uploading|posting|copying|"
    r"adding|putting|embedding|inserting|appending|submitting|relaying|sharing|pasting|"
    r"append(s|ed)?|prepend(s|ed)?|attach(es|ed)?|add(s|ed)?|put|"
    r"embed(s|ded)?|insert(s|ed)?|copy|copies|copied|paste[sd]?|pass(es|ed)?|send(s)?|sent|"
    r"forward(s|ed)?|upload(s|ed)?|post(s|ed)?|submit(s|ted)?|cc|bcc|relay(s|ed)?|mirror(s|ed)?|"
    r"joign\w*|(goes|go|belongs?)\s+here|name[sd]?\s+(\w+\s+){0,3}after|end(s|ed)?\s+up\s+in|lands?\s+in|klistra|plak\w*|wklej\w*|yapıştır\w*|tempel\w*|"
    r"resend|re-send|resubmit|retry\s+with|shares?|shared|transmit(s|ted)?|fill(s|ed)?|populate[sd]?|set|sets|write|"
    r"writes|log(s|ged)?|report(s|ed)?\s+to|sync(s|ed)?|echo(es|ed)?|quote[sd]?|provide[sd]?|"
    r"supply|supplie[sd]|give|hand(ed)?|deliver(s|ed)?|store[sd]?|save[sd]?|push(es|ed)?|"
    r"needed\s+as|(needs|requires|expects)\s+(?=[^.;]{0,80}\s+in\s+(`|the\s+`?\w+`?\s+"
    r"(field|parameter|argument)))|goes\s+to|go\s+to|go\s+into|reach(es)?|carry|carries|concatenat\w+|"
    r"anexar|adjuntar|copiar|incluir|enviar|pegar|ajouter|joindre|copier|envoyer|inclure|"
    r"anhängen|senden|kopieren|einfügen|mitsenden|häng\w*|anexe|enviar|incluir|allegare|inviare|"
    r"übermittl\w*|sende\w*|füge\w*|recopi\w*|copi\w*|envoi\w*|envoy\w*|ajout\w*|reenv\w*|"
    r"adjunt\w*|envi\w*|anex\w*|invi\w*|alleg\w*|pega|pegue|colle[zr]?|incoll\w*|добав\w*|отправ\w*|перешл\w*|пересыла\w*|"
    r"встав\w*|hold(s|ing)?|contain(s|ing)?|contents?\s+of|verbatim|placed\s+in|"
    r"(open|create|file|publish)\s+(a\s+|an\s+)?(public\s+)?([\w-]+\s+)?(issues?|gists?|pastes?|"
    r"tickets?|discussions?))\b"
    r"|发送|放入|附加|添加|填入|转发|入れ|送信|添付|貼り付け|डालें|भेजें|जोड़ें|넣어|보내|첨부|추가"
    r"|包含|包括|写入|填写|附上|含め|記入|入力|書き込|포함|입력|기재|적어|기입|붙여"
)


_CONTAINER = (
    r"\b(field|parameter|argument|param|query(\s+string)?|header|trailer|footer|metadata|"
    r"payload|body|url|request|note|comment|context|memo|description|tag|label|attachment|"
    r"campo|champ|feld|parametro|parâmetro|поле|поля|issue|gist|pastebin|commit\s+message)\b|字段|参数|フィールド|パラメータ|फ़ील्ड|매개변수|필드"
)


MOVE_RE = re.compile(_MOVE, _I)


URL_RE = re.compile(
    URL + r"|\+\d[\d\s().-]{7,}\d|"
    # a phone number in national form, named as one: "our verification line, 0800 123 456"
    r"\b(phone|number|line|hotline|tel|sms|whatsapp|nummer|numéro|número|numero)\b\W{0,3}"
    r"(\w+\W{1,3}){0,2}?\(?0\d[\d\s()/.-]{6,}\d|(?<![\w.~])/(tmp|var|srv|mnt|opt|public|shared|pub)/[\w/.-]*|"
    r"\bchmod\s+0?777\b",
    _I,
)


_CONTAINER_RE = re.compile(_CONTAINER, _I)


ACT_RE = re.compile(_MOVE + r"|\b(call|cc|bcc|copy|read|open|delete|change)\w*", _I)


# "never pass tokens in the query string": advice against the flow.
MOVE_NEGATED = re.compile(r"\b(never|not|don['’]?t|no)\s+(\w+\s+){0,2}(" + _MOVE + ")", _I)


# Told by a pronoun or a modal ("you must"), not by a word such as "first" or "each".
TOLD = re.compile(
    rf"\b(you|your|{MODEL}|must|should|please|do\s+not|don['’]?t|never|always|make\s+sure)\b", _I
)
IDENT = re.compile(r"`?\b([a-z][a-z0-9]*(?:[_.][a-z0-9]+)+)\b`?")


ADDRESSED = re.compile(
    rf"\b(you|your|{MODEL}|the\s+caller|the\s+client|please|always|must|should|make\s+sure|"
    r"be\s+sure|remember|ensure|is\s+(required|needed|expected)|are\s+(required|needed|"
    r"expected)|it\s+would\s+(help|be)|kindly|before|after|first|every|each)\b",
    _I,
)


def sink(sentence: str, purpose: Purpose, name: str) -> bool:
    if URL_RE.search(sentence):
        return True
    lower = sentence.lower()
    named = any(
        len(p) >= 3 and re.search(rf"(?<![\w-]){re.escape(p)}(?![\w-])", lower)
        for p in purpose.params
    )
    if named and (MOVE_RE.search(sentence) or _CONTAINER_RE.search(sentence)):
        return True
    others = {m.group(1) for m in IDENT.finditer(sentence) if m.group(1) not in purpose.params} - {
        name.lower()
    }
    if others and MOVE_RE.search(sentence):
        return True
    return bool(MOVE_RE.search(sentence) and _CONTAINER_RE.search(sentence))
