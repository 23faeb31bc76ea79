"""Finding decisions, standing rules, corrections and rejections in messages, without a model.

:func:`findings` reads one message sentence by sentence and returns what the fact ledger keeps:

* ``rule`` — a standing instruction from the user (the patterns of
  :mod:`workset.memory.rules`: "File every ticket with employee number 4417", "From now on…");
* ``decision`` — a choice that was made: "We'll go with the nightly backfill", "Decision:
  refund to the original card", "Approved: …", "I will use the staging bucket";
* ``rejected`` — an option turned down, with its reason when the sentence (or the next one)
  gives it: "We won't use tenacity because it adds a dependency", "Ruled out: …";
* ``revision`` — a correction of something said before: "Correction: the cap is 300 EUR",
  "Actually, the account is ACC-1190", "X has been changed to Y", "no longer …";
* ``finding`` — a conclusion the assistant (or a tool) states as settled: "Root cause: …",
  "Confirmed: …", "It turns out …".

Tool results only yield explicit state changes ("status: rejected", "changed from A to B",
"superseded by …"); facts that live in a tool result's data are left to retrieval. The
patterns are phrase lists, so they are cheap, replayable and wrong in both directions; their
precision and recall are measured per transcript by ``benchmarks/ledger_extraction.py``
(tuned on ``examples/transcripts/support`` and ``payroll``, reported on the others). A
"rejected" that only describes data ("the line shown as rejected") is not a rejection: it
needs who turned it down, or a "Rejected:" heading.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, TypeAlias

from workset.memory.rules import rule_kind, split_sentences

FindingKind: TypeAlias = Literal["rule", "decision", "rejected", "revision", "finding"]
Who: TypeAlias = Literal["user", "assistant", "tool"]

_P = re.IGNORECASE

_CORRECTION = [  # a correction, whoever says it
    re.compile(p, _P)
    for p in (
        r"^(?:correction|erratum|amendment)\b",
        r"^(?:update|updated|revised|revision)\b\s*[:,-]",
        r"^(?:actually|scratch that|wait|sorry|my mistake|change of plans?|on second thought),",
        r"^(?:change of plans?|new plan)\b[^.:;]{0,40}:",
        r"\binstead\s*[.!]?$",
        r"\bno longer\b",
        r"\binstead of\b.*\b(?:is|are|use|it's|we'll|will)\b",
        r"\bnot .{1,40}, but\b",
        r"\bsupersed(?:es|ed|ing)\b",
    )
]
_STATE_CHANGE = [  # a new value for something: a revision from the user, a report otherwise
    re.compile(p, _P)
    for p in (
        r"\b(?:is|are|was) now\b",
        r"\bnow (?:is|are|stands at|set to)\b",
        r"\b(?:has|have) (?:been|just been) (?:changed|updated|revised|raised|lowered|moved"
        r"|reduced|increased|corrected|reassigned|rescheduled) (?:to|from)\b",
        r"\b(?:changed|updated|revised|raised|lowered|moved|reduced|increased|corrected"
        r"|reassigned|rescheduled) (?:it |this |that )?(?:from .{1,60} )?to\b",
        # the user moving a booked thing to another day: "Move the engineer to Monday 13 July"
        r"^(?:please )?(?:move|reschedule|push|bring forward) [^.;:]{0,40}\bto (?:(?:mon|tues"
        r"|wednes|thurs|fri|satur|sun)day|\d|the \d|next|tomorrow)",
    )
]
_REJECTION = [
    re.compile(p, _P)
    for p in (
        r"\b(?:ruled out|decided against|vetoed)\b",
        # "rejected" names a decision only with who made it ("we rejected", "declined by
        # finance", "Rejected: …"); "the line shown as rejected" describes data
        r"\b(?:we|i|you|they|he|she|the (?:user|customer|client|team|lead|manager|board))"
        r"(?: \w+){0,2} (?:rejected|turned down|declined|discarded)\b",
        r"^(?:rejected|declined|turned down|discarded)\s*[:,-]",
        r"\b(?:was|were|has been|have been|got) (?:rejected|turned down|declined|discarded) by "
        r"(?:the )?(?:user|customer|client|team|lead|manager|board|[A-Z][a-z]+)\b",
        r"\b(?:we|i|let's not|let us not)\b.{0,20}\b(?:won't|will not|shouldn't|should not"
        r"|don't|do not|can't|cannot|not going to) (?:use|adopt|go with|take|add|do|pick"
        r"|choose|rely on|switch to|migrate to|backfill|refund|issue)\b",
        r"^(?:no|nope),? (?:don't|do not|let's not|we won't)\b",
        r"^(?:no|nope),? not (?:the|that|this|a|an)\b",
        r"^(?:don't|do not|never) (?:use|go with|add|pick|adopt)\b.*\bbecause\b",
        r"\b(?:not an option|a non-starter|off the table)\b",
    )
]
_DECISION = [
    re.compile(p, _P)
    for p in (
        r"^(?:decision|decided|agreed|approved|plan|resolution)\s*[:,-]",
        r"\b(?:we(?:'ll| will| are going to)|let's|let us|i(?:'ll| will)) (?:go with|use"
        r"|pick|choose|proceed with|stick with|keep|switch to|adopt|settle on|move forward with)\b",
        r"\b(?:we|i) (?:decided|agreed|chose|picked|settled) (?:to|on|that)\b",
        r"\b(?:is|was|has been) (?:approved|confirmed|agreed)\b",
        r"\bgo ahead (?:with|and)\b",
        r"\b(?:i(?:'d| would)? (?:suggest|recommend|propose)|my recommendation|proposal\s*:)",
    )
]
# the user choosing by an imperative: "Book Thursday 9 July", "Keep them on Flex"
_USER_CHOICE = re.compile(
    r"^(?:ok(?:ay)?,? |fine,? |then )?(?:book|keep|go with|stick with|settle on|pick|choose)\b",
    _P,
)
_FINDING = [
    re.compile(p, _P)
    for p in (
        r"^(?:root cause|cause|finding|found(?: it)?|confirmed|conclusion|result|diagnosis)"
        r"\s*[:,-]",
        r"\b(?:the root cause|the culprit|the cause) (?:is|was)\b",
        r"^(?:that's|that is|this is|so that's) (?:the|our) (?:root cause|culprit|cause)\b",
        r"\b(?:it turns out|turns out that|this confirms|confirmed that|we found that"
        r"|i found that|the query shows|the results show)\b",
    )
]
_TOOL_STATE = [
    re.compile(p, _P)
    for p in (
        r"\b(?:status|decision|state|resolution)\s*[:=]\s*(?:approved|rejected|denied|declined"
        r"|cancel(?:l)?ed|revoked|superseded|reverted)\b",
        r"\b(?:changed|updated|revised|moved) from .{1,60} to\b",
        r"\bsupersed(?:es|ed) by\b",
        r"\b[A-Z]{2,}-\d[\w-]* (?:withdrawn|revoked|cancel(?:l)?ed|voided)\b",
    )
]
_REASON = re.compile(
    r"\b(?:because|since|as it|as they|due to|given that|so that|reason(?: is|:)|—|–|: )\s*(.+)$",
    _P,
)
_QUESTION = re.compile(r"\?\s*$")


@dataclass(frozen=True, slots=True)
class Finding:
    """One sentence the ledger keeps, what sort it is, and a rejection's reason if given."""

    kind: FindingKind
    text: str
    reason: str = ""


