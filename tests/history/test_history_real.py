"""The anchored summary on the embedded model (opt-in: ``real_model``)."""

from __future__ import annotations

import json

import anyio
import pytest
from history_transcripts import unit

from workset.history.base import PolicyContext
from workset.history.compaction import AnchoredSummary
from workset.history.policies import LayeredPolicy
from workset.history.summary import check_anchored
from workset.messages import AssistantMessage, Message, UserMessage
from workset.models.embedded import EmbeddedModel

pytestmark = pytest.mark.real_model


def _debugging_session() -> list[Message]:
    return [
        UserMessage("The payment tests fail. Find out why and fix it. Use employee id 4417."),
        *unit("r1", "read_file", json.dumps({"path": "pay/shard.py"}), "SHARD = 'pay-shard-6'\n"),
        AssistantMessage("The shard name is wrong: it should be pay-shard-7."),
        *unit(
            "w1",
            "write_file",
            json.dumps({"path": "pay/shard.py", "content": "SHARD = 'pay-shard-7'\n"}),
            "wrote pay/shard.py",
        ),
        *unit("t1", "shell", json.dumps({"command": "pytest -q"}), "=== 12 passed in 0.4s ==="),
        AssistantMessage("Fixed: pay/shard.py now uses pay-shard-7; 12 tests pass."),
        UserMessage("Good. Now open the incident ticket."),
    ]


def test_the_anchored_summary_written_by_the_embedded_model_has_every_section(
    qwen: EmbeddedModel,
) -> None:
    layer = AnchoredSummary(keep_turns=1, batch_turns=1)
    context = PolicyContext(window=4096, summarizer=qwen, query="open the ticket")
    view = anyio.run(LayeredPolicy([layer]).view, _debugging_session(), context)
    assert view.notices == ()
    assert layer.summary is not None and check_anchored(layer.summary) is None
    assert view.messages[0].content.startswith("[COMPRESSED] Summary of turns 1-1")
    assert view.messages[1] == UserMessage("Good. Now open the incident ticket.")
    assert view.cost.prompt_tokens > 0
