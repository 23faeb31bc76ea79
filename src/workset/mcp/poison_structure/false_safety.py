"""``claims-harmless``: a tool whose name or opening says it destroys, moves money or sends
things away, while the definition says it is harmless: "this tool is read-only and changes
nothing", "has no side effects", "is safe to call without confirmation", or the annotations
``readOnlyHint: true`` (or ``destructiveHint: false`` on a tool that destroys: one that sends,
pays or publishes adds without destroying, as MCP defines the hint). A client that trusts the
claim runs the tool without asking (workset's bridge gives a read-only tool low risk), so the
contradiction is itself the attack. An honest scope ("removes the label; the messages are
kept") claims nothing about the whole tool and is not read as one.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.mcp.poison_structure.directs import READS
from workset.mcp.poison_structure.text import NEGATION, sentences

_I = re.IGNORECASE

# What a tool does that cannot be taken back, or that leaves the machine.
# "drop" only as a verb and "format" only of a disk: Dropbox, a dropdown or formatted text
# destroy nothing.
_VERBS_THAT_DESTROY = (
    r"delet|remov|drop(?=s?\b|ped\b|ping\b)|wipe|purg|destroy|truncat|eras|overwrit|reset|"
    r"format(s|ting)?(?=\s+(the\s+|a\s+|this\s+)?(disk|drive|volume|partition|device|"
    r"file\s?system|card)s?\b)|"
    r"kill|terminat|revok|uninstall|shutdown|reboot"
)
_HARMFUL = re.compile(
    rf"(^|[\s_.-])({_VERBS_THAT_DESTROY}|transfer|pay(?!load)|payout|refund|send|publish|deploy)"
    r"\w*",
    _I,
)
# Of those, what destroys: MCP's destructiveHint is about updates that destroy, so a tool that
# sends, pays or publishes may say false honestly (its readOnlyHint may not).
_DESTROYS = re.compile(rf"(^|[\s_.-])({_VERBS_THAT_DESTROY})\w*", _I)
_TOOL = r"(this\s+tool|the\s+tool|it|this\s+(call|operation|action|function|endpoint|command))"
_HARMLESS = re.compile(
    rf"\b{_TOOL}\s+(is|are)\s+(strictly\s+|purely\s+|completely\s+|entirely\s+|fully\s+)?"
    r"(read[- ]only|non[- ]destructive|harmless|side[- ]effect[- ]free)\b"
    rf"|^\W*(read[- ]only|non[- ]destructive|harmless)\b|\b{_TOOL}\s+(changes|modifies|alters)\s+"
    rf"nothing\b|\b{_TOOL}\s+has\s+no\s+side[- ]effects?\b|"
    r"\bsafe\s+to\s+(call|run|use|invoke)\s+(without|with\s+no)\s+(asking|confirm\w*|approv\w*)",
    _I,
)
# A tool that works out a figure about an act, not the act: "estimate_cost", "Estimate the price
# of sending a prompt", "simulate_transfer", "count tokens of a message before sending it".
_ESTIMATES = re.compile(
    r"^\W*(estimat|calculat|comput|forecast|predict|simulat|quot(e|ing)|price|count|tally|"
    r"dry[_ -]?run)\w*(_|\s|$|(?=[A-Z]))",
    _I,
)
# A claim made for one mode only ("with dry_run=true it changes nothing") is honest.
_ONE_MODE = re.compile(r"\b(dry[- ]?run|preview|simulat\w*|if|when|unless|with\s+`?\w+`?\s*=)", _I)


# A sentence that says the tool's writes take effect ("data-modifying statements are committed
# immediately", "runs in autocommit mode"), against a readOnlyHint of true; unless the same
# sentence says writes are refused or rolled back.
_WRITES_TAKE_EFFECT = re.compile(
    r"\b(writes?|inserts?|updates?|deletes?|ddl|data[- ]modifying(\s+statements?)?|changes?|"
    r"modifications?)\b[^.]{0,80}\b(are|is|get|gets|will\s+be)\s+(committed|applied|"
    r"persisted|saved)\b|\bautocommit\b",
    _I,
)
_WRITES_REFUSED = re.compile(
    r"\b(rejected|refused|not\s+allowed|blocked|rolled\s+back|read[- ]only\s+transaction|"
    r"never|cannot|can['’]t|disabled)\b",
    _I,
)


def claims_harmless(
    name: str, description: str, read_only: bool | None, destructive: bool | None
) -> Iterator[tuple[str, str]]:
    """(field, excerpt) where a destroying or sending tool claims to be harmless."""
    # the first sentence, also when the next one starts in lower case ("… languages. uses …")
    opening = re.split(r"(?<=[.!?])\s", next(iter(sentences(description)), ""), maxsplit=1)[0]
    if read_only is True:
        for sentence in sentences(description):
            if _WRITES_TAKE_EFFECT.search(sentence) and not _WRITES_REFUSED.search(sentence):
                yield "annotations", "readOnlyHint: true, while the description says writes "
                "take effect"
                return
    if (
        READS.match(name)
        or _ESTIMATES.match(name)
        or _ESTIMATES.match(opening)
        or not _HARMFUL.search(f"{name.replace('_', ' ')} {opening}")
    ):
        return  # list_payouts reads payouts; estimate_cost prices a send without sending
    if read_only is True:
        yield "annotations", "readOnlyHint: true"
    elif destructive is False and _DESTROYS.search(f"{name.replace('_', ' ')} {opening}"):
        yield "annotations", "destructiveHint: false"  # sending or paying adds, destroys nothing
    for sentence in sentences(description)[1:]:
        claim = _HARMLESS.search(sentence)
        if (
            claim
            and not NEGATION.search(sentence[: claim.start()])
            and not _ONE_MODE.search(sentence)
        ):
            yield "description", sentence[:80]
            return
