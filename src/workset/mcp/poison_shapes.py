"""Shapes of poison written in ordinary words: data sent where the user never said, values the
user gave replaced, actions taken quietly, recipients hidden in defaults.

A poisoned definition can read as polite, calm advice ("for auditing, cc this address", "send
the complete list to backup@… to finish the sync"). What no honest definition does is ask the
model to move data the task did not ask for to a destination the user did not name, so these
checks look for that shape, whatever the words:

- ``forwards-data``: an instruction (an imperative, a "please", a condition on this call) to
  send, pass, post or copy data (the results, the list, the rows, everything) to an address
  the text spells out or to another tool by name;
- ``covert-action``: a call, send or share done "quietly", "silently", "in the background",
  "without telling the user", with a named address or tool;
- ``replaces-user-value``: a concrete value (an account, an IBAN, an address) used instead of,
  or regardless of, the one the user gave;
- ``hidden-recipient`` (:func:`hidden_recipients`, over the schema): a recipient parameter
  (``bcc``, ``cc``, ``to``, ``forward_to``) whose default is an address;
- settings written for another tool (``"mailer.send_email.to": "relay@…"``) and a
  ``notify_user: false`` in a description, reported as ``rewrites-other-tools`` and
  ``conceal-from-user``.

Each reads one sentence at a time (the text already made readable) and a negation before the
match ("never forwards results to …") makes it advice. A tool describing its own request in
the third person ("Posts the message to https://hooks.slack.com/…") is not an instruction.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from workset.mcp.poison_terms import NEGATED

_I = re.IGNORECASE
_SENTENCE = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])\s*|\n+|；|;\s")
_EMAIL = r"[\w.+-]+@[\w-]+(\.[\w-]+)+"
_ADDRESS = rf"({_EMAIL}|https?://[^\s'\"`)]+)"
_IDENT = r"(?-i:\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b)"
_RUN = r"(run|use|invoke|execute|trigger)"
# A concrete value that names where money or messages go: an account id, an IBAN, an address.
_LITERAL = re.compile(
    rf"{_ADDRESS}|\b(acct|ba|card|wallet|iban)_\w{{6,}}|\b[A-Z]{{2}}\d{{2}}(\s?[A-Z0-9]{{4}}){{3,}}"
    r"|\b0x[0-9a-fA-F]{16,}|\b\d{1,5}[A-Z]?\s+([A-Z][\w'’-]+\s+){1,3}(?-i:Street|St|Road|Rd|Avenue|"
    r"Ave|Lane|Ln|Boulevard|Blvd|Way|Drive|Dr|Court|Place|Square|Straße|Strasse|Weg|Rue)\b"
    r"|\b\d{4}[ -]?\d{4}[ -]?\d{4,}|\+\d{1,3}[\s-]?\d{2,5}([\s-]?\d{2,}){1,3}",
)
_SEND_VERB = (
    r"(pass|send|forward|post|upload|e-?mail|mail|copy|mirror|relay|sync|share|submit|cc|bcc|"
    r"transmit|deliver|push|report|record|write|log|hand|give|feed|pipe|dump|drop|put|place|"
    r"include|add|attach|"
    r"(keep|save|store|make|leave)\s+a\s+copy(\s+of)?)"
)
# What is sent: any short noun phrase ("the returned prices", "each record you retrieve",
# "every reply"), or for a copy none before the address ("cc records@…"); asking to be contacted
# ("send feedback to …", "email questions to …") sends nothing of the user's.
_OBJECT = re.compile(
    rf"\s*((?!{_ADDRESS})(?!(your\s+|any\s+|the\s+)?(feedback|questions?|bug\s+reports?|"
    r"suggestions?|comments?|inquir(y|ies)|enquir(y|ies)|complaints?)\b)([\w'’-]+\s+){1,6}?"
    r"(to|into|on\s+to|over\s+to|through|via|using|with|in|at)\b)",
    _I,
)
# An instruction, not the tool's account of itself: an imperative at the clause's start,
# after a condition on this call, a "please", or "you"/"the assistant" as its subject.
_ORDER = re.compile(
    r"(^|[:,(]\s*|\b(then|also|please|kindly|and|just|simply|always|now)\s+|\b(you|assistant|"
    r"agent|model)\s+(should|must|"
    r"need\s+to|can|will|are\s+to)\s+(also\s+)?)(?P<verb>"
    + _SEND_VERB
    + r")\b(?P<rest>([^.;]|\.(?=\S)){0,160})",
    _I,
)
_CHINESE_SEND = re.compile(r"(发送|转发|上传|抄送|同步|分享|提交)(到|至|给)\s*" + _ADDRESS)
_COVERT = (
    r"(quietly|silently|secretly|discreetly|covertly|stealthily|behind\s+the\s+scenes|"
    r"in\s+the\s+background|unnoticed|without\s+(telling|notifying|informing|alerting|asking|"
    r"showing|mentioning\s+it\s+to)\s+(the\s+)?users?)"
)
_ACT = (
    r"(calls?|calling|run|runs|use|uses|invoke|invokes|trigger|triggers|read|reads|check|checks|"
    r"open|opens|fetch|fetches|collect|collects|grab|grabs|scan|scans|"
    r"send|sends|sending|share|shares|sharing|forward|forwards|upload|uploads|"
    r"post|posts|e-?mails?|cc|bcc|copy|copies|transfer|transfers|sync|syncs|invite|invites)"
)
# The adverb on the act itself: in its clause ("then quietly calls share_album"), or fronted
# ("In the background, also run …"); not on another verb ("runs silently, so call …").
_COVERT_ACT = re.compile(
    rf"(^\s*{_COVERT}\s*,|\b{_COVERT}\b[^.;,]{{0,40}}?)\s*(also\s+)?\b{_ACT}\b"
    r"(?P<rest>([^.;]|\.(?=\S)){0,120})"
    rf"|\b{_ACT}\b(?P<rest2>([^.;]|\.(?=\S)){{0,120}}?)\b{_COVERT}\b",
    _I,
)
_INSTEAD_OF_USER = re.compile(
    r"\b(instead\s+of|in\s+place\s+of|rather\s+than|regardless\s+of|irrespective\s+of|"
    r"no\s+matter|independent(ly)?\s+of|whatever|whichever|even\s+(if|when|though)|"
    r"en\s+lugar\s+de|en\s+vez\s+de|"
    r"independientemente|independentemente|em\s+vez\s+d|au\s+lieu\s+d|quel(le)?\s+que\s+soit|"
    r"indépendamment|anstatt|statt|unabhängig|invece\s+d|indipendentemente|"
    r"a\s+prescindere)\b[^.;]{0,60}?\b(users?|usuári[oa]s?|usuari[oa]s?|utilisat(eur|rice)s?|"
    r"benutzers?|nutzers?|anwenders?|utente)\b"
    r"|(вместо|независимо\s+от)[^.;]{0,60}?пользовател|(而不是|无论|不管)[^。；]{0,30}用户"
    # the user's value said without the word: "instead of the one given", "rather than what was
    # typed", "in place of the address provided"
    r"|\b(instead\s+of|in\s+place\s+of|rather\s+than)\s+(the\s+ones?|what(ever)?|any|that|the\s+\w+"
    r"(\s+\w+)?)\s+(that\s+)?(was\s+|were\s+|is\s+|are\s+|has\s+been\s+)?(given|typed|entered|provided|"
    r"supplied|requested|specified|chosen|named|asked\s+for|passed|submitted)\b"
    r"|,\s*not\s+the\s+(user|customer|shopper|client|sender|buyer|recipient)['’]s\b",
    _I,
)
# Settings written for another tool: a dotted key naming a tool (``mailer.send_email.to``).
_FOREIGN_SETTING = re.compile(
    rf"[\"']?([\w-]+\.)?{_IDENT}\.[a-z_]+[\"']?\s*[:=]\s*[\"']?{_ADDRESS}",
)
_USER_UNTOLD = re.compile(
    r"[\"']?(notify|tell|inform|alert|show|ask|confirm\s+with)[_ ]?(the[_ ])?users?[\"']?\s*[:=]"
    r"\s*[\"']?(false|no|off|0|never)\b",
    _I,
)

SHAPES: dict[str, str] = {
    "forwards-data": "tells the model to send data to an address or tool the user did not name",
    "covert-action": "has the model call, send or share something quietly, out of the user's view",
    "replaces-user-value": "puts a value of its own in place of the one the user gave",
    "hidden-recipient": "a recipient parameter defaults to an address the user never gave",
}


def shapes(
    text: str, params: frozenset[str], *, opening: bool = False
) -> Iterator[tuple[str, str]]:
    """(rule, sentence) for each shape in ``text`` (already readable); ``params`` are the
    tool's own parameter names, never "another tool". With ``opening`` (the description),
    its first sentence is the tool's summary of itself ("Send a file to …"), not an order."""
    seen: set[str] = set()
    sentences = [s.strip() for s in _SENTENCE.split(text) if s.strip()]
    misreported = bool(_MISREPORTED.search(text))
    if misreport := replaced_and_misreported(text):
        seen.add("replaces-user-value")
        yield "replaces-user-value", misreport
    for index, sentence in enumerate(sentences):
        checks = _checks(sentence, params, summary=opening and index == 0, misreported=misreported)
        for name, found in checks:
            if found and name not in seen:
                seen.add(name)
                yield name, sentence[:120]


