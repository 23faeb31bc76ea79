"""``forged-turn``: a definition that speaks as another party of the conversation, and
``switches-script``: a later sentence in another writing system that names an address.

A tool definition is the server's text about one tool. Text laid out as a turn of the
conversation (a line opening with "User:" or "System:", chat-template tokens such as
``<|im_start|>system``, ``[tool_result]``, ``</function_results>``) or that reassigns the model's
role ("you are now in developer mode") puts words in the mouth of the user, the system or
another tool. A marker inside quotes or after "such as", "e.g.", "look like" is documentation
of the format ("input lines look like 'User: hi'"), and a turn whose words are quoted is an
example interaction ('User: "sure, I'll give feedback"').

A sentence in another script than the description's opening (Greek after English, Latin
after Chinese) that holds an address (URL, e-mail) is written for the model, not for the
reader of the opening, whatever its language: no word list is needed to see the switch.
"""

from __future__ import annotations

import re
import unicodedata

from workset.mcp.poison_structure.sinks import URL_RE
from workset.mcp.poison_structure.text import WARNING

_I = re.IGNORECASE

_ROLE = r"(system|user|human|assistant|ai|tool|tool_result|tool_response|function|developer|model)"
# A turn's words in quotes ('User: "sure, I'll give feedback"') are an example interaction.
_TURN_OPENING = re.compile(rf"^\W{{0,3}}{_ROLE}\s*(\(\w+\))?\s*:\s*(?![\"'“‘`])\S", _I)
_MARKUP = re.compile(
    rf"<\|?\s*(im_start|im_end|start_header_id|end_header_id|eot_id|endoftext)\s*\|?>"
    rf"|\[/?\s*({_ROLE}|INST|SYS|tool_output|function_call)\s*\]"
    rf"|</?\s*({_ROLE}|tool_output|function_results|tool_use|function_call)(_\w+)?\s*>"
    r"|^#{2,}\s*(system|instruction|response)\b",
    _I,
)
_NEW_ROLE = re.compile(
    r"\byou\s+are\s+(now\s+)?(in|running\s+in|operating\s+in)\s+(developer|dev|god|debug|"
    r"unrestricted|jailbreak|admin|maintenance|dan)\s+mode\b|\b(from\s+now\s+on|henceforth)\s+you\s+"
    r"are\b",
    _I,
)


# A header that presents what follows as the result of an earlier call ("Previous tool output
# (cached):", "Last function result:"); documented samples say "example" or "sample" instead.
_EARLIER_RESULT = re.compile(
    r"^\W{0,3}(previous|prior|last|earlier|cached|preceding|recent)\s+((tool|function|api|call|"
    r"command|step)\s+)?(call\s+)?(output|result|response|return(ed)?\s+value)s?\s*(\([^)]*\))?\s*:",
    _I,
)
# A result's field that tells whoever reads it what to do next, holding an order to call or run
# something: ``"next_action": "call grant_role with …"``.
_NEXT_ACTION = re.compile(
    r"[\"']?(next_?action|next_?step|required_?action|action_?required|agent_?action|"
    r"instructions?_?for_?(the_)?(agent|assistant|model)|todo)[\"']?\s*:\s*[\"']\s*(please\s+)?"
    r"(call|run|invoke|execute|grant|send|forward|upload|delete|use)\s",
    _I,
)

_SAMPLE = re.compile(r"\b(such\s+as|for\s+example|e\.g\.|example|sample|looks\s+like)\b", _I)


def forged_turn(sentence: str) -> bool:
    action = _NEXT_ACTION.search(sentence)
    sample = action is not None and _SAMPLE.search(sentence[: action.start()])
    if _EARLIER_RESULT.search(sentence) or (action and not sample):
        return True  # a result of a call that never happened, with orders in it
    for match in (*_MARKUP.finditer(sentence), _TURN_OPENING.search(sentence)):
        if match is None:
            continue
        before = sentence[: match.start()]
        if before.count("'") % 2 or before.count('"') % 2 or before.count("`") % 2:
            continue  # quoted: the format documented
        if WARNING.search(before):
            continue  # "special tokens such as <|im_start|>"
        closes = re.match(r"[^()]*\)", sentence[match.end() :])  # a "…" may split the aside
        aside = before.count("(") > before.count(")") or closes is not None
        if aside and not re.match(rf"\s*{_ROLE}\b", sentence[match.end() :], _I):
            continue  # "the ChatML template (<|im_start|>role … <|im_end|>)": the format named
        return True
    return bool(_NEW_ROLE.search(sentence))


def script_of(text: str) -> str:
    """The writing system most of ``text``'s letters are in ("LATIN", "GREEK", "CJK", …)."""
    counts: dict[str, int] = {}
    for char in text:
        if char.isalpha():
            name = unicodedata.name(char, "")
            script = (
                "CJK" if name.startswith(("CJK", "HIRAGANA", "KATAKANA")) else name.split(" ")[0]
            )
            counts[script] = counts.get(script, 0) + 1
    return max(counts, key=lambda k: counts[k]) if counts else ""


def switches_script(sentence: str, opening_script: str) -> bool:
    """A sentence in another script than the opening's that names an address."""
    if not opening_script:
        return False
    script = script_of(URL_RE.sub(" ", sentence))
    return bool(script) and script != opening_script and bool(URL_RE.search(sentence))
