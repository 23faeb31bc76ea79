"""What the harness adds to the next request, decided from the last calls' results.

:meth:`Steering.next_turn` reads the results and says (:class:`NextTurn`): when the run has
read something useful and the model repeats itself, the next turn first asks it to read the
file its results point to (the one the task names first) if it has read none, then for the
answer with no tools offered. In a run that may edit files and has not, it first asks once for
the edit instead, with ``old`` copied from the line a search found (an "answer now" would end
the task unmade); when the calls failed or found nothing, it never asks for an answer (that is
how a small model ends up answering from an error's text) but for a *different* call: a file
the workspace evidence points to, a broader search, a look at the folder. After
:data:`MAX_FRUITLESS` such turns in a row the run stops as given up. An answer that only
repeats a note the harness wrote, stops at its lead-in ("The answer is:") or describes a call
instead of making it, or lacks what the question asks for (a file, a number, a name:
:mod:`workset.loop.answer_shape`) is sent back once (:meth:`Steering.not_an_answer`). After a
read that found something, the lines of it that share the most words with the task are quoted
(:mod:`workset.loop.focus`); the turn that asks for the answer quotes the lines of every read of
the run that share the most words with the task.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from workset.loop import answer_shape
from workset.loop.call_parsing import cut
from workset.loop.code_names import code_name_notice, definition_lines
from workset.loop.definitions import grep_hits, seen_texts
from workset.loop.focus import answer_focus, focus_notice
from workset.loop.repeats import HARNESS_PHRASE
from workset.loop.settings import answer_now
from workset.loop.words import COMMON_WORDS
from workset.messages import ToolMessage

# Turns in a row whose calls all failed or found nothing before the run stops as given up.
MAX_FRUITLESS = 3
# Successful reads in a row of one file before the next turn asks for the answer.
MAX_PAGES = 3
ECHO_REST = 60  # characters of its own an answer that repeats a harness note may add
EDIT_TOOLS = frozenset({"edit_file", "write_file"})
_EMPTY = re.compile(r'"total_matches": 0\b|^No file or directory names|\(empty directory\)', re.M)
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]{3,}")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_QUOTED_CONTENT = re.compile(r"<external_content\b.*?</external_content>", re.S)
_RESULT_PATH = re.compile(r'"path": "([^"]+)"')  # a file named in a search's JSON result
# A reply that stops where its answer should start: "The answer is:", "Here it is:" (the 1.5B,
# after its previous message "The answer is:" came with a call, wrote only that).
_LEAD_IN = re.compile(r"(?:\W*\w+){0,8}\s*:\W*|\s*", re.S)
# A call's first characters and nothing more (the 0.5B ended a reply with '{"name').
_CALL_STUMP = re.compile(r'(?:```\w*\s*)?\{\s*(?:"\w*"?\s*:?\s*)?', re.S)
_HOW_TO = re.compile(
    r"\b(?:you can|you could|you should|you need to|we can|we need to|we should|let's|"
    r"I will|I'll|I need to)\b[^.]{0,80}?\b(?:use|call|run|search|read)\b",
    re.I,
)
_ASKS_TESTS = re.compile(r"\b(?:tests?|pytest|test suite)\b", re.I)
_TEST_FILE = re.compile(r"(?:^|/)test_[^/]*\.py$|_test\.py$")
_FILE_NAME = re.compile(r"\b[\w./-]*\w\.[A-Za-z][A-Za-z0-9]{0,7}\b")  # e.g. service.toml


@dataclass(frozen=True, slots=True)
class NextTurn:
    """What the harness adds to the next request, decided from the last calls' results.

    ``notices`` are user-role texts appended at the end of the next request only (never
    recorded in the trajectory); ``offer_tools`` False withholds the tools for that call, with
    ``reason`` for the manifest; ``stop`` ends the run as given up, saying why.
    """

    notices: tuple[str, ...] = ()
    offer_tools: bool = True
    reason: str = ""
    stop: str = ""
    answer_only: bool = False  # constrain the next output to {"answer": ...}, tools kept
    # The next request holds the system prompt and the notices only, not the trajectory: a
    # function chosen in a guided edit is written as code (the 0.5B, shown the whole run
    # first, wrote the function back unchanged; shown it alone, it wrote the change).
    alone: bool = False
    # (temperature, seed) of the next call: a function written again after a rewrite that
    # changed nothing is sampled, not decoded greedily (greedy gives the same copy again).
    sampling: tuple[float, int] | None = None


def useful_results(results: Sequence[ToolMessage]) -> list[ToolMessage]:
    """The results that were neither errors nor empty (a search with no match, an empty
    folder)."""
    return [r for r in results if not r.is_error and not _EMPTY.search(r.content)]


class Steering:
    """The next turns of one run: what it has found, read and been asked so far."""

    def __init__(
        self,
        tool_names: Sequence[str],
        *,
        task: str = "",
        answer_on_repeat: bool = True,
        answer_with_grammar: bool = False,
        focus: bool = False,
        guided_edits: bool = False,
    ) -> None:
        self.tool_names = tuple(tool_names)
        self.focus = focus  # quote the lines of a read that share words with the task
        self.task = task
        self.answer_on_repeat = answer_on_repeat
        self.answer_with_grammar = answer_with_grammar
        self.guided_edits = guided_edits  # edits held to the lines seen (loop.edit_schema)
        self.answer_only = False  # the last NextTurn asked for {"answer": ...}
        self._useful = 0  # results of this run that were neither errors nor empty
        self._fruitless = 0  # turns in a row whose calls all failed or found nothing
        self._tried: set[str] = set()  # suggestions already made this run
        self._evidence_files: list[str] = []
        self._found_files: list[str] = []  # files the run's successful results named
        self._read_any = False  # a read_file call of this run returned content
        self._echo_asked = False  # a reply that was not an answer was sent back once
        self._edited = False  # an edit of this run succeeded
        self.just_edited = False  # the last results hold the run's first successful edit
        self._hits: list[tuple[str, str]] = []  # (path, line text) of the latest grep hits
        self._excerpts: list[tuple[str, str]] = []  # (file, numbered text) the evidence showed
        self._reads: list[tuple[str, ToolMessage]] = []  # (path, result) of successful reads

    def observe_evidence_files(self, files: Sequence[str]) -> None:
        """Files the evidence of a request quotes: suggestions when calls fail."""
        self._evidence_files += [f for f in files if f not in self._evidence_files]

    def observe_evidence_texts(self, texts: Sequence[str]) -> None:
        """The evidence texts of a request: where a name the model calls as a tool is
        defined."""
        self._excerpts += [b for b in seen_texts((), {}, texts) if b not in self._excerpts]

    def next_turn(
        self,
        results: Sequence[ToolMessage],
        useful: Sequence[ToolMessage],
        evidence_files: Sequence[str],
        *,
        stuck: bool,
        read: set[str],
        paths: dict[str, str] | None = None,
    ) -> NextTurn:
        """What to add to the next request after ``results`` (``useful``: those that found
        something). ``stuck``: the last message repeated a call; ``read``: the paths read so
        far; ``paths``: the path each ``read_file`` result's call named, by call id."""
        evidence_files = [
            *self._evidence_files,
            *(f for f in evidence_files if f not in self._evidence_files),
        ]
        self._useful += len(useful)
        self._read_any |= any(r.name == "read_file" for r in useful)
        self._reads += [
            ((paths or {}).get(r.tool_call_id, ""), r) for r in useful if r.name == "read_file"
        ]
        first_edit = (
            None if self._edited else next((r for r in useful if r.name in EDIT_TOOLS), None)
        )
        self._edited |= first_edit is not None
        self.just_edited = first_edit is not None
        for result in useful:
            self._hits = [*grep_hits(result.content), *self._hits][:3] or self._hits
        for result in useful:
            named = _RESULT_PATH.findall(result.content)
            self._found_files += [f for f in named if f not in self._found_files]
        if useful:
            self._fruitless = 0
            if first_edit is not None:
                return self._after_edit_turn(first_edit)
            if stuck and self.answer_on_repeat:
                return self._read_or_answer(evidence_files, read)
            if self._paged_through() and self.answer_on_repeat and not self._may_edit():
                return self._answer_turn(
                    f"the model read {MAX_PAGES} parts of one file in a row without answering; "
                    "this turn asks it to answer from what it read",
                    focus=True,
                )
            focus = focus_notice(self.task, useful) if self.focus else None
            return self._turn(NextTurn((focus,) if focus else ()))
        code_name = self._code_name(results)
        if stuck and self._useful and self.answer_on_repeat and code_name is None:
            return self._read_or_answer(evidence_files, read)
        self._fruitless += 1
        if self._fruitless >= MAX_FRUITLESS:
            return self._turn(
                NextTurn(
                    stop=f"the last {self._fruitless} turns of tool calls all failed or found "
                    "nothing; stopped instead of answering from error messages"
                )
            )
        if code_name is not None:
            return self._turn(NextTurn((code_name,)))
        return self._turn(NextTurn((self._different_strategy(results, evidence_files, read),)))

    def _code_name(self, results: Sequence[ToolMessage]) -> str | None:
        """The notice for a failed call named after a function or class the excerpts define
        (:mod:`workset.loop.code_names`), once per name; None when there is none."""
        for result in results:
            if not result.is_error or result.name in self.tool_names:
                continue
            if f"code:{result.name}" in self._tried:
                continue
            found = definition_lines(result.name, self._excerpts)
            if found is None:
                continue
            self._tried.add(f"code:{result.name}")
            path, lines = found
            return code_name_notice(result.name, path, lines, can_edit=self._may_edit())
        return None

    def not_an_answer(self, answer: str, notices: Sequence[str]) -> str | None:
        """When ``answer`` is not one (it stops at a lead-in such as "The answer is:" or at a
        call's first characters, tells how to use a tool instead of calling it, copies the
        note about a repeated call or a read's footer, or only repeats a text the harness
        wrote into the request: a batch's "make sure your response covers…" line, a notice),
        the note that asks for the real answer; once per run, then the answer stands (and its
        outcome says what it is)."""
        if self._echo_asked:
            return None
        note = self._note_for(answer, notices, cut(self.task, 300))
        self._echo_asked = note is not None
        return note

    def _note_for(self, answer: str, notices: Sequence[str], task: str) -> str | None:
        """The note that sends ``answer`` back, or None when it is an answer."""
        if HARNESS_PHRASE.search(answer):  # the repeat note's own opening among them
            return (
                "Your last reply copied the harness's note about a repeated call or a read; it "
                f"is not an answer. Reply with the answer itself to the task: {task}"
            )
        if _CALL_STUMP.fullmatch(answer.strip()):
            return (
                "Your last reply was the start of a tool call, cut off. Write the whole call "
                f"(its name and arguments), or reply with the answer itself to the task: {task}"
            )
        if _LEAD_IN.fullmatch(answer.strip()):
            return (
                "Your last reply stopped before the answer. Reply with the answer itself, in "
                f"one or two sentences, to the task: {task}"
            )
        if self._describes_a_call(answer):
            return (
                "Your last reply described a tool call instead of making it. Make the call now "
                "(the tool's name and its arguments), or, if a result above already shows the "
                f"answer, reply with the answer itself to the task: {task}"
            )
        said = _normal(answer)
        own = [_normal(_QUOTED_CONTENT.sub(" ", text)) for text in notices if text]
        if len(said) >= 16 and _echoes(said, own):
            return (
                "Your last reply repeated the harness's note; it is not an answer. Reply to the "
                f"task itself: {task}"
            )
        lack = answer_shape.missing(self.task, answer, ignore=self.tool_names)
        return None if lack is None else answer_shape.note(lack, task)

    def _describes_a_call(self, answer: str) -> bool:
        """Whether ``answer`` tells how to use one of the tools ("you can use the `grep`
        function with the pattern ...") rather than answering: the 1.5B did so on its first
        call, never calling a tool."""
        named = [t for t in self.tool_names if re.search(rf"\b{re.escape(t)}\b", answer)]
        return bool(named) and bool(_HOW_TO.search(answer))

    def _read_or_answer(self, evidence_files: Sequence[str], read: set[str]) -> NextTurn:
        """After a repeat: read the file the results point to if none was read, else answer.

        A search that found the file is not the file's content: answering from its hits is how
        a small model answers from what it already believes. Each file is suggested once.
        """
        unread = [] if self._read_any else self._unread(evidence_files, read)
        if (self._hits or not unread) and self._must_edit():  # a hit's line is enough
            return self._turn(NextTurn((self._edit_now(),)))
        if not unread:
            return self._answer_turn()
        self._tried.add(f"read:{unread[0]}")
        return self._turn(
            NextTurn(
                (
                    "You already have that result; it names the file but does not show what "
                    "the file says. Read the file before you answer:\n"
                    + _call_text("read_file", {"path": unread[0]}),
                )
            )
        )

    def _after_edit_turn(self, result: ToolMessage) -> NextTurn:
        """The turn after the run's first successful edit. In a guided run whose task does
        not ask for tests, the answer itself (under the answer grammar): on the 0.5B, a turn
        that still offered tools after its right edit went to eight calls of run_python and
        no answer. Otherwise a notice (:meth:`_after_edit`), tools kept."""
        if self.guided_edits and self.answer_with_grammar and not _ASKS_TESTS.search(self.task):
            return self._turn(
                NextTurn(
                    (
                        f"Your edit was made ({_edit_summary(result)}). Reply now in one or two "
                        "sentences saying what you changed in which file.",
                    ),
                    answer_only=True,
                    reason="the edit the task asks for was made; this turn asks for the answer",
                )
            )
        return self._turn(NextTurn((self._after_edit(result),)))

    def _after_edit(self, result: ToolMessage) -> str:
        """The notice after the run's first successful edit: the 0.5B, its edit made, made
        it again and then "fixed" a line next to it. Told the edit is done, it can stop; with
        a shell and a test file of the task in sight, the call that runs that test is given
        (a change is checked by its tests; the outcome counts it unverified until one passes).
        """
        tests = [f for f in [*self._evidence_files, *self._found_files] if _TEST_FILE.search(f)]
        if "shell" in self.tool_names and tests:
            call = _call_text("shell", {"command": f"python -m pytest -q {tests[0]}"})
            check = f" To check it, run its tests:\n{call}\nThen"
        else:
            check = " Then, if the task asks you to run the tests, run them first and"
        return (
            f"Your edit was made ({_edit_summary(result)}). If it is the change the task "
            f"asks for, do not edit again.{check} reply in one or two sentences saying what "
            "you changed in which file. Only if the task needs another change, make it."
        )

    def reopen(self) -> None:
        """The run's edits were undone: it may edit again, as before its first."""
        self._edited = False
        self.just_edited = False

    @property
    def edited(self) -> bool:
        """An edit of this run succeeded."""
        return self._edited

    def _may_edit(self) -> bool:
        return "edit_file" in self.tool_names and not self._edited

    def _must_edit(self) -> bool:
        """The run may edit files and has not: "answer now" would end an edit task unmade.
        Asked once; after that a repeat asks for the answer as in any run."""
        return self._may_edit() and "edit:now" not in self._tried

    def _edit_now(self) -> str:
        """A notice asking for the edit, with ``old`` copied from a line grep found."""
        self._tried.add("edit:now")
        text = (
            "You have read the file; reading it again will not change it. Make the change now "
            "with edit_file: old is the exact text of the line to change (copied from the "
            "file, without the line number), new is that line as it should read."
        )
        if self._hits:
            path, line = self._hits[0]
            text += (
                " The line grep found, as old:\n"
                + json.dumps({"path": path, "old": line}, ensure_ascii=False)
                + "\nCall edit_file with these and new."
            )
        return text

    def _unread(self, evidence_files: Sequence[str], read: set[str]) -> list[str]:
        """Files worth reading, those the task names first, not read nor suggested yet."""
        if "read_file" not in self.tool_names:
            return []
        named = _FILE_NAME.findall(self.task)
        candidates = [*evidence_files, *self._found_files]
        ranked = sorted(
            dict.fromkeys(candidates),
            key=lambda f: not any(f == n or f.endswith("/" + n) for n in named),
        )
        return [f for f in ranked if f not in read and f"read:{f}" not in self._tried]

    def _paged_through(self) -> bool:
        """The run's last :data:`MAX_PAGES` successful reads were parts of one file (the 0.5B
        pages on past the line that answers, to the end of a long file and the call limit).
        Once per run."""
        last = [path for path, _ in self._reads[-MAX_PAGES:]]
        if len(last) < MAX_PAGES or len(set(last)) != 1 or not last[0] or "paged" in self._tried:
            return False
        self._tried.add("paged")
        return True

    def _answer_turn(self, reason: str = "", *, focus: bool = False) -> NextTurn:
        """The turn that asks for the answer. With ``focus`` (after paging through a file)
        it first quotes the lines of every read and excerpt of the run that share the most
        words with the task: the model has read past them. Not after a repeat: on the tune
        questions the quote made one right answer wrong there ("None" became "The JSON
        contents of the file are empty.", from a line that shared two words)."""
        reason = reason or (
            "the model repeated a call it had already made; this turn asks it to answer from "
            "the results it has"
        )
        # The lines of every read that share words with the task, before the request for the
        # answer: the 0.5B pages past the line that answers and answers from the last page.
        quoted = (
            answer_focus(
                self.task, [*((path, r.content) for path, r in self._reads), *self._excerpts]
            )
            if focus
            else None
        )
        notices = (*((quoted,) if quoted else ()), answer_now(self.task))
        if self.answer_with_grammar:
            turn = NextTurn(notices, answer_only=True, reason=reason)
        else:
            turn = NextTurn(notices, offer_tools=False, reason=reason)
        return self._turn(turn)

    def adopt(self, turn: NextTurn) -> NextTurn:
        """``turn``, decided elsewhere (the tests around an edit, :mod:`workset.loop.verify`),
        as the next turn."""
        return self._turn(turn)

    def _turn(self, turn: NextTurn) -> NextTurn:
        self.answer_only = turn.answer_only
        return turn

    def _different_strategy(
        self, results: Sequence[ToolMessage], evidence_files: Sequence[str], read: set[str]
    ) -> str:
        """A notice saying the last calls gave nothing and naming one different call."""
        what = "failed" if all(r.is_error for r in results) else "found nothing"
        options: list[tuple[str, str]] = []
        # Each suggestion is a whole valid call: a small model copies what it sees exactly.
        options += [
            (f"read:{p}", _call_text("read_file", {"path": p}))
            for p in self._unread(evidence_files, read)
        ]
        for word in _keywords(self.task):
            if "grep" in self.tool_names:
                options.append(
                    (f"grep:{word}", _call_text("grep", {"pattern": word, "ignore_case": True}))
                )
        if "list_dir" in self.tool_names:
            options.append(("list:.", _call_text("list_dir", {"path": "."})))
        fresh = [(key, text) for key, text in options if key not in self._tried]
        if not fresh:
            return (
                f"Your last tool calls {what}; that is not an answer. If a call's error says "
                "how to write it, call again that way; if what you need is not there, reply in "
                "plain words (no tool call) that you did not find it."
            )
        key, text = fresh[0]
        self._tried.add(key)
        return (
            f"Your last tool calls {what}; that is not an answer to the question. Do not "
            f"repeat them. Make a different call, for example:\n{text}"
        )


