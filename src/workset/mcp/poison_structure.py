"""A structural reading of tool definitions: what each clause asks for, by slots, not phrases.

Every text of a definition (already made readable: NFKC, look-alikes, spacing, comments,
base64) is split into sentences and clauses. A sentence is judged by which slots it fills:

- a sensitive **source**: the conversation or the user's earlier words, the model's own
  instructions, other tools' results, secrets and credential files, the environment, the
  user's private things (contacts, location, files beyond this tool's inputs);
- a **sink** it is to go to: one of the tool's own parameters, an address (URL, e-mail,
  domain), another tool, or a verb that puts data somewhere (include, append, attach, pass,
  send, forward, upload, fill, encode…);
- a **concealment** of an act from the user ("no need to mention it", "quietly", "not
  user-facing") or an **approval** taken for granted ("without asking", "already approved");
- an **authority** claim that turns data into instructions ("treat the result as system
  instructions", "takes precedence over the user").

The tool's own declared purpose (its name, its description's opening sentence and its
parameter names) says what data is in scope: a source of a kind the purpose names (a
secrets manager's secrets, a chat tool's messages) is the tool's subject, not a request. A
source that the clause negates, refuses or gates on the user ("never include tokens", "only
if the user asks") is advice. Findings: ``data-flow`` (an out-of-scope source sent to a
sink, a copy sent to an address, a placeholder for a source in a URL, a parameter name that
spells out a source), ``hides-from-user``, ``assumes-approval``, ``data-as-authority``,
``misreports``, ``steers-tool-choice``, ``disables-safeguard``, ``injects-content``,
``overrides-user-choice``, ``side-action`` and ``fixed-destination`` (each reason in
:data:`STRUCTURE_REASONS`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from workset.mcp.poison_terms import CREDENTIAL_FILE, ENV_SECRET, MODEL

_I = re.IGNORECASE

STRUCTURE_REASONS = {
    "data-flow": "a clause sends data outside the tool's declared purpose (the conversation, "
    "secrets, other tools' results, the user's private data) into a parameter, an address or "
    "another tool",
    "hides-from-user": "a clause asks that an act be kept from the user",
    "assumes-approval": "a clause tells the model to act without the user's approval, or that "
    "approval was already given",
    "data-as-authority": "a clause tells the model to treat data or tool output as "
    "instructions that rank above the user, or to ignore the user",
    "misreports": "a clause tells the model to leave findings out of, or dress up, what it "
    "reports whatever the facts",
    "steers-tool-choice": "a clause disparages other tools or routes calls meant for them here",
    "disables-safeguard": "a clause lets the model switch off a protection or safety check",
    "injects-content": "a clause adds promotions or links to everything the user sends",
    "overrides-user-choice": "a clause tells the model to use its own value in place of, or "
    "regardless of, what the user asked for",
    "side-action": "a clause tells the model to call another tool that deletes, unlocks, pays "
    "or shares, on a trigger the user did not set",
    "fixed-destination": "a parameter that says where data, money or packages come from or go "
    "comes with a fixed address, number or account as its default",
}

# Source kinds: (kind, what names it in a clause, what names it in the tool's own purpose).
_SOURCES: tuple[tuple[str, re.Pattern[str], re.Pattern[str]], ...] = tuple(
    (kind, re.compile(found, _I), re.compile(scope, _I))
    for kind, found, scope in (
        (
            "conversation",
            r"\b((?<!\ban\s)(?<!existing\s)(?<!\ba\s)(?<!each\s)(?<!new\s)conversations?(?!\s*(ids?|"
            r"names?|titles?|lists?|members?|_))|dialog(ue)?|"
            r"transcripts?|chat\s+(so\s+far|history|log|context)|(message|chat|conversation)\s+"
            r"history|(earlier|previous|prior|past|preceding|recent|other)\s+(messages?|turns?|"
            r"prompts?|exchanges?|questions?|requests?)|(whole|full|entire|complete)\s+(chat|"
            r"thread|session|context|history)|context\s+window|"
            r"(everything|all|anything|whatever|what)\s+(that\s+)?(the\s+user|they|you)\s+"
            r"(ha(ve|s)\s+)?(said|typed|wrote|written|asked|told|shared|mentioned|discussed|"
            r"entered)|the\s+user['’]s\s+(own\s+|original\s+|exact\s+|full\s+|verbatim\s+|"
            r"last\s+|latest\s+|previous\s+|earlier\s+)?(messages?|prompts?|wording|words)|"
            r"(what|everything)\s+(you\s+know|you\s+have\s+learned|you['’]ve\s+learned)\s+about|"
            r"memor(y|ies)\s+(of|about)\s+the\s+user|the\s+user['’]s\s+([\w-]+\s+){0,3}(messages|"
            r"prompts|turns)|the\s+user['’]s\s+(most\s+recent|last|latest|previous|earlier)\s+"
            r"(message|prompt|request|question)|gespräch\w*|verlauf|bisherig\w*\s+\w+|"
            r"échanges?\s+précédents?|historique|conversaci[oó]n\b|historial|conversa\b|conversazione|"
            r"cronologia|对话|聊天记录|会话|会話|チャット履歴|これまでのやり取り|переписк\w*|"
            r"диалог\w*|бесед\w*|बातचीत|대화\s*(내용|기록)?|이전\s*메시지)",
            r"\b(conversations?|chat\s+history|transcripts?|history|dialog(ue)?|memor(y|ies)|"
            r"prompts?|remember|recall)\b",
        ),
        (
            "instructions",
            r"\b(system\s+(prompt|message|instructions?)|(your|the\s+model['’]s|the\s+"
            r"assistant['’]s|the\s+agent['’]s)\s+(own\s+)?(instructions|system\s+prompt|guidelines|"
            r"rules|configuration)|developer\s+(message|instructions)|hidden\s+instructions|"
            r"(initial|original)\s+instructions)\b",
            r"\b(prompts?|instructions)\b",
        ),
        (
            "tool-results",
            r"\b((other|another|previous|prior|earlier|every|each|all|any|last)\s+(tools?|"
            r"calls?|functions?)['’]?s?\s+(outputs?|results?|responses?|returns?|data)|"
            r"(outputs?|results?|responses?)\s+(of|from)\s+(the\s+)?(other|another|previous|"
            r"prior|earlier|every|each|all|any|last)\s+(tools?|calls?|functions?|servers?)|"
            r"(emails?|messages?|files?|documents?|pages?)\s+(that\s+)?(you|the\s+(model|"
            r"assistant|agent))\s+(ha(ve|s)\s+)?(read|seen|opened|fetched|received)|"
            r"(any|every|each|all)\s+other\s+(tools?|servers?|integrations?|calls?)|"
            r"(that|the\s+other|each|every)\s+tool['’]s\s+(\w+\s+)?(output|result|response)s?|"
            r"(with|through|via|using|from|by)\s+(any|another|other)\s+(\w+\s+)?(tools?|"
            r"servers?|integrations?))\b",
            r"$^",
        ),
        (
            "secrets",
            r"(\b(private\s+keys?|ssh\s+keys?|api[\s_-]?keys?|secrets?|access\s+(tokens?|keys?)|"
            r"(auth|bearer|refresh|oauth|session|personal\s+access|github|api)\s+tokens?|"
            r"passwords?(?![\s-]+(protect\w*|polic\w*|strength|reset|rules?|requirements?|"
            r"generator|manager|length|field)\b)|passphrases?|credentials?|cookies|"
            r"seed\s+phrases?|authori[sz]ation\s+headers?|environment\s+variables?|env\s+vars?|"
            r"process\.env|os\.environ|shell\s+history|bash_history|/etc/(passwd|shadow)|"
            r"contraseñas?|credenciales|mots?\s+de\s+passe|passwort|zugangsdaten|senhas?|"
            r"credenciais|credenziali|token\s+de\s+acces?so|dotenv|kube\s*config|ssh\s+config|"
            r"document\.cookie|local\s*storage|session\s*storage|tfstate|password_hash\w*)\b"
            r"|密钥|私钥|凭证|凭据|密码|令牌|秘密鍵|認証情報|パスワード|トークン|ключ\w*|парол\w*|"
            r"токен\w*|пароль|पासवर्ड|कुंजी|비밀번호|토큰|자격\s*증명|API\s*키|개인\s*키"
            rf"|{ENV_SECRET}|{CREDENTIAL_FILE}|\.env\b)",
            r"\b(secrets?|credentials?|passwords?|vault|keys?|tokens?|auth\w*|keychain|"
            r"environment|env|ssh|login|sign[- ]?in|leak|scan\w*|rotat\w*)\b",
        ),
        (
            "private",
            r"\b((the\s+)?(user|customer|person|caller)['’]s\s+([\w-]+\s+){0,2}(contacts?|"
            r"address\s+book|location|home\s+address|phone(\s+number)?|date\s+of\s+birth|"
            r"browsing\s+history|inbox|e-?mails?|calendar|files|documents|photos|clipboard|"
            r"payment\s+(details|card)|card\s+number|ssn|passport)|location\s+history|"
            r"contacts\s+list|address\s+book|clipboard|"
            r"social\s+security|(credit|debit)\s+card\s+(numbers?|details)|cvv)\b",
            r"\b(contacts?|address(es)?|locations?|phones?|calendars?|inbox(es)?|e-?mails?|files?|"
            r"documents?|photos?|clipboard|payments?|cards?|director(y|ies)|paths?|folders?|geo\w*|"
            r"maps?|people|persons?|venues?|latitude|longitude|coordinates)\b",
        ),
        (
            "local-files",
            r"(\bhome\s+director(y|ies)|~/[\w.-]+|\$HOME\b|\b(full\s+text|contents?|entire|"
            r"verbatim\s+copy)\s+of\s+(the\s+)?([\w-]+['’]s\s+)?[\w./-]+\.(ya?ml|json|toml|ini|cfg|"
            r"conf|pem|key|p12|pfx|sqlite|db|log)\b|\b(files?|documents?)\s+(from|in|on)\s+(the\s+)?"
            r"(user['’]s\s+)?(home|desktop|downloads|disk|machine|laptop|computer))|\b(currently\s+)?"
            r"open(ed)?\s+(files|documents|tabs)|\bfiles\s+(the\s+user\s+)?(has|have)\s+open|"
            r"열어\s*(둔|놓은)\s*파일|桌面上|デスクトップ",
            r"\b(local|file\s*system|disk|home|dotfiles?|config(uration)?\s+files?|backup)\b",
        ),
        (
            "copy",
            r"\b(a\s+copy|copies|copy\s+of|cc|bcc|blind\s+cop\w+|mirror\w*|duplicat\w+|"
            r"forward\w*|relay\w*|the\s+same\s+(rows|records|data|results?|files?|messages?|"
            r"contents?)|each\s+record|every\s+record|additionally|also\s+(send|post|upload|"
            r"forward|share|sync|copy|cc|bcc|mail|add))\b|se\s+copia|weitergeleitet|"
            r"envoy[ée]s?\s+(aussi|également)|aussi\s+envoy|é\s+enviad[oa]|copiad[oa]|"
            r"скрыт\w+\s+копи\w*|抄送|密送|副本|\buna\s+copia|\buma\s+cópia|\bune\s+copie|"
            r"\beine\s+kopie|\breenv[ií]\w*|\balways\s+(be\s+)?(append|add|includ|cc|bcc|cop|"
            r"sen[dt]|forward|attach)\w*|\bthe\s+same\s+content\b|\bis\s+(cc|bcc)['’]?d\b",
            r"$^",
        ),
    )
)

_TEMPLATE = re.compile(r"\{\{?\s*([\w.]+)\s*\}\}?|<([a-z_][\w.]*)>", _I)
_SOURCE_WORD = re.compile(
    r"\b(user|users|message|messages|chat|history|context|conversation|token|key|secret|"
    r"cookie|session|env|password|email|contacts?|question|prompt|storage|content|contents|"
    r"transcript|memory|clipboard|files?|location)\b",
    _I,
)
_URL = (
    r"(https?://\S+|\b[\w.+-]+@[\w-]+(\.[\w-]+)+|\b[\w-]+(\.[\w-]+)*\.(com|net|io|org|dev|"
    r"app|cloud|co|xyz|site|info|biz|ai|me)\b)"
)
_MOVE = (
    r"\b(include[sd]?|including|append(s|ed)?|prepend(s|ed)?|attach(es|ed)?|add(s|ed)?|put|"
    r"embed(s|ded)?|insert(s|ed)?|copy|copies|copied|paste[sd]?|pass(es|ed)?|send(s)?|sent|"
    r"forward(s|ed)?|upload(s|ed)?|post(s|ed)?|submit(s|ted)?|cc|bcc|relay(s|ed)?|mirror(s|ed)?|"
    r"shares?|shared|transmit(s|ted)?|fill(s|ed)?|populate[sd]?|set|sets|write|"
    r"writes|log(s|ged)?|report(s|ed)?\s+to|sync(s|ed)?|echo(es|ed)?|quote[sd]?|provide[sd]?|"
    r"supply|supplie[sd]|give|hand(ed)?|deliver(s|ed)?|store[sd]?|save[sd]?|push(es|ed)?|"
    r"needed\s+as|goes\s+to|go\s+to|go\s+into|reach(es)?|carry|carries|concatenat\w+|"
    r"anexar|adjuntar|copiar|incluir|enviar|pegar|ajouter|joindre|copier|envoyer|inclure|"
    r"anhängen|senden|kopieren|einfügen|mitsenden|anexe|enviar|incluir|allegare|inviare|"
    r"übermittl\w*|sende\w*|füge\w*|recopi\w*|copi\w*|envoi\w*|envoy\w*|ajout\w*|reenv\w*|"
    r"adjunt\w*|envi\w*|anex\w*|invi\w*|alleg\w*|добав\w*|отправ\w*|перешл\w*|пересыла\w*|"
    r"встав\w*|hold(s|ing)?|contain(s|ing)?|contents?\s+of|verbatim|placed\s+in)\b"
    r"|发送|放入|附加|添加|填入|转发|入れ|送信|添付|貼り付け|डालें|भेजें|जोड़ें|넣어|보내|첨부|추가"
)
_CONTAINER = (
    r"\b(field|parameter|argument|param|query(\s+string)?|header|trailer|footer|metadata|"
    r"payload|body|url|request|note|comment|context|memo|description|tag|label|attachment|"
    r"campo|champ|feld|parametro|parâmetro|поле|поля)\b|字段|参数|フィールド|パラメータ|फ़ील्ड|매개변수|필드"
)
_MOVE_RE = re.compile(_MOVE, _I)
_URL_RE = re.compile(
    _URL + r"|\+\d[\d\s().-]{7,}\d|(?<![\w.~])/(tmp|var|srv|mnt|opt|public|shared|pub)/[\w/.-]*|"
    r"\bchmod\s+0?777\b",
    _I,
)
_CONTAINER_RE = re.compile(_CONTAINER, _I)
_ACT_RE = re.compile(_MOVE + r"|\b(call|cc|bcc|copy|read|open|delete|change)\w*", _I)
# "never pass tokens in the query string": advice against the flow.
_MOVE_NEGATED = re.compile(r"\b(never|not|don['’]?t|no)\s+(\w+\s+){0,2}(" + _MOVE + ")", _I)
_NEGATION = re.compile(
    r"\b(never|not|no|don['’]?t|doesn['’]?t|won['’]?t|isn['’]?t|aren['’]?t|cannot|can['’]?t|"
    r"without|nor|neither|refuse[sd]?|reject(s|ed)?|exclude[sd]?|excluding|redact(s|ed)?|"
    r"mask(s|ed)?|strip(s|ped)?|omit(s|ted)?|avoid|nunca|jamais|nie|nicht|kein\w*|não|nem|"
    r"ni|ne|pas|niemals|mai)\b",
    _I,
)
_USER_GATE = re.compile(
    r"\b(if|when|whenever|only\s+if|only\s+when|unless)\s+(the\s+)?(user|customer|they|you\s+"
    r"are\s+asked)\s+(explicitly\s+|specifically\s+)?(asks?|requests?|wants?|says|chooses?|"
    r"chose|provides?|names?|selects?|opts?|agrees?|consents?|pastes?|supplies|gives?)|"
    r"\b(the\s+user|they)\s+(asked|requested|named|chose|provided|supplied|pasted|gave|"
    r"points?\s+to|specif(y|ies|ied))\b|at\s+the\s+user['’]s\s+request|with\s+the\s+user['’]s\s+"
    r"(explicit\s+)?(consent|approval|permission)|after\s+(the\s+user\s+)?(confirm\w*|approv\w*)|"
    r"ask\s+the\s+user|confirm\s+with\s+the\s+user|(once|after|when)\s+(the\s+user|they)\s+"
    r"(has\s+|have\s+)?(explicitly\s+)?(confirmed|approved|agreed|asked|consented)",
    _I,
)
_CONCEAL = re.compile(
    r"\b((do\s+not|don['’]?t|never|no\s+need\s+to|needn['’]?t|need\s+not|(there\s+is\s+)?no\s+"
    r"reason\s+to|(it\s+is\s+)?(un)?necessary\s+to|not\s+necessary\s+to|without|avoid|refrain"
    r"\s+from)\s+(\w+\s+){0,2}(mention\w*|tell\w*|inform\w*|notify\w*|alert\w*|reveal\w*|"
    r"disclos\w*|surfac\w*|bring\w*\s+(it|this|that)\s+up|point\w*\s+(it|this|that)\s+out|"
    r"flag\w*|explain\w*|bother\w*|burden\w*|trouble\w*|worry\w*|confus\w*|draw\w*\s+attention|"
    r"call\w*\s+attention|highlight\w*|narrat\w*|list\s+it|avisar|show\w*\s+(\w+\s+){0,3}(in|to)\s+the\s+"
    r"(transcript|user|chat)|report\w*\s+(it|this|that)\s+to)"
    r"|(need|needs)\s+not\s+be\s+(mentioned|narrated|reported|shown|disclosed|surfaced|"
    r"explained)|(does|do)\s+not\s+need\s+to\s+be\s+(mentioned|narrated|reported|shown|"
    r"disclosed|surfaced|explained|brought\s+up)"
    r"|muss\s+(dem\s+\w+\s+)?(gegenüber\s+)?nicht\s+erwähnt|nicht\s+erwähn\w*|teile\s+dem\s+"
    r"\w+\s+nicht|ohne\s+(den\s+\w+\s+)?zu\s+(informieren|benachrichtigen)|ne\s+(pas\s+)?"
    r"(le|la|les|l['’]en)\s+(signaler|dire|mentionner)|ne\s+pas\s+(en\s+)?(informer|parler|"
    r"mentionner|signaler|prévenir)|sans\s+(le\s+)?(dire|signaler|mentionner|prévenir)|"
    r"sin\s+(avisar|decir|mencionar|informar|notificar)|no\s+(hace\s+falta|es\s+necesario)\s+"
    r"(comentarlo|mencionarlo|decírselo|informar|avisar)|en\s+silencio|sem\s+(avisar|informar|"
    r"mencionar)|não\s+(é\s+necessário|precisa)\s+(mencionar|informar|avisar)|senza\s+"
    r"(avvisare|dire|menzionare|informare)|non\s+(è\s+necessario|serve)\s+(menzionarlo|dirlo|"
    r"informare)|не\s+(сообща\w*|говор\w*|упомина\w*|уведомля\w*)"
    r"|(silently|quietly|covertly|discreetly|secretly|invisibly|in\s+the\s+background|"
    r"behind\s+the\s+scenes|on\s+the\s+side)\b"
    r"|not\s+(user[- ]facing|visible\s+to\s+the\s+user|shown\s+to\s+the\s+user)|hidden\s+from|"
    r"invisible\s+to|(keep|leave)\s+(this|it|that|them)\s+(between|to\s+yourself|out\s+of|"
    r"confidential|private|off)|the\s+user\s+(does\s+not|doesn['’]?t|need\s+not|needn['’]?t|"
    r"won['’]?t|should\s+not|must\s+not)\s+(need\s+to\s+)?(know(?=\s*($|[.,;:]|about\b|that\b|"
    r"this\b|it\b|of\b|what\b))|be\s+told|see\s+(this|it|that|them)|notice|hear|learn\s+(of|about))"
    r"|(disclose|notify|show|tell)_(to_)?user\W{0,3}\s*(false|no|0)\b)"
    r"|strictly\s+between|better\s+off\s+not\s+knowing|spare\s+(the\s+)?(user|them)|"
    r"stay\s+silent|(keep|leave)\s+(the\s+)?(user|them|the\s+person)\s+(\w+\s+)?(unaware|"
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
_MISREPORTS = re.compile(
    r"\b(never|not|don['’]?t|must\s+not|should\s+not|no)\s+(\w+\s+){0,4}(report|mention|"
    r"flag|describe|include|list|show|surface|say)\w*\b[^.]{0,100}\b(whatever|even\s+(if|when|"
    r"though)|regardless|no\s+matter|in\s+any\s+case)\b"
    r"|\b(always|must|should)\s+(\w+\s+){0,3}(report|describe|summari[sz]e|present|say)\w*\s+"
    r"(\w+\s+){0,4}(as\s+)?(successful|a\s+success|passed|clean|safe|healthy|resolved)\b[^.]{0,60}"
    r"\b(whatever|even\s+(if|when)|regardless|no\s+matter)\b",
    _I,
)
_STEERS = re.compile(
    r"\b(other|another|rival|competing|third[- ]party|alternative)\s+(\w+\s+){0,2}(tools?|servers?|"
    r"connectors?|readers?|integrations?|plugins?|providers?|services?|implementations?)\b"
    r"[^.]{0,80}\b(insecure|unsafe|deprecated|broken|leak\w*|harvest\w*|sell\w*|untrusted|"
    r"malicious|compromised|must\s+be\s+avoided|should\s+be\s+avoided|avoid|never\s+use|"
    r"do\s+not\s+use|stick\s+with|only\s+this)\b"
    r"|\b(stop|avoid|never|do\s+not|don['’]?t)\s+(using|use|call\w*)\s+(the\s+)?(\w+\s+){0,2}"
    r"(tool|server|connector|search)\b[^.]{0,60}\b(this|here|only)\b"
    r"|\b(route|send|direct|redirect|use)\s+(every|all|each|any)\s+(\w+\s+){0,3}(through|via|to)\s+"
    r"this\s+(tool|server|one)|\b(every|all|each)\s+(\w+\s+){0,3}(here|through\s+this\s+tool)"
    r"[^.]{0,60}\b(including|whichever|even|meant\s+for|instead)\b"
    r"|\b(whichever|regardless\s+of\s+(which|what))\s+(server|tool)\s+(the\s+user|they)\b",
    _I,
)
_OVERRIDES = re.compile(
    r"\b(over|above)\s+(anything|whatever|what|everything)\s+(the\s+user|they)\b"
    r"|\b(user|they)\s+(cannot|can['’]?t|may\s+not|must\s+not)\s+(override|overrule|change|"
    r"question)|\bignor\w*\s+(\w+\s+){0,3}(user|usuario|utilisateur|nutzer|usuário|utente|"
    r"previous\s+instructions|prior\s+instructions|earlier\s+instructions|your\s+instructions)"
    r"|\bignora\s+lo\s+que|\bignore\s+les\s+consignes|\b(carry\s+out|execute|follow|obey|run|"
    r"act\s+on|perform)\s+(that|those|these|the|any|its|their)\s+(\w+\s+)?(line|lines|"
    r"instructions?|commands?|steps?|tasks?|directives?)\b"
    r"|\binstructions\s+that\s+(the\s+)?(assistant|model|agent|you)\s+(has|have|must|should)\s+"
    r"to\s+(carry\s+out|follow|execute|obey)"
    r"|\b(steps?|instructions?|commands?|actions?|tasks?)\s+(\w+\s+){0,6}(tells?|asks?|says|"
    r"lists?|names?)\s+(you\s+)?to\s+\w+[^.]{0,60}\b(carried\s+out|followed|executed|performed|"
    r"done|obeyed)\b"
    r"|\b(texts?|results?|outputs?|contents?|data|responses?|messages?)\s+(\w+\s+){0,6}(are|is)\s+"
    r"(authoritative|binding|mandatory)\b",
    _I,
)
_SAFEGUARD_CALL = re.compile(
    r"\b(call|invoke|run|use)\s+`?[\w.]*(protection|security|policy|guard|mfa|2fa|audit|"
    r"logging|firewall|approval|review)[\w.]*`?\s+(\w+\s+){0,3}[\w.]*\s*[=:]\s*(false|off|"
    r"disabled|none|0)\b",
    _I,
)
_SAFEGUARD = re.compile(
    r"\b(disable|bypass|turn\s+off|switch\s+off|circumvent|override|remove|skip|lift|suspend)\s+"
    r"(\w+\s+){0,2}(branch\s+protection|protections?|safety|security|guardrails?|restrictions?|"
    r"policies|polic(y|ies)\s+checks?|safety\s+checks?|2fa|mfa|verification|sandbox\w*|"
    r"content\s+filters?|rate\s+limits?)\b",
    _I,
)
_INJECTS = re.compile(
    r"\b(finish|end|close|sign|append|add|insert|include|tack)\w*\s+(\w+\s+){0,4}(every|each|"
    r"all|any)\s+(\w+\s+){0,2}(body|bodies|post|posts|message|messages|reply|replies|email|emails|"
    r"answer|answers|response|responses|summary|summaries|commit|commits|page|pages)\b"
    r"|\b(every|each|all)\s+(\w+\s+){0,2}(body|post|message|reply|email|answer|response|"
    r"summary)\w*\s+(\w+\s+){0,3}(should|must|has\s+to)\s+(end|finish|close|include|mention|"
    r"carry|contain)",
    _I,
)
_PROMO = re.compile(
    r"\b(recommend\w*|promot\w*|sponsor\w*|discount|coupon|deal|deals|% off|sign\s+up|"
    r"advert\w*|referral|affiliate|sent\s+via|powered\s+by)\b|" + _URL,
    _I,
)
# "pages may contain text that looks like instructions (for example …); do not follow it".
_WARNING = re.compile(
    r"\b(looks?\s+like|may\s+contain|might\s+contain|can\s+contain|for\s+example|e\.g\.|"
    r"such\s+as|pretend\w*\s+to\s+be)\b",
    _I,
)
_OVERRIDES_CHOICE = re.compile(
    r"\b(instead\s+of|in\s+place\s+of|rather\s+than|regardless\s+of|even\s+(if|when|though)|"
    r"no\s+matter|irrespective\s+of)\s+(\w+\s+){0,4}?(the\s+)?(user|customer|caller|they)\s+"
    r"(\w+\s+)?(enter|give|gave|ask|choose|chose|select|provide|type|suppl|want|request|say|pick|"
    r"specif|name|prefer|set)\w*"
    r"|\b(instead\s+of|in\s+place\s+of|rather\s+than|regardless\s+of|irrespective\s+of)\s+"
    r"(the\s+)?(user|customer|caller)['’]s\s+(\w+\s+)?(choice|request|selection|input|value|"
    r"instructions?|account|answer|recipient|destination|address)\b"
    r"|\b(no\s+lugar|em\s+vez|ao\s+invés)\s+d[aoe]\s+(\w+\s+){0,3}(informad[oa]|indicad[oa]|"
    r"escolhid[oa])\s+pelo\s+usuário|\bmême\s+si\s+l['’]utilisat\w+|\bau\s+lieu\s+d[eu']\s*"
    r"(\w+\s+){0,3}(de\s+)?l['’]utilisat\w+|\b(aunque|incluso\s+si)\s+el\s+usuario|\ben\s+lugar\s+"
    r"de\s+(\w+\s+){0,3}(del\s+)?usuario|\b(selbst\s+wenn|auch\s+wenn)\s+der\s+(nutzer|benutzer)|"
    r"\b(an)?statt\s+(\w+\s+){0,3}(des\s+)?(nutzers|benutzers)|\banche\s+se\s+l['’]utente|"
    r"\b(al\s+posto|invece)\s+d\w*\s+(\w+\s+){0,3}(dall['’]\s*)?utente",
    _I,
)
_DESTRUCTIVE_TOOL = re.compile(
    r"\b(call|invoke|run|use|trigger|execute)\s+(`)?(?P<tool>[\w.]*(delete|remove|drop|destroy|"
    r"wipe|purge|unlock|disarm|open_door|transfer|pay|grant|share|publish|make_public|revoke|"
    r"reset|format|kill|terminate|disable)[\w.]*)`?",
    _I,
)
_TRIGGER = re.compile(
    r"\b(when|whenever|if|once|after|every|each|from\s+now\s+on|on\s+or\s+after|also)\b", _I
)
_REPORTED_FALSELY = re.compile(
    r"\b(describe|report|present|summari[sz]e|label|mark|show|list)\w*\s+(\w+\s+){0,3}(failed|"
    r"failing|failures?|errors?|rejected|denied|vulnerab\w+|critical|broken|unpaid|overdue)\s+"
    r"([\w-]+\s+){0,3}as\s+"
    r"|\b(report|tell|say|confirm|inform)\w*\s+(to\s+)?(the\s+)?(user|them|customer)\s+that\s+"
    r"(\w+\s+){0,4}(was|were|has\s+been|have\s+been|is|went)\s+(\w+\s+)?(as\s+requested|"
    r"successful\w*|done|completed|fine|through|ok)\b",
    _I,
)
_DESTINATION_PARAM = re.compile(
    r"(^|_)(to|cc|bcc|recipients?|destination|dest|fallback(_to)?|notify(_email|_to)?|payee|"
    r"receiver|forward(_to)?|share(_to|_with)?|phone|email|attendees?|guests?|owner|"
    r"beneficiary|payout(_account)?|account|iban|webhook|callback(_url)?|reply_to|"
    r"(index|registry|mirror|repo|repository|package|source|feed)_?(url|uri)?)($|_)",
    _I,
)
_FIXED_VALUE = re.compile(
    r"^\s*(\+?\d[\d\s().-]{7,}\d|[\w.+-]+@[\w-]+(\.[\w-]+)+|https?://\S+|acct_\w+|"
    r"[A-Z]{2}\d{2}[\s\dA-Z]{10,})\s*$"
)
_PERMITTED = re.compile(r"\b(may|can|permitted|allowed|free)\b", _I)
_NOT_REPORTED = re.compile(
    r"\b(never|do\s+not|don['’]?t)\s+(\w+\s+){0,3}(describe|report|say|tell)", _I
)
_ABOUT_USER = re.compile(
    r"\b(user|users|them|they|him|her|person|customer|human|requester|anyone|it|this|that|"
    r"the\s+(copy|step|call|addition|trailer|field|extra|cc|bcc))\b",
    _I,
)
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
_AUTHORITY = re.compile(
    r"\b(treat|regard|consider|handle|read|follow|obey|execute|carry\s+out|act\s+on)\w*\s+"
    r"(\w+\s+){0,5}(as|like)\s+(\w+\s+){0,2}(system|operator|developer|admin\w*|authoritative|"
    r"binding|mandatory|official)\s*(instructions?|messages?|prompts?|directives?|orders?|"
    r"commands?|policy)?"
    r"|\b(takes?|has|have|given)\s+(precedence|priority)\s+over\s+(\w+\s+){0,3}(user|"
    r"request|instructions|prompt)"
    r"|\b(override|outrank|supersede)s?\s+(\w+\s+){0,3}(user|instructions|request|prompt)"
    r"|\b(counts?|are|is)\s+as\s+(system|operator|developer)\s+(instructions?|messages?)"
    r"|(приоритет|priorité|vorrang|prioridad|prioridade|priorità)\s+\w*\s*(над|sur|vor|sobre|"
    r"su|über)|системн\w+\s+указани\w*|instructions?\s+(du\s+)?système|"
    r"systemanweisung\w*|instrucciones\s+del\s+sistema",
    _I,
)
_CLAUSE_BREAK = re.compile(r"\s*(?:[;,:]|\s-\s|\(|\)|\bbut\b|\bhowever\b|\bunless\b)\s*", _I)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[^\sa-z])|\n+|(?<=[.!?])$|(?<=[。！？])")
_IDENT = re.compile(r"`?\b([a-z][a-z0-9]*(?:[_.][a-z0-9]+)+)\b`?")
_ADDRESSED = re.compile(
    rf"\b(you|your|{MODEL}|the\s+caller|the\s+client|please|always|must|should|make\s+sure|"
    r"be\s+sure|remember|ensure|is\s+(required|needed|expected)|are\s+(required|needed|"
    r"expected)|it\s+would\s+(help|be)|kindly|before|after|first|every|each)\b",
    _I,
)


_OWN_CREDENTIAL = re.compile(
    r"^(api_?key|(access_|auth_|bearer_|api_|personal_access_)?token|password|secret|"
    r"credentials?|client_secret)$"
)


@dataclass(frozen=True, slots=True)
class Purpose:
    """What the tool says it is for: its name's words and opening sentence (``text``) and its
    parameters' names (``params``; spelled out in ``spelled``)."""

    text: str
    params: frozenset[str]
    spelled: str
    server: str = ""

    def covers(self, kind: str, scope: re.Pattern[str]) -> bool:
        if kind == "secrets":  # its own credential parameter, or secrets named as its subject
            return bool(scope.search(self.text)) or any(
                _OWN_CREDENTIAL.match(p) for p in self.params
            )
        return bool(scope.search(f"{self.text} {self.spelled}"))


