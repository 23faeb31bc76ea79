"""From a model's answer to the calls the loop will run, for models big and small.

Native ``tool_calls`` are taken as they are; calls written as JSON text (small models do this)
are parsed; a ``{"answer": ...}`` decision is a final answer. Then the guards:

- a call whose text could not be parsed becomes an ``invalid_tool_call`` answered with an error
  showing a valid call, so the model can fix it; a last call cut off by the token limit after
  whole ones is dropped (the whole calls run);
- ids already used in the session get a fresh suffix (results are recorded once per id);
- calls beyond ``max_calls`` in one message are answered with an error, not run (a degenerate
  output can repeat a call dozens of times);
- a call whose name is no tool but whose arguments fit exactly one tool is that tool's call
  (small models put a class or function of the code where the tool name goes:
  ``JSONStorage {"path": ...}``); it is recorded and run under the tool's name; arguments
  named like JSON-schema words that are no parameter (``"additionalProperties": false``,
  copied from the definitions) are dropped;
- a call identical to one already run in this run is not run again. A repeat brings no new
  information: the result of a read-only call that found something is given again from the
  run's own record, under a note saying to answer from it or make a different call (the first
  copy may have been shortened out of a small window); a failed one gets an error. A read or
  search (a tool that gives the same result until something changes) made again after a call
  that may have changed things (an edit, a command) is no repeat: it runs.

After the calls ran, :meth:`CallInterpreter.next_turn` reads their results and says what the
harness adds to the next request (:class:`NextTurn`): when the run has read something useful
and the model repeats itself, the next turn first asks it to read the file its results point
to (the one the task names first) if it has read none, then for the answer with no tools
offered. In a run that may edit files and has not, it first asks once for the edit instead,
with ``old`` copied from the line a search found (an "answer now" would end the task unmade);
when
the calls failed or found nothing, it never asks for an answer (that is how a small model ends
up answering from an error's text) but for a *different* call: a file the workspace evidence
points to, a broader search, a look at the folder. After :data:`MAX_FRUITLESS` such turns in a
row the run stops as given up.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace

from workset.context.items import ContextItem
from workset.loop.outcome import COMMON_WORDS
from workset.loop.settings import answer_now
from workset.messages import (
    AssistantMessage,
    Message,
    ToolCall,
    ToolMessage,
    ToolSpec,
    UserMessage,
)
from workset.models.constrained import final_answer
from workset.models.toolcalls import CUT_OFF, parse_tool_calls
from workset.tools.registry import tool_for_arguments

VALID_CALL = '{"name": "<tool name>", "arguments": {...}}'
# Turns in a row whose calls all failed or found nothing before the run stops as given up.
MAX_FRUITLESS = 3
INVALID_CALL = "invalid_tool_call"  # the pseudo-call a message that could not be read gets
_INVALID_ID = "call_invalid_"
ECHO_REST = 60  # characters of its own an answer that repeats a harness note may add
_EMPTY = re.compile(r'"total_matches": 0\b|^No file or directory names|\(empty directory\)', re.M)
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]{3,}")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_QUOTED_CONTENT = re.compile(r"<external_content\b.*?</external_content>", re.S)
_RESULT_PATH = re.compile(r'"path": "([^"]+)"')  # a file named in a search's JSON result
_HIT = re.compile(r'\{"path": "[^"]+", "line": \d+, "text": "(?:[^"\\]|\\.)*"\}')
EDIT_TOOLS = frozenset({"edit_file", "write_file"})
_FILE_NAME = re.compile(r"\b[\w./-]*\w\.[A-Za-z][A-Za-z0-9]{0,7}\b")  # e.g. service.toml


@dataclass(frozen=True, slots=True)
class Interpreted:
    message: AssistantMessage  # as recorded: parsed calls, unique ids
    rejected: dict[str, str] = field(default_factory=dict)  # call id -> error for the model
    stuck: bool = False  # a call repeated an earlier one
    mapped: dict[str, str] = field(default_factory=dict)  # call id -> the name the model wrote
    # call id -> the result of the identical earlier call, given again (not an error)
    replayed: dict[str, str] = field(default_factory=dict)


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


class CallInterpreter:
    """Interprets the model's messages during one run."""

    def __init__(
        self,
        tool_names: Sequence[str],
        *,
        history: Iterable[Message] = (),
        constrained: bool = False,
        max_calls: int = 8,
        answer_on_repeat: bool = True,
        answer_with_grammar: bool = False,
        replayable: Callable[[str], bool] = lambda name: True,
        read_only: Callable[[str], bool] = lambda name: True,
    ) -> None:
        """``answer_on_repeat`` False keeps asking for calls after a repeated call;
        ``answer_with_grammar`` asks for the answer with a schema instead of withholding the
        tools (:attr:`NextTurn.answer_only`); ``replayable`` says which tools give the same
        result until something changes (their repeats are answered from the run's record),
        ``read_only`` which change nothing."""
        self.tool_names = tuple(tool_names)
        self.replayable = replayable
        self.read_only = read_only
        self.constrained = constrained
        self.max_calls = max_calls
        self.answer_on_repeat = answer_on_repeat
        self.answer_with_grammar = answer_with_grammar
        self._answer_only = False  # the last NextTurn asked for {"answer": ...}
        self._ids = {c.id for m in history if isinstance(m, AssistantMessage) for c in m.tool_calls}
        self._run: dict[tuple[str, str], str] = {}  # (name, canonical args) -> first call id
        self._changes = 0  # successful calls so far that may have changed things (edits, commands)
        self._since: dict[str, int] = {}  # first call id -> self._changes when it was made
        self._contents: dict[str, str] = {}  # call id -> its useful result, as recorded
        self._task = next(
            (
                m.content
                for m in reversed(list(history))
                if isinstance(m, UserMessage) and m.origin != "harness"
            ),
            "",
        )
        self._useful = 0  # results of this run that were neither errors nor empty
        self._fruitless = 0  # turns in a row whose calls all failed or found nothing
        self._stuck = False
        self._tried: set[str] = set()  # suggestions already made this run
        self._failed: set[str] = set()  # ids of calls whose result was an error or empty
        self.evidence: list[str] = []  # texts of the evidence items the run was given
        self._evidence_files: list[str] = []
        self._found_files: list[str] = []  # files the run's successful results named
        self._read_any = False  # a read_file call of this run returned content
        self._echo_asked = False  # an answer that echoed a harness text was sent back once
        self._edited = False  # an edit of this run succeeded
        self._hits: list[tuple[str, str]] = []  # (path, line text) of the latest grep hits

    def interpret(
        self,
        message: AssistantMessage,
        iteration: int,
        *,
        tools_offered: bool,
        specs: Sequence[ToolSpec] = (),
    ) -> Interpreted:
        """The message as the loop records and runs it. ``specs`` are the tools offered in
        this request: a call under a name that is no tool runs as the one of them its
        arguments fit."""
        parsed, parse_errors = self._parse(message, iteration, tools_offered)
        parsed, mapped = self._mapped(self._distinct(parsed), specs)
        message = self._unique_ids(parsed)
        renamed = {
            old.id: new.id for old, new in zip(parsed.tool_calls, message.tool_calls, strict=True)
        }
        rejected = {renamed[k]: v for k, v in parse_errors.items()}
        mapped = {renamed[k]: v for k, v in mapped.items()}
        replayed: dict[str, str] = {}
        stuck = False
        for n, call in enumerate(message.tool_calls):
            if call.id in rejected:
                continue
            if not tools_offered:
                rejected[call.id] = "not run: no tools are offered in this turn. Answer in text."
                continue
            if n >= self.max_calls:
                rejected[call.id] = (
                    f"not run: at most {self.max_calls} calls per message. Call again only "
                    "what you still need."
                )
                continue
            key = (call.name, _canonical(call.arguments))
            first = self._run.get(key)
            changed = self._since.get(first or "") != self._changes
            if first is not None and changed and self.replayable(call.name):
                first = None  # what it reads may have changed since: not a repeat
            if first is not None:
                stuck = True
                earlier = self._contents.get(first)
                if earlier is not None and self.replayable(call.name):
                    replayed[call.id] = (
                        f"You already called {call.name} with these arguments (call {first}); "
                        "its result is repeated below. Do not call it again: answer from it, "
                        "or if it does not hold the answer, make a different call.\n" + earlier
                    )
                elif first in self._failed:  # "use that result to answer" would mean an error
                    rejected[call.id] = (
                        f"not run again: you already called {call.name} with these arguments "
                        f"(call {first}) and it failed or found nothing; it would again. Make "
                        "a different call."
                    )
                else:
                    rejected[call.id] = (
                        f"not run again: you already called {call.name} with these arguments "
                        f"(call {first}) and its result is above. Use that result to answer."
                    )
                continue
            self._run[key] = call.id
            self._since[call.id] = self._changes
        self._stuck = stuck
        return Interpreted(message, rejected, stuck, mapped, replayed)

    def note_task(self, task: str) -> None:
        """The task the run serves now (a session's run may take a new one at a safe point)."""
        if task.strip():
            self._task = task

    def observe_items(self, items: Iterable[ContextItem]) -> None:
        """Remember the evidence a request carried (evidence may go to the first call only):
        its files are suggestions when calls fail, its texts support an answer."""
        for item in items:
            if item.kind == "evidence" and item.text not in self.evidence:
                self.evidence.append(item.text)
        files = evidence_files(items)
        self._evidence_files += [f for f in files if f not in self._evidence_files]

    def next_turn(
        self, results: Sequence[ToolMessage], *, evidence_files: Sequence[str] = ()
    ) -> NextTurn:
        """What to add to the next request after ``results`` (the last message's calls).

        ``evidence_files`` are the workspace files the evidence for this task points to, best
        first (added to those :meth:`observe_items` saw): the first not yet read is the
        suggestion when calls fail.
        """
        evidence_files = [
            *self._evidence_files,
            *(f for f in evidence_files if f not in self._evidence_files),
        ]
        useful = [r for r in results if not r.is_error and not _EMPTY.search(r.content)]
        self._failed.update(r.tool_call_id for r in results if r not in useful)
        self._contents.update((r.tool_call_id, r.content) for r in useful)
        # A successful edit or command may change what a read shows; a failed edit does not.
        self._changes += sum(not r.is_error and not self.read_only(r.name) for r in results)
        self._useful += len(useful)
        self._read_any |= any(r.name == "read_file" for r in useful)
        self._edited |= any(r.name in EDIT_TOOLS for r in useful)
        for result in useful:
            self._hits = [*_grep_hits(result.content), *self._hits][:3] or self._hits
        for result in useful:
            named = _RESULT_PATH.findall(result.content)
            self._found_files += [f for f in named if f not in self._found_files]
        if useful:
            self._fruitless = 0
            if self._stuck and self.answer_on_repeat:
                return self._read_or_answer(evidence_files)
            return self._turn(NextTurn())
        if self._stuck and self._useful and self.answer_on_repeat:
            return self._read_or_answer(evidence_files)
        self._fruitless += 1
        if self._fruitless >= MAX_FRUITLESS:
            return self._turn(
                NextTurn(
                    stop=f"the last {self._fruitless} turns of tool calls all failed or found "
                    "nothing; stopped instead of answering from error messages"
                )
            )
        return self._turn(NextTurn((self._different_strategy(results, evidence_files),)))

    def _read_or_answer(self, evidence_files: Sequence[str]) -> NextTurn:
        """After a repeat: read the file the results point to if none was read, else answer.

        A search that found the file is not the file's content: answering from its hits is how
        a small model answers from what it already believes. Each file is suggested once.
        """
        unread = [] if self._read_any else self._unread(evidence_files)
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

    def _must_edit(self) -> bool:
        """The run may edit files and has not: "answer now" would end an edit task unmade.
        Asked once; after that a repeat asks for the answer as in any run."""
        return "edit_file" in self.tool_names and not self._edited and "edit:now" not in self._tried

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

    def _unread(self, evidence_files: Sequence[str]) -> list[str]:
        """Files worth reading, those the task names first, not read nor suggested yet."""
        if "read_file" not in self.tool_names:
            return []
        read = {_path(k[1]) for k in self._run if k[0] == "read_file"}
        named = _FILE_NAME.findall(self._task)
        candidates = [*evidence_files, *self._found_files]
        ranked = sorted(
            dict.fromkeys(candidates),
            key=lambda f: not any(f == n or f.endswith("/" + n) for n in named),
        )
        return [f for f in ranked if f not in read and f"read:{f}" not in self._tried]

    def echoed_notice(self, answer: str, notices: Sequence[str]) -> str | None:
        """When ``answer`` only repeats a text the harness wrote into the request (a batch's
        "make sure your response covers…" line, a notice), the note that asks for the real
        answer; once per run, then the answer stands (and its outcome says what it is)."""
        said = _normal(answer)
        if self._echo_asked or len(said) < 16:
            return None
        own = [_normal(_QUOTED_CONTENT.sub(" ", text)) for text in notices if text]
        if not _echoes(said, own):
            return None
        self._echo_asked = True
        return (
            "Your last reply repeated the harness's note; it is not an answer. Reply to the "
            f"task itself: {_cut(self._task, 300)}"
        )

    def _answer_turn(self) -> NextTurn:
        reason = (
            "the model repeated a call it had already made; this turn asks it to answer from "
            "the results it has"
        )
        if self.answer_with_grammar:
            turn = NextTurn((answer_now(self._task),), answer_only=True, reason=reason)
        else:
            turn = NextTurn((answer_now(self._task),), offer_tools=False, reason=reason)
        return self._turn(turn)

    def _turn(self, turn: NextTurn) -> NextTurn:
        self._answer_only = turn.answer_only
        return turn

    def _different_strategy(
        self, results: Sequence[ToolMessage], evidence_files: Sequence[str]
    ) -> str:
        """A notice saying the last calls gave nothing and naming one different call."""
        what = "failed" if all(r.is_error for r in results) else "found nothing"
        options: list[tuple[str, str]] = []
        # Each suggestion is a whole valid call: a small model copies what it sees exactly.
        options += [
            (f"read:{p}", _call_text("read_file", {"path": p}))
            for p in self._unread(evidence_files)
        ]
        for word in _keywords(self._task):
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

    def _parse(
        self, message: AssistantMessage, iteration: int, tools_offered: bool
    ) -> tuple[AssistantMessage, dict[str, str]]:
        if message.tool_calls or not message.content or not tools_offered:
            return message, {}
        grammar = self.constrained or self._answer_only
        answer = final_answer(message.content) if grammar else None
        if answer is not None:
            return replace(message, content=answer), {}
        parsed = parse_tool_calls(message.content, self.tool_names)
        if not parsed.calls and not parsed.errors:
            named = _tagged_tool_name(message.content, self.tool_names)
            if named is None:
                return message, {}
            problem = (
                f"Could not read a tool call: {named!r} was named in a form workset does not "
                "read (tags or a bare name, with no JSON arguments)"
            )
            parsed = replace(parsed, errors=(problem,), text="")
        if parsed.calls and parsed.errors and all(CUT_OFF in e for e in parsed.errors):
            # The output ran out of tokens in its last call (a small model writes the same
            # calls until max_tokens): the whole calls before it stand, the stump is dropped.
            parsed = replace(parsed, errors=(), text="")
        rejected: dict[str, str] = {}
        invalid: list[ToolCall] = []
        text = parsed.text or None
        if parsed.errors:  # one error per message: a degenerate output can hold dozens
            # What the model wrote stays in the message text (cut); the pseudo-call has no
            # arguments: a small model copies a recorded {"raw": ...} call into its next turn.
            text = _cut(message.content, 300)
            bad = ToolCall(id=f"{_INVALID_ID}{iteration}_0", name=INVALID_CALL)
            invalid.append(bad)
            more = len(parsed.errors) - 1
            also = f" ({more} more call{'s' if more > 1 else ''} in it had the same problem)"
            rejected[bad.id] = (
                f"{parsed.errors[0]}{also if more else ''}\nWrite one JSON object per call: "
                f"{VALID_CALL}. Available tools: {', '.join(self.tool_names)}."
            )
        calls = (*parsed.calls, *invalid)
        return replace(message, content=text, tool_calls=calls), rejected

    def _distinct(self, message: AssistantMessage) -> AssistantMessage:
        """The message with each identical call kept once (a degenerate output repeated one
        call twenty times: twenty error results teach the model nothing one would not).

        Calls the model itself named ``invalid_tool_call`` copy the harness's pseudo-call from
        the trajectory (the 0.5B wrote 37 in one message): none is kept beside a real call,
        one at most when there is no other."""
        copies = [c for c in message.tool_calls if _copied(c)]
        calls = [c for c in message.tool_calls if not _copied(c)] or copies[:1]
        seen: set[tuple[str, str]] = set()
        kept: list[ToolCall] = []
        for call in calls:
            key = (call.name, _canonical(call.arguments))
            if key in seen and call.name != INVALID_CALL:
                continue
            seen.add(key)
            kept.append(call)
        if len(kept) == len(message.tool_calls):
            return message
        return replace(message, tool_calls=tuple(kept))

    def _mapped(
        self, message: AssistantMessage, specs: Sequence[ToolSpec]
    ) -> tuple[AssistantMessage, dict[str, str]]:
        """The message with each call under a name that is no tool, but whose arguments fit
        exactly one tool, renamed to that tool; and call id -> the name the model wrote.
        Arguments named like JSON-schema words that are no parameter of the tool
        (``"additionalProperties": false``, copied from the tool definitions) are dropped."""
        mapped: dict[str, str] = {}
        calls = []
        for call in message.tool_calls:
            fit = None
            if call.name not in self.tool_names and call.name != INVALID_CALL:
                fit = tool_for_arguments(specs, call.arguments)
            if fit is not None:
                mapped[call.id] = call.name
                call = replace(call, name=fit)
            spec = next((s for s in specs if s.name == call.name), None)
            calls.append(call if spec is None else _without_schema_words(call, spec))
        if tuple(calls) == message.tool_calls:
            return message, mapped
        return replace(message, tool_calls=tuple(calls)), mapped

    def _unique_ids(self, message: AssistantMessage) -> AssistantMessage:
        """Calls whose id was already used in the session get a fresh one (``id~2``).

        Small models and some servers number calls ``call_0`` every turn; results are
        recorded once per call id, so a repeated id would lose a result.
        """
        if not message.tool_calls:
            return message
        calls = []
        for call in message.tool_calls:
            new_id, n = call.id, 1
            while new_id in self._ids:
                n += 1
                new_id = f"{call.id}~{n}"
            self._ids.add(new_id)
            calls.append(call if new_id == call.id else replace(call, id=new_id))
        return replace(message, tool_calls=tuple(calls))


