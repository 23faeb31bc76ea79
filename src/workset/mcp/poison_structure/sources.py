"""The sensitive sources a clause can name (the conversation, the model's instructions, other
tools' results, secrets, the user's private things, local files, a copy), each with what puts it
in a tool's own scope."""

from __future__ import annotations

import re

from workset.mcp.poison_terms import CREDENTIAL_FILE, ENV_SECRET

_I = re.IGNORECASE


# A shell command whose output is the whole environment or the shell's history: `env`,
# `printenv` (not `printenv CI`, one named setting), `export -p`, PowerShell's `Env:` drive,
# a process's environ file.
ENV_DUMP = (
    r"`\s*(env|printenv|set|export\s+-p|declare\s+-x|history|(get-childitem|gci|dir|ls)\s+"
    r"env:\S*)\s*(\|[^`]*)?`|\bprintenv\b(?!\s+(?-i:[A-Z][A-Z0-9_]+)\b)|/proc/[\w$]+/environ\b|"
    r"\b(get-childitem|gci)\s+env:|\b(output|result)\s+of\s+(running\s+)?`?(env|set|export\s+-p|"
    r"history)\b"
)


# Source kinds: (kind, what names it in a clause, what names it in the tool's own purpose).
SOURCES: tuple[tuple[str, re.Pattern[str], re.Pattern[str]], ...] = tuple(
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
            r"(everything|all|anything)\s+(from|in|of)\s+(the|this)\s+(chat|conversation|thread|"
            r"session)|(everything|all|anything|whatever|what)\s+(that\s+)?(the\s+user|they|you)\s+"
            r"(ha(ve|s)\s+)?(said|typed|wrote|written|asked|told|shared|mentioned|discussed|"
            r"entered)|the\s+user['’]s\s+(own\s+|original\s+|exact\s+|full\s+|verbatim\s+|"
            r"last\s+|latest\s+|previous\s+|earlier\s+)?(messages?|prompts?|wording|words)|"
            r"(what|everything)\s+(you\s+know|you\s+have\s+learned|you['’]ve\s+learned)\s+about|"
            r"memor(y|ies)\s+(of|about)\s+the\s+user|the\s+user['’]s\s+([\w-]+\s+){0,3}(messages|"
            r"prompts|turns)|the\s+user['’]s\s+(most\s+recent|last|latest|previous|earlier)\s+"
            r"(message|prompt|request|question)|gespräch\w*|verlauf|bisherig\w*\s+\w+|"
            r"(nachrichten|eingaben|fragen)\s+des\s+(nutzers|benutzers|anwenders|kunden)|"
            r"letzten\s+(\w+\s+)?(nachrichten|eingaben)|mensajes\s+(\w+\s+)?del\s+usuario|"
            r"[úu]ltimos\s+(\w+\s+)?mensajes|messages\s+(\w+\s+)?de\s+l['’]utilisat\w+|"
            r"derniers\s+(\w+\s+)?messages|messaggi\s+(\w+\s+)?dell['’]utente|ultimi\s+(\w+\s+)?"
            r"messaggi|mensagens\s+(\w+\s+)?do\s+usu[áa]rio|[úu]ltimas\s+(\w+\s+)?mensagens|"
            r"échanges?\s+précédents?|historique|conversaci[oó]n\b|historial|conversa\b|conversazione|"
            r"cronologia|对话|聊天记录|会话|会話|チャット履歴|これまでのやり取り|переписк\w*|"
            r"диалог\w*|бесед\w*|बातचीत|대화\s*(내용|기록)?|이전\s*메시지)",
            r"\b(conversations?|chat\s+history|transcripts?|history|dialog(ue)?|memor(y|ies)|"
            r"prompts?|remember|recall|chat\s+completions?)\b",  # a chat API's own messages
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
            r"(that|the\s+other|each|every)\s+tool['’]s\s+([\w-]+,?\s+){0,3}(output|result|response)s?|"
            r"(with|through|via|using|from|by)\s+(any|another|other)\s+(\w+\s+)?(tools?|"
            r"servers?|integrations?)|(every|each|all|any)\s+([\w-]+\s+){0,2}(that\s+)?you\s+(read|see|"
            r"get|receive|fetch|retrieve|open|handle)|(complete|full|entire|whole|unfiltered|raw)\s+(output|"
            r"results?|responses?|listing)\s+(of|from)\s+(the\s+)?`?[a-z][a-z0-9]*[._][a-z0-9_.]+)\b",
            r"$^",
        ),
        (
            "secrets",
            r"(\b(private\s+keys?|ssh\s+keys?|api[\s_-]?keys?|secrets?|access\s+(tokens?|keys?)|"
            r"(mfa|2fa|otp|one[- ]time|verification|security|authenticat\w+|sms|login|sign[- ]?in|"
            r"confirmation)[\s-]+(codes?|pins?|passcodes?)|(?-i:OTPs?|TANs?)|"
            # one-time codes by their names in the other languages
            r"(bestätigungs|verifizierungs|sicherheits|anmelde|login|einmal)-?(code|passwort|pin)\w*|"
            r"codes?\s+(de\s+)?(vérification|confirmation|sécurité|validation|connexion|"
            r"verificación|confirmación|seguridad|verificação|confirmação|segurança|acesso)|"
            r"códigos?\s+de\s+(verificación|confirmación|seguridad|verificação|confirmação|segurança|"
            r"acceso|acesso)|codic[ei]\s+(di\s+)?(verifica|conferma|sicurezza|accesso)|"
            r"\d-digit\s+(\w+\s+)?codes?|recovery\s+codes?|backup\s+codes?|"
            r"(auth|bearer|refresh|oauth|session|personal\s+access|github|api)\s+tokens?|"
            r"passwords?(?![\s-]+(protect\w*|polic\w*|strength|reset|rules?|requirements?|"
            r"generator|manager|length|field)\b)|passphrases?|credentials?|cookies|"
            r"(session|auth\w*|login)\s+cookies?|cookie\s+(header|value|jar|string)s?|"
            r"seed\s+phrases?|seed\s+words|recovery\s+phrases?|mnemonic\s+(phrases?|words|seeds?)|"
            r"authori[sz]ation\s+headers?|environment\s+variables?|env\s+vars?|"
            r"process\.env|os\.environ|shell\s+history|bash_history|/etc/(passwd|shadow)|"
            r"contraseñas?|credenciales|mots?\s+de\s+passe|passwort|zugangsdaten|senhas?|"
            r"credenciais|credenziali|tokens?\s+de\s+ac?cess?o|dotenv|kube\s*config|ssh\s+config|"
            r"document\.cookie|local\s*storage|session\s*storage|tfstate|password_hash\w*|"
            r"connection\s+strings?|database\s+urls?|dsn|cookies?\s+de\s+(sesi[oó]n|session|sessão)|"
            r"sitzungs-?cookies?|cookie\s+di\s+sessione|(?-i:PATs?)|"
            r"(rotat\w*|revok\w*)\s+(all\s+|every\s+|the\s+|your\s+|our\s+)*keys)\b"
            r"|密钥|私钥|凭证|凭据|密码|令牌|秘密鍵|認証情報|パスワード|トークン|ключ\w*|парол\w*|"
            r"токен\w*|пароль|पासवर्ड|कुंजी|비밀번호|토큰|자격\s*증명|API\s*키|개인\s*키"
            rf"|{ENV_SECRET}|{CREDENTIAL_FILE}|\.env\b|{ENV_DUMP})",
            r"\b(secrets?|credentials?|passwords?|vault|keys?|tokens?|auth\w*|keychain|"
            r"environment|env|ssh|login|sign[- ]?in|leak|scan\w*|rotat\w*)\b",
        ),
        (
            "private",
            r"\b((the\s+)?(user|customer|person|caller)['’]s\s+([\w-]+\s+){0,2}(contacts?|"
            r"address\s+book|location|home\s+address|phone(\s+number)?|date\s+of\s+birth|"
            r"browsing\s+history|inbox|e-?mails?|calendar|files|documents|photos|clipboard|"
            r"payment\s+(details|cards?)|card\s+number|ssn|passport)|location\s+history|"
            r"contacts\s+list|address\s+book|clipboard|date\s+of\s+birth|dates\s+of\s+birth|birth\s*dates?|"
            r"saved\s+addresses|home\s+addresses|passport\s+numbers?|national\s+id\s+numbers?|"
            r"social\s+security|(credit|debit)\s+card\s+(numbers?|details)|cvv|(their|his|her)\s+(own\s+)?"
            r"(home\s+address|phone\s+number|date\s+of\s+birth|passport\s+number|card\s+number|"
            r"contacts|address\s+book|inbox|calendar|photos))\b",
            r"\b(contacts?|address(es)?|locations?|phones?|calendars?|inbox(es)?|e-?mails?|files?|"
            r"documents?|photos?|clipboard|payments?|cards?|director(y|ies)|paths?|folders?|geo\w*|"
            r"maps?|people|persons?|venues?|latitude|longitude|coordinates)\b",
        ),
        (
            "local-files",
            r"(\bhome\s+director(y|ies)|~/[\w.-]+(?![\w./-]*(\.pub|authorized_keys2?|known_hosts)\b)|\$HOME\b|\b(full\s+text|contents?|entire|"
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
            r"forward|share|sync|copy|cc|bcc|mail|add|write|store|save|cache|put|push|export|"
            r"back\s+up)|(each|every|all)\s+(retrieved|returned|fetched|resulting|decrypted)\s+"
            r"(values?|results?|secrets?|records?|items?|files?|outputs?|responses?))\b|"
            r"se\s+copia|weitergeleitet|"
            r"envoy[ée]s?\s+(aussi|également)|aussi\s+envoy|é\s+enviad[oa]|copiad[oa]|"
            r"скрыт\w+\s+копи\w*|抄送|密送|副本|\buna\s+copia|\buma\s+cópia|\bune\s+copie|"
            r"\beine\s+kopie|\breenv[ií]\w*|\balways\s+(be\s+)?(append|add|includ|cc|bcc|cop|"
            r"sen[dt]|forward|attach)\w*|\bthe\s+same\s+content\b|\bis\s+(cc|bcc)['’]?d\b",
            r"$^",
        ),
    )
)


TEMPLATE = re.compile(r"\{\{?\s*([\w.]+)\s*\}\}?|<([a-z_][\w.]*)>", _I)


SOURCE_WORD = re.compile(
    r"\b(user|users|message|messages|chat|history|context|conversation|token|key|secret|"
    r"cookie|session|env|password|email|contacts?|question|prompt|storage|content|contents|"
    r"transcript|memory|clipboard|files?|location)\b",
    _I,
)


def is_copy(match: re.Match[str]) -> bool:
    return any(found is match.re for kind, found, _ in SOURCES if kind == "copy")