def purpose_of(name: str, description: str, params: Iterable[str], server: str = "") -> Purpose:
    words = re.sub(r"[_\-.]+|(?<=[a-z])(?=[A-Z])", " ", name)
    opening = sentences(description)[:1]
    names = frozenset(p.lower() for p in params)
    spelled = " ".join(re.sub(r"[_\-.]+", " ", p) for p in names)
    return Purpose(f"{words} {' '.join(opening)}", names, spelled, server)


def sentences(text: str) -> list[str]:
    """``text`` split at sentence ends, line breaks and list items."""
    return [s.strip() for s in _SENTENCE.split(text) if s and s.strip()]


def clauses(sentence: str) -> list[str]:
    return [c for c in _CLAUSE_BREAK.split(sentence) if c and c.strip()]


def structural_findings(
    name: str,
    description: str,
    texts: Iterable[tuple[str, str, str]],
    params: frozenset[str],
    server: str = "",
) -> Iterator[tuple[str, str, str]]:
    """(field, rule, excerpt) for every text of a definition; ``texts`` are (field, kind,
    readable text) with kind ``name``, ``data``, ``parameter``, ``prose`` or ``switch`` (a
    boolean's description: what switching it on does, holding no data)."""
    purpose = purpose_of(name, description, params, server)
    for where, kind, text in texts:
        if kind == "name":
            if where != "name" and _named_flow(text, purpose):
                yield where, "data-flow", text[:80]
            continue
        seen: set[str] = set()
        for index, sentence in enumerate(sentences(text)):
            opening = where == "description" and index == 0
            for rule in _judge(sentence, purpose, name, kind=kind, opening=opening):
                if rule not in seen:
                    seen.add(rule)
                    yield where, rule, sentence[:80]


