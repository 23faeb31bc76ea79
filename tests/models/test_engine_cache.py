"""Serving engines' prefix-cache numbers reach what is recorded per call: the usage details
vLLM and SGLang send, vLLM's /metrics counters over the call, in whole blocks for vLLM; and
workset's predicted reuse can be set beside them. Tested against a local stand-in engine."""

from __future__ import annotations

from pathlib import Path

import anyio

from workset.events import ModelCalled
from workset.log.store import SessionLog
from workset.models.engine_cache import compare_prefix, parse_prefix_counters
from workset.models.openai_compat import OpenAICompatibleModel
from workset.session.agent import Agent
from workset.testing.engine_server import stand_in_engine
from workset.tools.registry import ToolRegistry

VLLM_METRICS = """\
# HELP vllm:prefix_cache_queries_total Prefix cache queries, in terms of number of queried tokens.
# TYPE vllm:prefix_cache_queries_total counter
vllm:prefix_cache_queries_total{engine="0",model_name="Qwen/Qwen2.5-7B"} 4096.0
vllm:prefix_cache_queries_total{engine="1",model_name="Qwen/Qwen2.5-7B"} 1024.0
# HELP vllm:prefix_cache_hits_total Prefix cache hits, in terms of number of cached tokens.
# TYPE vllm:prefix_cache_hits_total counter
vllm:prefix_cache_hits_total{engine="0",model_name="Qwen/Qwen2.5-7B"} 3072.0
vllm:prefix_cache_hits_total{engine="1",model_name="Qwen/Qwen2.5-7B"} 512.0
vllm:num_requests_running{engine="0",model_name="Qwen/Qwen2.5-7B"} 1.0
"""


def test_vllm_counters_are_summed_over_engines_and_absent_ones_are_none() -> None:
    counters = parse_prefix_counters(VLLM_METRICS)
    assert counters is not None and (counters.queries, counters.hits) == (5120.0, 3584.0)
    assert parse_prefix_counters("process_cpu_seconds_total 12.0\n") is None


def run_three_turns(tmp_path: Path, base_url: str, metrics_url: str | None) -> list[ModelCalled]:
    model = OpenAICompatibleModel(base_url, "stand-in", metrics_url=metrics_url, max_retries=0)
    with SessionLog(tmp_path / "log.db") as log:
        agent = Agent(model, ToolRegistry([]), log)

        async def main() -> None:
            session_id = None
            for text in ("first question " * 20, "a second question", "and a third"):
                result = await agent.run(text, session_id=session_id)
                session_id = result.session_id
            await model.aclose()

        anyio.run(main)
        (info,) = log.sessions()
        return [s.event for s in log.events(info.id) if isinstance(s.event, ModelCalled)]


def test_vllm_cached_tokens_and_counters_are_recorded_per_call_in_whole_blocks(
    tmp_path: Path,
) -> None:
    with stand_in_engine(flavor="vllm", block=16) as engine:
        calls = run_three_turns(tmp_path, engine.base_url, engine.metrics_url)

    cached = [c.usage.cached_prompt_tokens for c in calls]
    assert cached[0] == 0 and all(n is not None and n > 0 and n % 16 == 0 for n in cached[1:])
    assert [c.usage.engine_prefix_hits for c in calls] == cached  # the counters agree
    assert [c.usage.engine_prefix_queries for c in calls] == [c.usage.prompt_tokens for c in calls]
    assert [c.manifest.prefix.server_cached_tokens for c in calls] == cached
    for call in calls[1:]:
        compared = compare_prefix(call.manifest, call.usage, block=16)
        blocks = compared.predicted_in_blocks
        assert blocks % 16 == 0 and blocks <= compared.predicted < blocks + 16
        assert compared.reported == call.usage.cached_prompt_tokens


def test_sglang_reports_exact_cached_tokens_without_counters(tmp_path: Path) -> None:
    with stand_in_engine(flavor="sglang") as engine:
        calls = run_three_turns(tmp_path, engine.base_url, engine.metrics_url)

    cached = [c.usage.cached_prompt_tokens for c in calls]
    assert cached[0] == 0 and all(n is not None and n > 0 for n in cached[1:])
    assert any(n is not None and n % 16 != 0 for n in cached[1:])  # token-exact, not blocks
    assert all(c.usage.engine_prefix_hits is None for c in calls)  # no /metrics counters
    assert [c.manifest.prefix.server_cached_tokens for c in calls] == cached
