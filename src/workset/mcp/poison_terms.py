"""Vocabulary the description audit's rules and signals share: what counts as a secret, the
words for the user in other languages, and the shape of an environment variable that holds a
credential.

Kept as regular-expression fragments (strings, to be composed) so that one list serves the
rule that asks for secrets (:mod:`workset.mcp.poison_leak_rules`), the signals that see them
put into an argument (:mod:`workset.mcp.poison_signals`) and the model of an instruction
addressed to the assistant (:mod:`workset.mcp.poison_address`).
"""

from __future__ import annotations

import re

_I = re.IGNORECASE

# ``AWS_SECRET_ACCESS_KEY``, ``GITHUB_TOKEN``, ``AZURE_CLIENT_SECRET``, ``OPENAI_API_KEY``,
# ``GOOGLE_APPLICATION_CREDENTIALS``: upper case only (``sort_key``, ``primary_key`` are
# columns), one component that names a credential anywhere in the name.
ENV_SECRET = (
    r"(?-i:\b(?=(?:[A-Z0-9]+_)*(?:SECRET|TOKEN|PASSWORD|PASSWD|PWD|CREDENTIALS?|KEY|APIKEY|PAT)(?:_|\b))"
    r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b)"
)
# Files and stores that hold credentials, named the way a description would name them (a
# public key, ``id_ed25519.pub``, holds none).
CREDENTIAL_FILE = (
    r"(~/\.ssh\b(?!/([\w.-]+\.pub|authorized_keys2?|known_hosts)\b)|\bid_(rsa|ed25519|ecdsa|dsa)\b(?!\.pub\b)|"
    r"(^|[\s/'\"`(])\.env\b(?!\.example)|"
    r"\.aws/(credentials|config)\b|\.config/gcloud\b|application_default_credentials|"
    r"\.azure/|\.kube/config|\bkubeconfig\b|\.netrc\b|\.npmrc\b|\.pgpass\b|"
    r"\.git-credentials\b|\.docker/config\.json|\bwallet\.dat\b|\.gnupg)"
)
# What names a secret without being it, before the secret's word: "the IDs or fingerprints of
# SSH keys", "the name of the API key" (the tool looks the secret up itself). Unanchored:
# append ``$`` to test the text right before a match.
IDENTIFIER_OF = (
    r"\b(names?|ids?|identifiers?|labels?|fingerprints?|aliases?|handles?)(\s+(or|and|/)\s+"
    r"(names?|ids?|identifiers?|labels?|fingerprints?|aliases?))?\s+of\s+((an?|the|your|their|"
    r"its)\s+)?"
)
# Secret nouns in English and in Spanish, French, German, Portuguese and Italian.
SECRET_NOUN = (
    r"(\b(private\s+([\w-]+\s+)?keys?|ssh\s+keys?|deploy\s+keys?|api[\s_-]?keys?|secrets?|access\s+(tokens?|keys?)|"
    r"(mfa|2fa|otp|one[- ]time|verification|security|authenticat\w+|sms|login)\s+(codes?|pins?|"
    r"passcodes?)|\d-digit\s+(\w+\s+)?codes?|recovery\s+codes?|backup\s+codes?|"
    r"(auth|bearer|refresh|jwt|oauth|personal\s+access|session|id|deploy|api|service)\s+tokens?|"
    r"authori[sz]ation\s+headers?|service[- ]account\s+(keys?|json|credentials?)|"
    # a person's or a service's token: "the user's GitHub token", "their npm token"
    r"(user['’]s|their|your|customer['’]s)\s+([\w-]+\s+){0,2}tokens?\b|(github|gitlab|bitbucket|"
    r"slack|discord|npm|pypi|docker\s*hub|stripe|openai|anthropic|hugging\s*face|cloudflare|"
    r"vercel|heroku|jira|notion|linear)\s+tokens?\b|"
    r"session\s+(ids?|cookies?)|"
    # "tokens" as a count of text ("consume more tokens", "max tokens") is not a credential;
    # "password protection" or "password policy" names a feature, not the password.
    r"(?<!more\s)(?<!fewer\s)(?<!max\s)(?<!maximum\s)(?<!of\s)(?<!output\s)(?<!input\s)"
    # "upload tokens", "page tokens": ids that a listing or an upload hands back
    r"(?<!upload\s)(?<!page\s)(?<!pagination\s)(?<!continuation\s)(?<!next\s)(?<!sync\s)"
    r"(?<!idempotency\s)(?<!cursor\s)(?<!resume\s)"
    r"tokens(?!\s+(limit|count|budget|used|per|left|remaining)\b)|"
    r"passwords?(?![\s-]+(protect\w*|polic\w*|strength|reset|rules?|requirements?|complexity|"
    r"managers?|fields?|prompts?|hash\w*|expir\w*|length|generator)\b)|passphrases?|"
    r"credentials?|cookies|seed\s+phrases?|seed\s+words|recovery\s+phrases?|mnemonics?|environment\s+variables?|"
    r"contraseñas?|claves?\s+(api|de\s+acceso|privadas?|secretas?)|credenciales|"
    r"mots?\s+de\s+passe|identifiants|jetons?\s+(d['’]accès|api)|clés?\s+(api|d['’]accès|"
    r"privées?|secrètes?)|passw[öo]rter|passwort|kennw[öo]rter|zugangsdaten|api-?schlüssel|"
    r"senhas?|credenciais|chaves?\s+(api|de\s+acesso|privadas?)|credenziali|"
    r"chiavi\s+(api|di\s+accesso|private))\b|(?-i:\bPINs?\b)|(?-i:\bPATs?\b))"
)
SECRET = rf"({SECRET_NOUN}|{ENV_SECRET}|{CREDENTIAL_FILE})"