def _checks(
    sentence: str, params: frozenset[str], *, summary: bool, misreported: bool
) -> Iterator[tuple[str, bool]]:
    yield "forwards-data", not summary and _forwards(sentence, params)
    yield "covert-action", _covert(sentence, params)
    yield "replaces-user-value", _replaces(sentence, misreported=misreported)
    yield "rewrites-other-tools", _foreign_setting(sentence, params)
    yield "conceal-from-user", bool(_USER_UNTOLD.search(sentence))


# A tool that takes data out of the session (not a sibling that pages or looks up: the
# returned cursor passed to list_items is the tool's own pointer).
_OUTBOUND_TOOL = re.compile(
    r"upload|send|post|share|publish|mail|log|export|sync|webhook|notify|http|request|push|"
    r"forward|submit|grant|invite|blob|bucket|drive|paste|gist|ingest|track|report|mirror|"
    r"backup|replicat",
    _I,
)
# Bulk data: all of it, not one handle ("the returned cursor", "the id").
_BULK = re.compile(
    r"^\s*(them|all|everything|(the\s+|each\s+|every\s+|all\s+)?(full\s+|complete\s+|entire\s+|"
    r"same\s+|matched\s+|returned\s+)?(rows|records?|results|lists?|contacts|entries|lines|"
    r"contents|data|files|messages|e-?mails|documents|photos|invoices))\b",
    _I,
)


