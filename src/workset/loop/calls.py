"""From a model's answer to the calls the loop will run, for models big and small.

Native ``tool_calls`` are taken as they are; calls written as JSON text (small models do this)
are parsed; a ``{"answer": ...}`` decision is a final answer. Then the guards:

- a call whose text could not be parsed becomes an ``invalid_tool_call`` answered with an error
  showing a valid call, so the model can fix it;
- ids already used in the session get a fresh suffix (results are recorded once per id);
- calls beyond ``max_calls`` in one message are answered with an error, not run (a degenerate
  output can repeat a call dozens of times);
- a call identical to one already run in this run is not run again: its error says the result
  is above, and the next model call is made without tools so the model answers with what it
  has. A repeat brings no new information; answering breaks the loop small models fall into.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from workset.messages import AssistantMessage, Message, ToolCall
from workset.models.constrained import final_answer
from workset.models.toolcalls import parse_tool_calls

VALID_CALL = '{"name": "<tool name>", "arguments": {...}}'


@dataclass(frozen=True, slots=True)
class Interpreted:
    message: AssistantMessage  # as recorded: parsed calls, unique ids
    rejected: dict[str, str] = field(default_factory=dict)  # call id -> error for the model
    stuck: bool = False  # a call repeated an earlier one: answer next, without tools


class CallInterpreter:
    """Interprets the model's messages during one run."""

    def __init__(
        self,
        tool_names: Sequence[str],
        *,
        history: Iterable[Message] = (),
        constrained: bool = False,
        max_calls: int = 8,
    ) -> None:
        self.tool_names = tuple(tool_names)
        self.constrained = constrained
        self.max_calls = max_calls
        self._ids = {c.id for m in history if isinstance(m, AssistantMessage) for c in m.tool_calls}
        self._run: dict[tuple[str, str], str] = {}  # (name, canonical args) -> first call id

    def interpret(
        self, message: AssistantMessage, iteration: int, *, tools_offered: bool
    ) -> Interpreted:
        parsed, parse_errors = self._parse(message, iteration, tools_offered)
        message = self._unique_ids(parsed)
        renamed = {
            old.id: new.id for old, new in zip(parsed.tool_calls, message.tool_calls, strict=True)
        }
        rejected = {renamed[k]: v for k, v in parse_errors.items()}
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
            if first is not None:
                stuck = True
                rejected[call.id] = (
                    f"not run again: you already called {call.name} with these arguments "
                    f"(call {first}) and its result is above. Use that result to answer."
                )
                continue
            self._run[key] = call.id
        return Interpreted(message, rejected, stuck)

    def _parse(
        self, message: AssistantMessage, iteration: int, tools_offered: bool
    ) -> tuple[AssistantMessage, dict[str, str]]:
        if message.tool_calls or not message.content or not tools_offered:
            return message, {}
        answer = final_answer(message.content) if self.constrained else None
        if answer is not None:
            return replace(message, content=answer), {}
        parsed = parse_tool_calls(message.content, self.tool_names)
        if not parsed.calls and not parsed.errors:
            return message, {}
        rejected: dict[str, str] = {}
        invalid: list[ToolCall] = []
        for n, error in enumerate(parsed.errors):
            bad = ToolCall(
                id=f"call_invalid_{iteration}_{n}",
                name="invalid_tool_call",
                arguments=json.dumps({"raw": message.content[:400]}, ensure_ascii=False),
            )
            invalid.append(bad)
            rejected[bad.id] = (
                f"{error}\nWrite one JSON object per call: {VALID_CALL}. Available tools: "
                f"{', '.join(self.tool_names)}."
            )
        calls = (*parsed.calls, *invalid)
        return replace(message, content=parsed.text or None, tool_calls=calls), rejected

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


def _canonical(arguments: str) -> str:
    try:
        return json.dumps(json.loads(arguments), sort_keys=True)
    except json.JSONDecodeError:
        return arguments
