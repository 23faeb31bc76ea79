"""Observation masking: old results become stubs that say how to re-run the call."""

from __future__ import annotations

from dataclasses import replace

import anyio
from history_transcripts import context, session

from workset.history.policies import make_policy
from workset.messages import ToolMessage


def test_old_results_become_stubs_naming_tool_turn_size_and_how_to_rerun() -> None:
    history = session(6, result_chars=300)
    view = anyio.run(make_policy("elide", turns=4).view, history, context())
    stub = view.messages[2]
    assert isinstance(stub, ToolMessage) and stub.tool_call_id == "c1"
    assert stub.content == (
        "[read_file result from turn 1, 300 chars, elided; call read_file again with the "
        'same arguments ({"path": "file1.txt"}) to re-read it]'
    )
    assert view.seqs == tuple(range(len(history)))  # stubs keep their place and seq


def test_results_of_the_last_turns_are_kept_and_masked_ones_are_listed() -> None:
    history = session(6)
    view = anyio.run(make_policy("elide", turns=4).view, history, context())
    results = [m for m in view.messages if isinstance(m, ToolMessage)]
    assert [r.content.startswith("[read_file result from turn") for r in results] == [
        True,
        True,
        False,
        False,
        False,
        False,
    ]
    assert [(o.seq, o.reason) for o in view.omitted] == [(2, "masked"), (6, "masked")]


def test_a_stub_is_never_masked_again_on_the_next_call() -> None:
    policy = make_policy("elide", turns=1)
    history = session(3)
    first = anyio.run(policy.view, history, context())
    again = anyio.run(policy.view, list(first.messages), context())
    assert again.messages == first.messages


def test_a_result_recorded_without_a_tool_name_gets_the_name_of_its_call_in_the_stub() -> None:
    history = [m if not isinstance(m, ToolMessage) else replace(m, name="") for m in session(6)]
    view = anyio.run(make_policy("elide", turns=4).view, history, context())
    stub = view.messages[2]
    assert isinstance(stub, ToolMessage)
    assert stub.content.startswith("[read_file result from turn 1, ")