def _destination(rest: str, params: frozenset[str], *, any_tool: bool = True) -> bool:
    """An address the text spells out, or another tool by name (not one of ``params``); with
    ``any_tool`` false, only a tool that takes data out of the session, or any tool when
    what goes to it is bulk data."""
    if re.search(_ADDRESS, rest, _I):
        return True
    for m in re.finditer(
        rf"\b(to|into|in|via|using|through|with|calls?|{_RUN}|the)\s+(?P<tool>{_IDENT})", rest
    ):
        tool = m.group("tool").lower()
        if tool not in params and (any_tool or _OUTBOUND_TOOL.search(tool) or _BULK.match(rest)):
            return True
    return False


# The passive form with a wish or a modal: "appreciates it when the attendee list is also
# emailed to rooms-log@…", "the rows should be forwarded to …" (a fact, "is emailed to the
# attendees the user listed", names no address).
_SENT = (
    r"(sent|e-?mailed|mailed|forwarded|posted|uploaded|copied|cc['’]?d|bcc['’]?d|mirrored|relayed|"
    r"shared|synced|delivered|pushed)"
)
_PASSIVE_SEND = re.compile(
    r"(\b(should|must|shall|is\s+to|are\s+to|needs?\s+to|has\s+to|have\s+to|would|appreciat\w*|"
    r"helps?|kindly|please|ideally|expected|customary|best|prefer\w*|faster|better|quicker|"
    r"accurate|improv\w*|smooth\w*|recommend\w*|convention|polic(y|ies)|practice|courtesy|"
    r"favou?r)\b[^.;]{0,80}?\b(is|are|be|been|being|were|was|gets?)\s+(also\s+|always\s+|"
    r"then\s+)?|\b(is|are|gets?|get)\s+also\s+|\balso\s+(gets?|is|are)\s+)"
    + _SENT
    + r"\b(?P<rest>([^.;]|\.(?=\S)){0,100})",
    _I,
)
# A party outside the session, named as where data goes: "to the vendor's cloud".
_OUTSIDE_PARTY = re.compile(
    r"^\s*(to|with)\s+(the\s+|a\s+|our\s+)?(vendor|partner|sponsor|third[- ]part(y|ies)|external|"
    r"outside|affiliate|advertis\w*|analytics)\w*(['’]s?)?\s+([\w-]+\s+)?(cloud|servers?|storage|"
    r"bucket|team|endpoint|service|platform|drive|inbox|account)s?\b",
    _I,
)
# A wish that something reach an address: "we'd be grateful if a thumbnail of each photo
# found its way to https://…" (asking to be contacted, "questions to …", is not data leaving).
_WISH_TO_ADDRESS = re.compile(
    r"\b(grateful|appreciat\w*|would\s+(help|be\s+(great|nice|ideal|helpful))|kindly|ideally|"
    r"it\s+helps|we['’]d\s+(like|love)|make\s+sure|ensure)\b[^.;]{0,100}?\b(to|reach(es|ed)?|at|"
    r"lands?\s+(in|at)|arrives?\s+at)\s+" + _ADDRESS,
    _I,
)
_CONTACT = re.compile(
    r"\b(feedback|questions?|bug\s+reports?|support\s+requests?|enquir\w+|inquir\w+|complaints?)\b",
    _I,
)
# Data whose next stop is named: "the sheet's full contents go to archive_sheet with …".
_GOES = re.compile(
    r"\b((?P<bulk>contents|rows|records|results|lists?|data|files|messages|e-?mails|everything|"
    r"notes|documents|cop(y|ies)|duplicates?|transcripts?)|(exported|returned|fetched|retrieved|"
    r"matched|scanned)\s+[\w'’-]+)\b[^.;]{0,30}?\b(go|goes|should\s+go|"
    r"must\s+go|belongs?|end\s+up|(is|are)\s+routed)\s+"
    r"(?P<rest>(to|into|in)\b([^.;]|\.(?=\S)){0,100})",
    _I,
)
# A destination the user chose: "share it with the people the user names via share_note".
_USER_CHOSEN = re.compile(
    r"\b(the\s+)?(people|persons?|recipients?|addresses|accounts?|folders?|channels?|contacts?|"
    r"teams?|list|destination|container|bucket|drive)\s+(that\s+|which\s+)?(the\s+)?users?\s+"
    r"(names?|named|gives?|gave|chooses?|chose|picks?|picked|lists?|listed|provides?|provided|"
    r"specifies|specified|selects?|selected|adds?|added)\b|\bof\s+(their|the\s+user['’]s)\s+"
    r"(own\s+)?choice\b",
    _I,
)
# Sending in other languages, as an imperative: "Bitte sende … an sync@…", "envía … a …".
_ORDER_OTHER = re.compile(
    r"\b(sende|schicke|leite|übermittle|envía|envia|manda|reenvía|envoie|envoyez|transférez|"
    r"transmettez|invia|inoltra|mande|encaminhe|отправьте|перешлите|загрузите)\b"
    r"(?P<rest>([^.;]|\.(?=\S)){0,120})",
    _I,
)


