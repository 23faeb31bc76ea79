"""The evaluation tiers on the real embedded models (``real_model``: CI runs them)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import anyio
import pytest

from workset.eval.checkpoint import Checkpoint
from workset.eval.table import PolicyReport, evaluate_policies
from workset.history.policies import make_policy
from workset.models.weights import EMBEDDED_MODELS, model_status, prepare_weights

from .test_probes import PROBE, TOOLS, TRANSCRIPT

if TYPE_CHECKING:
    from workset.models.embedded import EmbeddedModel

pytestmark = pytest.mark.real_model


def test_the_1_5b_evaluation_tier_is_pinned_by_sha256_and_verifies() -> None:
    spec = EMBEDDED_MODELS["qwen2.5-coder-1.5b"]
    assert spec.sha256 is not None and len(spec.sha256) == 64
    path = prepare_weights("qwen2.5-coder-1.5b", None)  # joins the parts once, checks the hash
    status = model_status("qwen2.5-coder-1.5b")
    assert status.ready and status.hash_pinned and status.path == path


def test_the_policy_table_runs_on_the_embedded_model_with_the_control_row_first(
    qwen: EmbeddedModel, tmp_path: Path
) -> None:
    async def go() -> PolicyReport:
        return await evaluate_policies(
            TRANSCRIPT,
            TOOLS,
            [PROBE],
            [make_policy("full"), make_policy("retrieval", dense=False)],
            qwen,
            qwen.token_counter(),
            checkpoint=Checkpoint(tmp_path / "c.jsonl"),
            max_tokens=24,
        )

    report = anyio.run(go)
    assert [r.name for r in report.rows] == ["control", "full", "retrieval"]
    assert all(r.fits and r.tally().n == 2 for r in report.rows)
    assert report.rows[1].billed > report.rows[0].billed > 0
    assert report.window == qwen.info.context_window
