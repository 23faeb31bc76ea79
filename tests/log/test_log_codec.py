"""Loop events survive the trip to a JSON payload and back exactly."""

from __future__ import annotations

import json
from typing import get_args

import pytest
from hypothesis import given
from hypothesis import strategies as st

from workset.context.manifest import (
    BudgetNumbers,
    IncludedItem,
    ItemKind,
    Manifest,
    OmitReason,
    OmittedItem,
    PrefixInfo,
)
from workset.errors import SessionLogError
from workset.events import (
    LoopEvent,
    ModelCalled,
    RunFailed,
    RunFinished,
    RunStarted,
    ToolFinished,
    ToolStarted,
)
from workset.log.codec import EVENT_TYPES, event_from_payload, event_to_payload
from workset.messages import AssistantMessage, ToolCall, ToolMessage
from workset.models.base import Usage

text = st.text(max_size=12)
ints = st.integers(min_value=-(2**40), max_value=2**40)
floats = st.floats(allow_nan=False, allow_infinity=False)
maybe_text = st.none() | text
maybe_int = st.none() | ints


def tuples_of(strategy: st.SearchStrategy[object]) -> st.SearchStrategy[tuple[object, ...]]:
    return st.lists(strategy, max_size=3).map(tuple)


tool_calls = st.builds(ToolCall, id=text, name=text, arguments=text)
assistant_messages = st.builds(
    AssistantMessage,
    content=maybe_text,
    tool_calls=tuples_of(tool_calls),
    reasoning_content=maybe_text,
)
tool_messages = st.builds(
    ToolMessage, tool_call_id=text, content=text, name=text, is_error=st.booleans()
)
usages = st.builds(
    Usage,
    prompt_tokens=ints,
    completion_tokens=ints,
    cached_prompt_tokens=maybe_int,
    latency_s=floats,
    time_to_first_token_s=st.none() | floats,
)
manifests = st.builds(
    Manifest,
    request_id=text,
    session_id=text,
    through_seq=ints,
    total_tokens=ints,
    count_method=text,
    budget=st.builds(
        BudgetNumbers,
        window=ints,
        output_reserve=ints,
        margin=ints,
        fixed=ints,
        available=ints,
        used=ints,
    ),
    buckets=st.dictionaries(text, ints, max_size=4),
    prefix=st.builds(
        PrefixInfo,
        hash=text,
        tokens=ints,
        reused_tokens=ints,
        previous_total=ints,
        first_divergence=text,
    ),
    included=tuples_of(
        st.builds(
            IncludedItem,
            item_id=text,
            kind=st.sampled_from(get_args(ItemKind)),
            source=text,
            tokens=ints,
            position=ints,
            bucket=text,
            seq=maybe_int,
        )
    ),
    omitted=tuples_of(
        st.builds(
            OmittedItem,
            item_id=text,
            kind=st.sampled_from(get_args(ItemKind)),
            source=text,
            tokens=ints,
            reason=st.sampled_from(get_args(OmitReason)),
            detail=text,
            seq=maybe_int,
        )
    ),
    summary_id=maybe_text,
)
events: st.SearchStrategy[LoopEvent] = st.one_of(
    st.builds(
        RunStarted,
        run_id=text,
        session_id=text,
        task=text,
        model=text,
        at=floats,
        resumed=st.booleans(),
    ),
    st.builds(
        ModelCalled,
        run_id=text,
        session_id=text,
        iteration=ints,
        manifest=manifests,
        message=assistant_messages,
        usage=usages,
        at=floats,
        finish_reason=maybe_text,
    ),
    st.builds(ToolStarted, run_id=text, session_id=text, call=tool_calls, at=floats),
    st.builds(
        ToolFinished,
        run_id=text,
        session_id=text,
        call=tool_calls,
        result=tool_messages,
        duration_s=floats,
        at=floats,
    ),
    st.builds(RunFinished, run_id=text, session_id=text, answer=text, iterations=ints, at=floats),
    st.builds(RunFailed, run_id=text, session_id=text, error=text, error_type=text, at=floats),
)


def through_json(event: LoopEvent) -> LoopEvent:
    payload = json.loads(json.dumps(event_to_payload(event)))
    return event_from_payload(event.kind, payload)


@given(events)
def test_every_event_round_trips_exactly_through_json(event: LoopEvent) -> None:
    assert through_json(event) == event


def test_a_model_call_keeps_tuples_nones_and_nested_parts() -> None:
    call = ToolCall(id="c1", name="read_file", arguments='{"path": "a.py"}')
    manifest = Manifest(
        request_id="r1",
        session_id="s1",
        through_seq=7,
        total_tokens=120,
        count_method="exact",
        budget=BudgetNumbers(4096, 512, 64, 100, 3420, 120),
        buckets={"instruction": 100, "trajectory": 20},
        prefix=PrefixInfo(hash="abc", tokens=100, reused_tokens=0, previous_total=0),
        included=(IncludedItem("sys", "instruction", "system", 100, 0, "instruction"),),
        omitted=(OmittedItem("old", "trajectory", "seq 3", 40, "budget", seq=3),),
    )
    event = ModelCalled(
        run_id="run1",
        session_id="s1",
        iteration=1,
        manifest=manifest,
        message=AssistantMessage(content=None, tool_calls=(call,)),
        usage=Usage(prompt_tokens=120, completion_tokens=9),
        at=1.5,
    )

    back = through_json(event)

    assert back == event
    assert isinstance(back, ModelCalled)
    assert back.message.tool_calls == (call,)
    assert back.message.content is None
    assert back.usage.cached_prompt_tokens is None
    assert back.manifest.included[0].seq is None
    assert isinstance(back.manifest.omitted, tuple)
    assert back.manifest.buckets == {"instruction": 100, "trajectory": 20}


def test_the_payload_is_plain_json_with_the_kind() -> None:
    event = ToolStarted(run_id="r", session_id="s", call=ToolCall("c1", "ls"), at=2.0)

    payload = event_to_payload(event)

    assert payload == {
        "run_id": "r",
        "session_id": "s",
        "call": {"id": "c1", "name": "ls", "arguments": "{}"},
        "at": 2.0,
        "kind": "tool_started",
    }


def test_every_event_kind_maps_to_its_class() -> None:
    for kind, cls in EVENT_TYPES.items():
        assert cls.__dataclass_fields__["kind"].default == kind


def test_an_unknown_kind_is_refused_with_the_known_kinds_listed() -> None:
    with pytest.raises(SessionLogError, match=r"unknown event kind 'compacted'.*run_started"):
        event_from_payload("compacted", {})


def test_a_payload_of_the_wrong_shape_names_the_bad_field() -> None:
    payload = event_to_payload(ToolStarted("r", "s", ToolCall("c1", "ls"), at=2.0))
    payload["call"]["name"] = 5

    with pytest.raises(SessionLogError, match=r"tool_started\.call\.name should be str"):
        event_from_payload("tool_started", payload)


def test_a_payload_recorded_under_another_kind_is_refused() -> None:
    payload = event_to_payload(RunFinished("r", "s", answer="ok", iterations=1, at=1.0))

    with pytest.raises(SessionLogError, match="kind"):
        event_from_payload("run_failed", payload)