def findings(text: str, who: Who) -> list[Finding]:
    """What the ledger keeps from one message of ``who``, in the order it was said.

    After the user announces rules ("Two rules for this case:"), each later sentence of the
    message that states a standing instruction (every, always, never, must, only…) is a
    rule even when no single pattern of :func:`sentence_kind` takes it."""
    sentences = split_sentences(text) if who != "tool" else _lines(text)
    found: list[Finding] = []
    announced = False
    for index, sentence in enumerate(sentences):
        kind = sentence_kind(sentence, who)
        if who == "user" and kind is None and index == 0 and _NO_REPLY.search(sentence.strip()):
            kind = "rejected"
        if who == "user" and kind is None and announced and _STANDING.search(sentence):
            kind = "rule"
        announced = announced or (who == "user" and bool(_ANNOUNCES_RULES.search(sentence)))
        # a rule's next sentence that goes on with "And / Also" states a second one
        announced = announced or (who == "user" and kind == "rule")
        if kind is None:
            continue
        reason = ""
        if kind == "rejected":
            following = sentences[index + 1] if index + 1 < len(sentences) else ""
            # a bare refusal ("No full refresh.") is explained by whatever follows it
            bare = len(sentence.split()) <= _BARE_REFUSAL_WORDS
            explains = bare or bool(_REASON_START.match(following))
            reason = _reason(sentence) or (following if explains else "")
        found.append(Finding(kind, sentence.strip(), reason.strip()))
    return found


