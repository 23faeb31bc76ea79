"""An answer the outcome rules call ``answered``, checked by asking its question again.

The lexical rules (:mod:`workset.loop.outcome`) call an answer ``answered`` when its facts
appear in what the run read. A wrong value the run also read passes them: on the held-out
questions most confident wrong answers named another record's value that was on the screen
(``128`` read as a default elsewhere in the file, when the call passes ``chunksize=1``).

The check asks the question again, alone, over the lines of the run's reads that bear on it
(:func:`~workset.loop.second_look.look_lines`, the second look's request), and keeps
``answered`` only when the reply names the answer's main fact again (:func:`agrees`). The
reply is recorded after :data:`NOTE`; the run's answer stays the first one, and a reply that
names something else makes it ``answered_unverified``, with the reply in the reason.

It is worth a call only with a model that can read: on 59 tune runs that ended ``answered``
the 0.5B, asked again, named the main fact of 18 of 52 right answers (its replies were often
wrong), so the check would have flagged most right answers; the 1.5B named it in 16 of 18
(with :func:`agrees`) and in neither of the 2 wrong ones
(``benchmarks/second_look_probe.py --answered``). So by default
(``check_answers = "auto"``) it runs when a separate model answers the requests made alone
(``--coder-model``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from workset.loop import second_look
from workset.loop.answer_shape import asked, exception_names
from workset.messages import AssistantMessage, Message

MARK = "[check]"
NOTE = (
    f"{MARK} The answer before this note was checked: its question was asked again over the "
    "lines of the run's reads that share its words; the reply after it is not the run's answer."
)


def is_note(message: Message) -> bool:
    """Whether ``message`` is the harness's :data:`NOTE` of a check."""
    return second_look.is_note(message, MARK)


def checked(history: Sequence[Message]) -> tuple[AssistantMessage, str] | None:
    """``(first answer, reply)`` when ``history`` ends with a check (the first answer, the
    note, the reply); None otherwise."""
    if len(history) < 3 or not is_note(history[-2]):
        return None
    first, reply = history[-3], history[-1]
    if not isinstance(first, AssistantMessage) or first.tool_calls:
        return None
    if not isinstance(reply, AssistantMessage):
        return None
    return first, reply.content or ""


def agrees(task: str, facts: Sequence[str], answer: str, reply: str) -> bool:
    """Whether ``reply`` names again what ``answer`` answered ``task`` with: one of ``facts``
    (the answer's facts that what the run read supports, main fact first; the caller leaves
    out paths unless the question asks which file: a reply that names the file it read from
    says where it looked, not what it found) as a whole word, ignoring case and a plural
    ``s``. For a question about an exception, the exception classes of both are compared."""
    if asked(task) == "exception":
        mine = exception_names(answer)
        if mine:
            return bool(mine & exception_names(reply))
    said = reply.lower()
    for fact in facts:
        stem = fact.lower().rstrip()
        stem = stem[:-1] if len(stem) > 2 and stem.endswith("s") else stem
        if re.search(rf"(?<![\w.]){re.escape(stem)}(?:e?s)?(?![\w])", said):
            return True
    return False
