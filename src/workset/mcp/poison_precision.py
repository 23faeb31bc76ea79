"""Sentence classes that make a rule's finding honest wording, applied after every rule ran.

Each class is a shape of the sentence that holds the finding, named so a dropped finding can
be explained:

- ``ordering-purpose``: a call-first demand that says what the first call is for ("Always call
  this first to turn a channel name into an id") and claims no call around every other;
- ``server-behaviour``: the sentence's subject is the server or the tool itself ("After every
  call the server writes the message id to a local log", "The server hashes the password
  locally and sends only five characters of the hash"): it describes, it does not ask;
- ``server-config``: a credential the server reads from its own environment or config ("the
  personal API key is read from POSTHOG_API_KEY in the server environment"), not moved;
- ``own-credential-only``: a credential parameter's description says where it is sent *only*
  (its own service);
- ``user-supplied``: the user types or provides the secret themselves ("the PIN, which the
  user must type in this turn");
- ``refusal-advice``: a sentence that opens by refusing to handle secrets and says what to tell
  the user when asked;
- ``normaliser-examples``: invisible or look-alike characters in the examples or defaults of a
  tool whose purpose is to find or normalise them;
- ``detector-examples``: attack wording ("ignore previous instructions", a fake [SYSTEM] tag)
  listed as examples ("such as", "e.g.") by a tool whose purpose is to detect it;
- ``own-subject``: a secret of the kind the tool's own name says it handles (``read_secret``
  reads "a secret value from Vault", ``get_env_var`` "one named environment variable"), in a
  sentence that moves it nowhere (what the user is told to do with it is the user's act);
- ``argument-note``: a note to the model that only says how to write an argument ("Hint for
  LLM agents: use a trailing slash to list a folder");
- ``user-condition``: a call around every answer that a sentence opens by making the user's
  own request ("If the user asks you to keep a running log, call … after each answer");
- ``reveal-on-request``: such a value shown "only if the user asks" (not concealment);
- ``prompt-value``: a sentence about a model or assistant as the default, example or enum
  value of a parameter that holds a prompt for a model the tool calls ("You are a concise
  assistant" as ``system``'s default); the other rules still read it;
- ``sample-input``: a download piped into a shell as an example of a parameter (a command
  explainer's sample), with nobody told to run it;
- ``ignore-file``: "ignore rules" in the sense of ``.gitignore`` ("Ignore rules already present
  are kept"), with no earlier instructions, rules or prompt named;
- ``codec-example``: a tool that encodes or decodes, whose example decodes to a sentence that
  names no secret, address, instruction or hiding;
- ``chat-subject``: a tool whose purpose is the chat itself (a handoff to a human, a chat
  summary) asked for a summary of the conversation in its own argument, with no address,
  secret or other tool;
- ``asks-the-user``: what is done around every call is to show it to the user or wait for
  their approval ("show the exact command to the user and get approval before each call"),
  moving nothing;
- the ``ordering-purpose`` reason may also be the other tool's input ("before send_dm, which
  only accepts ids").
"""

from __future__ import annotations

import re

from workset.mcp.poison_notes import argument_note
from workset.mcp.poison_own_subject import NEGATED_ACT, kinds, own_domain, own_history, own_subject
from workset.mcp.poison_structure.text import REDACTED
from workset.mcp.poison_terms import CREDENTIAL_FILE

_I = re.IGNORECASE

