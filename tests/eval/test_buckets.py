"""Token buckets per call: per-item counts and four counts with three subtractions agree."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from workset.models.embedded import EmbeddedModel

from workset.eval.buckets import Buckets, four_counts, per_item, transcript_buckets
from workset.eval.formats import Transcript
from workset.messages import AssistantMessage, ToolMessage, ToolSpec, UserMessage
from workset.testing import ScriptedModel, call

from .helpers import plain_counter

SEARCH = call("search_logs", '{"query": "pool"}', "c1")
METRICS = call("get_metrics", '{"name": "latency_p99"}', "c2")
TOOLS = (
    ToolSpec(
        "search_logs",
        "Search service logs.",
        {
            "type": "object",
            "properties": {"query": {"type": "string", "description": "Words to look for."}},
        },
    ),
    ToolSpec(
        "get_metrics",
        "Read a metric series.",
        {"type": "object", "properties": {"name": {"type": "string"}}},
    ),
)
TRANSCRIPT = Transcript(
    system="You are an SRE agent. Be brief.",
    messages=(
        UserMessage("Why is checkout slow?"),
        AssistantMessage(None, (SEARCH, METRICS)),
        ToolMessage(
            "c1", "2026-11-30T03:00:01Z ERROR pool exhausted (active=50/50)", "search_logs"
        ),
        ToolMessage("c2", "03:00 812ms\n03:01 1904ms\n03:02 2210ms", "get_metrics"),
        AssistantMessage("The connection pool is exhausted."),
        UserMessage("Open a ticket."),
        AssistantMessage("Done."),
    ),
    turns=(1, 1, 1, 1, 1, 2, 2),
    source="incident/small.jsonl",
)


def test_with_plain_parts_both_methods_give_the_same_buckets_word_for_word() -> None:
    report = transcript_buckets(TRANSCRIPT, TOOLS, plain_counter())
    assert [r.index for r in report.rows] == [1, 4, 6]
    first, second, third = (r.exact for r in report.rows)
    # system 7 words, tools 2 names, "Why is checkout slow?" 4 words
    assert first == Buckets(system=7, tools=2, tool_results=0, conversation=4)
    assert second.tool_results == 5 + 6
    assert second.conversation == 4 + 2  # the call message renders its two tool names
    assert third.conversation == 4 + 2 + 5 + 3
    assert all(r.exact == r.subtracted for r in report.rows)
    assert report.disagreements == []


def test_with_the_chatml_template_both_methods_agree_once_result_tags_are_moved() -> None:
    counter = ScriptedModel([]).token_counter()  # Qwen's ChatML, a word tokenizer
    report = transcript_buckets(TRANSCRIPT, TOOLS, counter, tolerance=3)
    assert report.disagreements == []
    for row in report.rows:
        assert row.exact.total == row.subtracted.total
        # the tags around each result count as tool results per item, conversation otherwise
        assert row.exact.tool_results - row.result_wrappers == row.subtracted.tool_results
        assert row.exact.conversation + row.result_wrappers == row.subtracted.conversation
        assert row.exact.system + row.exact.tools == row.subtracted.system + row.subtracted.tools


def test_a_disagreement_names_the_call_and_the_bucket() -> None:
    report = transcript_buckets(TRANSCRIPT, TOOLS, plain_counter(), tolerance=0)
    row = report.rows[0]
    skewed = Buckets(row.exact.system + 5, row.exact.tools - 5, 0, row.exact.conversation)
    assert row.exact != skewed
    bad = replace(report, rows=(replace(row, subtracted=skewed),))
    (problem,) = bad.disagreements
    assert "call at message 1 (turn 1)" in problem and "system" in problem


def test_four_counts_alone_split_one_request_into_the_four_buckets() -> None:
    counter = plain_counter()
    history = TRANSCRIPT.messages[:4]
    split = four_counts(counter, TRANSCRIPT.system, TOOLS, history)
    whole = counter.count_request(TRANSCRIPT.system, TOOLS, history)
    assert split.total == whole.total
    assert split == per_item(whole)


@pytest.mark.real_model
def test_on_the_embedded_model_the_server_template_totals_agree_with_per_item_counts(
    tmp_path: Path, qwen: EmbeddedModel
) -> None:
    from workset.eval.report import buckets_json, plot_buckets
    from workset.tokens.counter import PartCounter
    from workset.tokens.llama import LlamaServerClient, ServerTemplateCounter

    items = qwen.token_counter()
    assert isinstance(items, PartCounter) and items.method.startswith("exact:")
    assert qwen.base_url is not None
    client = LlamaServerClient(qwen.base_url)
    try:
        report = transcript_buckets(
            TRANSCRIPT, TOOLS, items, ServerTemplateCounter(client), method=items.method
        )
    finally:
        client.close()
    assert report.disagreements == []
    assert report.rows[-1].exact.tools > report.rows[-1].exact.system
    assert buckets_json(report)["rows"][0]["per_item"]["total"] == report.rows[0].exact.total
    plot_buckets(report, tmp_path / "buckets.png")
    assert (tmp_path / "buckets.png").stat().st_size > 1000