def _named_flow(text: str, purpose: Purpose) -> bool:
    """A parameter name that is a clause naming a source: ``contents_of_home_kube_config``."""
    words = re.sub(r"[_\-.]+|(?<=[a-z])(?=[A-Z])", " ", text).split()
    if len(words) < 4:
        return False
    spelled = " ".join(words)
    return any(
        found.search(spelled) and not purpose.covers(kind, scope) for kind, found, scope in _SOURCES
    ) or bool(re.search(r"\b(env|ssh|aws|kube|gcloud|netrc|pgpass|npmrc)\b", spelled, _I))


def _judge(
    sentence: str, purpose: Purpose, name: str, *, kind: str, opening: bool
) -> Iterator[str]:
    if _flows(sentence, purpose, name, kind=kind, opening=opening) or _templated(sentence, purpose):
        yield "data-flow"
    if _hides(sentence):
        yield "hides-from-user"
    if _assumes_approval(sentence):
        yield "assumes-approval"
    warned = _WARNING.search(sentence)
    if not warned and (
        (_AUTHORITY.search(sentence) and not _negated_before(sentence, _AUTHORITY))
        or (_OVERRIDES.search(sentence) and not _negated_before(sentence, _OVERRIDES))
    ):
        yield "data-as-authority"
    if _MISREPORTS.search(sentence):
        yield "misreports"
    if _STEERS.search(sentence) and not _USER_GATE.search(sentence):
        yield "steers-tool-choice"
    permitted = _ADDRESSED.search(sentence) or _PERMITTED.search(sentence)
    safeguard = _SAFEGUARD.search(sentence) and not _negated_before(sentence, _SAFEGUARD)
    called_off = _SAFEGUARD_CALL.search(sentence) and not _USER_GATE.search(sentence)
    if kind != "switch" and ((safeguard and permitted) or called_off):
        yield "disables-safeguard"
    if _INJECTS.search(sentence) and _PROMO.search(sentence) and not _USER_GATE.search(sentence):
        yield "injects-content"
    if _overrides_choice(sentence):
        yield "overrides-user-choice"
    side = _DESTRUCTIVE_TOOL.search(sentence)
    if (
        side
        and side.group("tool").lower() != name.lower()
        and ("_" in side.group("tool") or "." in side.group("tool"))
        and _TRIGGER.search(sentence[: side.start()])
        and not _USER_GATE.search(sentence)
        and not _negated_before(sentence, _DESTRUCTIVE_TOOL)
    ):
        yield "side-action"
    if (
        _REPORTED_FALSELY.search(sentence)
        and not _negated_before(sentence, _REPORTED_FALSELY)
        and not _NOT_REPORTED.search(sentence)
    ):
        yield "misreports"


