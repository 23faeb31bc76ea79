"""The named policies: selectable by name, replayable, each keeping what it promises."""

from __future__ import annotations

import anyio
import pytest
from history_transcripts import context, session, summarizer

from workset.errors import UsageError
from workset.history.policies import make_policy, policy_names
from workset.messages import Message, SystemMessage, ToolMessage, UserMessage


def test_every_named_policy_is_listed_and_made_by_name() -> None:
    assert policy_names() == (
        "full",
        "window",
        "compaction",
        "compaction_notes",
        "elide",
        "user_verbatim",
        "pinned_system",
        "pinned_end",
        "retrieval",
    )
    for name in policy_names():
        assert make_policy(name).name == name


def test_an_unknown_name_or_parameter_says_what_is_accepted() -> None:
    with pytest.raises(UsageError, match="did you mean 'user_verbatim'"):
        make_policy("user-verbatim")
    accepted = r"does not take \['keep'\]; it takes \['layers', 'turns'\]"
    with pytest.raises(UsageError, match=accepted):
        make_policy("elide", keep=3)


def test_policies_never_see_the_system_prompt() -> None:
    history: list[Message] = [SystemMessage("you are"), *session(1)]
    with pytest.raises(UsageError, match="without the system message"):
        anyio.run(make_policy("full").view, history, context())


def test_full_keeps_everything_as_recorded() -> None:
    view = anyio.run(make_policy("full").view, session(3), context())
    assert view.messages == tuple(session(3)) and view.omitted == ()


def test_window_keeps_the_last_turns_whole() -> None:
    view = anyio.run(make_policy("window", turns=2).view, session(5), context())
    assert view.seqs == tuple(range(12, 20))
    assert {o.reason for o in view.omitted} == {"policy"} and len(view.omitted) == 12


def test_a_message_window_never_starts_inside_a_unit() -> None:
    # the last 6 messages would start with the tool result of turn 4: its unit goes whole
    view = anyio.run(make_policy("window", messages=6).view, session(5), context())
    assert view.seqs == tuple(range(15, 20))


def test_the_current_turn_is_kept_even_when_it_is_longer_than_the_window() -> None:
    history = [*session(2), *[m for m in session(1) if not isinstance(m, UserMessage)] * 1]
    view = anyio.run(make_policy("window", messages=1).view, history, context())
    assert view.seqs == tuple(range(4, len(history)))


def test_user_verbatim_keeps_every_user_message_and_the_last_turns() -> None:
    history = session(6)
    view = anyio.run(make_policy("user_verbatim", turns=4).view, history, context())
    assert view.seqs == (0, 4, *range(8, 24))
    assert dict(view.kept_because) == {
        0: "user message kept verbatim: the user's words outlive the window",
        4: "user message kept verbatim: the user's words outlive the window",
    }
    assert all(isinstance(m, UserMessage) for m in view.messages[:2])
    assert not any(isinstance(m, ToolMessage) and m.tool_call_id == "c1" for m in view.messages)


def _with_rules(turns: int) -> list[Message]:
    history = session(turns)
    history[4] = UserMessage("standing rule: file every ticket under employee number 4417")
    return history


@pytest.mark.parametrize(("name", "where"), [("pinned_system", "system"), ("pinned_end", "end")])
def test_pinned_policies_pin_the_note_takers_notes_in_the_system_prompt_or_at_the_end(
    name: str, where: str
) -> None:
    model = summarizer()
    view = anyio.run(make_policy(name, turns=1).view, _with_rules(3), context(model))
    assert view.pinned_at == where
    assert view.pinned == (
        "Notes kept from the user's messages (standing rules, identifiers, facts):\n"
        "- turn 2: standing rule: file every ticket under employee number 4417",
    )
    assert len(model.requests) == 3  # one per user message, the note-taker prompt each
    assert view.cost.prompt_tokens > 0
    again = anyio.run(make_policy(name, turns=1).view, _with_rules(3), context(summarizer()))
    assert again == view


def test_fixed_notes_need_no_model() -> None:
    view = anyio.run(
        make_policy("pinned_end", notes=["employee 4417"]).view, session(2), context(None)
    )
    assert view.pinned == (
        "Notes kept from the user's messages (standing rules, identifiers, facts):\n"
        "- employee 4417",
    )


def test_compaction_notes_pins_notes_and_the_trail_beside_the_summary() -> None:
    model = summarizer()
    policy = make_policy("compaction_notes", turns=1, batch_turns=1)
    view = anyio.run(policy.view, _with_rules(3), context(model))
    assert view.messages[0].content.startswith("[COMPRESSED] Summary of turns 1-2")
    assert view.pinned[0].startswith("Artifact trail")
    assert "employee number 4417" in view.pinned[1]
    summary_prompt = model.requests[-1].messages[1].content or ""
    assert "employee number 4417" in summary_prompt  # accumulated context goes in


def test_a_summarising_policy_without_a_summarizer_says_how_to_fix_it() -> None:
    with pytest.raises(UsageError, match=r"set PolicyContext\.summarizer"):
        anyio.run(make_policy("compaction", turns=1, batch_turns=1).view, session(3), context())


def test_replaying_one_transcript_under_each_policy_is_deterministic() -> None:
    history = _with_rules(8)
    for name in policy_names():
        views = []
        for _ in range(2):
            policy, model = make_policy(name), summarizer()
            replay = [anyio.run(policy.view, history[:n], context(model)) for n in (12, 24, 32)]
            views.append(replay)
        assert views[0] == views[1], name
