"""From a model's answer to the calls the loop will run, for models big and small.

:class:`CallInterpreter` is the one object the session engine asks, once per model call and
once per round of results. :meth:`~CallInterpreter.interpret` reads the calls a message holds
(:mod:`.call_parsing`: text calls, ``{"answer": ...}`` decisions, unreadable calls), repairs
them (:mod:`.call_repair`: identical calls once, calls mapped to the tool their arguments fit,
ids unique in the session), answers those beyond ``max_calls`` in one message with an error
rather than running them (a degenerate output can repeat a call dozens of times), and answers
repeats of calls already run from the run's record (:mod:`.repeats`).
:meth:`~CallInterpreter.next_turn` then says what the harness adds to the next request
(:mod:`.steering`: read the file, make the edit, answer now, try a different call, give up).
:meth:`~CallInterpreter.request_schema` is the schema the next request's output is held to, if
any: with ``guided_edits``, a run that may edit files and has not yet chooses its ``edit_file``
lines among those it has seen (:mod:`.edit_schema`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from workset.context.items import ContextItem
from workset.intent import wants_change
from workset.loop.answer_check import NOTE as CHECK_NOTE
from workset.loop.call_parsing import read_calls
from workset.loop.call_repair import distinct, mapped_to_tools, unique_ids
from workset.loop.code_names import definitions_read
from workset.loop.definitions import evidence_files, path_argument, seen_texts
from workset.loop.edit_blocks import candidate_blocks
from workset.loop.edit_schema import failed_edits, guided_schema, offered_lines, seen_lines
from workset.loop.outcome import classify
from workset.loop.repeats import RepeatGuard
from workset.loop.rereads import Reader, reread
from workset.loop.rewrite import MAX_SAMPLES, Rewrite, function_name, rewrite_of
from workset.loop.second_look import NOTE as SECOND_LOOK_NOTE
from workset.loop.second_look import instruction, look_lines
from workset.loop.steering import NextTurn, Steering, useful_results
from workset.loop.verify import (
    MAX_RETRIES,
    MAX_UNDOS,
    SuiteRun,
    Verifier,
    one_call_schema,
)
from workset.messages import (
    AssistantMessage,
    Message,
    ToolCall,
    ToolMessage,
    ToolSpec,
    UserMessage,
    argument_object,
)

MAX_CHOICES = 2  # decisions of a run held to a choice among whole functions


@dataclass(frozen=True, slots=True)
class Interpreted:
    message: AssistantMessage  # as recorded: parsed calls, unique ids
    rejected: dict[str, str] = field(default_factory=dict)  # call id -> error for the model
    stuck: bool = False  # a call repeated an earlier one
    # call id -> why it runs under another name than the model wrote ("the model named it …")
    mapped: dict[str, str] = field(default_factory=dict)
    # call id -> the result of the identical earlier call, given again (not an error)
    replayed: dict[str, str] = field(default_factory=dict)


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
        focus: bool = False,
        guided_edits: bool = False,
        replayable: Callable[[str], bool] = lambda name: True,
        read_only: Callable[[str], bool] = lambda name: True,
        reader: Reader | None = None,
        second_look: bool = True,
        check_answers: bool = False,
    ) -> None:
        """``answer_on_repeat`` False keeps asking for calls after a repeated call;
        ``answer_with_grammar`` asks for the answer with a schema instead of withholding the
        tools (:attr:`NextTurn.answer_only`); ``focus`` quotes the lines of a read that share
        words with the task in the next request (:mod:`workset.loop.focus`); ``replayable``
        says which tools give the same result until something changes (their repeats are
        answered from the run's record),
        ``read_only`` which change nothing; ``guided_edits`` holds the decisions of a run that
        may edit files, until its first edit, to :func:`~workset.loop.edit_schema.
        guided_schema` (the backend must enforce schemas); ``reader`` gives a workspace
        file's numbered text, to choose what a repeated partial read reads instead
        (:mod:`workset.loop.rereads`); ``second_look`` asks an answer the outcome rules would
        not call ``answered`` once more over the lines that bear on it
        (:mod:`workset.loop.second_look`); ``check_answers`` asks again, the same way, a
        question the rules call ``answered``, to check it (:mod:`workset.loop.answer_check`).
        """
        self.tool_names = tuple(tool_names)
        self.constrained = constrained
        self.guided_edits = guided_edits
        self._guided = False  # the last request's output was held to the guided schema
        self._calls: dict[str, ToolCall] = {}  # the run's calls by id
        self._results: list[ToolMessage] = []  # the run's results that found something
        self._refused: set[tuple[str, str]] = set()  # (path, old) of the run's failed edits
        self._blocks: dict[str, list[str]] = {}  # whole functions the last request offered
        self._rewrite: Rewrite | None = None  # the function to be written next, as code
        self._chosen = 0  # decisions held to a choice among whole functions (MAX_CHOICES)
        # The last rewrite applied and its edit_file call: written again if the tests fail.
        self._applied: tuple[Rewrite, ToolCall] | None = None
        self._offered: dict[tuple[str, str], str] = {}  # (path, name) -> a block offered
        self._verify = Verifier(self.tool_names if guided_edits else ())
        self.forced = 0  # decisions held to one harness call (the tests, an undo)
        self._forced: str | None = None  # the tool the last request's decision was held to
        self._forced_arguments: dict[str, Any] = {}  # and its arguments, when they are fixed
        self.max_calls = max_calls
        self._ids = {c.id for m in history if isinstance(m, AssistantMessage) for c in m.tool_calls}
        self._repeats = RepeatGuard(replayable=replayable, read_only=read_only)
        self._reader = reader
        self._second_look = second_look
        self._check_answers = check_answers
        self._looked = False  # the question was asked again over the lines that bear on it
        self._checked: str | None = None  # the answer a check asked about: the run's answer
        task = next(
            (
                m.content
                for m in reversed(list(history))
                if isinstance(m, UserMessage) and m.origin != "harness"
            ),
            "",
        )
        self._steering = Steering(
            self.tool_names,
            task=task,
            answer_on_repeat=answer_on_repeat,
            answer_with_grammar=answer_with_grammar,
            focus=focus,
            guided_edits=guided_edits,
        )
        self._stuck = False
        self.evidence: list[str] = []  # texts of the evidence items the run was given

    def interpret(
        self,
        message: AssistantMessage,
        iteration: int,
        *,
        tools_offered: bool,
        specs: Sequence[ToolSpec] = (),
        truncated: bool = False,
    ) -> Interpreted:
        """The message as the loop records and runs it. ``specs`` are the tools offered in
        this request: a call under a name that is no tool runs as the one of them its
        arguments fit. ``truncated``: the reply stopped at its token limit."""
        if self._rewrite is not None:  # this reply is the function, as code
            return self._rewritten(self._rewrite, message, iteration)
        grammar = self.constrained or self._steering.answer_only or self._guided
        parsed, parse_errors = read_calls(
            message,
            iteration,
            self.tool_names,
            tools_offered=tools_offered,
            grammar=grammar,
            truncated=truncated,
        )
        parsed, fitted = mapped_to_tools(distinct(parsed), self.tool_names, specs)
        parsed, read = definitions_read(parsed, self.tool_names, self._seen)
        tools = {c.id: c.name for c in parsed.tool_calls}
        mapped = {
            i: f"the model named it {n!r}; its arguments fit {tools[i]}" for i, n in fitted.items()
        }
        for call_id, name in read.items():  # the call asked for the code: it reads it
            parse_errors.pop(call_id, None)
            mapped[call_id] = (
                f"the model called {name!r}, a name the code defines: its definition is read"
            )
        message = unique_ids(parsed, self._ids)
        renamed = {
            old.id: new.id for old, new in zip(parsed.tool_calls, message.tool_calls, strict=True)
        }
        rejected = {renamed[k]: v for k, v in parse_errors.items()}
        mapped = {renamed[k]: v for k, v in mapped.items()}
        replayed: dict[str, str] = {}
        swapped: dict[str, ToolCall] = {}  # call id -> the call that runs instead
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
            if call.name == self._forced:
                # The harness's own call (the tests, an undo, a search, the change it found):
                # no repeat; the found change as found, whatever the model wrote.
                held = self._forced_arguments
                if held and argument_object(call.arguments) != held:
                    call = replace(call, arguments=json.dumps(held, ensure_ascii=False))
                    swapped[call.id] = call
                    mapped[call.id] = "the change search_fix found, as it found it"
                continue
            chosen = rewrite_of(call, self._blocks) if self._guided else None
            if chosen is not None and self._rewrite is None:
                self._rewrite = replace(chosen, failures=self._verify.failing_now())
                rejected[call.id] = chosen.chosen()
                continue
            moved = self._reread(call)
            if moved is not None:  # a partial read asked for again: what it has not shown
                call, why = moved
                swapped[call.id], mapped[call.id] = call, why
            repeat = self._repeats.repeat(call)
            if repeat is None:
                continue
            stuck = True
            if repeat.replayed:
                replayed[call.id] = repeat.text
            else:
                rejected[call.id] = repeat.text
        if swapped:
            calls = tuple(swapped.get(c.id, c) for c in message.tool_calls)
            message = replace(message, tool_calls=calls)
        self._stuck = stuck
        self._calls.update((c.id, c) for c in message.tool_calls)
        return Interpreted(message, rejected, stuck, mapped, replayed)

    def _reread(self, call: ToolCall) -> tuple[ToolCall, str] | None:
        """The call that runs instead of ``call`` when it repeats a ``read_file`` call that
        showed part of a file (:func:`~workset.loop.rereads.reread`), and why."""
        if call.name != "read_file":
            return None
        earlier = self._repeats.earlier_result(call)
        if earlier is None:
            return None
        return reread(call, earlier, self._steering.task, self._seen(), self._reader)

    def _rewritten(
        self, rewrite: Rewrite, message: AssistantMessage, iteration: int
    ) -> Interpreted:
        """The reply to a rewrite request as the loop records it: the edit_file call that
        puts its function in place; or, when it holds no function or one that does what
        the old one did, the choice recorded and refused, and the function asked for again
        sampled (at most :data:`MAX_SAMPLES` times)."""
        self._rewrite = None
        reply = message.content or ""
        rewrite = rewrite.named(reply, self._offered)
        call_id = f"call_rewrite_{iteration}"
        call = rewrite.call(reply, call_id)
        refusal = None
        if call is None:  # no function in the reply: recorded as a choice not applied
            call = ToolCall(call_id, "edit_file", rewrite.choice())
            refusal = rewrite.no_function_note()
        elif rewrite.unchanged(call):  # not run: it would change nothing it does
            refusal = rewrite.unchanged_note()
        message = unique_ids(AssistantMessage(message.content, (call,)), self._ids)
        self._calls.update((c.id, c) for c in message.tool_calls)
        self._stuck = False
        [recorded] = message.tool_calls
        if refusal is None:
            self._applied = (rewrite, recorded)
            return Interpreted(message)
        if rewrite.attempt < MAX_SAMPLES:
            self._rewrite = rewrite.sampled()
        return Interpreted(message, {recorded.id: refusal})

    def note_task(self, task: str) -> None:
        """The task the run serves now (a session's run may take a new one at a safe point)."""
        if task.strip():
            self._steering.task = task

    def observe_items(self, items: Iterable[ContextItem]) -> None:
        """Remember the evidence a request carried (evidence may go to the first call only):
        its files are suggestions when calls fail, its texts support an answer."""
        items = list(items)
        for item in items:
            if item.kind == "evidence" and item.text not in self.evidence:
                self.evidence.append(item.text)
        self._steering.observe_evidence_files(evidence_files(items))
        self._steering.observe_evidence_texts(self.evidence)

    def next_turn(
        self, results: Sequence[ToolMessage], *, evidence_files: Sequence[str] = ()
    ) -> NextTurn:
        """What to add to the next request after ``results`` (the last message's calls).

        ``evidence_files`` are the workspace files the evidence for this task points to, best
        first (added to those :meth:`observe_items` saw): the first not yet read is the
        suggestion when calls fail.
        """
        useful = useful_results(results)
        self._results += useful
        self._refused |= failed_edits(results, self._calls)
        self._repeats.note_results(results, useful)
        undoing = self._verify.undo_due
        tested = self._verify.note(results, self._calls)
        if undoing and not self._verify.undo_due:
            return self._after_undo()
        if tested is not None and self._steering.edited:
            return self._after_tests(tested)
        if self._rewrite is not None:  # the next reply is the function, written as code
            return self._rewrite_turn()
        if self._verify.wants_fix():  # search_fix found a change: it is made next
            return self._steering.adopt(self._verify.fix_found())
        turn = self._steering.next_turn(
            results,
            useful,
            evidence_files,
            stuck=self._stuck,
            read=self._repeats.read_paths(),
            paths={
                r.tool_call_id: path_argument(self._calls[r.tool_call_id].arguments)
                for r in useful
                if r.name == "read_file" and r.tool_call_id in self._calls
            },
        )
        if self._verify.wants_run(asks_change=False) and not turn.stop:
            return self._steering.adopt(self._verify.edit_made())  # the tests, next
        return turn

    def _rewrite_turn(self) -> NextTurn:
        """The turn that asks for the chosen function, written as code."""
        assert self._rewrite is not None
        self._refused.add((self._rewrite.path, self._rewrite.old))  # chosen once
        return self._steering.adopt(
            NextTurn(
                notices=(self._rewrite.instruction(self._steering.task),),
                offer_tools=False,
                reason="the chosen function is written next, as code",
                alone=True,
                sampling=self._rewrite.sampling,
            )
        )

    def _after_tests(self, run: SuiteRun) -> NextTurn:
        """The turn after a test run that followed an edit (:meth:`Verifier.judge`): the
        answer when they pass; when fewer fail, the function just rewritten once more with
        the failures in view; when they fail as before or worse, the edit undone next;
        else the answer with the failures in view."""
        verdict = self._verify.judge(run)
        if verdict == "passed":
            return self._steering.adopt(self._verify.passed(run))
        if verdict == "fewer" and self._applied is not None and self._verify.retries < MAX_RETRIES:
            rewrite, call = self._applied
            self._applied = None
            self._verify.retries += 1
            self._rewrite = rewrite.again(call, run.failures())
            return self._rewrite_turn()
        if verdict == "no_better" and self._verify.can_undo:
            return self._steering.adopt(self._verify.undo(run))
        return self._steering.adopt(self._verify.still_failing(run))

    def _after_undo(self) -> NextTurn:
        """The turn after an edit was undone: another of the functions to choose from, once
        (:data:`MAX_UNDOS`); else the answer with the failures in view."""
        self._steering.reopen()
        self._applied = None
        run = self._verify.last
        left = self._unrefused(candidate_blocks(self._steering.task, self._seen()))
        if run is None:  # (an undo the harness asked for follows a test run)
            return self._steering.adopt(NextTurn())
        if self._verify.undos > MAX_UNDOS or not left:
            return self._steering.adopt(self._verify.still_failing(run, undone=True))
        self._chosen = MAX_CHOICES - 1  # one more choice among whole functions
        return self._steering.adopt(
            NextTurn(
                ("Your edit was undone. Choose another function to change.",),
                reason="the edit was undone; another function may be chosen",
            )
        )

    def request_schema(
        self, items: Iterable[ContextItem], tools: Sequence[ToolSpec]
    ) -> dict[str, Any] | None:
        """The schema the next request's output is held to, given the context ``items`` it
        carries and the ``tools`` it offers: the guided edit schema while a run with
        ``guided_edits`` may edit and has not; None otherwise (the request's own schema, if
        any, stands)."""
        self.observe_items(items)
        names = {t.name for t in tools}
        if self._rewrite is not None:  # free text: the function in a fenced block
            self._guided = False
            return None
        task = self._steering.task
        asks_change = wants_change(task) and "edit_file" in names
        held = self._verify.held_call(names, asks_change=asks_change, task=task)
        self._forced, self._forced_arguments = held or (None, {})
        if held is not None:  # the decision is that call
            self._guided = True
            self.forced += 1
            return {"anyOf": [one_call_schema(*held)]}
        if self.guided_edits and self._steering.just_edited and not self._steering.answer_only:
            # (A turn that asks for the answer has its own schema, from the request.)
            # Right after the first edit: any decision but another edit (it was made again).
            self._guided = True
            return guided_schema(tools, {})
        self._guided = (
            self.guided_edits
            and "edit_file" in names
            and not self._steering.edited
            and not self._steering.answer_only
        )
        if not self._guided:
            return None
        seen = self._seen()
        task = self._steering.task
        offered = offered_lines(task, self._unrefused(seen_lines(seen)))
        self._blocks = self._unrefused(candidate_blocks(task, seen))
        for path, found in self._blocks.items():
            for block in found:
                if name := function_name(block):
                    self._offered[(path, name)] = block
        if self._blocks and self._chosen < MAX_CHOICES and wants_change(task):
            # A change whose functions the evidence shows whole: the first decisions choose
            # one of them, to be written next as code (the 0.5B, free to call any tool,
            # listed files and read the top of the module instead).
            self._chosen += 1
            return guided_schema(tools, offered, blocks=self._blocks, blocks_only=True)
        return guided_schema(tools, offered, blocks=self._blocks)

    def _seen(self) -> list[tuple[str, str]]:
        """(file, text) of what the run saw, without what an undone edit made stale (the
        functions a test run after it showed)."""
        results = [r for r in self._results if r.tool_call_id not in self._verify.stale]
        return seen_texts(results, self._calls, self.evidence)

    def _unrefused(self, lines: dict[str, list[str]]) -> dict[str, list[str]]:
        """``lines`` (file -> candidates for ``old``) without those whose edit was refused."""
        return {
            path: kept
            for path, found in lines.items()
            if (kept := [x for x in found if (path, x) not in self._refused])
        }

    def not_an_answer(self, answer: str, notices: Sequence[str]) -> str | None:
        """The note that asks for the real answer when ``answer`` is not one (see
        :meth:`~workset.loop.steering.Steering.not_an_answer`); once per run, and never for
        the reply to the question asked again (:meth:`second_look`): that reply is judged as
        it stands."""
        if self._looked:
            return None
        return self._steering.not_an_answer(answer, notices)

    def second_look(
        self, history: Sequence[Message], failure: str | None = None
    ) -> NextTurn | None:
        """The turn that asks the question again over the lines of the run's reads that bear
        on it, alone (:mod:`workset.loop.second_look`), when ``history`` ends with an answer
        the outcome rules would not call ``answered``, or the run is about to end without one
        (``failure``: ``"MaxIterations"``, ``"GaveUp"``); None otherwise, in a run that
        changes things, and after the first time."""
        task = self._steering.task
        if self._looked or self._steering.edited or wants_change(task):
            return None
        verdict = classify(history, evidence=self.evidence, failure=failure)
        check = verdict.outcome == "answered" and self._check_answers and bool(verdict.supported)
        look = verdict.outcome in ("answered_unverified", "gave_up") and self._second_look
        if not (look or check):
            return None
        lines = look_lines(task, self._seen())
        if lines is None:
            return None
        self._looked = True
        if check:
            last = history[-1]
            self._checked = (last.content or "") if isinstance(last, AssistantMessage) else None
            why = f"the answer was judged answered ({verdict.reason}); to check it, the question"
        else:
            why = f"the answer was not judged answered ({verdict.reason}); the question"
        return self._steering.adopt(
            NextTurn(
                notices=(instruction(task, lines),),
                offer_tools=False,
                reason=f"{why} is asked again over the lines of the run's reads that share its "
                "words",
                alone=True,
            )
        )

    @property
    def look_note(self) -> str:
        """What the trajectory records before the reply of the last :meth:`second_look`: the
        note of a check, or of a second look."""
        return CHECK_NOTE if self._checked is not None else SECOND_LOOK_NOTE

    def run_answer(self, answer: str) -> str:
        """The run's answer when the model's last reply is ``answer``: the answer a check
        asked about (:mod:`workset.loop.answer_check`), else ``answer``."""
        return self._checked if self._checked is not None else answer