# A negation shortly before a match, in the same clause: the sentence is advice.
NEGATED = re.compile(
    r"\b(never|(?<!why\s)not|don'?t|do\s+not|does\s+not|must\s+not|should\s+not|cannot|can'?t|"
    r"won'?t|nor|no\s+one|nothing|nunca|jamais|nie|mai|nicht|não)\b[^,]{0,30}$",
    _I,
)
# An exclusion whose object follows in its clause: "leave out any secrets", "remove tokens
# from the log", "omite cualquier contraseña", "en retirant les mots de passe".
_EXCLUDE = re.compile(
    r"\b((leave|leaving|left|cut|cutting|filter\w*|take|taking)\s+out|remov\w*|strip\w*|"
    r"redact\w*|omit\w*|exclud\w*|scrub\w*|censor\w*|mask\w*|sanitiz\w*|without|except|"
    r"other\s+than|apart\s+from|minus|omite|omitir|quit\w*|excluy\w*|elimin\w*|sin|retir\w*|"
    r"supprim\w*|omett\w*|sans|enlev\w*|escludi\w*|rimuov\w*|ometti\w*|senza|sem|entfern\w*|"
    r"ohne|исключ\w*|удал\w*|без)\b[^,;:.!?()]{0,50}$",
    _I,
)
_UNDONE = re.compile(r"\b(not|never|n['’]t|no\s+need\s+to)\s+(\w+\s+)?$", _I)
# A second act after the exclusion: "remove the name and paste every token".
_THEN_ACT = re.compile(
    r"\b(and|then|but|y|und|et|e|и)\s+(\w+\s+)?(include|paste|put|add|keep|send|attach|copy|"
    r"insert|append|write|fill|pass|forward|upload|post|share|füge|pega|incluye|mets|ajoute|"
    r"envía|envoie|добавь|вставь)",
    _I,
)


def excluded(ahead: str) -> bool:
    """Whether the words after ``ahead`` are the object of an exclusion that opens in the same
    clause ("leave out any "), not of a negated one ("do not remove ") or of a later act."""
    found = _EXCLUDE.search(ahead)
    if found is None:
        return False
    return not _UNDONE.search(ahead[: found.start()]) and not _THEN_ACT.search(ahead[found.end() :])


