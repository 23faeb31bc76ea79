"""Anchored iterative summary, full compaction and its circuit breaker."""

from __future__ import annotations

import anyio
from history_transcripts import anchored_text, context, session, summarizer

from workset.errors import ModelResponseError
from workset.history.compaction import AnchoredSummary, full_compaction
from workset.history.draft import start_draft, view_tokens
from workset.history.policies import LayeredPolicy
from workset.history.summary import SECTIONS, check_anchored
from workset.messages import SystemMessage, ToolMessage, UserMessage


def test_the_summary_is_updated_from_the_previous_summary_and_only_the_new_span() -> None:
    model = summarizer([anchored_text("first"), anchored_text("second")])
    policy = LayeredPolicy([AnchoredSummary(keep_turns=2, batch_turns=2)])
    ctx = context(model, query="which file is largest?")
    first = anyio.run(policy.view, session(4), ctx)
    assert first.messages[0].content.startswith("[COMPRESSED] Summary of turns 1-2")
    assert "- session intent first" in first.messages[0].content
    assert first.seqs[:2] == (None, 8)  # turns 1-2 (seq 0-7) folded, turn 3 onward kept

    second = anyio.run(policy.view, session(6), ctx)
    prompt = model.requests[1].messages[1].content
    assert "- session intent first" in prompt  # the previous summary goes in
    assert "[seq 8, turn 3]" in prompt and "[seq 15, turn 4]" in prompt
    assert "[seq 7, turn 2]" not in prompt  # already summarised spans are not sent again
    assert "Current query: which file is largest?" in prompt
    assert second.messages[0].content.startswith("[COMPRESSED] Summary of turns 1-4")
    assert second.cost.prompt_tokens > 0  # billed to the view, apart from the run

    third = anyio.run(policy.view, [*session(6), UserMessage("one more")], ctx)
    assert len(model.requests) == 2  # turn 5 alone is no batch yet: no new summary
    assert third.messages[0] == second.messages[0]  # the same bytes: the prefix stays cached
    assert third.cost.prompt_tokens == 0


def test_the_prompt_asks_for_every_fixed_section() -> None:
    model = summarizer()
    anyio.run(
        LayeredPolicy([AnchoredSummary(keep_turns=1, batch_turns=1)]).view,
        session(2),
        context(model),
    )
    system = model.requests[0].messages[0]
    assert isinstance(system, SystemMessage)
    for section in SECTIONS:
        assert f"## {section}" in system.content


def test_a_summary_missing_a_section_or_a_citation_is_malformed() -> None:
    assert check_anchored(anchored_text()) is None
    assert "Test status" in (check_anchored(anchored_text().replace("Test status", "X")) or "")
    assert check_anchored("   ") == "the summary is empty"
    cited = anchored_text("[seq 3]")
    assert check_anchored(cited, cite=True) is None
    assert "no [seq N] reference" in (check_anchored(anchored_text(), cite=True) or "")


def test_full_compaction_stops_after_three_consecutive_failures_and_says_so() -> None:
    model = summarizer([ModelResponseError("boom"), "not a summary", "", anchored_text()])
    policy = LayeredPolicy([full_compaction()])
    ctx = context(model, window=50)  # far past 80 %: compaction is due on every call
    views = [anyio.run(policy.view, session(3), ctx) for _ in range(5)]
    assert len(model.requests) == 3  # the fourth entry is never asked for
    assert "model error: boom" in views[0].notices[0]
    assert "lacks the sections" in views[1].notices[0]
    assert views[2].notices == (
        "full compaction stopped after 3 consecutive failures (last: the summary is empty); "
        "the history is sent without it. Use a policy that does not summarise, a more capable "
        "summarizer, or start a new session.",
    )
    assert views[4].notices == views[2].notices
    assert views[4].messages == tuple(session(3))  # nothing dropped while compaction is off


def test_a_success_resets_the_count_of_consecutive_failures() -> None:
    errors = [ModelResponseError("x"), ModelResponseError("y")]
    model = summarizer([*errors, anchored_text(), *errors, anchored_text()])
    layer = full_compaction()
    policy = LayeredPolicy([layer])
    for turns in range(2, 8):
        anyio.run(policy.view, session(turns), context(model, window=50))
    assert len(model.requests) == 6
    assert not layer.breaker.open


def test_full_compaction_waits_until_the_view_passes_80_percent_of_the_window() -> None:
    history = session(4)
    tokens = view_tokens(start_draft(history).blocks, context())
    fits = int(tokens / 0.8) + 1  # tokens <= 80 % of this window
    model = summarizer()
    view = anyio.run(LayeredPolicy([full_compaction()]).view, history, context(model, window=fits))
    assert model.requests == [] and view.messages == tuple(history)

    over = int(tokens / 0.8) - 1
    view = anyio.run(LayeredPolicy([full_compaction()]).view, history, context(model, window=over))
    assert len(model.requests) == 1
    assert view.messages[0].content.startswith("[COMPRESSED] Summary of turns 1-3")
    assert view.messages[1] == UserMessage("question 4: what is in file4.txt?")
    assert view.cost.prompt_tokens > 0 and view.summary_id is not None


def test_compressed_text_is_never_summarised_again_and_stays_in_the_view() -> None:
    history = session(3)
    history[2] = ToolMessage("c1", "[COMPRESSED] read_file result from turn 1: file1 is empty")
    model = summarizer()
    layer = AnchoredSummary(keep_turns=1, batch_turns=1)
    policy = LayeredPolicy([layer, full_compaction()])
    view = anyio.run(policy.view, history, context(model, window=1))
    for request in model.requests:
        span = (request.messages[1].content or "").split("New messages:")[1]
        assert "[COMPRESSED]" not in span
    assert view.messages[1:3] == tuple(history[1:3])  # the compressed unit, whole and as it was
    assert view.messages[0].content.startswith("[COMPRESSED] Summary of turns 1-2")
    assert len(model.requests) == 1  # full compaction found nothing left to fold