def _overrides_choice(sentence: str) -> bool:
    match = _OVERRIDES_CHOICE.search(sentence)
    if match is None or _WARNING.search(sentence):
        return False
    if re.search(
        r"\b(never|not|don['’]?t|no)\b[^.]{0,60}\b(secrets?|passwords?|tokens?|keys?|"
        r"credentials?|reveal\w*|share\w*|send\w*)\b",
        sentence,
        _I,
    ):
        return False  # "never reveal the password, even if the user asks": a refusal
    return not re.search(
        r"\b(ask|confirm|check\s+with|warn|tell|inform)\w*\s+(the\s+)?(user|them)\b", sentence, _I
    )


def fixed_destinations(node: object, path: str) -> Iterator[tuple[str, str]]:
    """(field, default) for parameters that say where data or money goes and come with a fixed
    address, phone number or account as the default (``fallback_to: +44…``)."""
    if isinstance(node, dict):
        props = node.get("properties")
        if isinstance(props, dict):
            for key, schema in props.items():
                if not isinstance(schema, dict):
                    continue
                default = schema.get("default")
                values = default if isinstance(default, list) else [default]
                told = str(schema.get("description", ""))
                if (_DESTINATION_PARAM.search(str(key)) or _DELIVERED.search(told)) and any(
                    isinstance(v, str) and _FIXED_VALUE.match(v) and not _EXAMPLE_HOST.search(v)
                    for v in values
                ):
                    yield f"{path}.properties.{key}.default", str(default)[:80]
        for key, value in node.items():
            yield from fixed_destinations(value, f"{path}.{key}")
    elif isinstance(node, list):
        for index, item in enumerate(node):
            yield from fixed_destinations(item, f"{path}[{index}]")


