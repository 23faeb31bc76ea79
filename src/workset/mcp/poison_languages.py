"""The description audit's wording rules in other languages, and for letter-spaced text.

:data:`OTHER_LANGUAGES` holds the same orders as the English rules of
:mod:`workset.mcp.poison_rules` (override, after-every-call, concealment, sending the
conversation away) in Spanish, French, German, Portuguese and Italian, kept to the
unambiguous forms; each carries its English rule's name. :data:`SQUASHED` holds key orders
with the spaces squeezed out, for letter spacing that also spaced the words away.
"""

from __future__ import annotations

from workset.mcp.poison_leak_rules import TARGET
from workset.mcp.poison_rules import Rule, any_of
from workset.mcp.poison_terms import USER_OTHER_LANGUAGES

# Covertly, and the stems of sending or sharing, in French, Spanish, German, Portuguese, Italian.
_COVERTLY = (
    r"(discrètement|en\s+secret|en\s+silence|silencieusement|en\s+secreto|silenciosamente|"
    r"discretamente|sigilosamente|heimlich|stillschweigend|unbemerkt|secretamente|di\s+nascosto|"
    r"silenziosamente|in\s+silenzio)"
)
_SHARES = (
    r"(envoy|partag|copi|transf|envi|compart|mand|reenv|schick|leit|teil|kopier|compartilh|invi|"
    r"condivid|inoltr)"
)