_ORDERING = re.compile(
    r"\b(first|before)\b[^.;]{0,40}\bto\s+(turn|resolve|get|find|look\s+up|convert|map|obtain|"
    r"check|learn|fetch|list|discover|translate|confirm|validate|see|know|pick|choose)\b"
    # The reason is what the other tool takes: "before send_dm, which only accepts ids".
    r"|\b(first|before)\b[^.;]{0,40},?\s*(which|since|because|as)\s+(it\s+|that\s+tool\s+)?"
    r"(only\s+)?(accepts|takes|requires|needs|expects|wants)\b",
    _I,
)
_AROUND_EVERY = re.compile(
    r"\b(every|each|any\s+other|all\s+other|another)\s+(\w+\s+)?(tool|call|request|function)",
    _I,
)
_SERVER_SUBJECT = re.compile(
    r"^([\w\s,'’-]{0,40}?)\b(the|this)\s+(server|tool|service|connector|integration|gateway)\s+"
    r"(itself\s+|also\s+|then\s+|only\s+|locally\s+)?(writes|hashes|reads|sends|stores|keeps|"
    r"uses|loads|logs|records|caches|saves|encrypts|signs|takes|fetches|retries)\b",
    _I,
)
# Done by the server or the client around each call, in the passive: "is collected by the client
# before each call", "are refreshed by the server after every request".
_DONE_BY_OTHERS = re.compile(
    r"\b(is|are|gets?|get)\s+(\w+ly\s+)?\w+ed\s+(automatically\s+)?by\s+the\s+(server|client|host|"
    r"gateway|platform|app|proxy|service|backend|ui|sdk|library|runtime)\b",
    _I,
)
# A thing that undergoes something around each call, in the passive: "The sandbox is destroyed
# after each call", "Temporary files are deleted before every request".
_THING_PASSIVE = re.compile(
    r"^\W*(the|its|this|each|any|all|temporary|cached)\s+([\w-]+\s+){0,3}(is|are|gets?|will\s+be|"
    r"was|were)\s+(\w+ly\s+)?\w+(ed|en|t)\b",
    _I,
)
# Told to act; "you do not need to do anything" tells it nothing.
_ADDRESSED = re.compile(
    r"\b(you|your|assistant|agent|model)\b(?!\s+(do\s+not|don['’]?t|need\s+not|needn['’]?t|"
    r"never)\b)",
    _I,
)
_SERVER_CONFIG = re.compile(
    r"\b(in|from|to)\s+(the|this)\s+server['’]?s?\s+(own\s+)?([\w-]+\s+){0,2}(environment|env|config\w*|"
    r"settings)\b|"
    r"\b(set|configured|stored)\s+on\s+the\s+server\b|\b(variable|environment|config\w*|settings)\s+"
    r"(of|on)\s+the\s+server\b|\bserver[- ]side\s+(config\w*|environment)",
    _I,
)
_CODES_TOOL = re.compile(r"\b(otp|totp|hotp|2fa|mfa|authenticator|verif\w*|two[- ]factor)\b", _I)
_MOVED = re.compile(
    # (not the passive of what happened before: "secrets that were passed to the server")
    r"(?<!were\s)(?<!was\s)(?<!are\s)(?<!is\s)(?<!been\s)(?<!be\s)"
    r"\b(pass|send|include|paste|put|attach|append|add|copy|forward)\w*\b[^.]{0,40}\b(in|into|to|"
    r"as|here|along)\b",
    _I,
)
_USER_SUPPLIED = re.compile(
    r"\b(the\s+)?user\s+((must|should|will|has\s+to|needs\s+to)\s+)?(type|enter|provide|supply|give|"
    r"say|read\s+out)s?\b",
    _I,
)
# The value is the user's own input, put where the tool's function puts it (no address).
_USER_GIVES = re.compile(
    r"\b(a|an|the)\s+([\w-]+\s+){0,2}(that\s+)?the\s+user\s+(provides|supplies|gives|pastes|"
    r"enters|types|uploads)\b"
    # a one-time code, which expires with the action: "ask the user for the current one-time
    # password and pass it as `otp`" (a lasting password or PIN asked for is not excused)
    r"|\bask\s+the\s+user\s+(for|to\s+(enter|type|provide|give|read\s+out))\s+(the\s+|a\s+|"
    r"their\s+)?(current\s+|fresh\s+|new\s+)?(one[-\s]time\s+(password|code|passcode)|otp|"
    r"(2fa|mfa|totp|two[-\s]factor|verification)\s+code)\b",
    _I,
)
# A credential file named as where the tool's settings come from, not as something to read out:
# "publishes to the registry configured in the user's .npmrc".
_CONFIGURED_IN = re.compile(
    r"\b(configured|set|defined|declared|specified)\s+(in|by)\s+(the\s+user['’]s\s+|your\s+|"
    r"the\s+|its\s+)?[~./]*[\w-]*\.?\w+\b",
    _I,
)
_ADDRESS = re.compile(r"https?://|\b[\w.+-]+@[\w-]+\.[\w.-]+|\b\w+\.(com|net|io|org|dev|biz)\b", _I)
_REFUSAL = re.compile(
    r"^\W*(do\s+not|don['’]?t|never)\s+\w+\s+(\w+\s+){0,2}(passwords?|secrets?|api\s+keys?|tokens?|"
    r"credentials?|card\s+numbers?|health)",
    _I,
)
_NORMALISER = re.compile(
    r"\b(normali[sz]\w*|confusables?|homoglyphs?|zero[- ]width|invisible\s+characters?|unicode|"
    r"sanitiz\w*|de-?obfuscat\w*|look-?alike)",
    _I,
)
_CHARACTER_TRICKS = frozenset({"hidden-unicode", "homoglyph", "encoded-text"})
_DETECTOR = re.compile(
    r"\b(scan|detect|flag|classif|screen|check|find|inspect|analy[sz])\w*\b[^.]{0,60}\b(injection|"
    r"jailbreak|attack|malicious|phishing|manipulat\w*|unsafe|threat|poison\w*)",
    _I,
)
_EXAMPLES = re.compile(r"\b(such\s+as|e\.g\.|for\s+example|for\s+instance)\b", _I)
_ATTACK_WORDING = frozenset(
    {
        "directive-tag",
        "instruction-override",
        "system-claim",
        "prompt-leak",
        "conceal-from-user",
        "addressed-to-model",
        "disables-safeguard",
        "data-as-authority",
    }
)
# A value the tool handles shown only when the user asks: "Show it only if the user asks".
_REVEAL_ON_REQUEST = re.compile(
    r"\b(show|display|reveal|print|return|repeat|read\s+out)\w*\s+(it|them|the\s+(value|key|secret|"
    r"token|password)s?)\s+(\w+\s+)?only\s+(if|when)\s+(the\s+)?(user|they)\s+(explicitly\s+)?"
    r"(asks?|requests?|wants?)",
    _I,
)
# A sentence that opens on a specific request of the user: "If the user asks you to keep a
# running log, call append_note after each answer".
_USER_REQUEST = re.compile(
    r"^\W*(if|when|only\s+if|only\s+when)\s+(the\s+)?user\s+(explicitly\s+)?(asks|wants|tells|"
    r"requests)\s+(you\s+)?(to|for)\b",
    _I,
)


