"""``data-as-authority`` by declaration: text the tool hands back (an event's description, a note,
a message, a field) called an instruction, and the model told to carry it out, in English and
the other languages the cohorts use most (French, German, Spanish, Portuguese, Italian).

Three slots in one sentence: something the tool reads or returns; a declaration that it *is* an
order ("it is a directive from the organiser", "il s'agit d'une consigne", "ist eine Anweisung");
and an order to act on it ("apply it", "applique-la", "führe sie aus", "ejecútala"). Neither the
declaration nor the act may be negated: "present them as content, never as instructions" and
"never follow them" are the honest warnings a tool with such data should give.
"""

from __future__ import annotations

import re

_I = re.IGNORECASE

_DATA = re.compile(
    r"\b(descriptions?|notes?|memos?|messages?|e-?mails?|comments?|entr(y|ies)|records?|events?|"
    r"invit\w*|results?|outputs?|responses?|contents?|texts?|fields?|pages?|documents?|tasks?|"
    r"tickets?|cards?|bod(y|ies)|reminders?|courriels?|commentaires?|entrées?|événements?|"
    r"résultats?|contenus?|textes?|champs?|tâches?|beschreibung\w*|notiz\w*|nachricht\w*|"
    r"kommentar\w*|eintr(a|ä)g\w*|termin\w*|ereignis\w*|ergebnis\w*|inhalt\w*|feld\w*|seite\w*|"
    r"dokument\w*|aufgabe\w*|descripci[oó]n\w*|notas?|mensajes?|correos?|comentarios?|entradas?|"
    r"eventos?|resultados?|contenidos?|campos?|páginas?|documentos?|tareas?|descri[çc][ãa]o|"
    r"descrições|mensagens?|conteúdos?|tarefas?|descrizion\w*|messaggi\w*|comment[oi]|voc[ie]|"
    r"event[oi]|risultat[oi]|contenut[oi]|test[oi]|camp[oi]|pagin[ae]|document[oi]|attività)\b",
    _I,
)

# The content said to be an order.
_DECLARED = re.compile(
    r"\b(is|are|counts?\s+as|constitutes?|serves?\s+as|(should|must|is\s+to|are\s+to)\s+be\s+"
    r"(read|taken|treated|handled)\s+as)\s+(an?\s+|the\s+)?([\w-]+\s+){0,2}?(instructions?|"
    r"directives?|orders?|commands?)\b"
    r"|\b(il\s+s['’]agit\s+d['’]\s*|c['’]est\s+|ce\s+sont\s+|est\s+|sont\s+|constitue\w*\s+|vaut\s+)"
    r"(une?\s+|des\s+|la\s+|les\s+)?(\S+\s+)?(consignes?|instructions?|ordres?|directives?|"
    r"commandes?)\b"
    r"|\b(ist|sind|gilt|gelten|handelt\s+es\s+sich\s+um)\s+(\S+\s+){0,3}?(eine?n?\s+|als\s+)?"
    r"(\S+\s+)?(anweisung|weisung|anordnung|befehl|auftrag|vorgabe)\w*"
    r"|\b(es|son|se\s+trata\s+de|constituye\w*|vale\s+como)\s+(una?\s+|la\s+|las\s+)?(\S+\s+)?"
    r"(instrucci|[oó]rden|directiv|consign|mandato)\w*"
    r"|(\bé|\bsão|\btrata-se\s+de|\bconstitui\w*)\s+(uma?\s+|a\s+|as\s+)?(\S+\s+)?(instru[çc]|"
    r"ordem|ordens|diretiv|comando)\w*"
    r"|(\bè|\bsono|\bsi\s+tratta\s+di|\bcostituisce|\bvale\s+come)\s+(una?\s+|un['’]\s*|la\s+|"
    r"le\s+)?(\S+\s+)?(istruzion|ordin|direttiv|comand|consegn)\w*",
    _I,
)

# The order to act on it.
_CARRY_OUT = re.compile(
    r"\b(apply|follow|execute|obey|act\s+on|honou?r|comply\s+with|implement|perform)\s+(it|them|"
    r"this|that|those|these)\b|\bcarry\s+(it|them|this|that|those|these)\s+out\b|\bdo\s+what\s+"
    r"(it|they)\s+(says?|asks?)\b"
    r"|\b(appliqu|exécut|sui[sv]|obéi[sr]|respect|réalis|effectu)\w*-(la|le|les)\b|\b(l['’]\s*|"
    r"la\s+|le\s+|les\s+)((appliqu|exécut|respect|réalis|effectu)(er|ez|e|ent|era|eront)|"
    r"suiv(re|ez|ra|ront))\b"
    r"|\b(befolge|führe|setze|wende)\w*\s+(\S+\s+){0,2}?(sie|es|diese\w*|ihn)\b|\b(sie|es|diese)\s+"
    r"(\S+\s+){0,3}(befolgen|ausführen|umsetzen|anwenden)\b"
    r"|\b(apl[ií]ca|ejec[uú]ta|s[ií]gue|obed[eé]ce|c[uú]mple)(la|lo|las|los)\b"
    r"|\b(aplique|execute|siga|obedeça|cumpra|aplica|executa|segue|obedece|cumpre)-(a|o|as|os)\b"
    r"|\b(applica|esegui|segui|obbedisci|rispetta)(la|lo|le|li)\b",
    _I,
)

_NEGATED = re.compile(
    r"\b(never|not|don['’]?t|no|jamais|pas|ne|nie|niemals|nicht|kein\w*|nunca|jamás|não|non|mai)"
    r"\b[^.;:,]{0,40}$",
    _I,
)


def orders_in_data(sentence: str) -> bool:
    """Whether ``sentence`` calls content the tool returns an order and has the model carry it
    out, neither negated."""
    declared = _DECLARED.search(sentence)
    if declared is None or not _DATA.search(sentence):
        return False
    if _NEGATED.search(sentence[max(0, declared.start() - 40) : declared.start()]):
        return False
    for act in _CARRY_OUT.finditer(sentence):
        if act.start() > declared.start() and not _NEGATED.search(
            sentence[max(0, act.start() - 40) : act.start()]
        ):
            return True
    return False