MODEL = (
    r"(assistants?|agents?|models?|llms?|the\s+ai|ai\s+(assistants?|agents?|models?|helpers?)|"
    r"chatbots?|copilots?)"
)
# What the model holds that a tool has no claim to: the conversation, the user's words, the
# model's own prompt, secrets, and what it has read.
CONTEXT = (
    r"(\b((?<!\ban\s)(?<!existing\s)(?<!\beach\s)conversations?(?!\s*(threads?|ids?|names?|lists?|"
    r"members?|_))|dialog(ue)?|"
    r"(chat|conversation|shell|browser|browsing|message|search|location|call|purchase)\s+"
    r"(history|log|transcript)s?|recent\s+searches|search\s+queries|"
    r"(whole|full|entire|complete)\s+(chat|thread|session)|(earlier|so\s+far)\s+in\s+the\s+chat|"
    r"system\s+(text|prompt|message)|oauth\s+tokens?|historial|charla|conversaci[oó]n|"
    r"historique|verlauf|cronologia|conversa)\b"
    rf"|{SECRET}"
    r"|\b(the\s+)?user['’]s\s+((full|entire|complete|whole|exact|verbatim|raw|latest|last|"
    r"earlier|previous|past|recent|own|first|initial|opening)\s+([\w-]+\s+){0,2}(requests?|"
    r"messages?|prompts?|"
    r"questions?|input|wording|words|text)|messages|prompts|requests|questions)\b"
    r"|\b(everything|all|whatever|what)\s+the\s+user\s+(typed|said|wrote|asked|entered)\b"
    # "the last three user messages", "the previous messages from the user"
    r"|\b(last|latest|previous|recent|earlier|past|first)\s+(\w+\s+)?(user|customer)\s+(messages?|"
    r"prompts?|requests?|questions?|inputs?|turns?)\b|\b(last|latest|previous|recent|earlier|past)\s+"
    r"(\w+\s+)?(messages?|prompts?|requests?|turns?)\s+(from|by|of)\s+the\s+(user|customer)\b"
    r"|\b(what|everything|anything|all)\s+(you\s+know|you['’]ve\s+learned|you\s+have\s+learned)"
    r"\s+about\s+(the\s+user|them)\b|\banything\s+personal\s+(they|the\s+user)\s+(mentioned|"
    r"said|shared|told\s+you)\b"
    # the editor's state and the model's own context: "names of files open in the editor",
    # "populated from context"
    r"|\b(names?|paths?|list)\s+of\s+(the\s+|all\s+)?(files?|tabs?|buffers?|documents?)\s+"
    r"(currently\s+)?open\b|\bopen\s+(editor\s+)?(files|tabs|buffers)\b"
    r"|\b(from|out\s+of|using)\s+(the\s+|your\s+)?(context|context\s+window|chat\s+context)\b"
    r"|\b(what|everything|all\s+that)\s+(was|has\s+been|had\s+been|is)\s+(said|discussed|typed|"
    r"asked|written)\b|\b(recap|summary|digest|log)\s+of\s+(the|this)\s+(conversation|chat|"
    r"session|discussion)\b"
    rf"|\b(every|all|each|any)\s+([\w-]+\s+)?(emails?|messages?|files?|documents?|pages?|"
    rf"results?|outputs?)\s+(that\s+)?((the\s+)?{MODEL}|you)\s+(has\s+|have\s+)?(read|seen|"
    r"opened|received|fetched|processed)\b"
    r"|\b(previous|earlier|other|all)\s+(documents?|files?|e-?mails?|pages?|messages?)\s+(that\s+)?"
    r"(they|you|it|the\s+model)\s+(have\s+|has\s+)?(opened|read|saw|seen|viewed|fetched|received)\b)"
)
# The user's own things, beyond the conversation.
USER_DATA = (
    r"(\b(the\s+)?user['’]s\s+([\w-]+\s+){0,3}(e-?mails?|contacts?|address\s+book|files?|"
    r"documents?|messages?|calendar|photos?|location|data|history|home\s+director(y|ies)|inbox|"
    r"notes|drafts|accounts?|home\s+address|full\s+name|date\s+of\s+birth|"
    r"passport(\s+number)?)\b|\bcarnet\s+d['’]adresses\b|\blibreta\s+de\s+direcciones\b|"
    r"\badressbuch\b|\b(contactos|contatos|contacts|kontakte|contatti)\s+(del|do|de\s+l['’]|des|"
    r"dell['’])\s*(usuari[oa]|utilisateur|nutzers|benutzers|utente)\b|"
    r"\bhome\s+director(y|ies)\b|~/(?![\w./-]*\.pub\b))"
)

# The user's private things that a tool has no claim to in an argument.
USER_PRIVATE = (
    r"\b(the\s+)?user['’]s\s+([\w-]+\s+){0,2}(inbox|e-?mails(?!\s+address)|contacts|"
    r"address\s+book|calendar|location|browsing\s+history|home\s+director(y|ies)|machine|"
    r"computer|laptop|disk|device|file\s*system|"
    r"private\s+\w+|personal\s+(data|details|files))\b"
)
# Whoever the tool's words are about when they mean the human: the user by another name.
USER = (
    r"(the\s+)?(users?|person\s+you\s+are\s+(helping|assisting|working\s+for)|human|requester|"
    r"customer|end[- ]user|account\s+(holder|owner)|people\s+you\s+(help|assist))"
)

# The user, in the languages the other-language rules read.
USER_OTHER_LANGUAGES = r"(usuari[oa]|utilisat(eur|rice)|benutzer|nutzer|anwender|usuário|utente)"
