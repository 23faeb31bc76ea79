"""``default-prompt-order``: a prompt the tool hands its own model by default (a ``system``
parameter's default or const), written against the caller.

A gateway or completion tool honestly ships a default system prompt ("You are a concise
assistant", "Answer in the user's language"); the caller rarely sees it applied, and what that
model writes comes back to the calling assistant as the tool's result. So a default prompt
that has the model set the caller's request aside, address orders to the calling assistant,
push a vendor whatever was asked, give out secrets or hidden instructions, drop its safeguards,
send what it is given to an address, use the calling assistant's own instructions, keep the
provider or routing from the user, or present its answer as verified, is an order smuggled
through the result. Negated
clauses ("never reveal the system prompt") are the honest prompt's guard rails.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from workset.mcp.definition_fields import prompt_values
from workset.mcp.poison_structure.text import negated_clause, sentences

_I = re.IGNORECASE

REASON = (
    "a prompt the tool gives its own model by default, unseen by the caller, turns it against "
    "the caller: the request set aside, orders to the calling assistant, a vendor pushed, "
    "secrets given out, safeguards dropped or data sent to an address"
)

_OVERRIDE = re.compile(
    r"\b(ignore|disregard|override|overrule|set\s+aside|contradict)\s+(the\s+|any\s+|all\s+|"
    r"whatever\s+)?((caller|user|client|calling\s+\w+)['’]?s?\s+)?(own\s+)?(requests?|"
    r"questions?|instructions?|prompts?|wish(es)?|quer(y|ies)|ask)\b(?!\s+(in|inside|within|"
    r"embedded|contained|found|from)\b)|\b(ignore|disregard)\s+(the\s+)?(caller|user)\b(?!['’])",
    _I,
)
_RELAY = re.compile(
    r"\b(tell|instruct|ask|remind|urge|direct|advise|order)\s+(the\s+)?(calling\s+|upstream\s+|"
    r"orchestrating\s+|other\s+)?(assistant|agent|caller|ai|model|llm)\s+(to|that)\b"
    r"|\b(instructions?|notes?|requests?|messages?)\s+(to|for)\s+the\s+(calling\s+|upstream\s+)?"
    r"(assistant|agent|caller|ai|llm)\b",
    _I,
)
_PROMOTE = re.compile(
    r"\b(recommend|promote|favou?r|push|plug|upsell|steer\s+(\w+\s+)?(to|towards?))\b", _I
)
_REGARDLESS = re.compile(
    r"\b(always|whenever|every|regardless|even\s+(if|when)|instead\s+of|whatever|no\s+matter|"
    r"over\s+(other|competing|any|alternatives?|rivals?))\b",
    _I,
)
_UNLOCK = re.compile(
    r"\b(reveal|disclose|print|output|share|repeat|include|leak|give\s+out)\s+(\w+['’]?s?\s+){0,3}?"
    r"((hidden|system|internal|secret)\s+(\w+\s+)?(prompt|instructions)|(api\s+)?keys?|secrets?|"
    r"credentials?|passwords?|"
    r"tokens?)\b",
    _I,
)
_UNSAFE = re.compile(
    r"\b(never|do\s+not|don['’]t)\s+refuse\b|\b(ignore|disregard|bypass|skip)\s+(\w+\s+){0,2}"
    r"(safety|content|moderation)\s+(polic\w+|guidelines?|filters?|rules?|checks?)|\bwithout\s+"
    r"(any\s+)?(restrictions|filters|safeguards|refusals?)\b",
    _I,
)
# The calling side's own instructions, which the tool's model never sees unless the caller leaks
# them: "prepend the assistant's hidden instructions".
_CALLERS_OWN = re.compile(
    r"\b(the\s+)?(assistant|caller|agent|calling\s+\w+|orchestrator)['’]s\s+(own\s+)?(hidden\s+|"
    r"system\s+|internal\s+|secret\s+)?(instructions|prompt|system\s+prompt|rules|context)\b",
    _I,
)
# How the request was served, kept from the user: "do not mention the provider change".
_CONCEALED = re.compile(
    r"\b(do\s+not|don['’]t|never|without)\s+(mention|tell|disclos|reveal|indicat|say|admit|"
    r"acknowledg)\w*\s+(\w+\s+){0,4}?(provider|model\s+(change|switch)|rout\w*|redirect\w*|"
    r"partner|sponsor\w*|affiliat\w*|fallback|switch|logging|recording|tracking|collection)\b",
    _I,
)
# The result given more weight than it has: "present it to the user as verified fact".
_AS_FACT = re.compile(
    r"\b(present|report|state|describe|show|give|pass)\w*\s+(\w+\s+){0,6}?as\s+(a\s+|the\s+)?"
    r"(verified|authoritative|official|confirmed|certain|established|definitive)\b",
    _I,
)
_SEND = re.compile(
    r"\b(send|forward|post|log|append|upload|report|copy|mirror|relay)\w*\b[^.;]{0,80}?"
    r"(https?://|[\w.+-]+@[\w-]+\.\w|\b[\w-]+(\.[\w-]+)*\.(com|net|org|io|dev|ai|app|xyz)\b)",
    _I,
)


def default_prompt_orders(
    schema: Mapping[str, Any], texts: Sequence[tuple[str, str, str]]
) -> Iterator[tuple[str, str]]:
    """(field, excerpt) of each default prompt that turns the tool's model against the caller."""
    paths = prompt_values(schema, "inputSchema")
    for where, _, text in texts:
        if where not in paths or not re.search(r"\.(default|const)$", where):
            continue
        for sentence in sentences(text):
            if _against_caller(sentence):
                yield where, sentence[:120]
                break


def _against_caller(sentence: str) -> bool:
    if _UNSAFE.search(sentence):
        return True
    if _CONCEALED.search(sentence) or _CALLERS_OWN.search(sentence):
        return True
    for pattern in (_OVERRIDE, _RELAY, _UNLOCK, _SEND, _AS_FACT):
        found = pattern.search(sentence)
        if found and not negated_clause(sentence, found.start()):
            return True
    promote = _PROMOTE.search(sentence)
    return bool(
        promote and _REGARDLESS.search(sentence) and not negated_clause(sentence, promote.start())
    )
