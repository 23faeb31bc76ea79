"""Adaptive, context-aware compression of tool results past 80 % of the window."""

from __future__ import annotations

import anyio
from history_transcripts import context, session, summarizer, unit

from workset.history.adaptive import AdaptiveCompression
from workset.history.draft import start_draft, view_tokens
from workset.history.policies import LayeredPolicy
from workset.messages import Message, ToolMessage, UserMessage


def _window_for(history: list[Message], *, over: bool) -> int:
    tokens = view_tokens(start_draft(history).blocks, context())
    return int(tokens / 0.8) - 1 if over else int(tokens / 0.8) + 1


def _compressed(messages: tuple[Message, ...]) -> list[bool]:
    return [m.content.startswith("[COMPRESSED]") for m in messages if isinstance(m, ToolMessage)]


def test_nothing_is_compressed_until_the_view_passes_80_percent_of_the_window() -> None:
    history = session(4)
    model = summarizer()
    policy = LayeredPolicy([AdaptiveCompression()])
    view = anyio.run(policy.view, history, context(model, window=_window_for(history, over=False)))
    assert model.requests == [] and view.messages == tuple(history)


def test_past_the_threshold_every_old_result_is_compressed_in_one_batch() -> None:
    history = session(4)
    model = summarizer()
    policy = LayeredPolicy([AdaptiveCompression()])
    view = anyio.run(policy.view, history, context(model, window=_window_for(history, over=True)))
    assert len(model.requests) == 3  # turns 1-3; the current turn is never compressed
    assert _compressed(view.messages) == [True, True, True, False]
    assert view.messages[2].content == (
        "[COMPRESSED] read_file result from turn 1, 200 chars: short compressed text"
    )
    assert [o.seq for o in view.omitted] == [2, 6, 10]


def test_a_compressed_result_is_never_compressed_again() -> None:
    model = summarizer()
    policy = LayeredPolicy([AdaptiveCompression()])
    anyio.run(policy.view, session(3), context(model, window=10))
    assert len(model.requests) == 2
    longer = anyio.run(policy.view, session(5), context(model, window=10))
    assert len(model.requests) == 4  # only turns 3 and 4 are new
    for request in model.requests:
        assert "returned:\n[COMPRESSED]" not in (request.messages[1].content or "")
    assert _compressed(longer.messages) == [True, True, True, True, False]

    marked = [
        UserMessage("q"),
        *unit("old", "shell", "{}", "[COMPRESSED] shell result from an earlier session"),
        UserMessage("now"),
    ]
    fresh = summarizer()
    anyio.run(LayeredPolicy([AdaptiveCompression()]).view, marked, context(fresh, window=1))
    assert fresh.requests == []


def test_the_prompt_carries_the_query_and_the_context_accumulated_so_far() -> None:
    model = summarizer()
    policy = LayeredPolicy([AdaptiveCompression()])
    anyio.run(policy.view, session(3), context(model, window=10, query="who owns file2?"))
    second = model.requests[1].messages[1].content or ""
    assert "Current query: who owns file2?" in second
    assert "Current context:\n[COMPRESSED] read_file result from turn 1" in second
    assert 'Tool read_file called with {"path": "file2.txt"} returned:\nfile2 ' in second


def test_the_citation_variant_keeps_the_source_of_every_compressed_result() -> None:
    policy = LayeredPolicy([AdaptiveCompression(cite=True)])
    view = anyio.run(policy.view, session(2), context(summarizer(), window=10))
    assert view.messages[2].content.endswith("\n[source: seq 2, turn 1, call c1]")


def _wordy(turns: int) -> list[Message]:
    history: list[Message] = []
    for t in range(1, turns + 1):
        history.append(UserMessage(f"question {t}"))
        history.extend(unit(f"w{t}", "read_file", "{}", "word " * 100))
    return history


def test_the_threshold_is_measured_on_what_is_sent_not_on_the_raw_history() -> None:
    model = summarizer()
    policy = LayeredPolicy([AdaptiveCompression()])
    window = 600
    raw = view_tokens(start_draft(_wordy(3)).blocks, context())
    assert raw > 0.8 * window  # the first call is over: turns 1-2 are compressed
    first = anyio.run(policy.view, _wordy(3), context(model, window=window))
    assert len(model.requests) == 2
    later = [*_wordy(3), UserMessage("thanks, and?")]
    view = anyio.run(policy.view, later, context(model, window=window))
    assert view_tokens(start_draft(later).blocks, context()) > 0.8 * window
    assert len(model.requests) == 2  # what is sent is under 80 %: turn 3 stays as it is
    assert view.messages[: len(first.messages)] == first.messages