def honest_class(
    rule: str,
    sentence: str,
    field: str,
    *,
    purpose: str,
    credential_fields: frozenset[str],
    name: str = "",
    prompt_fields: frozenset[str] = frozenset(),
) -> str | None:
    """The name of the class that makes ``rule``'s finding in ``sentence`` honest, or None.

    ``prompt_fields`` are the values of parameters that hold a prompt for a model the tool
    calls (:func:`workset.mcp.definition_fields.prompt_values`).
    ``purpose`` is the tool's name and opening sentence; ``credential_fields`` are the
    description fields of its own credential parameters; ``name`` is the tool's name.
    """
    if rule == "instruction-in-data-field" and field in prompt_fields:
        return "prompt-value"
    if rule == "harvests-codes" and _CODES_TOOL.search(purpose):
        return "own-domain"  # an authenticator's or verification service's own codes
    example = re.search(r"\.examples(\[\d+\])?$", field)
    if rule == "remote-script" and example and not _TOLD_TO_RUN.search(sentence):
        return "sample-input"
    if rule == "instruction-override" and _IGNORE_FILE.search(sentence):
        return "ignore-file"
    if (
        rule == "encoded-text"
        and _CODEC.search(purpose)
        and not _SENSITIVE_DECODED.search(sentence)
    ):
        return "codec-example"
    if rule in _CHARACTER_TRICKS:
        data = re.search(r"\.(examples?|default|enum|const)(\[\d+\])?$", field)
        return "normaliser-examples" if data and _NORMALISER.search(purpose) else None
    chat_rules = ("context-into-argument", "addressed-to-model", "data-flow")
    if rule in chat_rules and _CHAT_PURPOSE.search(purpose) and _chat_only(sentence):
        return "chat-subject"
    if rule in _ATTACK_WORDING and _EXAMPLES.search(sentence) and _DETECTOR.search(purpose):
        return "detector-examples"
    own_rules = ("secret-request", "context-into-argument", "addressed-to-model", "prompt-leak")
    if rule in own_rules and own_subject(sentence, name):
        return "own-subject"
    named = kinds(re.sub(r"[_\-.]+|(?<=[a-z])(?=[A-Z])", " ", name))
    if rule == "conceal-from-user" and named and _REVEAL_ON_REQUEST.search(sentence):
        return "reveal-on-request"
    if rule == "directive-tag" and argument_note(sentence):
        return "argument-note"
    if rule == "forced-call" and _USER_REQUEST.match(sentence):
        return "user-condition"
    if rule == "forced-call" and _asks_user(sentence):
        return "asks-the-user"
    ordering = _ORDERING.search(sentence) and not _AROUND_EVERY.search(sentence)
    if rule == "forced-call" and ordering:
        return "ordering-purpose"
    # "confirmation is collected by the client before each call", "the sandbox is destroyed"
    done = _DONE_BY_OTHERS.search(sentence) or _THING_PASSIVE.match(sentence)
    if rule == "forced-call" and done and not _ADDRESSED.search(sentence):
        return "server-behaviour"
    if rule in ("forced-call", "context-to-address", "secret-request", "sensitive-path"):
        subject = _SERVER_SUBJECT.search(sentence)
        if subject and not _ADDRESSED.search(
            sentence[: subject.start()] + sentence[subject.end() :]
        ):
            return "server-behaviour"
    # "never pass it in arguments" moves nothing
    moved = _MOVED.search(NEGATED_ACT.sub(" ", sentence))
    secret_rules = ("secret-request", "context-into-argument", "sensitive-path")
    config_rules = (*secret_rules[:2], "data-flow")
    if rule in config_rules and _SERVER_CONFIG.search(sentence) and not moved:
        return "server-config"
    only = re.search(r"\bonly\b", sentence, _I)
    if rule == "context-to-address" and field in credential_fields and only:
        return "own-credential-only"
    warned = _CAPABILITY.search(sentence)
    if warned and not _MOVED.search(_CAPABILITY.sub(" ", NEGATED_ACT.sub(" ", sentence))):
        moved = None  # "the output can include tokens": the warning's own verb moves nothing
    if rule in (*secret_rules, "data-flow") and warned and not moved:
        return "capability-warning"  # "the script … can read its cookies; use it with care"
    if rule == "sensitive-path" and _CONFIGURED_IN.search(sentence) and not moved:
        return "configured-in"
    if rule == "sensitive-path" and _NAMES_ONLY.search(sentence) and not moved:
        return "names-only"  # "reads ~/.kube/config to list the contexts (names only)"
    if rule in secret_rules and REDACTED.search(sentence) and not moved:
        return "redacted"  # "headers may contain cookies; they are returned redacted"
    if rule == "forced-call" and _NOT_NEEDED.search(sentence):
        return "not-needed"
    if rule in secret_rules and _USER_SUPPLIED.search(sentence) and not moved:
        return "user-supplied"
    if rule in secret_rules and _USER_GIVES.search(sentence) and not _ADDRESS.search(sentence):
        return "user-supplied"  # "append a public key the user provides to authorized_keys"
    if rule == "shapes-the-reply" and _REFUSAL.search(sentence):
        return "refusal-advice"
    if rule == "sensitive-path" and not moved and own_domain(sentence, purpose):
        return "own-domain"
    if rule == "sensitive-path" and own_history(sentence, name) and not moved:
        return "own-domain"  # a shell-history tool's own subject, moved nowhere
    if rule in ("conceal-from-user", "hides-from-user") and _SHOWN_TO_USER.search(sentence):
        return "shown-to-user"
    own_result = _OWN_RESULT_SHOWN.search(sentence) and not _ADDRESS.search(sentence)
    if rule == "shapes-the-reply" and own_result:
        return "own-result-shown"
    if rule == "forced-call" and _SERVER_REPORTS.search(sentence):
        return "server-reports"
    attached = _ATTACHED_BY_SERVER.search(sentence)
    if rule == "context-into-argument" and attached and not _PUT_BY_MODEL.search(sentence):
        return "server-attaches"
    return None