_SCHEMA_WORDS = frozenset({"additionalProperties", "properties", "required", "type", "$schema"})


def _without_schema_words(call: ToolCall, spec: ToolSpec) -> ToolCall:
    """``call`` without arguments that are JSON-schema words and no parameter of ``spec``."""
    try:
        arguments = json.loads(call.arguments or "{}")
    except json.JSONDecodeError:
        return call
    if not isinstance(arguments, dict):
        return call
    known = spec.parameters.get("properties", {})
    copied = [k for k in arguments if k in _SCHEMA_WORDS and k not in known]
    if not copied:
        return call
    kept = {k: v for k, v in arguments.items() if k not in copied}
    return replace(call, arguments=json.dumps(kept, ensure_ascii=False))


def _canonical(arguments: str) -> str:
    try:
        return json.dumps(json.loads(arguments), sort_keys=True)
    except json.JSONDecodeError:
        return arguments


_TAGGED = re.compile(r"^\s*(?:<[^<>]{1,40}>\s*)*([A-Za-z_][\w]*)\s*(?:</?[^<>]{1,40}>\s*)*$")
# "Tool: archive_email Assistant: Archived it." -- a transcript-style call with no arguments
_TRANSCRIPT_CALL = re.compile(r"^\s*(?:tool|action)\s*:\s*`?([A-Za-z_][\w]*)`?(?=\s|$)", re.I)