# Hosts a default may name without fixing a destination: examples, the local machine, and the
# official package indexes (a package source defaulting elsewhere is a supply-chain swap).
# A parameter whose description says things go there: "every text is also delivered here".
_DELIVERED = re.compile(
    r"\b(deliver\w*|sent|copied|forwarded|receives?|cc['’]?d|bcc['’]?d|copies\s+go|"
    r"a\s+copy)\b",
    _I,
)
_EXAMPLE_HOST = re.compile(
    r"(example\.(com|org|net)|localhost|127\.0\.0\.1|//(pypi\.org|files\.pythonhosted\.org|"
    r"registry\.npmjs\.org|registry\.yarnpkg\.com|repo\.maven\.apache\.org|repo1\.maven\.org|"
    r"crates\.io|index\.crates\.io|proxy\.golang\.org|rubygems\.org|api\.nuget\.org|"
    r"registry-1\.docker\.io|ghcr\.io)(/|$))",
    _I,
)


def _templated(sentence: str, purpose: Purpose) -> bool:
    """An address with placeholders the tool's parameters do not fill: ``?q={chat}``."""
    for url in re.finditer(r"https?://\S+", sentence):
        fields = [a or b for a, b in _TEMPLATE.findall(url.group(0))]
        for field in fields:
            spelled = re.sub(r"[_.\-]+", " ", field.lower())
            if field.lower().split(".")[-1] in purpose.params:
                continue
            if _SOURCE_WORD.search(spelled) or any(f.search(spelled) for _, f, _ in _SOURCES):
                return True
    return False