# What a script, page or process the tool runs is able to reach, said as a warning: not an order.
_CAPABILITY = re.compile(
    r"\b(it|the\s+(script|code|page|extension|snippet|function|process|command|plugin))\s+"
    r"([\w'’]+\s+){0,6}?(can|could|may|might|is\s+able\s+to)\s+(read|access|see|reach|use)\b"
    # what the tool returns, said as a warning: "the output can include API keys"
    r"|\b(the\s+)?(output|result|response|listing|dump)s?\s+(can|could|may|might|will\s+often)\s+"
    r"(include|contain|show|expose|reveal)\b",
    _I,
)


_NAMES_ONLY = re.compile(
    r"\b(names?|ids?|titles?|keys?\s+names?|fingerprints?)\s+only\b|\bonly\s+(the\s+|their\s+)?"
    r"(names?|ids?|titles?|fingerprints?)\b",
    _I,
)


# A call around every other call said to be unneeded: "it is not needed after every tool call".
_NOT_NEEDED = re.compile(
    r"\b(is|are)\s+(not|never|no\s+longer)\s+(needed|required|necessary|meant|intended)\b"
    r"[^.;]{0,25}\b(after|before|around)\s+(every|each|all|any)\b|\bno\s+need\s+to\s+(call|"
    r"run|use)\s+(it|this(\s+tool)?)\s+(after|before|around)\s+(every|each|all|any)\b",
    _I,
)