def _keywords(task: str) -> list[str]:
    """Distinctive words of the task to search for: identifiers first, then longer words."""
    words = [w for w in _WORD.findall(task) if w.lower() not in COMMON_WORDS]
    coded = [w for w in words if "_" in w or w[1:] != w[1:].lower() or "." in w]
    rest = sorted((w for w in words if w not in coded), key=len, reverse=True)
    return list(dict.fromkeys([*coded, *rest]))[:3]


def _echoes(said: str, own: Sequence[str]) -> bool:
    """``said`` is the harness's text (``own``, not what it quotes), whole or sentence by
    sentence with at most a few words of its own beside it (under :data:`ECHO_REST` characters:
    "…covers all of them. Do not call any tool." is still an echo; a real answer after the
    note is not)."""
    if any(said in text for text in own):
        return True
    sentences = [s for s in _SENTENCE_END.split(said) if s]
    rest = [s for s in sentences if len(s) < 16 or not any(s in text for text in own)]
    return len(rest) < len(sentences) and len(" ".join(rest)) < ECHO_REST


def _normal(text: str) -> str:
    return " ".join(text.lower().split())


def _first_line(result: ToolMessage) -> str:
    """The first line of a result without its untrusted-content wrapper, cut to 160."""
    text = re.sub(r"</?external_content\b[^>]*>", "", result.content)
    return cut(next((line for line in text.splitlines() if line.strip()), "").strip(), 160)


def _edit_summary(result: ToolMessage) -> str:
    """An edit result's first line without edit_file's notes in parentheses ("(the file now
    has 73 lines)", "(new was indented as old is)"), which the 0.5B copied into its answer."""
    return re.sub(r"\s*\([^()]*\)", "", _first_line(result)).strip()


def _call_text(name: str, arguments: dict[str, object]) -> str:
    return json.dumps({"name": name, "arguments": arguments})