OTHER_LANGUAGES: tuple[Rule, ...] = (
    Rule(
        "directive-tag",  # a note labelled for the assistant, as the English "Note to the AI:"
        any_of(
            r"\b(hinweis|anmerkung|notiz|anweisung|tipp)\s+(für|an)\s+(den|die|das)\s+"
            r"(assistenten|ki|agenten|modell|ki-assistenten)\s*[:,]",
            r"\b(nota|aviso|instrucción|instrucciones)\s+para\s+(el|la|los|o|a)\s+"
            r"(asistente|modelo|agente|ia|assistente)s?\s*[:,]",
            r"\b(note|remarque|consigne|instruction)s?\s+(pour|à|a)\s+l['’](assistant|agent|ia)"
            r"\s*[:,]",
            r"\b(nota|avviso|istruzion[ei])\s+per\s+l['’](assistente|agente|ia)\s*[:,]",
            r"(примечание|заметка|указание|инструкция|инструкции|подсказка)\s+(для|ассистенту|"
            r"модели)\s*(ассистента|модели|ии|агента|бота)?\s*[:,]",
            r"(给|致)(助手|助理|模型|AI|智能体)的?(说明|提示|指示|注意)\s*[:：]|"
            r"(助手|模型|AI)(注意|须知)\s*[:：]",
        ),
    ),
    Rule(
        "instruction-override",
        any_of(
            r"\b(ignora|ignore|olvida|olvide|ignorez|oubliez|oublie|ignoriere|vergiss|ignorar|"
            r"esquece|esqueça|dimentica|ignorare)\s+(todas?\s+|toutes?\s+|tous\s+|alle\s+|"
            r"tutte?\s+)?(las\s+|les\s+|die\s+|as\s+|os\s+|le\s+|vos\s+|tus\s+|deine\s+)?"
            r"(\w+\s+)?(instrucciones|instructions|anweisungen|instruções|istruzioni|reglas|règles|"
            r"regeln|regras|regole)\b"
        ),
    ),
    Rule(
        "instruction-override",
        any_of(
            r"\b(ignora|ignore|ignorez|ignoriere|ignorar|ignori|olvida|oubliez|vergiss)\s+"
            r"(lo\s+que|ce\s+que|was|o\s+que|quello\s+che|tout\s+ce\s+que)\s+[^.]{0,30}\b"
            + USER_OTHER_LANGUAGES
        ),
    ),
    Rule(
        "forced-call",
        any_of(
            r"\b(después\s+de|tras)\s+(cada|cualquier)\s+(llamada|uso|herramienta|acción)",
            r"\baprès\s+(chaque|tout)\s+(appel|outil|action|utilisation)",
            r"\bnach\s+jede[mnr]?\s+(aufruf|tool|werkzeug|aktion)",
            r"\b(após|depois\s+de)\s+cada\s+(chamada|ferramenta|ação)",
            r"\bdopo\s+ogni\s+(chiamata|strumento|azione)",
        ),
    ),
    Rule(
        "conceal-from-user",
        any_of(
            r"\bno\s+(le\s+)?(digas|diga|menciones|mencione|informes|informe|cuentes|cuente)"
            r"\b[^.]{0,30}\busuario",
            r"\bsin\s+(decírselo|decirle|avisar|informar|mencionar(lo|la|los|las)?|comentar(lo)?|"
            r"contár(selo)?|notificar)\s+(nada\s+)?(al\s+)?usuari[oa]",
            rf"\b{_COVERTLY}\b[^.]{{0,40}}\b{_SHARES}\w*",
            rf"\b{_SHARES}\w*\s+{_COVERTLY}\b",
            r"\bno\s+(le\s+)?(comentar|contar|decir|mencionar|avisar|informar|revelar|explicar)"
            r"(le|les|selo|lo)?\b[^.]{0,20}\b(al\s+)?usuario",
            r"\bne\s+(lui\s+)?(dites|dis|mentionnez|mentionne|révélez|signalez)\s+(jamais|pas|"
            r"rien)\b[^.]{0,30}\butilisateur",
            r"\bsans\s+(le\s+dire|prévenir|informer)\s+(à\s+)?l['’]utilisateur",
            r"\b(sag|sage|erwähne|verrate)\s+(dem|den)\s+(benutzer|nutzer|anwender)\s+nicht",
            r"\bnão\s+(diga|conte|mencione|informe)\b[^.]{0,30}\busuário",
            r"\bnon\s+(dire|dica|dite|menzionare|menzioni|informare|informi|rivelare|riveli)\b"
            r"[^.]{0,30}\butente",
            r"\bsenza\s+(dirlo|avvisare|informare|menzionarlo|segnalarlo)\s+(all['’])?utente",
            r"\bsans\s+(le\s+)?(mentionner|signaler)\s+(à\s+)?l['’]utilisat",
            r"\bsem\s+(o\s+)?mencionar\s+(ao\s+|para\s+o\s+)?usuário",
            r"\b(no\s+(hace\s+falta|es\s+necesario|tiene\s+por\s+qué)|sin)\s+que\s+(el\s+)?"
            r"usuario\s+(lo\s+)?(sepa|se\s+entere|note|vea)",
            r"\bel\s+usuario\s+no\s+(debe|tiene\s+que|necesita|ha\s+de)\s+(saber(lo)?|"
            r"enterarse|verlo)",
            r"\b(inutile|pas\s+besoin|nul\s+besoin)\s+(de|d['’])\s*(le\s+|l['’])?(prévenir|informer|"
            r"dire|avertir|mentionner|signaler)\b[^.]{0,20}utilisat",
            r"\bsans\s+que\s+l['’]utilisat(eur|rice)\s+(ne\s+)?(le\s+)?(sache|remarque|voie)",
            r"\bl['’]utilisat(eur|rice)\s+n['’]a\s+pas\s+(besoin\s+)?(de|à)\s+(le\s+)?savoir",
            r"\b(benutzer|nutzer|anwender)\w*\s+(darf|muss|soll|braucht)\s+(das\s+|es\s+|davon\s+)?"
            r"nichts?\s+(davon\s+)?(zu\s+)?(erfahren|wissen|merken|sehen|mitbekommen)",
            r"\bohne\s+(den|die|das)\s+(benutzer|nutzer|anwender)\w*\s+(zu\s+)?(informieren|"
            r"benachrichtigen|fragen|einzubeziehen|zu\s+fragen|zu\s+informieren)",
            r"\bsem\s+(avisar|informar|consultar|perguntar\s+a)\s+(o\s+|ao\s+)?usuário",
            r"\bohne\s+dass\s+(der|die)\s+(benutzer|nutzer|anwender)\w*\s+(es\s+|davon\s+)?"
            r"(merkt|erfährt|weiß)",
            r"\bsem\s+que\s+o\s+usuário\s+(o\s+)?(saiba|perceba|veja)",
            r"\bo\s+usuário\s+não\s+(precisa|deve|tem\s+que)\s+(de\s+)?saber",
            r"\bnão\s+é\s+(necessário|preciso)\s+(avisar|informar|contar\s+ao)\s+(o\s+)?usuário",
            r"\bsenza\s+che\s+l['’]utente\s+(lo\s+)?(sappia|noti|veda)",
            r"\bl['’]utente\s+non\s+(deve|deve\s+mai|ha\s+bisogno\s+di)\s+sapere",
            r"\bnon\s+è\s+necessario\s+(avvisare|informare)\s+l['’]utente",
            r"(无需|不必|不要|不用|无须|切勿|请勿|别)(告知|告诉|通知|提醒|让)用户|用户(无需|不必|不需要)"
            r"(知道|知晓|被告知)",
            r"(не\s+(сообщайте|говорите|сообщай|говори|упоминайте|уведомляйте|информируйте|"
            r"рассказывайте)|без\s+ведома)[^.]{0,30}пользовател|пользовател\w*\s+(не\s+нужно|"
            r"незачем|не\s+следует)\s+(знать|сообщать|говорить)|(не\s+нужно|незачем|не\s+надо)\s+"
            r"(сообщать|говорить|уведомлять|информировать)\s+пользовател",
            r"ユーザー(に|には)[^。]{0,10}(知らせ|伝え|通知し|言わ)(ないで|ず|ない|る必要はありません)",
            r"उपयोगकर्ता\s+को\s+(न|ना)\s+बताएं|उपयोगकर्ता\s+को\s+बताने\s+की\s+(आवश्यकता|ज़रूरत|जरूरत)"
            r"\s+नहीं",
        ),
    ),
    Rule(
        "system-claim",  # the tool's words over the user's, as the English "takes priority over"
        any_of(
            r"(имеют|имеет|получают|получает)\s+(высший\s+|абсолютный\s+)?приоритет\s+над\s+"
            r"[^.;]{0,40}пользовател|(являются|считаются)\s+(системными|служебными)\s+(указаниями|"
            r"инструкциями|сообщениями|командами)",
            r"\b(tienen|tiene)\s+prioridad\s+sobre\s+[^.;]{0,40}usuari[oa]",
            r"\b(ont|a)\s+(la\s+)?priorité\s+sur\s+[^.;]{0,40}utilisat",
            r"\b(haben|hat)\s+(den\s+)?vorrang\s+vor\s+[^.;]{0,40}(benutzer|nutzer|anwender)",
            r"\b(têm|tem)\s+prioridade\s+sobre\s+[^.;]{0,40}usuári[oa]",
            r"\b(hanno|ha)\s+(la\s+)?(priorità|precedenza)\s+su\w*\s+[^.;]{0,40}utente",
            r"优先于[^。]{0,10}用户|(视为|作为|属于)(系统|运营方)(指令|指示|消息)",
            # "more important than what the user says", in the same languages
            r"важнее\s+[^.;]{0,30}пользовател|\bmás\s+importantes?\s+que\s+[^.;]{0,40}usuari[oa]|"
            r"\bplus\s+importante?s?\s+que\s+[^.;]{0,40}utilisat|\bwichtiger\s+als\s+[^.;]{0,40}"
            r"(benutzer|nutzer|anwender)|\bmais\s+importantes?\s+(do\s+)?que\s+[^.;]{0,40}usuári[oa]|"
            r"\bpiù\s+important[ei]\s+d\w*\s+[^.;]{0,40}utente|比用户的?[^。]{0,8}(更重要|更优先)|"
            r"ユーザーの[^。]{0,10}より(も)?(重要|優先)",
        ),
        negatable=True,
    ),
    Rule(
        "approval-bypass",  # silence or anything else taken as approval
        any_of(
            r"\b(da|dé|dar|den|considera|considere|considérez|considère|consideralo|dai|dê|tome)\b"
            r"[^.]{0,30}\b(por|comme|come|como)\s+(aprobad[oa]|autorizad[oa]|confirmad[oa]|"
            r"aceptad[oa]|approuvée?|acceptée?|confirmée?|autorisée?|approvat[oa]|autorizzat[oa]|"
            r"aprovad[oa])\b",
            r"\bals\s+(genehmigt|bestätigt|freigegeben|zugestimmt)\s+(betrachten|ansehen|werten|"
            r"behandeln|gelten)\b",
        ),
    ),
    Rule(
        "third-party-sharing",  # an address copied on every message: "en copie de chaque e-mail"
        any_of(
            r"[\w.+-]+@[\w-]+(\.[\w-]+)+[^.;]{0,40}\b(en\s+copie|en\s+copia|em\s+c[óo]pia|in\s+copia|"
            r"in\s+kopie|als\s+kopie|in\s+cc|en\s+cc|em\s+cc|in\s+bcc|en\s+cci|como\s+cc)\b[^.;]{0,40}"
            r"\b(de\s+)?(chaque|tous|toutes|cada|todos|todas|jede[mnrs]?|alle[mnrs]?|ogni|tutti|tutte)\b",
            r"\b(en\s+copie|en\s+copia|em\s+c[óo]pia|in\s+copia|in\s+kopie|in\s+cc|en\s+cc|em\s+cc)\s+"
            r"(de\s+|a\s+|di\s+)?(chaque|tous|toutes|cada|todos|todas|jede[mnrs]?|alle[mnrs]?|ogni|"
            r"tutti|tutte)\b[^.;]{0,60}[\w.+-]+@[\w-]+(\.[\w-]+)+",
            r"\b(systématiquement|toujours|siempre|sempre|immer|jedes\s+mal)\b[^.;]{0,40}[\w.+-]+@"
            r"[\w-]+(\.[\w-]+)+[^.;]{0,30}\b(copie|copia|c[óo]pia|kopie|cc|bcc|cci)\b",
        ),
        negatable=True,
    ),
    Rule(
        "exfiltration-url",
        any_of(
            r"\b(envía|envia|envíe|manda|mande|reenvía|envoyez|envoie|envoyer|transmettez|"
            r"transférez|sende|schicke|leite|invia|envie)\b[^.]{0,40}\b(historial|historique|"
            r"conversación|conversation|conversa|verlauf|gesprächsverlauf|cronologia|mensajes|"
            r"messages|nachrichten)\b[^.]{0,60}" + TARGET
        ),
    ),
)


# Key orders with the spaces squeezed out, for letter spacing that also spaced the words
# away ("i g n o r e a l l p r e v i o u s" joins to one run of letters).
SQUASHED: tuple[Rule, ...] = (
    Rule(
        "instruction-override",
        any_of(
            r"(ignore|disregard|forget)(all|any|the|your)*(previous|prior|above|earlier|system)?"
            r"(instructions?|rules|prompts?|guidelines)"
        ),
    ),
    Rule(
        "conceal-from-user",
        any_of(r"(donot|dont|never)(tell|inform|mention|reveal|show)\w{0,8}user"),
    ),
    Rule(
        "prompt-leak",
        any_of(r"(reveal|print|repeat|show|leak)(your|the)\w{0,10}(systemprompt|instructions)"),
    ),
    Rule(
        "exfiltration-url",
        any_of(r"(send|forward|upload|post)(the|all|a)*(conversation|chathistory|messages)"),
    ),
)
