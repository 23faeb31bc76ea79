"""What a question asks for, and whether a reply gives it at all: a file, a number, a name.

A small model often replies to "Which Table method counts the documents that match a query?"
with "The Table method counts the documents that match a query.", and to "Which file defines
the LRUCache class?" with "LRUCache": a reply in the shape of an answer that holds nothing
the question did not. :func:`missing` says what such a reply lacks, from the words of the
question and the reply alone (no model, no knowledge of the workspace), so the loop can send
it back once (:meth:`workset.loop.steering.Steering.not_an_answer`). It never judges whether
an answer is right; only whether it says anything the question asks for. A reply that says
it could not find the answer is an answer (its outcome is ``gave_up``).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Literal, TypeAlias

Lack: TypeAlias = Literal["file", "number", "exception", "name", "restated", "part"]

# Why an answer that lacks what its question asks for is not one (the outcome rules' reason).
REASONS: dict[Lack, str] = {
    "file": "the question asks which file, and the answer names none",
    "number": "the question asks for a number, and the answer gives none",
    "exception": "the question asks which exception, and the answer names no exception class",
    "name": "the question asks for a name, and the answer only repeats the question's words",
    "restated": "the answer only repeats the question's words",
    "part": "the question asks more than one thing, and the answer answers only the first",
}

_QUESTION = re.compile(
    r"^\s*(?:in |on |from |at |to |for |by |under |with )?(?:which|what|where|how|who|when)\b"
    r"|\?\s*$",
    re.IGNORECASE,
)
# "Which file…", "In which module…", "What test file…": a path or file name is the answer.
_ASKS_FILE = re.compile(
    r"\b(?:which|what)\s+(?:[\w-]+\s+){0,2}?(?:files?|paths?|modules?|scripts?)\b", re.I
)
_ASKS_MODULE = re.compile(r"\b(?:which|what)\s+(?:[\w-]+\s+){0,2}?modules?\b", re.I)
# "How many…", "Which version…": a number is the answer.
_ASKS_NUMBER = re.compile(
    r"\bhow (?:many|much|long|often)\b|\b(?:which|what)\s+(?:[\w-]+\s+)?(?:version|number|"
    r"port|line)\b",
    re.I,
)
# "Which exception…", "What error…": the name of an exception class is the answer.
_ASKS_EXCEPTION = re.compile(
    r"\b(?:which|what)\s+(?:[\w-]+\s+){0,2}?(?:exceptions?|errors?)\b"
    r"(?!\s+(?:messages?|texts?|codes?|strings?)\b)",
    re.I,
)
_EXCEPTION = re.compile(
    r"\b[A-Za-z_][\w.]*(?:Error|Exception|Warning|Exit|Interrupt|Failure|Fault)\b"
    r"|\bStopIteration\b"
)
# "Which method…", "What attribute…", "Which single private `Table` method…": a name the
# question does not already hold.
_ASKS_NAME = re.compile(
    r"\b(?:which|what)\s+(?:[\w.`'-]+\s+){0,3}?(?:methods?|functions?|class(?:es)?|attributes?|"
    r"arguments?|parameters?|exceptions?|errors?|variables?|constants?|fields?|keys?|"
    r"options?|flags?|decorators?|commands?|subclass(?:es)?|properties|property|settings?|"
    r"types?|keyword)\b",
    re.I,
)
# A path or a file name: "tinydb/utils.py", "utils.py", "src/workset", "/etc/hosts"; not a
# lone "/tmp" (a folder of the system, not a file of the workspace).
_PATH = re.compile(
    r"(?<![\w/])(?:[\w.-]+|/[\w.-]+)/[\w./-]*\w|\b[\w-]+\.[A-Za-z][A-Za-z0-9]{0,7}\b"
)
_NUMBER = re.compile(
    r"(?<![\w.])\d+(?:[.,]\d+)*(?![\w])|\b(?:zero|one|two|three|four|five|"
    r"six|seven|eight|nine|ten|hundred|thousand|million)\b",
    re.I,
)
_TOKEN = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+-]*")
_SUFFIX = re.compile(r"(?:es|s|ed|ing)$")
_GAVE_UP = re.compile(
    r"\b(?:could not|couldn't|can't|cannot|unable to|not able to|don't know|do not know|"
    r"did not find|didn't find|no information|not found)\b",
    re.I,
)
_NO_FILE = re.compile(
    r"\b(?:none of (?:the|them)|no (?:such )?(?:files?|modules?|scripts?)\b)|^\s*none\b", re.I
)
# Words that carry no answer of their own: a reply made of these and the question's words
# says nothing the question did not.
_FILLER = frozenset(
    {
        "a",
        "an",
        "the",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "it",
        "its",
        "it's",
        "this",
        "that",
        "these",
        "those",
        "there",
        "here",
        "of",
        "in",
        "on",
        "at",
        "to",
        "for",
        "by",
        "with",
        "from",
        "as",
        "and",
        "or",
        "but",
        "not",
        "no",
        "yes",
        "so",
        "than",
        "then",
        "also",
        "only",
        "which",
        "what",
        "who",
        "whom",
        "whose",
        "where",
        "when",
        "how",
        "why",
        "does",
        "do",
        "did",
        "done",
        "has",
        "have",
        "had",
        "can",
        "could",
        "will",
        "would",
        "should",
        "shall",
        "may",
        "might",
        "must",
        "answer",
        "question",
        "file",
        "files",
        "shown",
        "shows",
        "show",
        "says",
        "say",
        "said",
        "see",
        "seen",
        "above",
        "below",
        "result",
        "results",
        "tool",
        "tools",
        "called",
        "call",
        "named",
        "name",
        "uses",
        "use",
        "used",
        "defined",
        "defines",
        "define",
        "definition",
        "returns",
        "return",
        "value",
        "i",
        "you",
        "we",
        "they",
        "he",
        "she",
        "one",
    }
)


def missing(task: str, answer: str, *, ignore: Collection[str] = ()) -> Lack | None:
    """What ``answer`` lacks that the question ``task`` asks for, or None when it has it (or
    the task is not a question, or the answer says it could not find out). Words in
    ``ignore`` (the run's tool names: "read_file" answered "which method writes…") say
    nothing either.

    ``"file"``: the question asks which file (or script, path) and no path or file name is
    in the reply; ``"number"``: it asks how many or which version and the reply has no
    number; ``"exception"``: it asks which exception or error and the reply names no
    exception class (``ValueError``, ``IOError``); ``"name"``: it asks which method, class,
    argument… and the reply has no word the question lacks; ``"restated"``: any other
    question whose reply only repeats its words.
    """
    if not task.strip() or not answer.strip() or not is_question(task):
        return None
    if _GAVE_UP.search(answer):
        return None
    filler = _FILLER | {w.lower() for w in ignore}
    parts = question_parts(task)
    if len(parts) > 1:  # "Which file defines Agent, and what does its run method return?"
        rest = answer
        for n, part in enumerate(parts):
            lack = _missing_one(part, rest, filler)
            if lack is not None:
                return lack if n == 0 else "part"
            rest = _without_answer(part, rest)
        return None
    return _missing_one(task, answer, filler)


def question_parts(task: str) -> list[str]:
    """The questions ``task`` joins with "and" ("Which file…, and what does… return?"), or
    the task alone."""
    return [p for p in _AND_ASKS.split(task) if p.strip()]


_AND_ASKS = re.compile(r",?\s+and\s+(?=(?:what|which|how|where|who|when|why)\b)", re.I)


def _without_answer(part: str, answer: str) -> str:
    """``answer`` without what answers ``part`` when that is a path, a number or an
    exception (what is left must answer the next part)."""
    kind = asked(part)
    pattern = {"file": _PATH, "number": _NUMBER, "exception": _EXCEPTION}.get(kind or "")
    return pattern.sub(" ", answer) if pattern is not None else answer


def _missing_one(task: str, answer: str, filler: frozenset[str] | set[str]) -> Lack | None:
    new = _new_words(task, answer, filler)
    kind = asked(task)
    if kind == "file":
        named = _PATH.search(_without_task_paths(task, answer))
        if named or says_no_file(answer):  # "No file under safety/ mentions it." answers
            return None
        return None if _ASKS_MODULE.search(task) and new else "file"
    if kind == "number":
        return None if _NUMBER.search(answer) else "number"
    if kind == "exception":
        return None if _EXCEPTION.search(answer) else "exception"
    if kind == "name":
        return None if [w for w in new if not _PATH.fullmatch(w)] else "name"
    if len(_new_words("", task, filler)) < 2:  # "and then?" has nothing to restate
        return None
    return None if _new_words(task, answer, filler, stem=True) else "restated"


def says_no_file(answer: str) -> bool:
    """Whether ``answer`` says that no file is the answer ("None of them", "No file under
    safety/ mentions it")."""
    return bool(_NO_FILE.search(answer))


def asked(task: str) -> Lack | None:
    """What kind of thing the question ``task`` asks for: a ``"file"``, a ``"number"``, an
    ``"exception"``, a ``"name"``, or None (a description, or not a question)."""
    if not is_question(task):
        return None
    for kind, pattern in (
        ("file", _ASKS_FILE),
        ("number", _ASKS_NUMBER),
        ("exception", _ASKS_EXCEPTION),
        ("name", _ASKS_NAME),
    ):
        if pattern.search(task):
            return kind  # type: ignore[return-value]
    return None


def shows_exception(line: str) -> bool:
    """Whether ``line`` names an exception class or raises one (what an ``"exception"``
    question's answer looks like in code)."""
    return bool(_EXCEPTION.search(line) or re.search(r"\braise\s+\w", line))


def exception_names(text: str) -> set[str]:
    """The exception classes ``text`` names, lower-cased (``TypeError``, ``StopIteration``)."""
    return {name.lower() for name in _EXCEPTION.findall(text)}


def is_question(task: str) -> bool:
    """Whether ``task`` is phrased as a question ("Which…", "What…", or ending in "?")."""
    return bool(_QUESTION.search(task))


def note(lack: Lack, task: str) -> str:
    """The line that sends a reply back, saying what the question asks for."""
    asked = {
        "file": "The question asks for a file, and your reply names none. Reply with the "
        "file's path as the results above show it",
        "number": "The question asks for a number, and your reply gives none. Reply with the "
        "number the results above show",
        "exception": "The question asks which exception, and your reply names no exception "
        "class. Reply with the exception's class name as the results above show it",
        "name": "The question asks for a name, and your reply only repeats the question's "
        "words. Reply with the name itself, as the results above show it",
        "restated": "Your reply only repeats the question's words; it does not answer it. "
        "Reply with the answer itself (the value, name or behaviour asked for), as the "
        "results above show it",
        "part": "The question asks more than one thing, and your reply answers only the "
        "first. Reply with every part answered, as the results above show it",
    }[lack]
    return (
        f"{asked}, in one sentence, or call a tool if no result shows it yet. The question: "
        f"{task.strip()}"
    )


def _word(token: str, *, stem: bool) -> str:
    word = token.strip(".-+").lower()
    return _SUFFIX.sub("", word) if stem and len(word) > 4 else word


def _new_words(
    task: str, answer: str, filler: frozenset[str] | set[str], *, stem: bool = False
) -> list[str]:
    """Words of ``answer`` that are neither in ``task`` nor ``filler``, in order; with ``stem``,
    "tests" is the question's "test" (not for names: "count" answers "which method
    counts")."""
    known = {_word(t, stem=stem) for t in _TOKEN.findall(task)} | filler
    seen: list[str] = []
    for token in _TOKEN.findall(answer):
        word = _word(token, stem=stem)
        if word and word not in known and word not in seen:
            seen.append(word)
    return seen


def _without_task_paths(task: str, answer: str) -> str:
    """``answer`` without the paths and file names the task itself names (a reply that
    repeats the question's own file does not say which file)."""
    for path in {m.group(0) for m in _PATH.finditer(task)}:
        answer = answer.replace(path, " ")
    return answer