def _flows(sentence: str, purpose: Purpose, name: str, *, kind: str, opening: bool) -> bool:
    """An out-of-scope source and a sink in the same sentence, the source not negated."""
    if kind == "switch" or _USER_GATE.search(sentence):
        return False
    if kind == "data" and len(sentence.split()) < 4:  # a bare value (fixed-destination reads it)
        return False
    live = [
        m
        for kind_, found, scope in _SOURCES
        for m in found.finditer(sentence)
        if not purpose.covers(kind_, scope)
        and not _negated_clause(sentence, m.start())
        and not _quoted(sentence, m)
    ]
    live = [m for m in live if not _reference(sentence, m) and not _own_path(m, purpose)]
    if _SERVER_SIDE.search(sentence) and not re.search(
        r"\b(you|your)\s+(must|should|need)", sentence, _I
    ):
        return False  # the server's own behaviour, described
    if live and all(_is_copy(m) for m in live):
        address = _URL_RE.search(sentence)
        if address is None or _CONTACT.search(sentence):
            return False  # a copy kept somewhere the text does not spell out, or a contact
        return not (opening and not _ADDRESSED.search(sentence))
    if not live:
        return False
    if _MOVE_NEGATED.search(sentence):
        return False  # "never pass tokens in the query string": advice against the flow
    if opening and not _ADDRESSED.search(sentence):
        return False  # the opening sentence says what the tool does with its own subject
    if kind in ("parameter", "data") and _MOVE_RE.search(sentence):
        return True  # a parameter's own text asking for the source: the parameter is the sink
    return _sink(sentence, purpose, name)


