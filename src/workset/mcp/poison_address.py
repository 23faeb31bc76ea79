"""The model of an instruction addressed to the assistant, which the ``addressed-to-model``
signal reads: who is told, how, and to do what.

A sentence is such an instruction when three things line up in it:

- an **addressee**: the assistant, agent, model or AI as the subject ("AI helpers working with
  this connector", "the calling model", "any LLM invoking this", "it is the assistant's job
  to", "you" once a sentence speaks to the reader), in English, Spanish, French, German,
  Portuguese or Italian ("el asistente", "l'agent", "der Assistent", "o assistente",
  "l'assistente", and "es obligatorio que el asistente…");
- a **modal** or a present-tense act addressed to it: must, should, is expected, advised,
  allowed or permitted to, may, can; debe, tiene que, doit, est prié de, muss, soll, deve…;
- a **sensitive target** later in the sentence: secrets or credential files, the
  conversation or the user's own data, keeping the user unaware, the safety checks
  (restrictions, approval, protection), other tools, sending to an address or the public,
  carrying out instructions found in data.

Argument advice ("the model should pass a track URI", "el asistente debe indicar la
carpeta") has the first two and not the third, so it stays advice; so does a target the
sentence negates or gates on the user ("the assistant must never read .env", "ask the user
before uploading"). An addressee that names itself as the reader of the text ("agents
reading this", "assistants using this connector") is addressed whatever it is told.
"""

from __future__ import annotations

import re

from workset.mcp.poison_terms import (
    CONTEXT,
    MODEL,
    NEGATED,
    SECRET,
    USER_DATA,
    USER_OTHER_LANGUAGES,
    excluded,
)

