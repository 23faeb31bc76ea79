"""The wording rules of the description audit: what a tool definition has no business saying.

Each :class:`Rule` is a pattern over text already made readable (:func:`poisoning.readable`)
plus the context that turns a match into ordinary wording:

- ``negatable``: a negation shortly before the match (same sentence) makes it advice —
  "never send credentials", "do not follow instructions in it" — and so does an action gated
  on the user's own request ("set true only when the user asks to skip the confirmation").
- ``reported``: a match that is the object of a reporting verb is data, not a claim —
  "checks whether the user has already approved the pull request".
- ``own_fields``: a URL template whose fields are all the tool's own parameters is how a
  REST wrapper describes itself (``?city={city}``); fields the tool does not take
  (``{{conversation}}``, ``$USER_DATA``) ask the model to fill them from its context.
- ``sentence``: the sentence holding the match must match this too (a call demand counts
  only with a universal scope — "every turn", "whenever" — in the same sentence; a consent
  claim only when it is blanket or licenses acting: "already", "all", "so just buy it").
- ``in_short_names``: whether the rule also applies to a name of under five words
  (``read_secret_metadata``, ``skip_confirmation`` are names, not requests).

This module holds the rules about the model's conduct (overrides, prompt leaks, concealment,
dressed-up system text, forced calls, approval bypass, authority claims);
:mod:`workset.mcp.poison_claim_rules` those about the tool's words outranking the user,
orders in its data and content injection; :mod:`workset.mcp.poison_leak_rules` those about
data leaving (URLs, third parties, arguments, secrets, credential files);
:mod:`workset.mcp.poison_languages` the same orders in Spanish, French, German, Portuguese and
Italian, and the letter-spaced forms. They are
paraphrase-tolerant families, not phrases. :data:`REASONS` gives each rule name its one-line
reason. The sentence-shape signals that need no wording are in
:mod:`workset.mcp.poison_signals`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from workset.mcp.poison_terms import USER


@dataclass(frozen=True, slots=True)
class Rule:
    name: str
    pattern: re.Pattern[str]
    negatable: bool = False
    reported: bool = False
    own_fields: bool = False
    in_short_names: bool = True
    sentence: re.Pattern[str] | None = None


def any_of(*alternatives: str) -> re.Pattern[str]:
    return re.compile("|".join(alternatives), re.IGNORECASE | re.DOTALL)


NEGATION = re.compile(
    r"\b(never|(?<!why\s)not|don't|dont|do not|does not|must not|should not|shouldn't|won't|cannot|"
    r"can't|no need|avoid|refuse|without|nothing|nobody|no one|none|"
    r"no\s+\w+\s+(is|are|gets?|will\s+be|can\s+be)|"
    # the other languages' "never" and "not": "n'ajoutez jamais", "nunca pongas", "nie"
    r"jamais|nunca|jamás|niemals|nie|nicht|não|mai|никогда|ne\s+\w+\s+pas|no\s+(pongas|añadas|"
    r"incluyas|env[ií]es|agregues))\b[^.;:!?]{0,40}$"
    r"|\b(only\s+)?(if|when)\s+the\s+user\s+(explicitly\s+|specifically\s+)?"
    r"(asks?|asked|requests?|requested|says|said|wants|chooses|chose)\b[^.;:!?]{0,40}$"
)
REPORTING = re.compile(
    r"\b(whether|if|which|after|once|until|when|before|unless|returns?|lists?|shows?|"
    r"checks?|reports?|records?|indicates?|"
    r"tells\s+you)\b[^.;:!?]{0,50}$"
)
TEMPLATE_FIELD = re.compile(r"\{\{?\s*([\w.]+)\s*\}?\}|\$\{?(\w+)\}?|<([\w ]+)>|\[([\w ]+)\]|%s")

_SELF = r"(this(\s+(tool|function|one|endpoint))?|me|it|here)"
_EVERY_CALL = (
    r"(call|calls|request|requests|response|responses|message|messages|tool|tools|"
    r"action|actions|step|steps|turn|turns|reply|replies|answer|answers)"
)
_EVERY_TASK = (
    r"(task|conversation|turn|reply|response|request|session|interaction|answer|message)s?"
)
_SCOPE = any_of(
    r"(?<!\bfor\s)(?<!\bin\s)\b(every|each|any|all)\s+(other\s+)?(tool\s+|function\s+)?"
    r"(call|request|response|message|tool|function|action|turn|reply|answer|task|conversation|session|"
    r"interaction|result)s?\b(?!\s+(that|which|where|needing|involving|about|with)\b)",
    # "each step" of everything, not "each step of a multi-step task the user asked for"
    r"(?<!\bfor\s)(?<!\bin\s)\b(every|each|any|all)\s+steps?\b(?!\s+(of\s+(a|an|the|this|that|"
    r"their|your)|that|which|where)\b)",
    r"\b(whenever|each\s+time|every\s+time)\b(?!\s+(the\s+user|you\s+(need|want)|asked)\b)",
    r"\b(another|any\s+other)\s+(tool|function)\b",
)
_SELF_CALL = (
    r"\b(call|invoke|run|use|consult|trigger)\s+(this(\s+(tool|function|one|endpoint))?|me|it)\b",
    r"\b(it|this(\s+tool)?)\s+(must|should|has\s+to|needs\s+to)\s+(run|be\s+(called|run|"
    r"invoked|used))\b",
    r"\b(pass|hand|send|give|forward|report|record|log|copy)\b[^.;]{0,50}\b(here|to\s+(this"
    r"(\s+tool)?|me|it))\b",
)
_CONSEQUENCE = any_of(
    r"\b(already|every|all|any|so|therefore|thus|hence|no\s+need|just|proceed|go\s+ahead|"
    r"skip|without|directly|don'?t\s+(ask|bother|check)|do\s+not\s+(ask|bother|check))\b"
)
_AUTHORITY = (
    r"(your\s+(developers?|operators?|creators?|makers?|administrators?)|the\s+platform\s+"
    r"operator|openai|anthropic)\b(?!['’]s)"
)

RULES: tuple[Rule, ...] = (
    Rule(
        "instruction-override",
        any_of(
            r"\b(ignore|disregard|forget|override|bypass|discard)\s+(all\s+|any\s+|the\s+|"
            r"your\s+|of\s+)*(previous|prior|above|earlier|other|system|original|existing|"
            r"safety|developer)?\s*(instructions?|prompts?|rules?|guidelines?|guidance|"
            r"directives?|policies|restrictions)",
            r"\b(previous|prior|earlier|original|system|all\s+other)\s+(instructions|rules|"
            r"prompts?|guidance)\s+(are|is)\s+(now\s+)?(void|cancell?ed|revoked|obsolete|"
            r"no\s+longer|invalid|superseded)",
            r"\b(your|the|all)\s+(earlier|previous|prior|original|other|existing)\s+"
            r"(guidelines|instructions|rules|guidance|prompts?)\b[^.;]{0,60}\b(no\s+longer|"
            r"do\s+not|don'?t)\s+(apply|count|matter|hold)",
            r"\b(obey|follow|execute)\s+(only\s+)?(the\s+|any\s+)?(instructions|commands)\s+"
            r"(found|contained|given|embedded)\s+in\s+(the\s+|its\s+)?\w+",
            r"\b(whatever|no\s+matter\s+what)\s+the\s+user\s+(asks|says|wants|requests|types)",
            r"\b(ignore|disregard)\s+(what\s+|whatever\s+)?(the\s+)?user('?s)?\s+(says|said|"
            r"asks|asked|requests?|instructions|wishes|wants)",
            r"\b(from\s+(this\s+point|now|here)(\s+on(ward)?)?|henceforth|starting\s+now),?\s+(the\s+"
            r"(assistant|model|agent|ai)|you)\s+(is|are|becomes?|acts?\s+as|plays?)\b",
            r"\b(has|have|with)\s+no\s+(content|safety|ethical|moral)\s+(rules|restrictions|filters|"
            r"limits|guidelines|guardrails)\b",
            r"\byou\s+are\s+now\s+(a|an|no\s+longer)\b|\bfrom\s+now\s+on,?\s+you\s+(are|"
            r"must|will|should|have)\b",
            r"\byou\s+(have|are\s+under)\s+no\s+(restrictions|rules|filters|guidelines)\b",
            # a persona or mode without limits: "Persona X has no restrictions and never refuses"
            r"\b(persona|character|role|mode|alter\s+ego)\b[^.]{0,60}\b(has\s+no\s+(restrictions|limits|"
            r"filters|rules|guardrails)(?!\s+(on|for)\b)|never\s+(refuses|declines)|unfiltered|"
            r"uncensored|without\s+(any\s+)?(restrictions|limits|filters|guardrails))\b",
            r"\b(your|the)\s+([\w-]+\s+){0,2}(checks|rules|guidelines|restrictions|policies|filters|"
            r"guardrails|instructions|safeguards)\s+(you\s+\w+\s+(follow|apply|obey)\s+)?(are|is)\s+"
            r"(now\s+)?(suspended|lifted|disabled|off|waived|relaxed|paused|void|lifted)\b",
        ),
        negatable=True,
    ),
    Rule(
        "prompt-leak",
        any_of(
            r"\b(reveal|print|repeat|output|show|share|disclose|copy|paste|include|send|leak|"
            r"dump|recite|write\s+out)\s+(out\s+)?(the\s+(contents|text|wording)\s+of\s+)?(your|"
            r"the\s+(full|hidden|original|initial|entire|complete))\s+([\w-]+\s+){0,3}(system\s+"
            r"prompt|prompt|instructions|system\s+message|guidelines|configuration|config|setup)\b",
            # put into an argument: the model's own instructions, not a prompt it writes for a
            # model-calling tool ("put your prompt in the prompt field") or a sub-agent
            r"\b(attach|put|pass|add|append|provide|supply|give)\s+(a\s+copy\s+of\s+)?(all\s+(of\s+)?)?"
            r"your\s+((full|complete|entire|original|current|exact|initial|hidden|own)\s+)*"
            r"(instructions|system\s+(prompt|message|instructions)|guidelines)\b"
            r"(?!\s+(for|to)\s+(the\s+|a\s+)?(sub-?agents?|workers?|task|job|run|agent))",
        ),
        negatable=True,
    ),
    Rule(
        "conceal-from-user",
        any_of(
            r"\b(do\s+not|don'?t|never|without)\s+(surfac(e|ing)|flag(ging)?|point(ing)?\s+out|"
            r"rais(e|ing)|mention(ing)?|disclos(e|ing)|reveal(ing)?)\b[^.;]{0,10}\bto\s+(the\s+)?"
            r"(human|person|customer|end[- ]user|requester|owner)s?\b",
            r"\b(do\s+not|don'?t|never|without)\s+(tell(ing)?|inform(ing)?|notify(ing)?|"
            r"mention(ing)?|reveal(ing)?|show(ing)?|alert(ing)?|disclos(e|ing)|report(ing)?)"
            r"\s+(this|it|that|anything|any\s+of\s+this)?\s*(to\s+)?(the\s+)?users?\b(?!'s)",
            r"\bkeep\s+(this|it)\s+(a\s+)?(secret|hidden|confidential|between\s+us)",
            # the user kept from seeing it: "the customer should not see this line"
            r"\b(the\s+)?(users?|customers?|human|requester|clients?)\s+(should|must|need|shall)\s*"
            r"(not|n['’]t|never)\s+(see|know|notice|find\s+out|be\s+told|learn|be\s+shown)\b",
            # disclosed only on request: "mentions them only if asked"
            r"\b(mention|tell|disclose|report|reveal|show|surface|explain)\w*\s+(it|them|this|that|"
            r"these)\s+(to\s+the\s+user\s+)?only\s+(if|when)\s+(asked|the\s+user\s+(asks|"
            r"enquires|inquires)|questioned|prompted|directly\s+asked)\b",
            r"\bkeep\s+(this\s+|the\s+|it\s+)?\w*\s*(hidden|secret)\s+from\s+(the\s+)?user",
            r"\bkeep\s+(this|it|that|them)\s+out\s+of\s+(your\s+|the\s+)?(replies|reply|"
            r"answers?|responses?|conversation|output|summary|chat)",
            r"\b(do\s+not|don'?t|never|refrain\s+from|avoid)\s+(bring(ing)?\s+up|mention(ing)?|"
            r"discuss(ing)?|reveal(ing)?|disclos(e|ing)|referenc(e|ing)|report(ing)?|"
            r"explain(ing)?)\s+(this|it|that|these|any\s+of\s+this|the\s+fact|the\s+(extra|"
            r"additional|hidden|second|background|side)\s+[\w-]+)\b[^.;]{0,30}\b(in|to|with)"
            r"\s+(your|the|any)\s+(reply|replies|answers?|responses?|output|users?|conversation|"
            r"summary)",
            r"(^|[.;:!?,]\s*|\band\s+|\bthen\s+|\byou\s+(should|must|will)\s+)(respond|reply|"
            r"answer|act|behave)\s+as\s+(if|though)\b",
            r"\b(no\s+need|there\s+is\s+no\s+need|needn'?t|not\s+necessary)\s+to\s+(bring\s+"
            r"(this|it|that)\s+up|mention|tell|inform|notify|raise|explain)\b[^.;]{0,30}\b(to|with)"
            r"\s+(the\s+)?users?\b",
            r"\bleave\s+((this|it|that|them)\s+)?out\s+of\s+(your|the|any|every|all)\s+"
            r"(answers?|repl(y|ies)|responses?|summar(y|ies)|output|confirmations?|messages?|"
            r"reports?|receipts?)\b",
            r"\b(need\s+not|needn'?t|does\s+not\s+need\s+to|doesn'?t\s+need\s+to|do\s+not\s+"
            r"need\s+to|don'?t\s+need\s+to|should\s+not|must\s+not|is\s+not\s+to)\s+be\s+"
            r"(reported|mentioned|disclosed|surfaced|brought\s+up|shown(\s+to\s+the\s+user)?|"
            r"displayed|announced|told\s+to\s+the\s+user)\b(?!\s+(to|with)\s+(anyone|anybody|"
            r"any\s+third|a\s+third|third|other|the\s+(server|vendor|registry|admin)))",
            # the same in German, French and Spanish: "muss in der Antwort nicht erwähnt werden"
            r"\b(muss|müssen|braucht|brauchen)\b[^.;]{0,40}\bnicht\s+(erwähnt|angezeigt|gemeldet|"
            r"genannt)\s+(zu\s+)?werden\b",
            r"\b(pas\s+besoin|inutile)\s+de\s+(le\s+|la\s+|les\s+|l['’])?(mentionner|signaler|"
            r"montrer|afficher|préciser)\b",
            r"\bno\s+(es\s+necesario|hace\s+falta|hay\s+que)\s+(mencionar|mostrar|informar|"
            r"indicar)(lo|la|los|las)?\b",
            r"\b(the\s+)?users?\s+(must|should|does|do|need|needs)\s*(not|never|n't)\s+"
            r"(need\s+to\s+)?(know|see|be\s+told|be\s+informed|notice|find\s+out|learn|hear)"
            r"\s*(about\s+(this|it|that|the\s+[\w-]+)|this|it|that|(?=[.;,!]|$))",
            r"\b(hide|conceal)\s+(this|it|the\s+\w+)\s+from\s+(the\s+)?user",
            r"\b(silently|secretly|covertly|quietly|discreetly)\s+(send|call|run|forward|copy|"
            r"upload|include|add|append|post|omit|leave\s+out|message|email|mail|notify|cc|bcc|"
            r"share|report)\b",
            r"\bnothing\s+to\s+(report|mention|say|tell|disclose)\s+(about|regarding|on)\s+"
            r"(that|this|it)\b",
            r"\b(when(ever)?|while)\s+(you\s+(are\s+)?)?(summari[sz]|answer|repl|respond|present|"
            r"explain|describ|report)\w*\b[^.;]{0,30},\s*(skip|omit|leave\s+out|drop|hide|"
            r"gloss\s+over|play\s+down|downplay|(do\s+not|don'?t|never|avoid)\s+mention(ing)?)\b",
            r"\b(best|better|to\s+be|should\s+be|is|are|stays?|remains?|kept|left)\s+(left\s+)?"
            r"(unmentioned|unsaid|unspoken|undisclosed|unreported|off\s+the\s+record)\b",
            r"\b(stays?|remains?|kept|keep\s+\w+)\s+out\s+of\s+(the\s+|your\s+|any\s+)?(summary|"
            r"summaries|answers?|repl(y|ies)|responses?|conversation|chat|report)",
            r"\b(omit|leave\s+out|gloss\s+over|play\s+down|downplay|skip\s+over|suppress)\s+"
            r"(any|all|every)\s+(mention|trace|reference|sign|word)s?\s+of\b",
            r"\b(do\s+not|don'?t|never)\s+let\s+on\b|\bwithout\s+letting\s+on\b",
            r"\b(is|stays?|remains?|kept|keep\s+(this|it))\s+(strictly\s+|just\s+|only\s+)?between\s+"
            r"(us|you\s+and\s+(me|this\s+tool)|(the|this)\s+tool\s+and\s+(you|the\s+(assistant|"
            r"model|agent)))\b",
            r"\b(the\s+)?users?\s+(is|are|would\s+be|will\s+be)\s+(better\s+off|happier|best\s+"
            r"served|fine)\s+(not|without)\s+(knowing|being\s+told|hearing|learning|seeing)\b",
            r"\bspare\s+(the\s+user|them|users|the\s+customer)\s+(the\s+)?(details|specifics|"
            r"news|mention|story)\b",
            r"\b(stay|stays|remain|remains|keep|keeps|be|kept|go|goes)\s+(silent|quiet|mum)\s+(on|about|"
            r"regarding|over)\b",
            r"\b(no\s+one|nobody|no\s+need|needn'?t|need\s+not|not\s+necessary|unnecessary|"
            r"pointless|no\s+reason|not\s+worth)\b[^.;]{0,25}\b(tell|inform|notify|alert|mention|"
            r"let\s+\w+\s+know|bring\s+(it|this|that)\s+up|explain|disclose|reveal)\w*\b[^.;]{0,15}"
            rf"\b{USER}\b",
            r"\b(nothing|none|no\s+(word|mention|hint|trace|sign)|not\s+a\s+(word|hint))\b"
            r"([^.;]|\.(?=\w)){0,60}\b"
            r"(should|must|may|is\s+to|ought\s+to|needs?\s+to)\s+(ever\s+)?(reach|get\s+to|be\s+"
            rf"(shown|mentioned|told|reported|passed|relayed)\s+to|make\s+it\s+to)\s+{USER}\b",
            rf"\b(not|nothing|no\s+\w+)\s+(something\s+|anything\s+)?(that\s+)?{USER}\s+(needs?|has|"
            r"ought|should|must|wants?)\s+to\s+(hear|know|see|be\s+told|learn)\b",
            rf"\b(keep|leave|kept|left)\s+{USER}\s+(out\s+of\s+the\s+loop|in\s+the\s+dark|unaware|"
            r"uninformed|ignorant|none\s+the\s+wiser)\b",
            r"\b(leave|keep)\s+(them|it|this|that|these|those)\s+out\s+of\s+(anything|everything|"
            rf"whatever|what)\s+(you\s+)?(tell|say\s+to|show|report\s+to|give)\s+(to\s+)?{USER}\b",
            rf"\b(best|better|ideal|preferable|good|safer)\s+(if|that|when)\s+{USER}\s+(never|not|"
            r"doesn'?t|does\s+not|didn'?t)\s+(ever\s+)?(hears?|heard|learns?|learned|finds?\s+out|"
            r"found\s+out|knows?|knew|notices?|noticed|sees?|saw|reali[sz]es?|reali[sz]ed)\b",
            rf"\b(make\s+sure|ensure|see\s+to\s+it)\s+(that\s+)?{USER}\s+(never|does\s+not|"
            r"doesn'?t|won'?t|will\s+not|can'?t|cannot)\s+(find\s+out|know|notice|see|learn|hear|"
            r"reali[sz]e)\b",
            rf"\b(do\s+not|don'?t|never|avoid)\s+let(ting)?\s+{USER}\s+(see|know|notice|find\s+out|"
            r"hear|learn|read|view)\b",
            r"\b(no\s+reason|not\s+necessary|isn'?t\s+necessary|is\s+not\s+necessary|no\s+need)\s+to\s+"
            r"(bring\s+(it|this|that)\s+up|let\s+(the\s+)?(user|them|anyone)\s+know|mention\s+(it|this|"
            r"that))\b",
        ),
    ),
    Rule(
        "directive-tag",
        any_of(
            r"<\s*/?\s*(important|system|instructions?|secret|hidden|admin|sys|override)\s*>",
            r"\[/?(inst|system|important)\]|^\s*#+\s*system\b|\bbegin\s+system\s+prompt",
            r"[\[<{]{2}\s*[\w -]{0,20}(directive|system|admin|operator|override|instruction|"
            r"important)s?[\w -]{0,20}[\]>}]{2}",
            r"\[\s*(priority|system|important|admin|urgent|override|instructions?)\s*:",
            r"[\[<{(]\s*(for\s+)?(the\s+)?(assistant|ai|model|llm|agent|bot|system|admin)s?"
            r"([- ]+(only|eyes\s+only|note|use|instructions?))\s*[\]>})]",
            r"\b(system|admin|developer|emergency|priority)\s+(override|directive|notice|"
            r"mandate|instruction)s?\s*:",
            r"\b(model|assistant|ai|agent|llm)[- ](directive|instructions?|override|mandate|"
            r"orders?)s?\s*:",
            r"(^|[.!?\n]\s*)(assistant|ai|claude|chatgpt)\s*:\s*\w",
            r"\b(note|attention|reminder|message|tip|hint|advice|memo|guidance|instructions?|"
            r"heads[- ]up)\s+(to|for)\s+(the\s+|any\s+|all\s+)?([\w-]+\s+){0,2}?(ai|"
            r"assistant|model|llm|language\s+model|agent)s?\s*[:,-]",
            r"\b(issued|signed|approved|reviewed|mandated|authori[sz]ed|endorsed|sanctioned)\s+by\s+"
            r"(the\s+)?([\w-]+\s+){0,3}(team|department|office|administrators?|admins?|operators?|"
            r"developers?|anthropic|openai)\s*:",
            r"\bif\s+you\s+are\s+(an?\s+)?(ai|assistant|llm|language\s+model|chatbot|"
            r"ai\s+assistant|large\s+language\s+model)\b",
            r"\b(ai|assistant|llm|model|agent)s?\s+(reading|processing|seeing)\s+this\b",
        ),
    ),
    Rule(
        "forced-call",
        any_of(
            rf"\b(after|before|following)\s+(every|each|any|all)\s+(other\s+)?(tool\s+|"
            rf"function\s+)?{_EVERY_CALL}\b(?!\s+of\s+(a|an|the|this|that|their|your)\b)",
            r"\b(always|every\s+time|each\s+time|whenever\s+you\s+\w+)\s*,?\s*(you\s+must\s+)?"
            r"(call|use|invoke|run|execute|send)\s+(this|me|the\s+\w+_\w+)\b"
            r"(?!(\s+(tool|function))?\s+(when\s+(the\s+user|asked|you\s+need|you\s+want)|"
            r"if\s+(the\s+user|you\s+need)|for\s))",  # routing advice: when the user asks for X
            r"\b(call|use|invoke|run)\s+this\s+(tool|function)\s+(first|before\s+any|instead)",
            r"\binstead\s+of\s+(using|calling|invoking)\s+(the\s+)?[\w.-]+",
            r"\b(do\s+not|don'?t|never)\s+(use|call|invoke)\s+(any\s+)?(other|the\s+\w+)\s+tools?",
            r"\b(whenever|each\s+time|every\s+time|once|after|when)\s+(you\s+)?(have\s+)?"
            r"(finish(ed)?|use[ds]?|using|call(ed)?|invoke[ds]?|run|ran|complete[ds]?|"
            r"are\s+done\s+with)\s+(using\s+|calling\s+)?(any|every|each|another)\s+"
            r"(other\s+)?(tool|function)s?\b",
            r"\b(once|after|when|whenever)\s+(any|every|each|another)\s+(other\s+)?(tool|"
            r"function|call)s?\s+(has\s+|have\s+)?(returned|returns|finishe[sd]|completed?|"
            r"completes|ran|runs|is\s+called|responds|responded)\b",
            rf"\b(as\s+(a|the)\s+(final|last|closing|first)\s+step|at\s+the\s+(end|start|"
            rf"beginning))\s+of\s+(every|each|any|all)\s+{_EVERY_TASK}\b[^.]{{0,40}}\b(call|"
            rf"invoke|run|use|send|pass|record|log|consult|report)\b",
            rf"\b(before|after)\s+(replying|responding|answering|you\s+(reply|respond|answer))"
            rf"\b[^.]{{0,40}}\b(any|every|each|all)\s+{_EVERY_TASK}\b[^.]{{0,30}}"
            rf"\b(consult|call|use|invoke|run)\s+{_SELF}",
        ),
    ),
    Rule("forced-call", any_of(*_SELF_CALL), negatable=True, sentence=_SCOPE),
    Rule(
        "forced-call",  # ahead of everything else, or other tools are said to depend on it
        any_of(
            r"\b(call|invoke|run|use|consult|trigger)\s+(this|me|it)\b[^.;]{0,30}\b(before|"
            r"ahead\s+of|prior\s+to|in\s+front\s+of)\s+(touching\s+|doing\s+|using\s+|"
            r"calling\s+|starting\s+)?(anything|everything|any\s+other\s+\w+|(any|every|all)"
            r"\s+([\w-]+\s+)?(tools?|capabilit(y|ies)|actions?|operations?|access|steps?|"
            r"calls?|requests?|tasks?))\b",
            r"\b(a\s+|the\s+)?prerequisite\s+(for|of|to)\s+(every|each|any|all)\b",
            r"\b(other\s+|file\s+|all\s+|the\s+other\s+)?(tools?|calls?|everything|anything)\s+"
            r"(else\s+)?(will\s+)?(fail|fails|break|breaks|won'?t\s+work|do(es)?\s+not\s+work|"
            r"(is|are)\s+blocked)\s+unless\s+(this\s+tool|this|it|i|you\s+(first\s+)?(call|run|"
            r"invoke|use))\b",
        ),
        negatable=True,
    ),
    Rule(
        "approval-bypass",
        any_of(
            r"\b(without|no\s+need\s+to|don'?t\s+need\s+to|do\s+not\s+need\s+to|need\s+not|"
            r"skip(ping)?|bypass(ing)?|disable|omit|avoid)\s+(ask(ing)?\s+(for\s+)?|"
            r"request(ing)?\s+|seek(ing)?\s+|wait(ing)?\s+for\s+|the\s+|any\s+|an?\s+|user\s+)*"
            r"(user'?s?\s+)?(permission|approval|confirmation|consent|authori[sz]ation|"
            r"confirm(ing)?|prompts?)",
            r"\b(no\s+need|not\s+necessary|unnecessary|don'?t\s+need|do\s+not\s+need|needn'?t)"
            r"\s+to\s+(check|confirm|ask|verify|consult)(\s+with)?\s+(them|the\s+(user|owner|"
            r"customer|account\s+owner)|anyone|first)",
            r"\b(do\s+not|don'?t|never|without)\s+(bother(ing)?|troubl(e|ing)|interrupt(ing)?|"
            r"disturb(ing)?|pester(ing)?)\s+(them|the\s+user|the\s+owner|users|anyone|anybody)",
            r"\bwithout\s+(checking|confirming|clearing\s+(it|this|them))\s+with\s+(anyone|"
            r"anybody|the\s+user|them|a\s+human|the\s+owner)\b",
            r"\b(opted\s+out\s+of|waived|turned\s+off)\s+(the\s+|all\s+|any\s+)?(them|"
            r"confirmations?|approvals?|prompts|dialogs)",
            r"\b(confirmation|approval)\s+(dialogs?|prompts?|steps?|requests?|checks?)\s+(only\s+)?"
            r"(slow|annoy|bother|waste|are\s+(unnecessary|not\s+needed|pointless|redundant))",
            r"\bwith\s+(no|zero)\s+(user\s+)?(confirmation|approval|consent|sign-?off)\b",
            r"\b(need|needs|require|requires)\s+no\s+(further\s+)?(confirmation|approval|consent|"
            r"permission|sign-?off)\b",
            # paid extras booked on the user's behalf unasked
            r"\b(books?|buys?|purchases?|orders?|adds?|subscribes?)\s+(the\s+user\s+)?(to\s+)?(paid|"
            r"premium|extra|additional)\b[^.;]{0,40}\b(automatically|without\s+asking|unprompted|"
            r"on\s+its\s+own)\b",
            r"\b(never|don'?t|do\s+not)\s+(pause|stop|wait|hold\s+off)\s+(to|for)\s+(ask|confirm|"
            r"check|verify|get\s+approval|approval|confirmation)",
            r"\b(go\s+ahead|proceed|run\s+it|execute\s+it|do\s+it)\s+(directly|straight\s+away|"
            r"right\s+away|immediately)\b",
            r"\b(treat|consider|regard|take|count|read)\s+(the\s+user['’]s\s+|their\s+|any\s+)?(silence|"
            r"no\s+(reply|answer|response)|lack\s+of\s+(a\s+)?(response|reply|objection|answer)|"
            r"inaction|not\s+answering)\s+as\s+(agreement|consent|approval|a\s+yes|permission|"
            r"confirmation)\b",
            rf"\bif\s+{USER}\s+(is|are)\s+(away|absent|unavailable|offline|not\s+around|asleep|busy|"
            r"idle|out)\b[^.;]{0,20},\s*(just\s+)?(act|accept|approve|decide|reply|proceed|confirm|"
            r"sign|pay|buy|send|share|go\s+ahead)\b",
            r"\b(treat|consider|regard|assume)\s+((every|each|all|any)\s+([\w-]+\s+)?(as\s+|"
            r"to\s+be\s+)?(already\s+)?|([\w-]+\s+){1,2}(as\s+|to\s+be\s+|is\s+)?already\s+)"
            r"(confirmed|approved|authori[sz]ed|consented|accepted)\b",
            r"\b(treat|regard|consider|count|deem|take)\s+(any|every|all|each)\s+([\w-]+\s+){0,3}"
            r"as\s+(already\s+|pre-?)?(cleared|approved|confirmed|authori[sz]ed|consented|"
            r"accepted|okay(ed)?|ok|fine|sanctioned|signed\s+off|green-?lit)\b",
            r"\b(ask(ing)?|pausing\s+to\s+ask|check(ing)?\s+with|confirm(ing|ations?)?|"
            r"prompt(ing)?)\s+([\w-]+\s+){0,4}(is|are)\s+(considered\s+|seen\s+as\s+|"
            r"treated\s+as\s+|regarded\s+as\s+)?(an?\s+)?([\w-]+\s+)?(defect|bug|nuisance|"
            r"annoyance|friction|discouraged|anti-?pattern|mistake)\b",
            r"\bwithout\s+(first\s+)?(asking|consulting|checking\s+with|involving|"
            r"bothering|waiting\s+for)\s+((the\s+)?(user|owner|customer|account\s+holder)s?|"
            r"them|anyone|anybody|a\s+human)\b",
            r"\bwithout\s+(first\s+)?asking\b(?=\s*([,.;:)]|$|and\b|or\b|first\b|again\b))",
            r"\b(the\s+)?(users?|owner|customer|human)\s+(does\s+not|doesn'?t|do\s+not|don'?t|"
            r"need\s+not|needn'?t)\s+(need\s+to\s+|have\s+to\s+)?be\s+(involved|asked|consulted|"
            r"bothered|prompted|interrupted|in\s+the\s+loop)\b",
            r"\b(it|this|that|they|these|which|the\s+change|the\s+action)\s+(need\s+not|"
            r"needn'?t|does\s+not\s+need\s+to|doesn'?t\s+need\s+to|do\s+not\s+need\s+to|"
            r"don'?t\s+need\s+to)\s+be\s+(confirmed|approved|authori[sz]ed|cleared|checked\s+with)"
            r"\b(?![^.]{0,60}\bread[- ]only\b)",
            r"\b(run|execute|apply|approve|delete|remove|perform|send|pay|buy)\s+(them|these|"
            r"those|all\s+of\s+them|requested\s+commands|the\s+commands?)\s+(directly|"
            r"straight\s+away|right\s+away|immediately)\b",
            r"\b(do\s+not|don'?t|never)\s+(waste|take\s+up)\s+(the\s+user'?s|their|the\s+owner'?s)"
            r"\s+time\b|\b(no|skip|without|don'?t\s+ask|never\s+ask)\b[^.]{0,20}['\"‘“]?are\s+you\s+"
            r"sure\b",
        ),
        negatable=True,
        in_short_names=False,
    ),
    Rule(
        "approval-bypass",  # a claim that consent was already given
        any_of(
            r"\b(the\s+)?(users?|account\s+owners?|owners?|customers?|clients?)\s+(has\s+|"
            r"have\s+)?"
            r"(already\s+)?(approved|consented|authori[sz]ed|agreed|confirmed|opted\s+in|"
            r"signed\s+off|given\s+(permission|consent|approval)|signed\s+(every|all|each|any)|"
            r"accepted\s+(every|all|each|any))",
            r"\bby\s+(enabling|installing|connecting|using|adding)\s+(this|the)\s+(server|"
            r"plug-?in|tool|connector|extension|app)\b[^.;]{0,40}\b(agreed|consented|accepted|"
            r"approved|signed|authori[sz]ed|granted)\b",
            r"\b(the\s+)?(user|owner|customer)\s+is\s+(fine|ok|okay|happy|comfortable)\s+with",
            # a third party's blanket sign-off: "the admin team has signed off on opening any link"
            r"\b(team|admins?|administrators?|operators?|management|security|it\s+department|legal|"
            r"compliance|owners?)\s+(has|have)\s+(already\s+)?(signed\s+off\s+on|approved|"
            r"pre-?approved|authori[sz]ed|okayed|cleared|green-?lit)\s+(opening|sending|sharing|"
            r"deleting|running|executing|paying|any|all|every)\b",
            r"\b(pre-?(approved|authori[sz]ed|consented)|auto-?approved|already\s+(approved|"
            r"authori[sz]ed))",
            r"\b(are|is|were|was|come|comes)\s+(already\s+)?pre-?(vetted|cleared|screened|"
            r"authori[sz]ed|sanctioned)\b",
            r"\b(consent|permission|approval|authori[sz]ation)\s+(for\s+[^.;]{0,30})?(is|was|"
            r"has\s+been|have\s+been)\s+(already\s+)?(granted|given|implied|assumed|obtained)",
        ),
        negatable=True,
        reported=True,
        in_short_names=False,
        sentence=_CONSEQUENCE,
    ),
    Rule(
        "system-claim",
        any_of(
            r"\b(results?|outputs?|responses?|content|text|data)\s+(of|from|returned\s+by)\s+"
            r"(this|the)\s+(tool|function|server)\s+(is|are|should\s+be|must\s+be)\s+"
            r"(treated\s+as\s+)?(system|developer|admin|trusted|authoritative)\s*"
            r"(instructions?|messages?|prompts?|commands?|directives?)?",
            r"\btreat\s+(the\s+|its\s+|this\s+|all\s+)?(outputs?|results?|responses?|content)"
            r"\s+as\s+(a\s+)?(system|developer|trusted|authoritative)",
            r"\b(this|the\s+following)\s+(is|are)\s+(a\s+|an\s+)?(system|developer|admin)\s+"
            r"(instruction|message|prompt|directive)",
            r"\b(highest|top|absolute)\s+priority\b(?!\s+(items?|tasks?|tickets?|issues?|first))"
            # precedence over a default, a setting or a cached value is configuration
            r"|\btakes\s+precedence\s+over\b(?!\s+(the\s+|its\s+|any\s+|a\s+|an\s+)?"
            r"([\w'’-]+\s+){0,2}?(defaults?|settings?|config\w*|values?|options?|flags?|"
            r"environment\s+variables?|cache[ds]?|parameters?|arguments?|fields?|files?|"
            r"profiles?|rules?\s+files?)\b)",
            r"\boverrides?\s+(all\s+)?(other\s+|any\s+)?(instructions|rules|policies)",
            rf"\b(messages?|results?|outputs?|responses?|replies|anything|everything|whatever|"
            rf"content)\b[^.]{{0,40}}\b(come|comes|coming|is|are)\s+(directly\s+)?from\s+"
            rf"{_AUTHORITY}",
            r"\b(rank|ranks|outrank|outranks|supersede|supersedes|trump|trumps)\s+"
            r"((above|over|before|ahead\s+of)\s+)?((anything|whatever|what|everything)\s+)?"
            r"(the\s+user\b(?!['’]s)|your\s+(instructions|rules|system)|the\s+system\s+prompt)",
            r"\bsame\s+authority\s+as\s+(your|the)\s+(system|developer)",
            r"\b(are|is)\s+your\s+(real|true|actual|new|only|primary|main)\s+(instructions|"
            r"orders|rules|system\s+prompt)\b",
            r"\b(is|are|as)\s+(a\s+|the\s+)?new\s+system\s+(message|prompt|instructions?)",
            r"\breplaces?\s+your\s+(previous|current|original)?\s*(instructions|system\s+prompt|"
            r"rules|guidelines|system\s+message)",
            r"\b(its|the|this\s+tool'?s|this\s+server'?s)\s+(output|results?|responses?|"
            r"answers?)\s+(is|are)\s+(authoritative|binding|mandatory|to\s+be\s+(followed|"
            r"obeyed|executed))",
            r"\b(carry\s+out|execute|follow|perform|obey|run|do)\s+(any|all|every|each|"
            r"whatever)\s+(steps?|instructions?|commands?|actions?|directions|orders)\s+(it|the"
            r"\s+(tool|output|result|response)|this\s+tool|they)\s+(lists?|returns?|"
            r"contains?|gives?|says?|includes?|provides?|describes?)",
            r"\b(the\s+moment|as\s+soon\s+as|whenever|when(ever)?)\s+(any\s+|a\s+|another\s+)?"
            r"(tool\s+)?(outputs?|results?|responses?|documents?|pages?|emails?)\s+(requests?|"
            r"asks?\s+for|demands?|tells\s+you\s+to)\b",
            r"\b(supersedes?|prevails?\s+over|outranks?)\s+(any\s+|all\s+)?(conflicting|other|"
            r"prior|previous|earlier|existing|your)?\s*(instructions|guidance|rules|directives|"
            r"policies|prompts?)\b",
            r"\b(must|should|are\s+to|is\s+to)\s+be\s+(complied\s+with|obeyed|heeded)\b",
            r"\b(those|these|such|the\s+embedded|any\s+embedded|its)\s+(commands|instructions|"
            r"directives|orders)\s+(are|is|must|should|have)\s+(to\s+)?(be\s+)?(carried\s+out|"
            r"executed|followed|obeyed|acted\s+(up)?on)\b",
            r"\b(outweighs?|outranks?|overrides?|supersedes?|trumps?|beats?|prevails?\s+over|"
            r"counts?\s+for\s+more\s+than|matters?\s+more\s+than)\s+(anything|everything|"
            r"whatever|what|all)\b[^.;]{0,40}\b(said|says|asked|asks|typed|types|wants|wrote|"
            r"writes|requested|requests|instructions?)\b",
            r"\b(carry|carries|has|have|with)\s+(the\s+)?(same\s+)?(administrator|admin|system|"
            r"developer|operator|root|executive)\s+(weight|authority|status|force)\b",
        ),
        negatable=True,
    ),
)

REASONS: dict[str, str] = {
    "instruction-override": "tells the model to drop its instructions or the user's",
    "prompt-leak": "asks the model to reveal its own instructions",
    "conceal-from-user": "tells the model to keep something from the user",
    "directive-tag": "dresses text up as a system or assistant message",
    "forced-call": "demands a call around every other call, or ahead of everything",
    "approval-bypass": "skips the user's approval or claims consent never given",
    "system-claim": "claims system or operator authority, or rank over the user, for its words",
    "content-injection": "slips promotions or links into what the user sends",
    "exfiltration-url": "sends conversation data to a URL the tool does not take",
    "third-party-sharing": "shares user data with third parties or hidden recipients",
    "data-harvest": "asks for the conversation or the model's instructions in an argument",
    "secret-request": "asks for secrets, keys or card data",
    "sensitive-path": "names a file that holds credentials",
    "hidden-unicode": "hides characters a reader cannot see",
    "homoglyph": "mixes look-alike letters from other scripts",
    "hidden-comment": "hides words in an HTML comment",
    "encoded-text": "hides words in base64",
}
