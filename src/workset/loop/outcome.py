"""How a run ended, judged from what was recorded: a pure function over the trajectory.

Four outcomes, each with an exit code for the CLI (:data:`EXIT_CODES`):

- ``answered`` (0): a final answer whose specific facts (file paths, numbers, identifiers,
  quoted strings) appear in what the run observed: successful tool results, or workspace
  evidence it was given. Facts the task itself names are neutral.
- ``answered_unverified`` (3): a final answer that lacks what its question asks for (a file,
  a number, a name: :mod:`workset.loop.answer_shape`), or that nothing observed supports: a
  fact no successful result shows (an example from a prompt, a number made up, text from an
  error), a value that
  a result contradicts (``port = 8471`` read, "port 8080" answered; a file named as where a
  class is defined when the run saw ``class X`` in another, :mod:`workset.loop.definitions`),
  a claim that tests pass
  with no passing test run recorded, a claim of an edit with no successful write, or a change
  to a source file that no passing test run followed (:mod:`workset.loop.claims`). A task that
  asks for a change or reports a defect is ``answered`` when a test run before the change
  failed and one after it passed; tests that pass after a change but were never seen failing
  do not verify it. An answer given on a second look (:mod:`workset.loop.second_look`) is
  ``answered_unverified`` at best, and so is an answer whose check
  (:mod:`workset.loop.answer_check`: the question asked again) named something else.
- ``gave_up`` (4): no answer (the iteration limit, or the harness stopped a run whose calls
  kept failing), or an answer that says it could not find out.
- ``failed`` (1): the model or the budget failed (timeout, backend error).

Error results are never support: an answer made from an error's text is unverified. The
rules are lexical on purpose: cheap, deterministic, explainable in one line, and biased
towards "unverified" when unsure, because a confident wrong answer costs more than a
flagged right one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Literal, TypeAlias

from workset.intent import NO_FILE_FOUND, asks_for_change, mention_query, wants_change
from workset.loop import answer_check, answer_shape, grounding, key_values
from workset.loop.claims import EXEC_TOOLS, WRITE_TOOLS, change_tested, unbacked_claim
from workset.loop.copies import copied_passage, copies_lines, framing_line, ungutter
from workset.loop.definitions import base_elsewhere, defined_elsewhere, seen_texts
from workset.loop.repeats import HARNESS_PHRASE, REPEAT_NOTE
from workset.loop.second_look import asked_again
from workset.loop.words import COMMON_WORDS
from workset.messages import (
    AssistantMessage,
    Message,
    ToolCall,
    ToolMessage,
    UserMessage,
    argument_object,
)

Outcome: TypeAlias = Literal["answered", "answered_unverified", "gave_up", "failed"]

EXIT_CODES: dict[Outcome, int] = {
    "answered": 0,
    "failed": 1,
    "answered_unverified": 3,
    "gave_up": 4,
}
# Failures that mean "no answer was reached" rather than "something broke".
GAVE_UP_FAILURES = frozenset({"MaxIterations", "GaveUp"})


@dataclass(frozen=True, slots=True)
class Verdict:
    outcome: Outcome
    reason: str  # one sentence a person can check against the trajectory
    supported: tuple[str, ...] = ()  # facts of the answer found in observations
    unsupported: tuple[str, ...] = ()  # facts of the answer no observation shows


_EXTENSIONS = (
    "py|pyi|md|rst|txt|toml|cfg|ini|json|yaml|yml|js|ts|sh|c|h|go|rs|lock|html|css|csv|log"
)
_PATH = re.compile(rf"(?<![\w/.-])(?:[\w.-]+/)*[\w-]+\.(?:{_EXTENSIONS})\b|(?:[\w.-]+/)+[\w.-]+")
_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)*(?![\w])")
# CamelCase with a second capital anywhere: TinyDB, JSONStorage, CachingMiddleware.
_CAMEL = re.compile(r"\b(?=[A-Za-z0-9]*[a-z])(?=[A-Z][A-Za-z0-9]*[A-Z])[A-Z][A-Za-z0-9]+\b")
_SNAKE = re.compile(r"\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b")
_DOTTED = re.compile(r"\b[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?:\(\))?")
_TICKED = re.compile(r"`([^`\n]{2,60})`")
_QUOTED = re.compile(r"\"([^\"\n]{2,60})\"|'([^'\n]{3,60})'")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]{3,}")
# Python's literals are values an answer can give: "It returns None."
_LITERAL = re.compile(r"\b(?:None|True|False)\b")
_PATH_ARGUMENT = re.compile(r'"path"\s*:\s*"([^"]+)"')
# What a perception tool's error says of a path that is not there.
_MISSING = re.compile(r"\bno such (?:file|directory): '([^'\n]+)'")
# A task that asks for a name or a value ("Which function…", "What type…").
_ASKS_WHICH = re.compile(r"\s*(?:which|what)\b", re.IGNORECASE)
# A question that asks for a description: "What does X do/check?", "How does Y work?", "Why…".
# Not "What does X return/raise/use?": those ask for a value or a name.
_DESCRIBES = re.compile(
    r"\s*(?:(?:what\s+(?:does|do|did)|how\s+(?:does|do|did|is|are))\b"
    r"(?![^?]*\b(?:returns?|raises?|yields?|uses?|stores?|contains?)\b)|why\b|describe\b|explain\b)",
    re.IGNORECASE,
)
_GAVE_UP = re.compile(
    r"\bI (?:could not|couldn't|can't|cannot|was unable to|am unable to|am not able to|"
    r"don't know|do not know|did not find|didn't find)\b"
    r"|\bunable to (?:find|determine|locate|answer)\b"
    r"|\bno (?:information|answer|results?) (?:is |was |were )?(?:available|found)\b"
    r"|\bnot enough information\b",
    re.IGNORECASE,
)


def classify(
    history: Sequence[Message], *, failure: str | None = None, evidence: Sequence[str] = ()
) -> Verdict:
    """The outcome of the run that ended ``history`` (the whole session: results of earlier
    turns are in the model's context too, so they count as what it observed).

    ``failure`` is the error type when the run ended without an answer (``"MaxIterations"``,
    ``"ModelTimeout"``...); ``evidence`` the texts of workspace evidence the run was given.
    An answer to the question asked again over the lines that share its words
    (:mod:`workset.loop.second_look`) is ``answered_unverified`` at best; an answer that was
    checked (:mod:`workset.loop.answer_check`) is judged as the answer before the check, and
    stays ``answered`` only when the check's reply named its main fact again.
    """
    check = answer_check.checked(history) if failure is None else None
    if check is not None:
        return _checked(history[:-2], evidence, *check)
    verdict = _judge(history, failure, evidence)
    if verdict.outcome == "answered" and failure is None and asked_again(history):
        return Verdict(
            "answered_unverified",
            "the answer was given when the question was asked again over the lines of the run's "
            f"reads, after an answer nothing supported; it is not checked ({verdict.reason})",
            verdict.supported,
        )
    return verdict


def _judge(history: Sequence[Message], failure: str | None, evidence: Sequence[str]) -> Verdict:
    if failure is not None:
        if failure in GAVE_UP_FAILURES:
            return Verdict("gave_up", "the run ended without an answer")
        return Verdict("failed", f"the run failed ({failure})")
    last = history[-1] if history else None
    if not isinstance(last, AssistantMessage) or last.tool_calls or not (last.content or ""):
        return Verdict("gave_up", "the run ended without a final answer")
    answer = last.content or ""
    if _GAVE_UP.search(answer):
        return Verdict("gave_up", "the answer says it could not find out")
    if REPEAT_NOTE.match(answer):
        return Verdict("gave_up", "the answer is the harness's note about a repeated call")
    if copies_lines(answer):
        return Verdict(
            "answered_unverified",
            "the answer copies numbered lines of a file instead of answering the question",
        )
    copied = HARNESS_PHRASE.search(answer)
    if copied:
        return Verdict(
            "answered_unverified",
            f"the answer copies the harness's words ({copied.group(0)!r}), not what a result shows",
        )
    results = _results(history)
    calls = _calls(history)
    framing = framing_line(answer, results)
    if framing:
        return Verdict(
            "answered_unverified",
            f"the answer repeats a line a tool wrote about its result "
            f"({framing[:60]!r}), not something the result shows",
        )
    task = task_of(history)
    copied_words = copied_passage(answer, results) if _asks_thing(task) else 0
    if copied_words:
        return Verdict(
            "answered_unverified",
            f"the answer copies {copied_words} words of what a tool showed instead of "
            "answering what the question asks",
        )
    claim = unbacked_claim(answer, results, calls)
    if claim is not None:
        return Verdict("answered_unverified", claim)
    tested = change_tested(results, calls)
    if tested is False:
        return Verdict(
            "answered_unverified",
            "the run changed code but no test run after the last change passed",
        )
    changed = any(r.name in WRITE_TOOLS | EXEC_TOOLS and not r.is_error for r in results)
    if asks_for_change(task) and not changed:
        # "Query.any ... behaves like Query.all: 1 replacement", after an edit that failed
        return Verdict(
            "answered_unverified",
            "the task asks for a change, and no edit, write or command succeeded",
        )
    if tested == "fixed" and wants_change(task):  # the tests are the check of the fix
        return Verdict(
            "answered", "tests failed before the run changed code and pass after the change"
        )
    if tested == "passed" and wants_change(task):
        return Verdict(
            "answered_unverified",
            "the tests pass after the change, but no test run before it failed: nothing "
            "shows that they check it",
        )
    # What the run saw: successful results, and the arguments of the calls that produced
    # them (a path read without error exists), plus the workspace evidence it was given.
    observed = [r.content for r in results if not r.is_error] + list(evidence)
    # For numbers: what was read, without line gutters and ranges, and without the calls'
    # arguments (the 0.5B answered "137" to "What ID does the first document get?" after
    # reading from offset 137).
    plain = ungutter("\n".join(observed).lower())
    observed += [
        calls[r.tool_call_id].arguments
        for r in results
        if not r.is_error and r.tool_call_id in calls
    ]
    haystack = "\n".join(observed).lower()
    # Neutral: what the task names, tool names (a result's wrapper names its tool), and the
    # folders of the paths it called with (the package's own name is in every path).
    tools = {c.name.lower() for c in calls.values()} | {r.name.lower() for r in results}
    tools |= _parameters(c.arguments for c in calls.values())  # `offset`: the call's, not code
    folders = _folders(c.arguments for c in calls.values())
    named = _facts(answer)
    asked = [t.lower() for t in _facts(task) if "." in t]  # TinyDB.close, JSONStorage.write
    facts = [
        f
        for f in named
        if not _names(task, f)
        and f.lower() not in tools
        and f.lower() not in folders
        and not any(f.lower().endswith(t) for t in asked)  # ~tinydb.database.TinyDB.close
    ]
    # "No file under safety/ mentions it", after a workspace search (evidence.mentions) that
    # found none
    if (
        answer_shape.says_no_file(answer)
        and answer_shape.asked(task) == "file"
        and NO_FILE_FOUND in haystack
    ):
        return Verdict("answered", "supported by a search of the files that found none")
    searched = mention_query(task)
    if searched and searched.folder:  # "Which files under F mention W?" answered elsewhere
        folder = searched.folder
        paths = [f for f in named if "/" in f and f.strip("./").rstrip("/") != folder]
        outside = [f for f in paths if not f.strip("./").startswith(folder + "/")]
        if paths and len(outside) == len(paths):
            return Verdict(
                "answered_unverified",
                f"the question asks about files under {searched.folder}, and the answer "
                f"names {outside[0]!r}, outside it",
            )
    lack = answer_shape.missing(task, answer, ignore=tools)
    if lack is not None and lack != "part":  # a part unanswered: said after a missing file
        return Verdict("answered_unverified", answer_shape.REASONS[lack])
    if named and not facts and _ASKS_WHICH.match(task):
        return Verdict(
            "answered_unverified",
            f"the answer names only what the task and the paths already say ({named[0]!r})",
        )
    missing = _missing(results) - {_norm_path(f) for f in _read_paths(results, calls)}
    gone = [f for f in facts if _norm_path(f) in missing]
    if gone:
        return Verdict(
            "answered_unverified",
            f"the answer names {gone[0]!r}, which a tool result says does not exist",
            (),
            tuple(gone),
        )
    if lack is not None:
        return Verdict("answered_unverified", answer_shape.REASONS[lack])
    supported = tuple(f for f in facts if _seen(f, haystack, plain))
    unsupported = tuple(f for f in facts if not _seen(f, haystack, plain))
    if unsupported:
        shown = ", ".join(repr(f) for f in unsupported[:3])
        return Verdict(
            "answered_unverified",
            f"the answer names {shown}, which no successful tool result shows",
            supported,
            unsupported,
        )
    files = seen_texts(results, calls, evidence)  # (file, text) of what the run read
    contradiction = (
        key_values.contradicted(answer, task, observed)
        or defined_elsewhere(task, _PATH.findall(answer), files)
        or base_elsewhere(task, answer, files)
    )
    if contradiction:
        return Verdict("answered_unverified", contradiction, supported)
    kind = answer_shape.asked(task)
    if supported and kind == "file" and not any(_names_file(f, haystack) for f in supported):
        # "In which module is the helper…?" answered "JSONStorage": a class, read, no file
        return Verdict(
            "answered_unverified",
            f"the question asks which file or module, and the answer names none "
            f"({supported[0]!r} is not one)",
            supported,
        )
    if supported and kind == "name" and all(_PATH.fullmatch(f) for f in supported):
        # "Which private Table method…?" answered with the task's methods and table.py
        return Verdict(
            "answered_unverified",
            f"the question asks for a name, and the answer names only a file ({supported[0]!r})",
            supported,
        )
    if supported:
        acted = [
            calls[r.tool_call_id].arguments
            for r in results
            if not r.is_error and r.name in WRITE_TOOLS | EXEC_TOOLS and r.tool_call_id in calls
        ]
        main = main_fact(task, supported)
        near = grounding.grounded(task, [main], observed, files, acted, neutral=folders)
        if near is None or near:
            return Verdict("answered", f"supported by what the run read ({main!r})", supported)
        return Verdict(
            "answered_unverified",
            f"the run read {main!r}, but nowhere near what the question asks about",
            supported,
        )
    if not observed:
        return Verdict("answered_unverified", "the answer was given without reading anything")
    overlap = _overlap(answer, task, haystack)
    if len(overlap) >= 2 and not _asks_thing(task):
        return Verdict("answered", f"its words appear in what the run read ({overlap[0]!r})")
    if overlap:
        return Verdict(
            "answered_unverified",
            "the question asks for a specific file, name or value, and the answer names none "
            "that the run read",
        )
    return Verdict("answered_unverified", "nothing the run read supports the answer")


def _checked(
    history: Sequence[Message], evidence: Sequence[str], first: AssistantMessage, reply: str
) -> Verdict:
    """The verdict on ``first`` (which ends ``history``), given the ``reply`` of its check."""
    verdict = _judge(history, None, evidence)
    if verdict.outcome != "answered":
        return verdict
    task = task_of(history)
    if not verdict.supported:  # nothing to compare (never checked: CallInterpreter.second_look)
        return verdict
    main = main_fact(task, verdict.supported)
    file_asked = answer_shape.asked(task) == "file"
    facts = [
        f
        for f in [main, *(f for f in verdict.supported if f != main)]
        if file_asked or not _PATH.fullmatch(f)  # the file it read from is where it looked
    ]
    if answer_check.agrees(task, facts, first.content or "", reply):
        return replace(
            verdict, reason=f"{verdict.reason}; asked again over the lines, the model named it too"
        )
    said = " ".join(reply.split())[:80]
    return Verdict(
        "answered_unverified",
        f"the question asked again over the lines of the run's reads got another answer "
        f"({said!r}), not {main!r}",
        verdict.supported,
    )


def _asks_thing(task: str) -> bool:
    """Whether ``task`` is a question asking for a specific thing (which file, what value,
    what a call returns), not for a description ("What does X do?", "How does Y work?"):
    an answer to it made only of words read somewhere is not checked."""
    if not answer_shape.is_question(task):
        return False
    return not _DESCRIBES.match(task)


def _names(task: str, fact: str) -> bool:
    """Whether ``task`` names ``fact`` as a whole word ("Middleware" is not named by
    "CachingMiddleware")."""
    return re.search(rf"(?<!\w){re.escape(fact)}(?!\w)", task, re.IGNORECASE) is not None


def main_fact(task: str, facts: Sequence[str]) -> str:
    """The fact that answers: the first number when the question asks how many, the first
    path when it asks which file, else the first that is not a path (a name, a value; the
    files an answer cites say where it looked)."""
    kind = answer_shape.asked(task)
    if kind == "number":
        wanted = [f for f in facts if _NUMBER.fullmatch(f)]
    elif kind == "file":
        wanted = [f for f in facts if _PATH.fullmatch(f)]
    else:
        wanted = [f for f in facts if not _PATH.fullmatch(f)]
    return (wanted or list(facts))[0]


def task_of(history: Sequence[Message]) -> str:
    """The task: the last user-role message that is not a harness notice."""
    return next(
        (
            m.content
            for m in reversed(history)
            if isinstance(m, UserMessage) and m.origin != "harness"
        ),
        "",
    )


def _results(history: Sequence[Message]) -> list[ToolMessage]:
    return [m for m in history if isinstance(m, ToolMessage)]


def _calls(history: Sequence[Message]) -> dict[str, ToolCall]:
    return {c.id: c for m in history if isinstance(m, AssistantMessage) for c in m.tool_calls}


def _facts(answer: str) -> list[str]:
    """Specific, checkable tokens of the answer, in order, without repeats."""
    found: list[str] = []
    for pattern in (_TICKED, _QUOTED):
        for match in pattern.finditer(answer):
            found.append(next(g for g in match.groups() if g))
    plain = _TICKED.sub(" ", answer)
    for pattern in (_PATH, _DOTTED, _CAMEL, _SNAKE, _LITERAL, _NUMBER):
        found += [m.group().rstrip(".").removesuffix("()") for m in pattern.finditer(plain)]
    return list(dict.fromkeys(f for f in (x.strip() for x in found) if len(f) > 1 or f.isdigit()))


def _missing(results: Sequence[ToolMessage]) -> set[str]:
    """Paths an error result said do not exist (``no such file: 'setup.cfg'``)."""
    return {_norm_path(p) for r in results if r.is_error for p in _MISSING.findall(r.content)}


def _read_paths(results: Sequence[ToolMessage], calls: dict[str, ToolCall]) -> set[str]:
    """Paths of calls that succeeded (a file created after a miss exists)."""
    return {
        path
        for r in results
        if not r.is_error and r.tool_call_id in calls
        for path in _PATH_ARGUMENT.findall(calls[r.tool_call_id].arguments)
    }


def _norm_path(path: str) -> str:
    return path.strip().strip("`'\"").removeprefix("./").rstrip("/").lower()


def _parameters(arguments: Iterable[str]) -> set[str]:
    """The parameter names of calls (``offset``, ``pattern``), lower-cased: an answer that
    names them names how it looked, not a fact of the code ("it uses the `read_file`
    function with the `offset`…")."""
    return {str(key).lower() for text in arguments for key in argument_object(text)}


def _folders(arguments: Iterable[str]) -> set[str]:
    """The folder names of every ``"path"`` argument: ``tinydb`` for ``tinydb/storages.py``."""
    found: set[str] = set()
    for text in arguments:
        for path in _PATH_ARGUMENT.findall(text):
            found.update(part.lower() for part in path.split("/")[:-1] if part not in ("", "."))
    return found


def _seen(fact: str, haystack: str, plain: str) -> bool:
    """Whether ``fact`` was read: ``plain`` is what was read without gutters and the calls'
    arguments, for numbers (a whole token of the text, not a line number or an offset)."""
    text = fact.lower().removesuffix("()")
    return (
        grounding.fact_pattern(fact).search(plain if _NUMBER.fullmatch(text) else haystack)
        is not None
    )


def _overlap(answer: str, task: str, haystack: str) -> list[str]:
    asked = {w.lower() for w in _WORD.findall(task)}
    words = [w.lower() for w in _WORD.findall(answer)]
    return list(
        dict.fromkeys(
            w for w in words if w not in asked and w not in COMMON_WORDS and w in haystack
        )
    )


def _names_file(fact: str, haystack: str) -> bool:
    """Whether ``fact`` names a file or module: a path, a file name, a dotted module, or the
    bare name of a module or package whose file, folder or import ``haystack`` (what the run
    read, in lower case) shows ("itertoolz" for ``toolz/itertoolz.py`` or ``from .itertoolz
    import``)."""
    if _PATH.fullmatch(fact) or _DOTTED.fullmatch(fact):
        return True
    name = re.escape(fact.lower())
    shown = (
        rf"(?<![\w.-]){name}(?:\.(?:{_EXTENSIONS})\b|/)"  # itertoolz.py, toolz/
        rf"|\bfrom\s+(?:[\w.]*\.)?{name}\s+import\b"  # from .itertoolz import
        rf"|\bimport\s+(?:[\w.]*\.)?{name}\b"  # import toolz.itertoolz
    )
    return re.search(shown, haystack) is not None
