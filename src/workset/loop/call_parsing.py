"""Calls written as text in a model's answer, read into the calls the loop runs.

Native ``tool_calls`` are taken as they are; calls written as JSON text (small models do this)
are parsed (:func:`~workset.models.toolcalls.parse_tool_calls`); under a grammar a
``{"answer": ...}`` decision is a final answer. A call whose text could not be parsed becomes
one pseudo-call without arguments, under the name the text gives it (``invalid_tool_call``
when it gives none), answered with an error showing a valid call, so the model can fix it; a
last call cut off by the token limit after whole ones is dropped (the whole calls run); a
reply that only names a tool (bare, in tags, or as a transcript's ``Tool: name`` line) is a
call attempt, not an answer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from workset.loop.claims import WRITE_TOOLS
from workset.messages import AssistantMessage, ToolCall
from workset.models.constrained import final_answer
from workset.models.toolcalls import CUT_OFF, parse_tool_calls

VALID_CALL = '{"name": "<tool name>", "arguments": {...}}'
INVALID_CALL = "invalid_tool_call"  # the pseudo-call a message that could not be read gets
INVALID_ID = "call_invalid_"  # the id prefix of that pseudo-call (the harness's, not the model's)

_INTENDED = re.compile(r'^\s*(?:```\w*\s*)?\{\s*"name"\s*:\s*"([A-Za-z_]\w*)"')
_TAGGED = re.compile(r"^\s*(?:<[^<>]{1,40}>\s*)*([A-Za-z_][\w]*)\s*(?:</?[^<>]{1,40}>\s*)*$")
# "Tool: archive_email Assistant: Archived it." -- a transcript-style call with no arguments
_TRANSCRIPT_CALL = re.compile(r"^\s*(?:tool|action)\s*:\s*`?([A-Za-z_][\w]*)`?(?=\s|$)", re.I)


def read_calls(
    message: AssistantMessage,
    iteration: int,
    tool_names: Sequence[str],
    *,
    tools_offered: bool,
    grammar: bool,
    truncated: bool = False,
) -> tuple[AssistantMessage, dict[str, str]]:
    """``message`` with the calls its text holds, and call id -> error for the calls that
    could not be read. ``grammar``: the output was constrained, so ``{"answer": ...}`` is the
    final answer; ``truncated``: the reply stopped at its token limit (a call cut off there
    is told so, with a shorter way to write it)."""
    if message.tool_calls or not message.content or not tools_offered:
        return message, {}
    answer = final_answer(message.content) if grammar else None
    if answer is not None:
        return replace(message, content=answer), {}
    parsed = parse_tool_calls(message.content, tool_names)
    named = None
    if not parsed.calls and not parsed.errors:
        named = _tagged_tool_name(message.content, tool_names)
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
        text = cut(message.content, 300)
        # The pseudo-call is named as the text names it: the 0.5B copied the name
        # invalid_tool_call into its next turns until the run gave up; and a call under a
        # name the code defines ({"name": "fold", "arguments": {"binop": add}}: the function's
        # own call) can then be read as its definition (loop.code_names).
        intended = _INTENDED.search(message.content)
        name = named or (intended.group(1) if intended else INVALID_CALL)
        bad = ToolCall(id=f"{INVALID_ID}{iteration}_0", name=name)
        invalid.append(bad)
        more = len(parsed.errors) - 1
        also = f" ({more} more call{'s' if more > 1 else ''} in it had the same problem)"
        if truncated and not parsed.calls and all(CUT_OFF in e for e in parsed.errors):
            rejected[bad.id] = cut_off_advice(name)
        else:
            rejected[bad.id] = (
                f"{parsed.errors[0]}{also if more else ''}\nWrite one JSON object per call: "
                f"{VALID_CALL}. Available tools: {', '.join(tool_names)}."
            )
    calls = (*parsed.calls, *invalid)
    return replace(message, content=text, tool_calls=calls), rejected


def cut_off_advice(name: str) -> str:
    """The error for a call whose text ran into the reply's token limit: the cause, and a
    shorter way to write it (the 0.5B copied a whole numbered function into edit_file's
    ``old``, was cut off at 512 tokens, and wrote the same call again when told only that
    the JSON was incomplete)."""
    what = f"Your {name} call" if name != INVALID_CALL else "Your tool call"
    advice = (
        "Put in old only the one to three lines that change, as the file has them, without "
        "the line numbers and '|', and in new the same lines changed."
        if name in WRITE_TOOLS
        else "Write a shorter call: only the arguments the tool needs, with short values."
    )
    return (
        f"{what} was not run: it was cut off at the reply's length limit before its JSON "
        f"was complete, so writing it the same way fails again. {advice}"
    )


def _tagged_tool_name(content: str, tool_names: Sequence[str]) -> str | None:
    """The tool named by a reply that is only a tool name, bare or in tags
    (``<function-name>find_files</function-name>``), or that opens like a transcript's call
    line (``Tool: archive_email …``): a call attempt, not an answer."""
    match = _TAGGED.match(content) or _TRANSCRIPT_CALL.match(content)
    if match is None or match.group(1) not in tool_names:
        return None
    return match.group(1)


def cut(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, an ellipsis marking the cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
