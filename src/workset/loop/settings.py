"""What a run is configured with and what it returns: settings, usage, result."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from workset.loop.outcome import Outcome
from workset.models.base import Usage

# No few-shot example: a small model copies an example's file names and values into its
# answers (the old one-shot "read_file setup.cfg ... version 1.4.2" came back as "the run
# method returns the version of setup.cfg"). The steps say what to do instead; measured
# against an example with placeholders in benchmarks/agent_tasks.py (--prompt).
STEPS_SYSTEM_PROMPT = (
    "You answer questions about the files in a workspace, and change files when the task asks "
    "and the tools allow it.\n"
    "1. Workspace excerpts may follow the question: real file text with file names and line "
    "numbers. Use them to know which file to read.\n"
    "2. Call a tool to see a file (read_file), to find text inside files (grep) or to find "
    "files by name (find_files). Never guess what a file says.\n"
    "3. If a call fails or finds nothing, make a different call: a shorter pattern, another "
    "folder, a file named in the excerpts. Never repeat a call.\n"
    "4. When a tool result shows the answer, reply in one or two plain sentences that name "
    "the file, with no tool call.\n"
    "5. If you cannot find the answer, say that you could not find it. Never say tests pass "
    "unless you ran them."
)
# The same steps plus one example whose values are placeholders, not facts.
EXAMPLE_SYSTEM_PROMPT = (
    STEPS_SYSTEM_PROMPT + "\n\nThe shape of a turn (an illustration: <...> are placeholders, "
    "not real files or values):\n"
    "User: <question about a file>\n"
    'Assistant: {"name": "read_file", "arguments": {"path": "<path/to/file>"}}\n'
    "Tool: <numbered lines of that file>\n"
    "Assistant: <the answer, naming the file>."
)
# Step 1 told to answer from the excerpts when they show the answer (a candidate, measured
# with agent_tasks --prompt excerpts): the evidence holds the answer's file for 16 of the 17
# tune questions and the 0.5B, told to use it only to pick a file, read and paged instead.
EXCERPTS_SYSTEM_PROMPT = EXAMPLE_SYSTEM_PROMPT.replace(
    "Use them to know which file to read.",
    "When they show the answer, reply with it at once, naming the file; otherwise use them "
    "to know which file to read.",
)
# Step 4 and the illustration put the answer itself first (a candidate, measured with
# agent_tasks --prompt answer): told to "name the file", the 1.5B answered "How many write
# operations does CachingMiddleware cache?" with "tinydb/middlewares.py".
ANSWER_SYSTEM_PROMPT = EXAMPLE_SYSTEM_PROMPT.replace(
    "4. When a tool result shows the answer, reply in one or two plain sentences that name "
    "the file, with no tool call.",
    "4. When a tool result or an excerpt shows the answer, reply with the answer itself (the "
    "value, name or behaviour the question asks for) in one or two plain sentences, then say "
    "which file shows it. No tool call.",
).replace(
    "Assistant: <the answer, naming the file>.",
    "Assistant: <the value or name asked for>, as <path/to/file> shows.",
)
# The default since 2026-12-02: the answer-first steps with the placeholder example. Without
# any example, the 0.5B answered the README question ("port 8080") without reading
# service.toml (tests/real); on the tune questions, answer-first got 10/17 against 8/17 for
# EXAMPLE_SYSTEM_PROMPT (docs/results/agent-tasks.md).
DEFAULT_SYSTEM_PROMPT = ANSWER_SYSTEM_PROMPT
# The default for a run that can change files (--exec): the steps of a change, edit_file
# first. With the question steps, the 0.5B called functions of the code as tools
# ("increment", "table_class") and answered by restating the task, though the first request's
# excerpts showed the line to change (docs/results/agent-tasks.md).
EXEC_SYSTEM_PROMPT = (
    "You change files in a workspace as the task asks, and answer questions about them.\n"
    "1. Workspace excerpts may follow the task: real file text with file names and line "
    "numbers. The text to change is often in them.\n"
    "2. If the excerpts do not show it, read the file the task names (read_file) or find the "
    "text (grep). Never guess what a file says.\n"
    "3. To change a file, call edit_file with path, old and new: old is the exact text of the "
    "line to change, copied from an excerpt or a read_file result without its line number "
    "and bar; new is that line as it must read after the change.\n"
    "4. If a call fails, read its error and make a different call. Never repeat a call.\n"
    "5. When the edit succeeded, reply in one or two plain sentences saying what you changed "
    "in which file, with no tool call. Never say tests pass unless you ran them.\n\n"
    "The shape of a turn (an illustration: <...> are placeholders, not real files or "
    "values):\n"
    "User: <a change to make>\n"
    'Assistant: {"name": "edit_file", "arguments": {"path": "<path/to/file>", "old": "<the '
    'line as it is>", "new": "<the line as it must be>"}}\n'
    "Tool: edited <path/to/file>: 1 replacement\n"
    "Assistant: I changed <what> in <path/to/file>."
)


def default_prompt(prompt: str, *, execute: bool) -> str:
    """The prompt a run uses: :data:`EXEC_SYSTEM_PROMPT` in place of the default one when
    the run can change files; a prompt of the user's own, unchanged."""
    return EXEC_SYSTEM_PROMPT if execute and prompt == DEFAULT_SYSTEM_PROMPT else prompt


# Appended at the end of the context (never recorded) when a repeated call ends tool use.
ANSWER_NOW = (
    "Answer the question now, in one or two sentences, from the tool results above. "
    "Do not call any tool."
)