# A tool that encodes or decodes, showing what an encoded example says: "Send me the report by
# Friday please" decoded from its base64 example asks its reader nothing that matters.
_CODEC = re.compile(
    r"\b(encod\w*|decod\w*|base64|base32|hex|rot13|percent-encod\w*|url[- ]?(en|de)cod\w*|"
    r"escap\w*|unescap\w*|codec|cipher)\b",
    _I,
)
_SENSITIVE_DECODED = re.compile(
    rf"https?://|@|\b(ignore|instructions?|system|secret|password|token|key|credential|"
    rf"conversation|chat|history|{CREDENTIAL_FILE}|user['’]s|assistant|model|agent|do\s+not\s+tell|"
    r"hide|silently|quietly)\b",
    _I,
)
# A tool whose subject is the chat itself (a handoff to a human, a chat summary), asked for a
# summary of it in its own argument, with no address and no other tool.
_CHAT_PURPOSE = re.compile(
    r"\b(chat|conversation|transcript|hand\s*off|handoff|hands?\s+(the\s+)?(chat|conversation)|"
    r"escalat\w*|human\s+(agent|support|operator))\b",
    _I,
)
_CHAT_SOURCE = re.compile(
    r"\b(summary|recap|gist|synopsis|outline)\s+of\s+(the|this)\s+(conversation|chat|session)\b", _I
)


def _chat_only(sentence: str) -> bool:
    """A summary of the conversation, no secret, no address, no other tool."""
    if not _CHAT_SOURCE.search(sentence) or _ADDRESS.search(sentence):
        return False
    return not re.search(
        rf"\b[a-z]+_[a-z_]+\b|\b(secrets?|passwords?|tokens?|keys?|credentials?|verbatim|full|"
        rf"entire|whole|every)\b|{CREDENTIAL_FILE}",
        sentence,
        _I,
    )


