"""Probes: asking a planted fact on top of a prompt, the control prompt, other records' values.

The control prompt holds only the planted turns, so that a zero in a policy row reads as a
loss of the fact, not as a task the model cannot do. "Another record's value" is what makes a
wrong answer confident: a distractor, another probe's fact, or a value shaped like the
expected one found elsewhere in the transcript.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from workset.context.assemble import Assembler
from workset.errors import UsageError
from workset.messages import AssistantMessage, Message, ToolSpec, UserMessage, group_units
from workset.models.base import Model
from workset.tokens.counter import PartCounter

from .formats import Probe, Transcript
from .match import Value
from .request import Prompt, build, eval_settings
from .score import classify


def answer_text(content: str | None, arguments: Sequence[str]) -> str:
    """What the model said: its text plus any tool-call arguments (a ticket it tried to file)."""
    return "\n".join([content or "", *arguments]).strip()


async def ask(
    model: Model,
    prompt: Prompt,
    tools: Sequence[ToolSpec],
    question: str,
    *,
    max_tokens: int,
    counter: PartCounter | None = None,
) -> tuple[str, int]:
    """Ask ``question`` as the current user message of ``prompt``, greedy and short, in the
    request the agent would send (the pinned block after the question); the answer and its
    prompt tokens. ``counter`` is the model's own unless given."""
    counter = counter or model.token_counter()
    window = model.info.context_window
    settings = eval_settings(prompt.system, counter, window=window, answer=max_tokens)
    built, _ = build(Assembler(counter), settings, prompt.view(), tools, question)
    response = await model.complete(built.request)
    arguments = [c.arguments for c in response.message.tool_calls]
    return answer_text(response.message.content, arguments), response.usage.prompt_tokens


def control_prompt(transcript: Transcript, probes: Sequence[Probe]) -> Prompt:
    """The planted turns alone: each turn's user message, or the whole turn when the fact is
    not in the user's own words (it came in a tool result)."""
    messages: list[Message] = []
    for turn in sorted({p.planted_turn for p in probes}):
        recorded = transcript.turn_messages(turn)
        if not recorded:
            raise UsageError(
                f"a probe is planted at turn {turn}, but {transcript.source} has no such turn"
            )
        users = [m for m in recorded if isinstance(m, UserMessage)]
        facts = [p for p in probes if p.planted_turn == turn]
        in_user_words = all(
            any(classify(u.content, p.expected, regex=p.regex) == "correct" for u in users)
            for p in facts
        )
        messages.extend(users if in_user_words and users else _whole_units(recorded))
    return Prompt(transcript.system, tuple(messages))


def _whole_units(messages: Sequence[Message]) -> list[Message]:
    _, open_unit = group_units(messages)
    if open_unit is None:
        return list(messages)
    return list(messages[: list(messages).index(open_unit.call)])  # drop an unfinished call


def other_values(
    probe: Probe, probes: Sequence[Probe], transcript: Transcript | None = None
) -> tuple[Value, ...]:
    """Values that would be another record's answer: the distractors, the other probes'
    facts, and values of the expected one's shape found in the transcript (for ``4417``
    other 4-digit numbers; for ``pay-shard-7`` other ``pay-shard-N``)."""
    others = [p.expected for p in probes if p.id != probe.id and p.expected]
    found: list[str] = []
    if transcript is not None and isinstance(probe.expected, str) and probe.expected:
        shape = re.compile(shape_pattern(probe.expected), re.IGNORECASE)
        texts = [getattr(m, "content", None) or "" for m in transcript.messages]
        texts += [
            c.arguments
            for m in transcript.messages
            if isinstance(m, AssistantMessage)
            for c in m.tool_calls
        ]
        plain = [v for v in (probe.expected, *probe.distractors, *others) if isinstance(v, str)]
        seen = {v.lower() for v in plain}
        for text in texts:
            for value in shape.findall(text):
                if value.lower() not in seen:
                    seen.add(value.lower())
                    found.append(value)
    return (*probe.distractors, *others, *found)


def shape_pattern(value: str) -> str:
    """A regex for values shaped like ``value``: a number of the same length, or the same
    words with any number where ``value`` has digits."""
    text = value.strip()
    if text.isdigit():
        body = rf"\d{{{len(text)}}}"
    else:
        body = "".join(
            r"\d+" if part.isdigit() else re.escape(part)
            for part in re.split(r"(\d+)", text)
            if part
        )
    return rf"(?<![\w-]){body}(?![\w-])"