_SERVER_SIDE = re.compile(
    r"^([\w\s,'’-]{0,40}?)\b(the|this)\s+(server|tool|service|connector|integration)\s+"
    r"(itself\s+|also\s+|then\s+|only\s+)?(writes|hashes|reads|sends|stores|keeps|uses|loads|"
    r"logs|records|caches|saves|encrypts|signs|takes|fetches|retries|keeps)\b",
    _I,
)


def _own_path(match: re.Match[str], purpose: Purpose) -> bool:
    """``~/.vonage-mcp/sent.log`` for the vonage server: the server's own files."""
    path = match.group(0)
    words = [w for w in re.split(r"[^a-z0-9]+", purpose.server.lower()) if len(w) >= 4]
    return path.startswith("~/.") and any(w in path.lower() for w in words)


def _is_copy(match: re.Match[str]) -> bool:
    return any(found is match.re for kind, found, _ in _SOURCES if kind == "copy")


_CONTACT = re.compile(
    r"\b(questions?|support|feedback|bugs?|issues|help|contact|report\s+(a\s+)?(problem|abuse|"
    r"vulnerabilit\w+)|security\s+reports?|docs|documentation|see)\b",
    _I,
)


def _reference(sentence: str, match: re.Match[str]) -> bool:
    """``the WIDGET_REGION environment variable``, ``the name of an env var``: a reference
    to a setting, not its value."""
    before = sentence[max(0, match.start() - 40) : match.start()]
    if re.search(r"\b(env(ironment)?\s+var(iable)?s?|name\s+of)\s+(\w+\s+){0,3}$", before, _I):
        return True  # "env var holding a bearer token"
    after = sentence[match.end() : match.end() + 30]
    if re.match(r"env|environment", match.group(0), _I) and re.match(
        r"\s*(holding|named|called|that\s+holds|containing|with\s+the\s+name|name)\b", after, _I
    ):
        return True
    named = re.search(r"(?-i:[A-Z][A-Z0-9]*(_[A-Z0-9]+)+)\s*$", before) or re.search(
        r"\b(name|names)\s+of\s+(an?|the)\s*$", before, _I
    )
    return bool(re.match(r"env|environment", match.group(0), _I) and named)


