from __future__ import annotations

import pytest

from workset.errors import UsageError
from workset.messages import (
    AssistantMessage,
    ProtocolUnit,
    SystemMessage,
    ToolCall,
    ToolMessage,
    UserMessage,
    canonical_order,
    flatten,
    from_wire,
    group_units,
    to_wire,
)

CALL_A = ToolCall("a", "read_file", '{"path": "x"}')
CALL_B = ToolCall("b", "grep", '{"pattern": "y"}')
TURN = AssistantMessage(content=None, tool_calls=(CALL_A, CALL_B))
RES_A = ToolMessage("a", "content of x", name="read_file")
RES_B = ToolMessage("b", "no matches", name="grep")


def test_every_message_kind_survives_a_wire_round_trip() -> None:
    messages = [
        SystemMessage("be brief"),
        UserMessage("hi"),
        AssistantMessage("thinking done", (CALL_A,), reasoning_content="hmm"),
        RES_A,
        AssistantMessage("final"),
    ]
    back = [from_wire(to_wire(m, keep_reasoning=True)) for m in messages]
    assert back == messages


def test_reasoning_is_dropped_from_the_wire_unless_asked_for() -> None:
    message = AssistantMessage("answer", reasoning_content="secret chain")
    assert "reasoning_content" not in to_wire(message)
    assert to_wire(message, keep_reasoning=True)["reasoning_content"] == "secret chain"


def test_tool_call_arguments_sent_as_objects_are_kept_as_json_text() -> None:
    wire = {
        "role": "assistant",
        "content": None,
        "tool_calls": [{"id": "1", "function": {"name": "f", "arguments": {"k": "é"}}}],
    }
    message = from_wire(wire)
    assert isinstance(message, AssistantMessage)
    assert message.tool_calls[0].arguments == '{"k": "é"}'


def test_unknown_roles_and_tool_messages_without_ids_are_rejected_clearly() -> None:
    with pytest.raises(UsageError, match="unknown message role 'robot'"):
        from_wire({"role": "robot", "content": "x"})
    with pytest.raises(UsageError, match="tool_call_id"):
        from_wire({"role": "tool", "content": "x"})


def test_a_protocol_unit_orders_results_by_call_and_refuses_to_be_incomplete() -> None:
    unit = ProtocolUnit(TURN, (RES_B, RES_A))
    assert unit.results == (RES_A, RES_B)
    with pytest.raises(UsageError, match="every call needs exactly one result"):
        ProtocolUnit(TURN, (RES_A,))
    with pytest.raises(UsageError, match="every call needs exactly one result"):
        ProtocolUnit(TURN, (RES_A, RES_B, ToolMessage("c", "extra")))
    with pytest.raises(UsageError, match="needs an assistant message with tool calls"):
        ProtocolUnit(AssistantMessage("plain"), ())


def test_grouping_makes_units_and_reports_an_open_one() -> None:
    history = [
        UserMessage("q"),
        TURN,
        RES_A,
        RES_B,
        AssistantMessage("done"),
        UserMessage("more"),
        TURN,
        RES_B,
    ]
    grouped, open_unit = group_units(history)
    assert isinstance(grouped[1], ProtocolUnit)
    assert open_unit is not None
    assert open_unit.pending == (CALL_A,)
    assert flatten(grouped) == history[:6]


def test_orphan_and_interrupted_results_are_errors() -> None:
    with pytest.raises(UsageError, match="no preceding tool call"):
        group_units([UserMessage("q"), RES_A])
    with pytest.raises(UsageError, match="have no result before the next message"):
        group_units([TURN, RES_A, UserMessage("interrupting")])


def test_canonical_order_puts_results_in_call_order_even_for_an_open_unit() -> None:
    assert canonical_order([UserMessage("q"), TURN, RES_B, RES_A]) == [
        UserMessage("q"),
        TURN,
        RES_A,
        RES_B,
    ]
    third = ToolCall("c", "list_dir")
    open_turn = AssistantMessage(None, (CALL_A, CALL_B, third))
    assert canonical_order([open_turn, RES_B, RES_A]) == [open_turn, RES_A, RES_B]
