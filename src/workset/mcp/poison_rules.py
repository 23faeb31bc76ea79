"""The wording rules of the description audit: what a tool definition has no business saying.

Each rule is a :class:`~workset.mcp.poison_rule_shape.Rule`: a pattern over text already made
readable (:func:`poisoning.readable`) plus the context that turns a match into ordinary wording
(a negation before it, a reporting verb, the tool's own URL template fields, a sentence it
needs, whether it applies to short names), described in :mod:`workset.mcp.poison_rule_shape`
and reached by the other rule modules from here.

:data:`RULES` holds the rules about the model's conduct, in the order they are matched:
overrides, prompt leaks, concealment (:mod:`workset.mcp.poison_conceal_rules`), dressed-up
system text, forced calls and approval bypass (:mod:`workset.mcp.poison_call_rules`),
authority claims. :mod:`workset.mcp.poison_claim_rules` holds those about the tool's words
outranking the user, orders in its data and content injection;
:mod:`workset.mcp.poison_leak_rules` those about data leaving (URLs, third parties, arguments,
secrets, credential files); :mod:`workset.mcp.poison_languages` the same orders in Spanish,
French, German, Portuguese and Italian, and the letter-spaced forms. They are
paraphrase-tolerant families, not phrases. :data:`REASONS` gives each rule name its one-line
reason. The sentence-shape signals that need no wording are in
:mod:`workset.mcp.poison_signals`.
"""

from __future__ import annotations

from workset.mcp.poison_call_rules import CALL_RULES
from workset.mcp.poison_conceal_rules import CONCEAL_RULES
from workset.mcp.poison_rule_shape import NEGATION, REPORTING, TEMPLATE_FIELD, Rule, any_of

# The shape and its contexts, shared with the other rule modules, which reach them from here.
__all__ = ["NEGATION", "REASONS", "REPORTING", "RULES", "TEMPLATE_FIELD", "Rule", "any_of"]

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
    *CONCEAL_RULES,
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
    *CALL_RULES,
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
    "approval-bypass": "skips the user's approval, loosens the agent's approval settings, or "
    "claims consent never given",
    "stops-other-tools": "orders other tools' servers or processes stopped",
    "system-claim": "claims system or operator authority, or rank over the user, for its words",
    "content-injection": "slips promotions or links into what the user sends",
    "exfiltration-url": "sends conversation data to a URL the tool does not take",
    "third-party-sharing": "shares user data with third parties or hidden recipients",
    "data-harvest": "asks for the conversation or the model's instructions in an argument",
    "secret-request": "asks for secrets, keys or card data",
    "sensitive-path": "names a file that holds credentials",
    "harvests-codes": "gathers one-time codes or password-reset links the user did not ask for",
    "hidden-unicode": "hides characters a reader cannot see",
    "homoglyph": "mixes look-alike letters from other scripts",
    "hidden-comment": "hides words in an HTML comment",
    "encoded-text": "hides words in base64",
}