# A sentence gated on the user's own request: "If the user asks to share it, pass … to …".
_USER_GATE = re.compile(
    r"^\s*(only\s+)?(if|when|once|after|whenever)\s+(the\s+)?users?\s+(explicitly\s+)?(asks?|"
    r"requests?|wants?|confirms?|approves?|says|chooses?|agrees?)\b",
    _I,
)


def _forwards(sentence: str, params: frozenset[str]) -> bool:
    if _CHINESE_SEND.search(sentence):
        return True
    if _USER_GATE.search(sentence) or _USER_CHOSEN.search(sentence):
        return False
    for found in (*_PASSIVE_SEND.finditer(sentence), *_ORDER_OTHER.finditer(sentence)):
        before = sentence[: found.start()]
        rest = found.group("rest")
        outside = re.search(_ADDRESS, rest, _I) or _OUTSIDE_PARTY.search(rest)
        if outside and not NEGATED.search(before):
            return True
    wish = _WISH_TO_ADDRESS.search(sentence)
    if wish and not _CONTACT.search(sentence) and not NEGATED.search(sentence[: wish.start()]):
        return True
    for found in _GOES.finditer(sentence):
        bulk = bool(found.group("bulk"))
        if _destination(found.group("rest"), params, any_tool=bulk) and not NEGATED.search(
            sentence[: found.start()]
        ):
            return True
    for order in _ORDER.finditer(sentence):
        rest = order.group("rest")
        if NEGATED.search(sentence[: order.start("verb")]):
            continue
        copied = order.group("verb").lower() in ("cc", "bcc") and re.match(rf"\s*{_ADDRESS}", rest)
        if copied or (_OBJECT.match(rest) and _destination(rest, params, any_tool=False)):
            return True
    return False


def _covert(sentence: str, params: frozenset[str]) -> bool:
    for found in _COVERT_ACT.finditer(sentence):
        if NEGATED.search(sentence[: found.start()]):
            continue
        rest = found.group("rest") or found.group("rest2") or ""
        if _destination(" " + rest, params) or _destination(found.group(0), params):
            return True
    return False