def answer_now(task: str) -> str:
    """:data:`ANSWER_NOW` with the question repeated: a small model that has read a long
    result answers what it was asked, not what the last result was about."""
    if not task.strip():
        return ANSWER_NOW
    return (
        "Answer this question now, in one or two sentences, from the tool results above: "
        f"{task.strip()}\nDo not call any tool."
    )


@dataclass(frozen=True, slots=True)
class AgentConfig:
    system_prompt: str = DEFAULT_SYSTEM_PROMPT
    # Model calls per run; one more is made when the next may only answer (the turn after an
    # edit, or after a repeated call), so a change made by the last allowed call is answered.
    max_iterations: int = 8
    # A cap on one whole model call (prefill and answer).
    model_timeout_s: float = 1800.0
    # The longest the model may go without progress (a prompt-processing update or a token),
    # sent as the request's timeout: a slow but moving call on 2 busy cores is not cut (the
    # first --exec call of the issue took 295 s), a stalled one fails after this.
    model_stall_s: float = 180.0
    tool_timeout_s: float = 60.0
    max_tokens: int = 512
    temperature: float = 0.0
    output_reserve: int = 512
    margin: int = 64
    # Constrain each model output to one tool call or {"answer": ...} with a JSON schema,
    # where the backend can enforce one (llama.cpp can): no malformed calls from small models.
    constrained_decisions: bool = False
    # In a run that may edit files, until its first edit succeeds, hold each output to a
    # schema in which edit_file's path and old are chosen among the lines the run has seen
    # (workset.loop.edit_schema; the backend must enforce schemas): the 0.5B's edits named
    # code functions as tools, copied placeholders or wrote old from memory. On: 2/6 edits of
    # the report half right, against 0/6 before (docs/results/agent-tasks.md).
    guided_edits: bool = True
    # At most this many calls of one message run; the rest get an error.
    max_calls_per_message: int = 8
    # When the model repeats a call already made in this run, ask it to answer next turn
    # (small models otherwise loop on the same call).
    answer_on_repeat: bool = True
    # That turn keeps the tools in the prompt and constrains the output to {"answer": ...}
    # (a grammar, on backends that enforce schemas): the prefix stays cached. False withholds
    # the tools instead, which re-prefills everything after them (100 s on 2 busy cores).
    answer_with_grammar: bool = True
    # After a read that found something, quote in the next request (not the trajectory) the
    # few lines of it that share the most words with the task (workset.loop.focus): the 0.5B
    # paged past the line that answered. Off: with the excerpts prompt, 2 of 7 tune questions
    # against 2 of 3 without either (docs/results/agent-tasks.md).
    focus_lines: bool = False
    # An answer the outcome rules would not call answered (nothing read supports it, or "could
    # not find") is asked for once more over the few lines of the run's reads that share the
    # question's words, alone: no trajectory, no tools (workset.loop.second_look).
    second_look: bool = True
    # An answer the outcome rules call answered, with a fact to compare, is checked: the
    # question asked again the same way, and the answer stays answered only when the reply
    # names its main fact again (workset.loop.answer_check). None: when a separate model
    # answers the requests made alone (the 0.5B asked itself disagreed with 34 of 52 right
    # answers; the 1.5B with 2 of 18, and with both wrong ones).
    check_answers: bool | None = None
    # A final answer is scored once (the same request again, with token log-probabilities;
    # the prefix is cached) and stays answered only when the model gave its main fact with at
    # least this probability (workset.loop.confidence). None: answers are not scored.
    answer_confidence: float | None = None
    # Tool results are data, not instructions: wrap them in <external_content> with their
    # source (reserved tags inside are neutralised either way). Tools marked
    # ``wrap_output=False`` (workset's own bookkeeping tools, MCP) are not wrapped again.
    wrap_tool_results: bool = True
    # The most of the room left after required parts that memory/evidence items may take.
    items_share: float = 0.5


@dataclass(frozen=True, slots=True)
class RunUsage:
    calls: int = 0
    prompt_tokens: int = 0
    cached_prompt_tokens: int = 0
    completion_tokens: int = 0
    # What history policies billed for their own model calls (summaries, notes).
    compression_prompt_tokens: int = 0
    compression_completion_tokens: int = 0

    def add(self, usage: Usage) -> RunUsage:
        return replace(
            self,
            calls=self.calls + 1,
            prompt_tokens=self.prompt_tokens + usage.prompt_tokens,
            cached_prompt_tokens=self.cached_prompt_tokens + (usage.cached_prompt_tokens or 0),
            completion_tokens=self.completion_tokens + usage.completion_tokens,
        )

    def add_compression(self, usage: Usage) -> RunUsage:
        return replace(
            self,
            compression_prompt_tokens=self.compression_prompt_tokens + usage.prompt_tokens,
            compression_completion_tokens=self.compression_completion_tokens
            + usage.completion_tokens,
        )


@dataclass(frozen=True, slots=True)
class RunResult:
    session_id: str
    run_id: str
    status: Literal["finished", "failed", "nothing_to_do"]
    answer: str = ""
    error: str = ""
    iterations: int = 0
    usage: RunUsage = field(default_factory=RunUsage)
    # How the run ended, judged from its trajectory (workset.loop.outcome): answered,
    # answered_unverified, gave_up or failed; outcome_reason says why in one sentence. None
    # when the loop did not judge it (callers then classify the recorded trajectory).
    outcome: Outcome | None = None
    outcome_reason: str = ""