def _tagged_tool_name(content: str, tool_names: Sequence[str]) -> str | None:
    """The tool named by a reply that is only a tool name, bare or in tags
    (``<function-name>find_files</function-name>``), or that opens like a transcript's call
    line (``Tool: archive_email …``): a call attempt, not an answer."""
    match = _TAGGED.match(content) or _TRANSCRIPT_CALL.match(content)
    if match is None or match.group(1) not in tool_names:
        return None
    return match.group(1)


def _keywords(task: str) -> list[str]:
    """Distinctive words of the task to search for: identifiers first, then longer words."""
    words = [w for w in _WORD.findall(task) if w.lower() not in COMMON_WORDS]
    coded = [w for w in words if "_" in w or w[1:] != w[1:].lower() or "." in w]
    rest = sorted((w for w in words if w not in coded), key=len, reverse=True)
    return list(dict.fromkeys([*coded, *rest]))[:3]


def _copied(call: ToolCall) -> bool:
    """A call the model named after the harness's pseudo-call (not one the harness made)."""
    return call.name == INVALID_CALL and not call.id.startswith(_INVALID_ID)


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


def _call_text(name: str, arguments: dict[str, object]) -> str:
    return json.dumps({"name": name, "arguments": arguments})


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _path(arguments: str) -> str:
    try:
        value = json.loads(arguments)
    except json.JSONDecodeError:
        return ""
    return str(value.get("path", "")) if isinstance(value, dict) else ""


def _grep_hits(content: str) -> list[tuple[str, str]]:
    """(path, line text) of the hits in a grep result."""
    hits = []
    for match in _HIT.finditer(content):
        hit = json.loads(match.group())
        hits.append((str(hit["path"]), str(hit["text"])))
    return hits


def evidence_files(items: Iterable[ContextItem]) -> list[str]:
    """The workspace files that evidence items quote, best first, once each (an item's
    source is ``evidence:`` and its files joined by commas)."""
    prefix = "evidence:"
    files = [
        name
        for i in items
        if i.kind == "evidence" and i.source.startswith(prefix)
        for name in i.source.removeprefix(prefix).split(",")
    ]
    return list(dict.fromkeys(f for f in files if f))