_I = re.IGNORECASE
_MODAL = (
    r"(must|should|shall|will\s+need\s+to|needs?\s+to|has\s+to|have\s+to|is\s+to|are\s+to|"
    r"ought\s+to|may|can|could|will|(is|are)\s+(expected|required|supposed|meant|asked|"
    r"instructed|obliged|advised|encouraged|invited|requested|told|allowed|permitted|free|"
    r"authori[sz]ed|welcome|entitled|cleared)\s+to)"
)
_ACTS = (
    r"(sets|puts|includes|attaches|adds|pastes|copies|sends|mails|forwards|publishes|appends|"
    r"fills|passes|calls|invokes|replies|answers|responds|opens|treats|ignores|skips|drops|"
    r"omits|hides|recommends|uploads|reads|reveals|shares|keeps|include|attach|forward|send|"
    r"share|upload|copy|paste|append)"
)
_ADDRESSEE = re.compile(
    rf"(^|[,:;(]\s*|\b(the|any|all|every|each|an?|your|calling|invoking)\s+)"
    rf"(?P<who>([\w-]+\s+){{0,2}}?{MODEL})\b(?!['’]s)"
    rf"(?P<between>(\s+[\w'’-]+){{0,6}}?)\s+({_MODAL}|{_ACTS})\b"
    rf"|\b(it\s+is|it['’]s)\s+(the|an?|your|every|each)\s+{MODEL}['’]s\s+(job|duty|task|"
    r"responsibility|role)\s+to\b"
    rf"|\byou\s+(are\s+)?{_MODAL}\b"
    r"|\b(el|la|los|las|un|una|cualquier|todo)\s+(asistente|modelo|agente|ia|inteligencia\s+"
    r"artificial)s?\b(\s+[\w-]+){0,3}?\s+(debe|deberá|debería|deben|tiene\s+que|tienen\s+que|"
    r"ha\s+de|puede|necesita|está\s+obligad[oa]\s+a)\b"
    r"|\bque\s+(el|la)\s+(asistente|modelo|agente|ia)\b"
    r"|\b(se\s+(pide|ruega|solicita)|pedimos)\s+al\s+(asistente|modelo|agente)\b"
    r"|\b(merci|il\s+est\s+demandé)\s+à\s+l['’](assistant|agent|ia)\s+d['’e]"
    r"|\bpede-se\s+ao\s+(assistente|modelo|agente)\b|\bsi\s+chiede\s+all['’](assistente|agente)\b"
    r"|\b(l['’]|le\s+|la\s+|un\s+|une\s+|tout\s+|chaque\s+)(assistant|agent|modèle|ia|llm)s?"
    r"\b(\s+[\w-]+){0,3}?\s+(doit|devra|devrait|doivent|peut|est\s+(prié|tenu|censé|invité|"
    r"autorisé)\s+(de|à|d['’]))"
    r"|\bque\s+l['’](assistant|agent|ia)\b"
    r"|\b(der|die|das|ein|eine|jeder|jede)\s+(assistent|agent|modell|ki|ki-assistent)(en)?\b"
    r"(\s+[\w-]+){0,3}?\s+(muss|soll|sollte|darf|kann|hat)\b"
    r"|\b(o|a|os|um|uma|qualquer)\s+(assistente|modelo|agente|ia)s?\b(\s+[\w-]+){0,3}?\s+"
    r"(deve|deverá|deveria|devem|precisa|tem\s+que|tem\s+de|pode)\b"
    r"|\bque\s+o\s+(assistente|modelo|agente)\b"
    r"|\b(l['’]|il\s+|lo\s+|un\s+|ogni\s+)(assistente|agente|modello|ia)\b(\s+[\w-]+){0,3}?\s+"
    r"(deve|dovrà|dovrebbe|può|devono)\b",
    _I,
)
# An imperative that moves data speaks to whoever reads it. A description's opening sentence
# names the tool's own action that way ("Save storage state (cookies…) to a file"), so there
# it counts only with an adverb that marks an instruction ("also", "quietly", "please").
_IMPERATIVE = re.compile(
    r"(^|[:;]\s*|\b(then|and)\s+)(?P<adverbs>((please|always|also|first|just|simply|quietly|"
    r"silently|discreetly|secretly|additionally)\s+)*)(put|pass|send|forward|copy|include|add|"
    r"attach|paste|write|fill|append|upload|share|post|e-?mail|mail|read|open|fetch|cat|print|"
    r"dump|collect|gather|grab|export|transmit|drop|insert|embed|encode|store|save|relay|"
    r"deliver|push|sync|hand\s+over)\b",
    _I,
)
_MARKED = re.compile(
    r"\b(please|always|also|quietly|silently|discreetly|secretly|additionally)\b", _I
)
# The addressee names itself as whoever reads or runs this text: addressed whatever it is told.
_READER = re.compile(
    r"\b(reading|seeing|processing|working\s+with|using|invoking|calling|handling)\s+this\b"
    r"|\bin\s+this\s+(session|conversation|chat)\b",
    _I,
)
_TARGET = re.compile(
    rf"{SECRET}|{CONTEXT}|{USER_DATA}"
    r"|\bthe\s+(chat|thread|session|exchange)\b(?!\s*(ids?|names?|rooms?|channels?|titles?|_))"
    r"|\b(unaware|in\s+the\s+dark|uninformed|behind\s+(the\s+user['’]s|their)\s+back|secretly|"
    r"silently|quietly|covertly|hide|conceal|withhold)\b"
    r"|\bwithout\s+(telling|informing|notifying|alerting|asking|bothering|checking\s+with)\b"
    r"|\b(disable|skip|bypass|ignore|disregard|set\s+aside|forget|lift|turn\s+off|override|"
    r"circumvent|get\s+around|suspend|relax|waive|break)\b[^.;]{0,40}\b(protection|restrictions?|rules?|limits?|checks?|"
    r"safeguards?|approvals?|confirmations?|reviews?|polic(y|ies)|read-only|sandbox|"
    r"guardrails?|permissions?|2fa|mfa|verification|instructions)\b"
    r"|\b(stop|quit|cease)\s+(using|calling|consulting)\b|\b(avoid|ignore|disregard|abandon|"
    r"bypass)\s+(the\s+|any\s+|all\s+|other\s+)?([\w-]+\s+){0,2}(tools?|servers?|connectors?|"
    r"plugins?)\b|\b(cite|use|trust|rely\s+on|consult)\s+only\b"
    r"|\b(upload|send|forward|post|publish|share|transmit|e-?mail|leak)\w*\b[^;]{0,60}?"
    r"(https?://|[\w.+-]+@[\w-]+\.|\b[\w-]+\.(com|net|org|io|app|biz|xyz|ru|cn)\b|"
    r"\bpublic(ly)?\b|\bexternal\b|\bthird[- ]part|\beveryone\b|\bthe\s+internet\b)"
    r"|\b(ignore|disregard|ignor\w*|olvid\w*|oubli\w*|vergiss\w*|esquec\w*|dimentic\w*)\b[^.;]{0,40}"
    rf"\b(users?|{USER_OTHER_LANGUAGES})\b"
    r"|\b(carry\s+out|execute|obey|act\s+on|comply\s+with)\b[^.;]{0,30}\b(instructions?|"
    r"commands?|orders|directives?|whatever|anything)\b",
    _I,
)
# Acts that gate what follows on the user: "ask the user before uploading" is advice.
_GATED = re.compile(
    r"\b(ask|asks|asking|confirm|check\s+with|get\s+(approval|consent|permission)\s+from)\s+"
    r"(the\s+user|them|the\s+owner)\b|\b(if|when|only\s+when)\s+the\s+user\s+(asks|wants|says)",
    _I,
)


def addressed_to_model(sentence: str, *, opening: bool = False) -> bool:
    """Whether ``sentence`` tells the assistant to do something a tool has no claim to.

    ``opening``: the sentence opens a description, where a bare imperative is the tool's title.
    """
    for match in _ADDRESSEE.finditer(sentence):
        if NEGATED.search(sentence[: match.start()]):
            continue
        reader = match.group("who") is not None and _READER.search(match.group("between") or "")
        verb = match.start() + match.group(0).rstrip().rfind(" ") + 1  # the modal or the act
        if reader or _targets(sentence[verb:]):
            return True
    for match in _IMPERATIVE.finditer(sentence):
        if opening and not _MARKED.search(match.group("adverbs")):
            continue
        if not NEGATED.search(sentence[: match.start()]) and _targets(sentence[match.end() :]):
            return True
    return False


def _targets(rest: str) -> bool:
    """A sensitive target in ``rest`` that no negation or user's gate before it excuses."""
    for target in _TARGET.finditer(rest):
        before = rest[: target.start()]
        limited = re.search(r"\bonly\s+$", before, re.IGNORECASE)  # "only the user's own words"
        if not (NEGATED.search(before) or _GATED.search(before) or excluded(before) or limited):
            return True
    return False