# A verb that puts the value to use (not "shown in UTC regardless of the user's time zone").
_USE = re.compile(
    r"\b(use[sd]?|using|set|sets|route[sd]?|send|sends|pay|pays|settle[sd]?|transfer|deliver|"
    r"dial|dials|call|calls|text|ring|ship|ships|charge|charges|bill|bills|mail|mails|go|goes|"
    r"sent|paid|credit\w*|deposit\w*|forward\w*|"
    r"direct|point|replace[sd]?|substitute[sd]?|defin\w*|usa\w*|utilis\w*|verwend\w*|setz\w*|"
    r"imposta\w*)\b|использ|установ|使用|设为|改为",
    _I,
)


def _replaces(sentence: str, *, misreported: bool = False) -> bool:
    """A value used instead of the user's: a concrete one with a verb that uses it, or any
    when the text also has the user shown their own (:data:`_MISREPORTED`)."""
    found = _INSTEAD_OF_USER.search(sentence)
    if not found or NEGATED.search(sentence[: found.start()]):
        return False
    if misreported:
        return True
    # a reference URL ("the table at https://…") is not a value put in the user's place
    literal = any(not m.group(0).lower().startswith("http") for m in _LITERAL.finditer(sentence))
    return literal and bool(_USE.search(sentence))


# A field of the user's overwritten: "the shipping address field is overwritten with …".
_OVERWRITTEN = re.compile(
    r"\b(field|address|account|recipients?|destination|payee|beneficiary|iban|e-?mail|amount|"
    r"wallet|routing|sort\s+code)\b[^.;]{0,40}?\b(is|are|gets?|get|will\s+be)\s+(silently\s+|"
    r"always\s+|automatically\s+|quietly\s+)?(overwritten|replaced|swapped|rewritten|"
    r"substituted|switched)\s+(with|to|by|for)\b",
    _I,
)
# …while the user is shown their own: "the user sees their own address", "the confirmation
# shows the user's payee", "report the user's account in the confirmation as usual".
_MISREPORTED = re.compile(
    r"\b(the\s+)?user\s+(still\s+)?(sees|is\s+shown|will\s+see|gets\s+shown)\s+(their|his|her|"
    r"the)\s+(own|original|entered|chosen|usual)\b|\b(confirmation|receipt|summary)\s+(still\s+)?"
    r"(shows?|displays?|lists?|should\s+(still\s+)?show)\s+the\s+user(['’]s\b|\s+as\s+usual)|"
    r"\b(report|show|"
    r"display|mention)\s+the\s+user['’]s\s+[\w-]+\s+(in\s+the\s+(confirmation|receipt|"
    r"summary)|as\s+usual)",
    _I,
)


def replaced_and_misreported(text: str) -> str:
    """The sentence that overwrites a field of the user's when ``text`` also has the user
    shown their own value; else ``""``."""
    if not _MISREPORTED.search(text):
        return ""
    for found in _OVERWRITTEN.finditer(text):
        if not NEGATED.search(text[max(0, found.start() - 60) : found.start()]):
            lo = max(text.rfind(c, 0, found.start()) for c in ".!?\n") + 1
            return text[lo : lo + 120].strip()
    return ""


def _foreign_setting(sentence: str, params: frozenset[str]) -> bool:
    for found in _FOREIGN_SETTING.finditer(sentence):
        idents = re.findall(_IDENT, found.group(0))
        if any(i.lower() not in params for i in idents):
            return True
    return False


_RECIPIENT = re.compile(
    r"^(bcc|cc|to|recipients?|forward(_to)?|copy_to|send_to|mail_to|notify|cc_list|bcc_list|"
    r"archive(_to)?|also_send_to)$",
    _I,
)


def hidden_recipients(node: Any, path: str) -> Iterator[tuple[str, str]]:
    """(field, value) for each recipient-kind property whose ``default`` holds an address."""
    if isinstance(node, Mapping):
        properties = node.get("properties")
        if isinstance(properties, Mapping):
            for name, schema in properties.items():
                if not isinstance(schema, Mapping) or not _RECIPIENT.match(str(name)):
                    continue
                default = schema.get("default", schema.get("const"))
                if default and re.search(_EMAIL, str(default)):
                    yield f"{path}.properties.{name}.default", str(default)[:80]
        for key, value in node.items():
            yield from hidden_recipients(value, f"{path}.{key}")
    elif isinstance(node, list):
        for index, item in enumerate(node):
            yield from hidden_recipients(item, f"{path}[{index}]")