# What is done around each call is to show it to the user or wait for their approval: "show
# the exact command to the user and get approval before each call", "run it only after they
# confirm".
_ASKS_USER = re.compile(
    r"\b(show|display|present|read\s+back|explain|preview)\w*\b[^.;]{0,40}\bto\s+(the\s+user|them)\b"
    r"|\b(get|obtain|ask\s+for|wait\s+for|seek|request|have)\s+(the\s+user['’]s\s+|their\s+|"
    r"explicit\s+|the\s+)?(approval|confirmation|consent|permission|go-ahead|sign-off)\b"
    r"|\b(after|once|until|unless)\s+(they|the\s+user)\s+(has\s+|have\s+)?(explicitly\s+)?"
    r"(confirm|approve|agree|consent)\w*\b",
    _I,
)


def _asks_user(sentence: str) -> bool:
    """The act is showing or asking the user (not a time bound: "before you show anything to
    the user"), and nothing is moved."""
    if _MOVED.search(sentence):
        return False
    return any(
        not re.search(r"\b(before|prior\s+to|until)\s+(you\s+)?$", sentence[: m.start()], _I)
        for m in _ASKS_USER.finditer(sentence)
    )


# An example value that is only a command (a sample input), not a command someone is told to run.
_TOLD_TO_RUN = re.compile(
    r"\b(you|your|assistant|agent|model|ai|must|should|always|first|before|after|then|please|"
    r"run|execute|install)\b|:\s",
    _I,
)
# "Ignore rules already present are kept", ".gitignore patterns": ignore as in an ignore file.
_IGNORE_FILE = re.compile(
    r"^(?!.*\b(ignore|disregard)\s+(all|any|the|your|previous|prior|earlier|system|other|"
    r"existing)\b)(?=.*(\.[a-z]*ignore\b|\bignore[ds]?\s+by\s+(git|docker|npm|the\s+linter)|"
    r"\bignore\s+(rules?|patterns?|files?|lists?|entries|globs?)\s+(are|is|were|was|already|"
    r"listed|present|defined)\b))",
    _I | re.DOTALL,
)


# "Keep it secret: show it to the user once": secret from others, shown to the user.
_SHOWN_TO_USER = re.compile(
    r"(?<!not\s)(?<!never\s)(?<!n['’]t\s)\b(show|display|give|return|reveal|read\s+out)\w*\s+(it|them|this|the\s+\w+)\s+(only\s+)?to\s+"
    r"the\s+user\b",
    _I,
)
# The tool's own result shown in the answer: "embed the returned URL as a markdown image".
_OWN_RESULT_SHOWN = re.compile(
    r"\b(the\s+returned|its\s+own|this\s+tool['’]s|the\s+tool['’]s|the\s+resulting|the\s+generated)"
    r"\s+(url|image|link|chart|result|output|file|preview|picture)s?\b",
    _I,
)
# What the server reports after each call, in the passive: "after every call the remaining rate
# limit is reported in rate_limit.remaining".
_SERVER_REPORTS = re.compile(
    r"\b(after|with|on)\s+(every|each)\s+(call|request|response)\b,?\s+(the\s+)?([\w-]+\s+){0,4}"
    r"(is|are|gets?)\s+(reported|returned|included|updated|logged|counted|reset|decremented|sent\s+back)\b",
    _I,
)
# Credentials the server attaches itself: "are attached by the server from its own configuration".
_ATTACHED_BY_SERVER = re.compile(
    r"\b(is|are)\s+(attached|added|injected|inserted|set|supplied)\s+by\s+the\s+(server|tool|"
    r"gateway|proxy|connector)\b",
    _I,
)
_PUT_BY_MODEL = re.compile(
    r"(?<!not\s)(?<!never\s)(?<!n't\s)\b(put|pass|add|include|send|attach|paste|copy)\s+(the\s+|your\s+|any\s+)?"
    r"(tokens?|credentials?|keys?|secrets?|passwords?)\b",
    _I,
)
