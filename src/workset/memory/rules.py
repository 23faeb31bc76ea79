"""Standing rules in user messages, found deterministically and pinned as memory.

A standing rule is a sentence in which the user tells the agent how to act from now on:
"Always answer in Spanish.", "File every ticket with employee number 4417.", "From now on,
cc my manager.", "Never push to main.", "Remember that I am on UTC+2.", "Replies must be
under 100 words.", "My employee number is 4417." (an identifier meant to be used). Rules
must survive compaction, so :func:`pin_standing_rules` stores each, verbatim, as a pinned
``user_stated`` memory; they load as required items on every later call.

Detection is a handful of phrase patterns, no model, so it is cheap, replayable and can be
wrong in both directions. Judgement calls, made on purpose:

* questions never count ("Should I always use tabs?");
* first-person habits are not rules ("I always forget my password", "I never got the
  email"), but first-person wants are ("I never want emoji in replies");
* bare "you always …" is a complaint, not a rule ("You always get this wrong"); "you should
  always …" is a rule;
* "must" counts unless it is plainly a guess ("it must be a bug", "you must be joking") or
  about the speaker ("I must say…"); "The server must be down" is still taken as a rule;
* "every/each/all …" counts only for things that recur (tickets, replies, commits, emails…)
  and only with an instruction ("File every ticket…", "Every reply should…"): "Check every
  file in src" is a task, "Every time I log in it crashes" is a report.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from workset.context.items import Scope
from workset.errors import UsageError
from workset.memory.store import ANY_PURPOSE, MemoryRecord, MemoryStore
from workset.messages import Message, UserMessage

_FILLER = re.compile(
    r"^(?:(?:please|pls|and|also|oh|ok|okay|so|btw|by the way|one more thing|important"
    r"|note|ps|p\.s\.)\b[\s,:;!-]*)+",
    re.I,
)
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")
_ABBREVIATIONS = ("e.g.", "i.e.", "etc.", "vs.", "mr.", "mrs.", "ms.", "dr.", "no.", "approx.")

_RECURRING = (
    r"(?:tickets?|times?|requests?|repl(?:y|ies)|responses?|answers?|messages?|e-?mails?|mails?"
    r"|commits?|pull requests?|prs?|reports?|sessions?|conversations?|tasks?|invoices?"
    r"|summar(?:y|ies)|releases?|deploy(?:ment)?s?|meetings?|updates?|comments?|posts?"
    r"|letters?|quotes?|estimates?|changelogs?|outputs?)"
)
_QUANTIFIER = r"\b(?:every|each|all|any)(?: (?:future|new|single|of (?:my|your|our|the)))?"
_MODAL = r"\b(?:must|should|shall|needs? to|has to|have to|is to|are to)\b"
_IMPERATIVE = (
    r"(?:file|use|include|add|put|send|cc|bcc|copy|sign|tag|label|mark|write|reply|respond"
    r"|answer|format|quote|cite|start|end|begin|finish|keep|mention|attach|address|refer|log"
    r"|submit|prefix|suffix|append|set|assign|link|spell|translate|check|run|ask|open|close"
    r"|notify|email|report|record|list|give|show|make|avoid|skip|leave|stop)"
)
_ID_NOUN = r"(?:number|no\.?|id|code|#|handle|username|login)"
_PERSONAL_ID = (
    r"\bmy (?:employee|staff|badge|member(?:ship)?|customer|account|user|personnel|payroll"
    r"|agent|team|cost cent(?:er|re)|department|vat|tax|client)(?: " + _ID_NOUN + r")? is\b"
)

_RULES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern, re.I))
    for name, pattern in (
        ("always_never", r"^(?:always|never|don'?t ever|do not ever)\b"),
        (
            "from_now_on",
            r"^(?:from now on|going forward|from here on(?: out)?|in (?:the )?future"
            r"|for (?:all )?future|henceforth|for the rest of (?:this|the) "
            r"(?:session|conversation|chat))\b",
        ),
        ("remember", r"^(?:remember|keep in mind)(?: that| to|:|,|\s+(?!\w+\?))"),
        ("you_should_always", r"\b(?:you|we) (?:should|must|need to|have to) (?:always|never)\b"),
        ("i_want", r"^i (?:always|never) (?:want|need|prefer|like)\b"),
        ("whenever_you", r"^(?:whenever|each time|every time) you\b"),
        ("every_recurring", _QUANTIFIER + r" " + _RECURRING + r"\b.*" + _MODAL),
        ("imperative_every", r"^" + _IMPERATIVE + r"\b.*" + _QUANTIFIER + r" " + _RECURRING),
        ("must", r"\bmust\b"),
        ("identifier", _PERSONAL_ID),
        (
            "identifier_to_use",
            r"\bmy (?:\w+ ){0,2}" + _ID_NOUN + r" is\b.*\b(?:use|include|quote|put|add|with)\b",
        ),
    )
)

_NOT_RULES: tuple[re.Pattern[str], ...] = tuple(
    re.compile(p, re.I)
    for p in (
        r"^never (?:mind|heard|seen|thought|knew|been|had|did|got|worked|really|again\b\W*$)",
        r"^always (?:has|had|been|was|were|did)\b",
        r"^remember (?:that|when|the) (?:time|day|night|one|guy|bug)\b",
        r"^remember when\b",
        r"^i (?:really |just )?must\b",
        r"\b(?:it|this|that|there|he|she|they) must (?:be|have)\b",
        r"\bmust (?:have been|be (?:joking|kidding|a bug|the cause|why|because|nice|hard))\b",
        r"\bmust-have\b",
    )
)


def split_sentences(text: str) -> list[str]:
    """The sentences of ``text``: split at line breaks and after ``.``, ``!`` and ``?``.

    Common abbreviations ("e.g.", "no.") do not end a sentence; list bullets are dropped.
    """
    sentences: list[str] = []
    for line in text.splitlines():
        line = _BULLET.sub("", line).strip()
        pending = ""
        for piece in re.split(r"(?<=[.!?])\s+", line):
            pending = f"{pending} {piece}" if pending else piece
            if not pending.lower().endswith(_ABBREVIATIONS):
                sentences.append(pending.strip())
                pending = ""
        if pending.strip():
            sentences.append(pending.strip())
    return [s for s in sentences if s]


def rule_kind(sentence: str) -> str | None:
    """The name of the pattern that makes ``sentence`` a standing rule, or None."""
    if sentence.rstrip().endswith("?"):
        return None
    core = _FILLER.sub("", sentence.strip()).strip()
    if any(p.search(core) for p in _NOT_RULES):
        return None
    for name, pattern in _RULES:
        if pattern.search(core):
            return name
    return None


def find_standing_rules(text: str) -> list[str]:
    """The sentences of a user message that are standing rules, verbatim, in order."""
    return [s for s in split_sentences(text) if rule_kind(s) is not None]


def pin_standing_rules(
    store: MemoryStore,
    messages: Sequence[Message],
    scope: Scope,
    session_id: str,
    *,
    purpose: str = ANY_PURPOSE,
    first_seq: int = 0,
) -> list[MemoryRecord]:
    """Store every standing rule in the user messages as a pinned ``user_stated`` memory.

    ``messages[n]`` gives provenance ``session:<session_id>/seq:<first_seq + n>`` (pass only
    the messages not scanned yet, with the seq of the first). A rule already pinned
    for this subject (same text) is not stored again, so running this twice, or on a history
    that grew, adds only the new rules. Returns the records stored by this call.
    """
    if not scope.tenant or not scope.subject:
        raise UsageError(
            f"standing rules belong to a user: pass Scope(tenant=..., subject=...), got {scope!r}"
        )
    if not session_id.strip():
        raise UsageError("session_id is empty: pass the id of the session the messages are from")
    stored: list[MemoryRecord] = []
    for seq, message in enumerate(messages, start=first_seq):
        if not isinstance(message, UserMessage) or message.origin == "harness":
            continue
        for rule in find_standing_rules(message.content):
            if store.find_pinned(scope.tenant, scope.subject, rule) is not None:
                continue
            stored.append(
                store.add(
                    subject=scope.subject,
                    tenant=scope.tenant,
                    purpose=purpose,
                    text=rule,
                    source="user_stated",
                    provenance=f"session:{session_id}/seq:{seq}",
                    pinned=True,
                )
            )
    return stored