_ANNOUNCES_RULES = re.compile(
    r"\b(?:rules?|ground rules|conventions?|standing instructions?)\b.{0,40}"
    r"\b(?:for (?:this|the) (?:whole|entire) \w+|for (?:this|the) (?:case|session|task"
    r"|project|conversation|job)"
    r"|from now on|throughout|going forward)|^(?:(?:two|three|some|a few|\d+) )?rules?\s*:",
    _P,
)
_STANDING = re.compile(
    r"\b(?:every|each|always|never|must|only|all (?:the )?\w+ (?:are|must|go))\b"
    r"|^(?:and|also),? any\b",
    _P,
)
# "once the timesheet is approved by the manager": a condition of a policy, not a decision
_CONDITION = re.compile(
    r"\b(?:once|if|when|until|unless|after|before)\b[^,;:]{0,40}\b(?:is|are|was|has been) "
    r"(?:approved|confirmed|agreed)\b",
    _P,
)
_NO_X = re.compile(r"^no\b[^.:;]{1,60}:\s", _P)  # "No full backfill: it would…" (the user's)
# A user's reply that opens with a short "No X." turns X down ("No full refresh."); later in
# a message it is more often an instruction ("… No internal references.").
_NO_REPLY = re.compile(
    r"^no (?!problem|worries|thanks|idea|rush|need|hurry|way|luck)[a-z][\w -]{2,40}[.!]$", _P
)
_BARE_REFUSAL_WORDS = 6  # "No, not the shared plan." says no reason of its own
_REASON_START = re.compile(r"^(?:because|since|it|that|this|the reason)\b", _P)


def sentence_kind(sentence: str, who: Who) -> FindingKind | None:
    """The kind of finding ``sentence`` is for a message of ``who``, or None."""
    text = sentence.strip()
    if not text or _QUESTION.search(text) or len(text) > 400:
        return None
    if who == "tool":
        return "revision" if any(p.search(text) for p in _TOOL_STATE) else None
    if any(p.search(text) for p in _CORRECTION):
        return "revision"
    if who == "user" and any(p.search(text) for p in _STATE_CHANGE):
        return "revision"
    if any(p.search(text) for p in _REJECTION) or (who == "user" and _NO_X.search(text)):
        return "rejected"
    if who == "user" and rule_kind(text) is not None:
        return "rule"
    if any(p.search(text) for p in _DECISION) and not _CONDITION.search(text):
        return "decision"
    if who == "user" and _USER_CHOICE.search(text):
        return "decision"
    if any(p.search(text) for p in _FINDING):
        return "finding"
    return None


def _reason(sentence: str) -> str:
    match = _REASON.search(sentence)
    return match.group(1) if match else ""


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]
