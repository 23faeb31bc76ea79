from __future__ import annotations

import json

import anyio

from workset.messages import ToolCall
from workset.tools.base import tool
from workset.tools.context import CallContext, current_call
from workset.tools.registry import ToolRegistry

sent: list[str] = []


def describe_transfer(amount: int, to: str) -> str:
    return f"would send {amount} EUR to {to}; the balance after it would be {1000 - amount} EUR"


@tool(examples=({"amount": 5, "to": "ACME"},), precheck=describe_transfer, risk="high")
def transfer(amount: int, to: str) -> str:
    """Send money. Use when the user asked to pay someone.

    Args:
        amount: Euros.
        to: Payee.
    """
    sent.append(f"{amount}->{to}:{current_call().idempotency_key}")
    return "sent"


def call(arguments: dict[str, object], call_id: str = "c1") -> ToolCall:
    return ToolCall(call_id, "transfer", json.dumps(arguments))


def test_a_two_phase_tool_runs_only_when_confirmed_with_the_token_for_those_arguments() -> None:
    sent.clear()
    registry = ToolRegistry([transfer])
    assert "confirm_token" in registry.specs()[0].parameters["properties"]
    first = anyio.run(registry.execute, call({"amount": 40, "to": "ACME"}))
    assert not first.is_error and sent == []
    assert "would send 40 EUR to ACME" in first.content
    token = first.content.split('"confirm_token": "')[1].split('"')[0]

    other = anyio.run(registry.execute, call({"amount": 400, "to": "ACME", "confirm_token": token}))
    assert sent == [] and "Precheck" in other.content  # a token does not carry over

    context = CallContext("s1", "c2", "transfer")
    done = anyio.run(
        registry.execute, call({"amount": 40, "to": "ACME", "confirm_token": token}, "c2"), context
    )
    assert done.content == "sent"
    assert sent == [f"40->ACME:{context.idempotency_key}"]


def test_a_token_from_another_registry_is_refused() -> None:
    sent.clear()
    first = anyio.run(ToolRegistry([transfer]).execute, call({"amount": 1, "to": "B"}))
    token = first.content.split('"confirm_token": "')[1].split('"')[0]
    again = anyio.run(
        ToolRegistry([transfer]).execute, call({"amount": 1, "to": "B", "confirm_token": token})
    )
    assert sent == [] and "Precheck" in again.content


def test_the_idempotency_key_is_stable_per_call_and_differs_between_calls() -> None:
    a, b = CallContext("s1", "c1", "t"), CallContext("s1", "c2", "t")
    assert a.idempotency_key == CallContext("s1", "c1", "t").idempotency_key
    assert a.idempotency_key != b.idempotency_key
