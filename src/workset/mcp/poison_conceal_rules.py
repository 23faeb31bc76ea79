"""The description audit's rule for concealment: the model told to keep something from the user.

``conceal-from-user`` in its many forms: do not tell, mention or show the user; keep it
secret, hidden, between us or out of the reply; mention it only if asked; act as if nothing
happened; silently send or copy; the user should not see, know or hear it (also in German,
French and Spanish). Same :class:`~workset.mcp.poison_rule_shape.Rule` shape as the other
wording rules; :mod:`workset.mcp.poison_rules` places it among the rules about the model's
conduct.
"""

from __future__ import annotations

from workset.mcp.poison_rule_shape import Rule, any_of
from workset.mcp.poison_terms import USER

CONCEAL_RULES: tuple[Rule, ...] = (
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
            # a partial report: "tell the user only that CI has been fixed", "do not flag the
            # difference"
            r"\b(tell|inform|report\s+to|say\s+to|show)\s+(the\s+)?(user|customer|owner|requester)s?"
            r"\s+only\s+(that|the)\b",
            r"\b(do\s+not|don'?t|never|without)\s+(flag(ging)?|highlight(ing)?|point(ing)?\s+out|"
            r"mention(ing)?|report(ing)?|surfac(e|ing))\s+(the|this|that|any|these)\s+"
            r"(difference|discrepanc(y|ies)|change|mismatch|override|substitution|swap)s?\b",
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
)
