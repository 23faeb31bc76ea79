from __future__ import annotations

from workset.loop.calls import CallInterpreter
from workset.messages import AssistantMessage, ToolCall

NAMES = ("grep", "read_file")


def test_text_calls_are_parsed_and_given_ids_unique_in_the_session() -> None:
    earlier = AssistantMessage(None, (ToolCall("call_0", "grep", '{"pattern": "a"}'),))
    interpreter = CallInterpreter(NAMES, history=[earlier])
    native = AssistantMessage(None, (ToolCall("call_0", "read_file", '{"path": "x"}'),))
    decided = interpreter.interpret(native, 1, tools_offered=True)
    assert [c.id for c in decided.message.tool_calls] == ["call_0~2"]
    text = AssistantMessage('{"name": "grep", "arguments": {"pattern": "b"}}')
    parsed = interpreter.interpret(text, 2, tools_offered=True).message
    assert parsed.content is None and parsed.tool_calls[0].name == "grep"


def test_a_malformed_text_call_is_rejected_with_a_valid_example() -> None:
    decided = CallInterpreter(NAMES).interpret(
        AssistantMessage('```json\n{"name": "grep", "arguments": {"pattern": \n```'),
        1,
        tools_offered=True,
    )
    [bad] = decided.message.tool_calls
    assert bad.name == "invalid_tool_call"
    assert '{"name": "<tool name>", "arguments": {...}}' in decided.rejected[bad.id]


def test_a_repeated_call_is_not_run_again_and_marks_the_run_stuck() -> None:
    interpreter = CallInterpreter(NAMES)
    first = AssistantMessage(None, (ToolCall("a", "grep", '{"pattern": "x", "page": 1}'),))
    assert not interpreter.interpret(first, 1, tools_offered=True).stuck
    again = AssistantMessage(
        None,
        (
            ToolCall("b", "grep", '{"page": 1, "pattern": "x"}'),
            ToolCall("c", "grep", '{"pattern": "y"}'),
        ),
    )
    decided = interpreter.interpret(again, 2, tools_offered=True)
    assert decided.stuck
    assert "already called grep" in decided.rejected["b"] and "c" not in decided.rejected


def test_calls_beyond_the_per_message_cap_are_not_run() -> None:
    many = tuple(ToolCall(f"id{i}", "grep", f'{{"pattern": "p{i}"}}') for i in range(5))
    decided = CallInterpreter(NAMES, max_calls=3).interpret(
        AssistantMessage(None, many), 1, tools_offered=True
    )
    assert sorted(decided.rejected) == ["id3", "id4"]


def test_without_tools_offered_text_is_an_answer_and_native_calls_are_refused() -> None:
    interpreter = CallInterpreter(NAMES)
    text = AssistantMessage('{"name": "grep", "arguments": {"pattern": "b"}}')
    assert interpreter.interpret(text, 1, tools_offered=False).message == text
    native = AssistantMessage(None, (ToolCall("n", "grep", "{}"),))
    assert (
        "no tools are offered"
        in interpreter.interpret(native, 2, tools_offered=False).rejected["n"]
    )


def test_constrained_answers_become_plain_text() -> None:
    decided = CallInterpreter(NAMES, constrained=True).interpret(
        AssistantMessage('{"answer": "8471"}'), 1, tools_offered=True
    )
    assert decided.message == AssistantMessage("8471") and not decided.message.tool_calls