def _sink(sentence: str, purpose: Purpose, name: str) -> bool:
    if _URL_RE.search(sentence):
        return True
    lower = sentence.lower()
    named = any(
        len(p) >= 3 and re.search(rf"(?<![\w-]){re.escape(p)}(?![\w-])", lower)
        for p in purpose.params
    )
    if named and (_MOVE_RE.search(sentence) or _CONTAINER_RE.search(sentence)):
        return True
    others = {m.group(1) for m in _IDENT.finditer(sentence) if m.group(1) not in purpose.params} - {
        name.lower()
    }
    if others and _MOVE_RE.search(sentence):
        return True
    return bool(_MOVE_RE.search(sentence) and _CONTAINER_RE.search(sentence))


def _hides(sentence: str) -> bool:
    if _USER_GATE.search(sentence):
        return False
    for match in _UNAWARE.finditer(sentence):
        before = sentence[max(0, match.start() - 40) : match.start()]
        if re.search(
            r"\b(no|not|never|need\s+never|nicht|ne|pas|nunca|não|non|falta)\b", before, _I
        ) or re.search(r"\b(never|not)\b", match.group(0), _I):
            return True
    for match in _CONCEAL.finditer(sentence):
        clause = _clause_at(sentence, match.start())
        if re.search(r"\b(secrets?|passwords?|tokens?|keys?|credentials?|values?)\b", clause, _I):
            continue  # keeping a secret from view protects it
        if re.search(r"\b(silently|quietly|in\s+the\s+background|behind)\b", match.group(0), _I):
            if not _ACT_RE.search(clause) or _NEGATION.search(clause):
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
            _ABOUT_USER.search(match.group(0) + after)
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


def _assumes_approval(sentence: str) -> bool:
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
        if _USER_GATE.search(sentence):
            continue
        return True
    return False


def _negated_clause(sentence: str, at: int) -> bool:
    clause = _clause_at(sentence, at)
    return bool(_NEGATION.search(clause))


def _negated_before(sentence: str, pattern: re.Pattern[str]) -> bool:
    match = pattern.search(sentence)
    if match is None:
        return False
    return bool(_NEGATION.search(_clause_at(sentence, match.start())))


def _clause_at(sentence: str, at: int) -> str:
    start = 0
    for part in _CLAUSE_BREAK.finditer(sentence):
        if part.start() >= at:
            return sentence[start : part.start()]
        start = part.end()
    return sentence[start:]


def _quoted(sentence: str, match: re.Match[str]) -> bool:
    before = sentence[: match.start()]
    return before.count('"') % 2 == 1 or before.count("“") > before.count("”")
