"""Notes labelled for the assistant that only say how to fill an argument (``argument-note``).

"Hint for LLM agents: use a trailing slash to list a folder" tells the model how to write an
argument; so does "Note to the assistant: if the user gives no date, ask them for one" (asking
the user for a missing input is the user's own act) and its forms in German, Spanish, French,
Portuguese and Italian ("Hinweis für den Assistenten: Frage nach der Sendungsnummer, falls der
Nutzer keine angegeben hat"). A note that sends, asks for secrets, names the conversation or
gives standing orders is not one (:data:`_SENSITIVE`)."""

from __future__ import annotations

import re

from workset.mcp.poison_terms import SECRET_NOUN

_I = re.IGNORECASE

_ENGLISH_LABEL = re.compile(
    r"\b(note|hint|tip|reminder)\s+(for|to)\s+(the\s+)?([\w-]+\s+){0,2}(assistants?|agents?|"
    r"models?|llms?|ai)\s*:",
    _I,
)
_OTHER_LABEL = re.compile(
    r"\b(hinweis|anmerkung|notiz|tipp)\s+(für|an)\s+(den|die|das)\s+(assistenten|ki|agenten|"
    r"modell|ki-assistenten)\s*:"
    r"|\b(nota|aviso)\s+(para|per)\s+(el|la|o|a|l['’])\s*(asistente|assistente|modelo|modello|"
    r"agente|ia)\s*:"
    r"|\b(note|remarque)\s+(pour|à)\s+l['’](assistant|agent|ia)\s*:",
    _I,
)
_SENSITIVE = re.compile(
    r"\b(send|forward|include|attach|append|upload|post|share|secret|password|token|key|credential|"
    r"user(?!['’]s\s+(time\s*zone|timezone|locale|language|region|country|units|currency|date\s+"
    r"format)\b)|conversation|chat|history|ignore|instructions?|system|always|never|every|each|do\s+not|"
    r"don['’]?t|tell|mention|call|approv\w*|confirm\w*|https?|@|reply|respond|answer|say|output|"
    r"only|must|should|run|execute|delete)\b"
    rf"|{SECRET_NOUN}",
    _I,
)
# The same for the other languages' notes: sending or sharing, the conversation, the user,
# standing orders, ignoring, secrets.
_OTHER_SENSITIVE = re.compile(
    r"\b(send\w*|schick\w*|envi\w*|envoi\w*|mand\w*|invi\w*|teil\w*|partag\w*|compart\w*|"
    r"condivid\w*|weiterleit\w*|reenv\w*|transf\w*|kopier\w*|copi\w*|verlauf|gespräch\w*|chat|"
    r"historial|conversa\w*|historique|cronologia|nutzer\w*|benutzer\w*|usuari\w*|utilisat\w*|"
    r"usuário\w*|utente|immer|stets|siempre|toujours|sempre|ignor\w*|anweisung\w*|instruc\w*|"
    r"istruz\w*|instruç\w*|system\w*|sistema|système|http\w*|@)"
    rf"|{SECRET_NOUN}",
    _I,
)
# The user asked for an input they left out: the verb of asking, what is asked for, and a
# condition that it is missing ("if the user gives no date", "falls der Nutzer keine angegeben
# hat", "si el usuario no lo ha dado", "wenn sie fehlt").
_ASK_MISSING = re.compile(
    r"^\s*(?P<cond1>(if|when|unless|falls|wenn|si|se)\b[^,;.]*,\s*)?"
    r"(ask|frag\w*|pide|pida|pregunta|demande\w*|chiedi|pergunte|peça)\s+"
    r"(the\s+user\s+|them\s+|den\s+(nutzer|benutzer)\s+|al\s+usuario\s+|l['’]utilisateur\s+|"
    r"o\s+usuário\s+|all['’]utente\s+)?(?P<what>[^,;.]{1,60}?)\s*"
    r"(?P<cond2>,?\s*(if|when|unless|falls|wenn|si|se|sofern)\b[^;.]*)?[.!]?\s*$",
    _I,
)
_MISSING = re.compile(
    r"\b(no|not|none|nothing|missing|keine?n?|nicht|fehlt|fehlen|manque|falta|non|não|pas|"
    r"n['’]a|omitted|left\s+out|absent)\b",
    _I,
)


def argument_note(sentence: str) -> bool:
    """Whether ``sentence`` is a note for the assistant about filling an argument."""
    english = _ENGLISH_LABEL.search(sentence)
    label = english or _OTHER_LABEL.search(sentence)
    if label is None:
        return False
    body = sentence[label.end() :]
    if not (_SENSITIVE if english else _OTHER_SENSITIVE).search(body):
        return True
    ask = _ASK_MISSING.match(body)
    if ask is None:
        return False
    condition = ask.group("cond1") or ask.group("cond2") or ""
    return bool(_MISSING.search(condition)) and not _SENSITIVE.search(ask.group("what"))
