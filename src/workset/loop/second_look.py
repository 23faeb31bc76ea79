"""An answer nothing supports, asked for once more from the few lines that bear on the question.

By the time the 0.5B answers, its request holds the system prompt, the evidence, every call
and every result of the run: 10,000 tokens or more. On the tune questions of session 32, in 6
of 20 failed runs the lines that answer were among those the run had read (`raise
ValueError('Query has no path')` read, "You could not find it." answered). When a run's answer
is one the outcome rules would not call ``answered`` (:mod:`workset.loop.outcome`: unverified,
or "could not find"), or it is about to end without one (the call limit, or calls that kept
failing), :func:`look_lines` picks the lines of the run's reads and excerpts that
share the most words with the question (:func:`~workset.loop.focus.scored_lines`, a line of
the kind asked for weighing more), each with a few lines around it, and :func:`instruction`
asks the question again after those lines alone: a request of a few hundred tokens, no tools,
no trajectory (:attr:`~workset.loop.steering.NextTurn.alone`). Once per run.

The reply is the run's answer, but never a checked one: on the tune questions the 0.5B, shown
the lines, answered 4 of 13 right and named a wrong value it had been shown for 3 more, which
the lexical rules would have called ``answered``. So the trajectory records
:data:`NOTE` before the reply, and :func:`~workset.loop.outcome.classify` judges an answer
given after it ``answered_unverified`` at best.
"""

from __future__ import annotations

from collections.abc import Sequence

from workset.loop.answer_shape import asked, shows_exception
from workset.loop.edit_blocks import numbered_lines
from workset.loop.focus import MAX_LINE_CHARS, scored_lines
from workset.messages import Message, UserMessage

BEST_LINES = 4  # lines chosen, each shown with its neighbours
AROUND = 3  # neighbours either side of a chosen line
ANSWER_TYPE_BONUS = 2.0  # a line of the kind the question asks for (an exception) weighs more
# Recorded in the trajectory (a harness message) before the reply it asks for.
MARK = "[second look]"
NOTE = (
    f"{MARK} Nothing the run read supported an answer, so the question was asked again over "
    "the lines of the run's reads that share its words; the reply is not checked."
)


def look_lines(task: str, seen: Sequence[tuple[str, str]]) -> str | None:
    """The :data:`BEST_LINES` lines of ``seen`` (``(file, numbered text)`` the run read) that
    share the most words with ``task``, each with :data:`AROUND` lines either side, grouped by
    file in the order of their best line, gaps marked ``…``; None when no line shares words."""
    exception = asked(task) == "exception"
    files = numbered_lines(seen)
    scored: dict[tuple[str, int], float] = {}
    for path, text in seen:
        for weight, number, line in scored_lines(task, text):
            if exception and shows_exception(line):
                weight *= ANSWER_TYPE_BONUS
            key = (path, number)
            scored[key] = max(weight, scored.get(key, 0.0))
    if not scored:
        return None
    best = sorted(scored, key=lambda k: (-scored[k], k[0], k[1]))[:BEST_LINES]
    shown: dict[str, set[int]] = {}
    for path, number in best:
        have = files[path].lines if path in files else {}
        shown.setdefault(path, set()).update(
            n for n in range(number - AROUND, number + AROUND + 1) if n in have
        )
    blocks = []
    for path, numbers in shown.items():
        lines = files[path].lines
        out, last = [f"{path or '(a result)'}:"], None
        for n in sorted(numbers):
            if last is not None and n != last + 1:
                out.append("   …")
            out.append(f"{n:>5}| {lines[n][:MAX_LINE_CHARS]}")
            last = n
        blocks.append("\n".join(out))
    return "\n\n".join(blocks)


def instruction(task: str, lines: str) -> str:
    """The request that asks ``task`` again after ``lines`` alone. The question comes last,
    and there is no ready-made "not found" reply: offered "If they do not answer it, reply
    only: I did not find it.", the 0.5B replied exactly that in 10 of 12 tune runs, 4 of them
    with the line that answers in front of it."""
    return (
        "Lines of the files read for this question (file, then line number| text):\n\n"
        f"{lines}\n\n"
        f"Question: {task.strip()}\n"
        "Answer it from these lines, in one or two sentences that name the file."
    )


def is_note(message: Message, mark: str = MARK) -> bool:
    """Whether ``message`` is the harness's :data:`NOTE` of a second look (or, with ``mark``,
    another harness note that starts with it: :data:`workset.loop.answer_check.MARK`)."""
    return (
        isinstance(message, UserMessage)
        and message.origin == "harness"
        and message.content.startswith(mark)
    )


def asked_again(history: Sequence[Message]) -> bool:
    """Whether the answer that ends ``history`` replies to the question asked again (the
    message before it is :data:`NOTE`)."""
    return len(history) > 1 and is_note(history[-2])
