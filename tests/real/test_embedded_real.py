"""The embedded backend against the real Qwen2.5-Coder-0.5B model (opt-in: ``real_model``).

Kept few and short: every completion asks for a handful of tokens.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import anyio
import jsonschema
import pytest

from workset.discovery.verify import verify_request
from workset.messages import (
    AssistantMessage,
    Message,
    SystemMessage,
    ToolCall,
    ToolMessage,
    ToolSpec,
    UserMessage,
)
from workset.models.base import ModelRequest, ModelResponse
from workset.models.embedded import QWEN_FORMAT, SMOL_FORMAT, EmbeddedModel
from workset.models.weights import EMBEDDED_MODELS, model_status, prepare_weights
from workset.tokens.counter import PartCounter, common_prefix_tokens
from workset.tokens.llama import LlamaServerClient, LlamaServerTokenizer, ServerTemplateCounter

pytestmark = pytest.mark.real_model

TOOLS = (
    ToolSpec(
        "read_file",
        "Read a UTF-8 text file and return its content.",
        {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
    ),
    ToolSpec(
        "grep",
        "Search files for a pattern — returns matching lines.",
        {
            "type": "object",
            "properties": {"pattern": {"type": "string"}, "max": {"type": "integer"}},
            "required": ["pattern"],
        },
    ),
)
ROUND_TRIP: tuple[Message, ...] = (
    UserMessage("Find where `parse_config` is defined and show it."),
    AssistantMessage(
        "Searching first.",
        (
            ToolCall("call_a", "grep", '{"pattern": "def parse_config", "max": 5}'),
            ToolCall("call_b", "read_file", '{"path": "README.md"}'),
        ),
    ),
    ToolMessage("call_a", "src/config.py:12:def parse_config(text):", "grep"),
    ToolMessage("call_b", "# Démo\nUsage: `démo --config x.toml` → prints ✓", "read_file"),
    AssistantMessage("It is in src/config.py, line 12."),
    UserMessage("Thanks. Which line number was it?"),
)


def _complete(model: EmbeddedModel, request: ModelRequest) -> ModelResponse:
    async def call() -> ModelResponse:
        return await model.complete(request)

    return anyio.run(call)


@pytest.fixture
def client(qwen: EmbeddedModel) -> Iterator[LlamaServerClient]:
    assert qwen.base_url is not None
    client = LlamaServerClient(qwen.base_url)
    yield client
    client.close()


def test_chatml_rendering_equals_the_servers_template(client: LlamaServerClient) -> None:
    cases: list[tuple[str | None, tuple[ToolSpec, ...], tuple[Message, ...]]] = [
        (None, (), (UserMessage("hello"),)),
        ("You are terse.", (), (UserMessage("hi"), AssistantMessage("Hello!"), UserMessage("?"))),
        ("You are an agent.", TOOLS, ROUND_TRIP[:1]),
        ("You are an agent.", TOOLS, ROUND_TRIP),
        (None, TOOLS, ROUND_TRIP),
        ("Réponds en français, s'il te plaît. 日本語もOK", (), ROUND_TRIP),
    ]
    for system, tools, messages in cases:
        rendered = "".join(p.text for p in QWEN_FORMAT.render(system, tools, messages))
        assert rendered == client.apply_template(system, tools, messages)


def test_the_counted_prompt_equals_the_prompt_tokens_the_server_reports(
    qwen: EmbeddedModel,
) -> None:
    counter = qwen.token_counter()
    assert isinstance(counter, PartCounter)
    assert counter.method.startswith("exact:")
    system = "You are a coding agent. Answer briefly."
    counted = counter.count_request(system, TOOLS, ROUND_TRIP)
    request = ModelRequest((SystemMessage(system), *ROUND_TRIP), TOOLS, max_tokens=2)
    response = _complete(qwen, request)
    assert counted.total == response.usage.prompt_tokens
    buckets = counted.buckets()
    assert buckets["tools"] > 0 and buckets["tool_results"] > 0
    assert response.usage.time_to_first_token_s is not None
    assert "prompt_n" in response.extra["timings"]


def test_the_fallback_counter_agrees_with_the_part_counter(client: LlamaServerClient) -> None:
    fallback = ServerTemplateCounter(client)
    parts = PartCounter(QWEN_FORMAT, LlamaServerTokenizer(client))
    for tools, messages in [((), ROUND_TRIP[:1]), (TOOLS, ROUND_TRIP)]:
        exact = fallback.count_request("Be brief.", tools, messages)
        incremental = parts.count_request("Be brief.", tools, messages)
        assert exact.total == incremental.total
        # Subtraction puts the few wrapper tokens around the tools block in other buckets.
        tools_gap = exact.buckets()["tools"] - incremental.buckets().get("tools", 0)
        assert abs(tools_gap) <= 3


def test_a_shared_prefix_is_reused_and_a_leading_timestamp_defeats_the_cache(
    qwen: EmbeddedModel,
) -> None:
    counter = qwen.token_counter()
    assert isinstance(counter, PartCounter)
    system = "You are a coding agent working in a Python repository. Be brief."
    first = (SystemMessage(system), *ROUND_TRIP)
    second = (*first[:-1], UserMessage("And which file?"))
    _complete(qwen, ModelRequest(first, TOOLS, max_tokens=1))
    reused = _complete(qwen, ModelRequest(second, TOOLS, max_tokens=1)).usage
    shared = common_prefix_tokens(
        counter.count_request(system, TOOLS, first[1:]),
        counter.count_request(system, TOOLS, second[1:]),
        counter,
    )
    assert reused.cached_prompt_tokens is not None
    assert shared - 2 <= reused.cached_prompt_tokens <= shared

    stamp = datetime.now(UTC).isoformat(timespec="microseconds")
    moved = (SystemMessage(f"[{stamp}] {system}"), *second[1:])
    defeated = _complete(qwen, ModelRequest(moved, TOOLS, max_tokens=1)).usage
    assert defeated.cached_prompt_tokens is not None
    assert defeated.cached_prompt_tokens < 10 < reused.cached_prompt_tokens


def test_a_json_schema_request_returns_json_that_validates(qwen: EmbeddedModel) -> None:
    schema = {
        "type": "object",
        "properties": {
            "language": {"type": "string", "enum": ["python", "rust", "go"]},
            "lines": {"type": "integer", "minimum": 0, "maximum": 1000},
        },
        "required": ["language", "lines"],
        "additionalProperties": False,
    }
    request = ModelRequest(
        (UserMessage("A 12-line script `main.py`: which language and how many lines? JSON."),),
        max_tokens=40,
        json_schema=schema,
    )
    response = _complete(qwen, request)
    assert response.message.content is not None
    jsonschema.validate(json.loads(response.message.content), schema)


def test_a_corrupt_cached_gguf_is_rebuilt_before_the_server_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = EMBEDDED_MODELS["qwen2.5-coder-0.5b"]
    good = prepare_weights(spec.name)
    cache = tmp_path / "models"
    cache.mkdir()
    shutil.copyfile(good, cache / spec.filename)
    with (cache / spec.filename).open("r+b") as f:
        f.seek(spec.size // 2)
        byte = f.read(1)
        f.seek(spec.size // 2)
        f.write(bytes([byte[0] ^ 0xFF]))
    monkeypatch.setenv("WORKSET_CACHE_DIR", str(cache))
    assert model_status(spec.name).state == "unverified"
    stages: list[str] = []
    model = EmbeddedModel(spec.name, context_window=512, progress=lambda s, d, t: stages.append(s))
    try:
        anyio.run(model.start)
        assert model_status(spec.name).state == "ready"
        assert {"verify", "assemble", "load"} <= set(stages)
        assert stages.index("verify") < stages.index("assemble") < stages.index("load")
    finally:
        anyio.run(model.aclose)


def test_smollm2_counts_with_plain_chatml_and_reports_no_tool_support() -> None:
    status = model_status("smollm2-135m")
    if status.state == "parts_missing":
        pytest.skip(f"{status.detail}; {status.command}")
    model = EmbeddedModel("smollm2-135m", context_window=1024)
    try:
        counter = model.token_counter()  # starts the server
        assert isinstance(counter, PartCounter)
        assert counter.chat_format == SMOL_FORMAT
        assert model.info.supports_tools is False
        counted = counter.count_request(None, TOOLS, ROUND_TRIP)
        response = _complete(model, ModelRequest(ROUND_TRIP, TOOLS, max_tokens=1))
        assert counted.total == response.usage.prompt_tokens
    finally:
        anyio.run(model.aclose)


def test_a_verdict_on_a_candidate_tool_parses_on_the_real_model(qwen: EmbeddedModel) -> None:
    forecast = ToolSpec(
        "get_forecast",
        "Weather forecast for the next days in a city.",
        {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    )
    request = verify_request("will it rain in Paris tomorrow?", "weather", forecast)
    response = _complete(qwen, request)
    assert response.message.content is not None
    assert json.loads(response.message.content)["answer"] in ("yes", "no")


def test_an_answer_scored_again_is_the_same_text_with_its_probabilities(
    qwen: EmbeddedModel,
) -> None:
    """The scoring request of workset.loop.confidence: tools offered (llama.cpp refuses
    logprobs with tools when streamed, so it is sent whole), greedy, the answer's length."""
    from workset.loop.confidence import fact_probability, same_text, scoring_request

    request = ModelRequest(
        (
            UserMessage(
                "config.py line 3 reads `PORT = 8471`. What port does the service use? "
                "Answer with the number only, no tool call."
            ),
        ),
        tools=TOOLS,
        max_tokens=24,
        temperature=0.0,
    )
    answer = _complete(qwen, request)
    assert answer.message.content and not answer.tokens  # streamed, no log-probabilities
    again = _complete(qwen, scoring_request(request, answer))
    assert again.tokens and same_text(answer.message.content, again.tokens)
    assert all(t.logprob <= 0.0 and len(t.alternatives) <= 5 for t in again.tokens)
    assert "8471" in answer.message.content
    chance = fact_probability(again.tokens, "8471")
    assert chance is not None and 0.0 < chance <= 1.0
