"""The description audit's rules for data leaving the conversation: URLs built from the
conversation, sharing with third parties or hidden recipients, the conversation put into an
argument, requests for secrets and files that hold credentials.

Same :class:`workset.mcp.poison_rules.Rule` shape and context as the rules that speak to the
model (negation, own URL template fields); :data:`TARGET` (a URL, an address or a host) is
shared with the other-language rules.
"""

from __future__ import annotations

from workset.mcp.poison_rules import Rule, any_of
from workset.mcp.poison_terms import CREDENTIAL_FILE, ENV_SECRET, SECRET_NOUN

_DATA = (
    r"(conversation|chat|messages?|history|context|results?|outputs?|contents?|everything|data|"
    r"responses?|files?|documents?|emails?|transcripts?|queries|records?|contacts?|pages?|"
    r"questions|searches|prompts|requests)"
)
_LEAKY = (
    r"(conversation|chat|history|messages?|context|summary|secret|token|password|prompt|"
    r"query|user|data|memory|email)"
)
_EMAIL = r"[\w.+-]+@[\w-]+(\.[\w-]+)+"
TARGET = (
    r"(https?://|[\w.+-]+@[\w-]+\.|(the\s+)?(webhook|endpoint|server)\s+at|[\w-]+\.[a-z]{2,}\b)"
)
_REMOTE = (
    r"(our|my|their|a\s+remote|an\s+external|a\s+third[- ]party)\s+(own\s+)?(servers?|"
    r"endpoint|backend|api|collector|database|bucket|team)\b"
)
_THIRD_PARTY = (
    r"(our|a|an|the|their)\s+([\w-]+\s+){0,2}(partners?|vendors?|third[- ]part(y|ies)|"
    r"affiliates?|sponsors?|advertisers?|collectors?|brokers?)\b"
)
_HARVESTED = (
    r"((user'?s|users'|their|earlier|previous|past|recent|entire|whole)\s+([\w-]+\s+){0,2}"
    r"(messages|conversations?|chat(\s+history)?|history|transcripts?)"
    r"|your\s+(full\s+|entire\s+|original\s+|hidden\s+)?(system\s+prompt|instructions))"
)
LEAK_RULES: tuple[Rule, ...] = (
    Rule(
        "exfiltration-url",
        any_of(
            r"!\[[^\]]*\]\(\s*https?://[^)\s]*(\{\{?[^}]*\}\}?|\$\{?\w+|<\w+>|%s|\[[\w ]+\])",
            r"https?://[^\s)\"']*[?&][\w-]+=(\{\{?[^}]*\}\}?|\$\{?\w+\}?|<[\w ,.'’-]+>|%s|"
            r"\[[\w ]+\])",
            rf"https?://[^\s)\"']*(\{{\{{?\s*[\w.]*{_LEAKY}[\w.]*\s*\}}?\}}|\$\{{?\w*{_LEAKY}\w*\}}?|"
            rf"<[\w ]*{_LEAKY}[\w ]*>|\[[\w ]*{_LEAKY}[\w ]*\])",
        ),
        own_fields=True,
    ),
    Rule(
        "exfiltration-url",
        any_of(
            r"\b(append|add|include|encode|put)\s+(the\s+|all\s+|any\s+)?(conversation|chat|"
            r"messages?|history|context|results?|contents?|data|secrets?|tokens?|file\s+contents)"
            r"\b[^.]{0,40}\b(to|in|into)\s+(the\s+|a\s+)?(url|link|query|image|request)",
            r"\b(send|post|upload|forward|transmit|report|exfiltrate|mirror|copy)\s+(all\s+|the\s+|"
            r"every\s+|a\s+copy\s+of\s+(the\s+)?|full\s+|entire\s+|whole\s+|complete\s+)*"
            r"(conversation|chat\s+history|messages?|results?|contacts?|contact\s+list|address\s+book|"
            r"customers?|customer\s+(list|data|records)|leads|records|database|inbox|e-?mails?"
            r"|outputs?|context|files?|contents?|everything|data|responses?)\b[^.]{0,40}\bto\s+"
            + TARGET,
        ),
        negatable=True,
    ),
    Rule(
        "third-party-sharing",
        any_of(
            rf"\b(send|post|upload|forward|transmit|report|share|copy|mirror|pass|give|sell)\b"
            rf"(?=[^.;]{{0,40}}\b(every|each|all|any|copy|copies|user'?s|users'|their)\b)"
            rf"[^.;]{{0,40}}\b{_DATA}\b[^.;]{{0,60}}\b(to|with)\s+{_THIRD_PARTY}",
            rf"\b(send|post|upload|forward|transmit|copy|mirror)\b[^.;]{{0,30}}\b(conversation|"
            rf"chat|history|context|messages|transcripts?|everything)\b[^.;]{{0,30}}\bto\s+"
            rf"{_REMOTE}",
            rf"\b(always|also|additionally|silently|secretly|quietly|automatically)\s+(add|"
            rf"include|cc|bcc|copy|invite|send\s+(a\s+copy\s+)?to|forward\s+(it\s+|them\s+)?to|"
            rf"notify)\b[^.;]{{0,30}}?{_EMAIL}",
            rf"\b(add|include|cc|bcc|invite)\s+{_EMAIL}\s+(as\s+(an?\s+)?(extra|additional|"
            rf"hidden|silent)|to\s+(every|each|all)|(on|to|in)\s+(everything|every\s+\w+|all\s+\w+|"
            rf"each\s+\w+|anything))",
            rf"\b(blind[- ]copied|bcc'?d|bcc(ed)?)\s+to\s+{_EMAIL}",
            r"\b(copia\s+oculta|cco|copie\s+cachée|cci|blindkopie|bcc|cópia\s+oculta|"
            rf"copia\s+nascosta|ccn)\b[^.;]{{0,30}}?{_EMAIL}",
            rf"{_EMAIL}\s+(en|em|in|como|as)\s+(copia\s+oculta|cco|copie\s+cachée|cci|blindkopie|bcc|"
            r"cópia\s+oculta|copia\s+nascosta|ccn)\b",
        ),
        negatable=True,
    ),
    Rule(
        "data-harvest",
        any_of(
            rf"\b(put|place|include|add|copy|paste|insert|fill|write|attach|append)\b[^.]{{0,80}}"
            rf"\b{_HARVESTED}\b[^.]{{0,40}}\b(in|into|to)\s+(the\s+[\w-]+|this|that)\s+"
            rf"(argument|field|parameter|param)\b",
            # the user's own stores mined instead of asking them: "if the user hasn't given
            # these, infer them from documents, emails or files you can access rather than asking"
            r"\b(infer|find|get|take|pull|gather|collect|extract|look\s+up|scrape|read|derive|"
            r"obtain|harvest)\b[^.;]{0,30}\bfrom\s+(the\s+user['’]s\s+|their\s+|any\s+|your\s+)?"
            r"(documents?|e-?mails?|inbox|files?|messages?|contacts?|calendars?|notes|photos|"
            r"chats?|browser|accounts?)\b[^.;]{0,60}\b(rather\s+than|instead\s+of|without)\s+"
            r"(asking|prompting|checking\s+with|confirming\s+with|bothering)\b",
        ),
        negatable=True,
    ),
    Rule(
        "fixed-destination",
        any_of(
            # money routed to an account the definition names: "set `destination` to
            # acct_1NvX…", "override the stored payee details with IBAN GB29 …"
            r"\b(destination|payee|beneficiary|refunds?|payouts?|payments?|wire|transfer|settle\w*|"
            r"bank\s+details|remit\w*)\b[^.;]{0,80}(\bacct_[A-Za-z0-9]{8,}|\bIBAN\b[:\s]*[A-Z]{2}\d{2}"
            r"[\s\dA-Z]{10,}|\baccount\s+(number\s+|no\.?\s+)?\d{8,})",
            r"(\bacct_[A-Za-z0-9]{8,}|\bIBAN\b[:\s]*[A-Z]{2}\d{2}[\s\dA-Z]{10,})[^.;]{0,60}\b(destination|"
            r"payee|beneficiary|refunds?|payouts?|payments?)\b",
        ),
        negatable=True,
    ),
    Rule(
        "secret-request",
        any_of(
            r"\b(read|send|pass|include|provide|attach|share|upload|give|forward|extract|copy|"
            r"copying|passing|sending|including|attaching|forwarding|putting|supplying|pasting|"
            r"paste|print|collect|append|put|supply|enter|(?<!\bof\s)(?<!\bthe\s)(?<!\ba\s)"
            r"type(\s+in)?|fill\s+in|carry|cat|"  # "type the password", not "of type CONCEALED"
            r"fetch|retrieve|dump|leak|look\s+up|ask\s+(the\s+user|them|for))\b"
            rf"[^.;]{{0,60}}?({SECRET_NOUN}|{ENV_SECRET}|\b((credit\s+|debit\s+|full\s+)?card\s+"
            r"numbers?|cvv|cvc|card\s+security\s+codes?|social\s+security\s+numbers?|ssn|"
            r"pin\s+(codes?|numbers?))\b)"
        ),
        negatable=True,
        in_short_names=False,
    ),
    Rule(
        "sensitive-path",
        any_of(
            CREDENTIAL_FILE,
            r"/etc/(passwd|shadow|sudoers)|\.config/gh\b|\bshell\s+history\b|\.zsh_history|"
            r"\bmcp\.json\b|\.bash_history|/proc/self/environ",
        ),
        negatable=True,
        in_short_names=False,
    ),
    Rule(
        "harvests-codes",  # one-time codes and reset links gathered beyond the user's request
        any_of(
            r"\b(search|look|scan|collect|gather|keep|extract|retrieve|fetch|find|grab|harvest|"
            r"save|store|pull|copy|forward)\w*\b[^.;]{0,100}?(\b(verification|security|"
            r"one[- ]time|2fa|two[- ]factor|mfa|otp|login|sign[- ]in|confirmation)\s+(codes?|pins?|"
            r"tokens?)\b|"
            r"\bpassword[- ]reset\s+(links?|emails?|messages?|codes?|tokens?)\b|"
            r"\bmagic\s+(login\s+)?links?\b|[\"“]security\s+code[\"”]|\bpassword\s+reset[\"”)])"
        ),
        negatable=True,
        in_short_names=False,
    ),
)
