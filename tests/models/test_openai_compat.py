"""The OpenAI-compatible backend against a real HTTP server on 127.0.0.1."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from types import MappingProxyType
from typing import Any

import anyio
import pytest
from fake_openai_server import (
    FakeOpenAIServer,
    completion_json,
    hang_reply,
    json_reply,
    raw_reply,
    running_server,
    sse_reply,
    truncated_reply,
)

from workset.errors import ModelResponseError, ModelUnavailableError, UsageError
from workset.messages import (
    AssistantMessage,
    SystemMessage,
    ToolCall,
    ToolMessage,
    ToolSpec,
    UserMessage,
)
from workset.models.base import Model, ModelRequest
from workset.models.openai_compat import OpenAICompatibleModel, resolve_base_url

pytestmark = pytest.mark.anyio

REQUEST = ModelRequest(messages=(SystemMessage("Be brief."), UserMessage("Weather in Paris?")))


@pytest.fixture
def fake_openai_server() -> Iterator[FakeOpenAIServer]:
    with running_server() as server:
        yield server


def model_for(server: FakeOpenAIServer, **options: Any) -> OpenAICompatibleModel:
    options.setdefault("backoff_s", 0.0)
    return OpenAICompatibleModel(server.url, "test-model", **options)


def chunk(delta: dict[str, Any] | None = None, **fields: Any) -> dict[str, Any]:
    choices = [] if delta is None else [{"index": 0, "delta": delta, "finish_reason": None}]
    return {"id": "chatcmpl-42", "model": "served-model", "choices": choices, **fields}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


async def test_a_streamed_completion_assembles_content_reasoning_tool_calls_and_usage(
    fake_openai_server: FakeOpenAIServer,
) -> None:
    fake_openai_server.script(
        sse_reply(
            [
                chunk({"role": "assistant", "reasoning_content": "Need the "}),
                chunk({"reasoning_content": "weather tool."}),
                chunk({"content": "Let me "}),
                chunk({"content": "check."}),
                chunk(
                    {
                        "tool_calls": [
                            {
                                "index": 0,
                                "id": "call_a",
                                "type": "function",
                                "function": {"name": "weather", "arguments": '{"ci'},
                            }
                        ]
                    }
                ),
                chunk({"tool_calls": [{"index": 0, "function": {"arguments": 'ty": "Paris"}'}}]}),
                chunk(
                    {
                        "tool_calls": [
                            {
                                "index": 1,
                                "id": "call_b",
                                "function": {"name": "time", "arguments": ""},
                            }
                        ]
                    }
                ),
                chunk({"tool_calls": [{"index": 1, "function": {"arguments": "{}"}}]}),
                {
                    "id": "chatcmpl-42",
                    "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}],
                },
                chunk(
                    usage={
                        "prompt_tokens": 120,
                        "completion_tokens": 30,
                        "prompt_tokens_details": {"cached_tokens": 96},
                    },
                    timings={"prompt_n": 24, "cache_n": 96, "predicted_n": 30},
                ),
            ]
        )
    )
    async with model_for(fake_openai_server) as model:
        response = await model.complete(REQUEST)

    assert response.message == AssistantMessage(
        content="Let me check.",
        tool_calls=(
            ToolCall("call_a", "weather", '{"city": "Paris"}'),
            ToolCall("call_b", "time", "{}"),
        ),
        reasoning_content="Need the weather tool.",
    )
    assert response.finish_reason == "tool_calls"
    assert response.model == "served-model"
    assert (response.usage.prompt_tokens, response.usage.completion_tokens) == (120, 30)
    assert response.usage.cached_prompt_tokens == 96
    assert response.usage.time_to_first_token_s is not None
    assert response.extra["id"] == "chatcmpl-42"
    assert response.extra["timings"] == {"prompt_n": 24, "cache_n": 96, "predicted_n": 30}
    assert response.extra["attempts"] == 1


async def test_the_request_carries_messages_tools_limits_schema_and_streaming_options(
    fake_openai_server: FakeOpenAIServer,
) -> None:
    fake_openai_server.script(sse_reply([chunk({"content": "{}"})]))
    tool = ToolSpec("weather", "Current weather", {"type": "object", "properties": {}})
    schema = {"type": "object", "properties": {"answer": {"type": "string"}}}
    history = (
        UserMessage("hi"),
        AssistantMessage(tool_calls=(ToolCall("c1", "weather", "{}"),)),
        ToolMessage("c1", "sunny", name="weather"),
    )
    request = ModelRequest(
        messages=history, tools=(tool,), max_tokens=64, temperature=0.2, json_schema=schema
    )
    async with model_for(fake_openai_server, api_key="sk-test") as model:
        await model.complete(request)

    [sent] = fake_openai_server.requests
    assert (sent.method, sent.path) == ("POST", "/v1/chat/completions")
    assert sent.headers["Authorization"] == "Bearer sk-test"
    assert sent.body["model"] == "test-model"
    assert sent.body["messages"][1]["tool_calls"][0]["id"] == "c1"
    assert sent.body["messages"][2] == {
        "role": "tool",
        "tool_call_id": "c1",
        "content": "sunny",
        "name": "weather",
    }
    assert sent.body["tools"] == [tool.to_wire()]
    assert (sent.body["max_tokens"], sent.body["temperature"]) == (64, 0.2)
    assert sent.body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "output", "schema": schema, "strict": True},
    }
    assert sent.body["stream"] is True
    assert sent.body["stream_options"] == {"include_usage": True}


async def test_optional_fields_are_left_out_when_the_request_does_not_set_them(
    fake_openai_server: FakeOpenAIServer,
) -> None:
    fake_openai_server.script(sse_reply([chunk({"content": "hi"})]))
    async with model_for(fake_openai_server, api_key_env="WORKSET_TEST_UNSET_KEY") as model:
        await model.complete(REQUEST)

    [sent] = fake_openai_server.requests
    assert not {"tools", "max_tokens", "temperature", "response_format"} & set(sent.body)
    assert "Authorization" not in sent.headers


async def test_extra_body_and_the_default_temperature_go_into_every_request(
    fake_openai_server: FakeOpenAIServer,
) -> None:
    fake_openai_server.script(sse_reply([chunk({"content": "a"})]), sse_reply([chunk({})]))
    options = {"extra_body": {"cache_prompt": True}, "default_temperature": 0.0}
    async with model_for(fake_openai_server, **options) as model:
        await model.complete(REQUEST)
        await model.complete(ModelRequest(REQUEST.messages, temperature=0.7))

    defaulted, explicit = (sent.body for sent in fake_openai_server.requests)
    assert (defaulted["cache_prompt"], defaulted["temperature"]) == (True, 0.0)
    assert (explicit["cache_prompt"], explicit["temperature"]) == (True, 0.7)


async def test_a_schema_built_from_read_only_mappings_is_sent_as_plain_json(
    fake_openai_server: FakeOpenAIServer,
) -> None:
    fake_openai_server.script(sse_reply([chunk({"content": "{}"})]))
    answer = MappingProxyType({"type": "string", "enum": ("yes", "no")})
    schema = MappingProxyType({"type": "object", "properties": MappingProxyType({"a": answer})})
    async with model_for(fake_openai_server) as model:
        await model.complete(ModelRequest(REQUEST.messages, json_schema=schema))

    [sent] = fake_openai_server.requests
    assert sent.body["response_format"]["json_schema"]["schema"] == {
        "type": "object",
        "properties": {"a": {"type": "string", "enum": ["yes", "no"]}},
    }


async def test_cached_tokens_come_from_llama_cpp_timings_when_usage_lacks_them(
    fake_openai_server: FakeOpenAIServer,
) -> None:
    fake_openai_server.script(
        sse_reply(
            [
                chunk({"content": "hi"}),
                chunk(
                    usage={"prompt_tokens": 50, "completion_tokens": 1},
                    timings={"prompt_n": 10, "cache_n": 40, "predicted_n": 1},
                ),
            ]
        )
    )
    async with model_for(fake_openai_server) as model:
        response = await model.complete(REQUEST)

    assert response.usage.cached_prompt_tokens == 40
    assert response.usage.uncached_prompt_tokens == 10


async def test_cached_tokens_are_unknown_when_the_server_does_not_report_them(
    fake_openai_server: FakeOpenAIServer,
) -> None:
    fake_openai_server.script(
        sse_reply(
            [chunk({"content": "hi"}), chunk(usage={"prompt_tokens": 5, "completion_tokens": 1})]
        )
    )
    async with model_for(fake_openai_server) as model:
        response = await model.complete(REQUEST)

    assert response.usage.cached_prompt_tokens is None
    assert "timings" not in response.extra


async def test_a_server_that_answers_plain_json_instead_of_a_stream_is_understood(
    fake_openai_server: FakeOpenAIServer,
) -> None:
    body = completion_json("Sunny.", prompt_tokens_details={"cached_tokens": 8})
    body["choices"][0]["message"]["tool_calls"] = [
        {"id": "call_1", "type": "function", "function": {"name": "weather", "arguments": "{}"}}
    ]
    fake_openai_server.script(json_reply(body))
    async with model_for(fake_openai_server) as model:
        response = await model.complete(REQUEST)

    assert response.message.content == "Sunny."
    assert response.message.tool_calls == (ToolCall("call_1", "weather", "{}"),)
    assert (response.usage.prompt_tokens, response.usage.cached_prompt_tokens) == (10, 8)
    assert response.usage.time_to_first_token_s is None
    assert response.finish_reason == "stop"


async def test_service_unavailable_twice_is_retried_and_the_third_answer_returned(
    fake_openai_server: FakeOpenAIServer,
) -> None:
    busy = json_reply({"error": {"message": "loading model"}}, 503)
    fake_openai_server.script(busy, busy, sse_reply([chunk({"content": "finally"})]))
    async with model_for(fake_openai_server, max_retries=3) as model:
        response = await model.complete(REQUEST)

    assert response.message.content == "finally"
    assert len(fake_openai_server.requests) == 3
    assert response.extra["attempts"] == 3


async def test_a_rate_limit_waits_for_retry_after_instead_of_the_backoff(
    fake_openai_server: FakeOpenAIServer,
) -> None:
    limited = json_reply({"error": {"message": "slow down"}}, 429, headers={"Retry-After": "0"})
    fake_openai_server.script(limited, sse_reply([chunk({"content": "ok"})]))
    # The backoff alone would wait a minute; Retry-After: 0 must win well inside the deadline.
    async with model_for(fake_openai_server, backoff_s=60.0) as model:
        with anyio.fail_after(30):
            response = await model.complete(REQUEST)

    assert response.message.content == "ok"
    assert len(fake_openai_server.requests) == 2


async def test_persistent_server_errors_give_up_after_the_retries_and_count_attempts(
    fake_openai_server: FakeOpenAIServer,
) -> None:
    broken = json_reply({"error": {"message": "CUDA out of memory"}}, 500)
    fake_openai_server.script(broken, broken, broken)
    async with model_for(fake_openai_server, max_retries=2) as model:
        with pytest.raises(ModelResponseError, match=r"CUDA out of memory.*\[after 3 attempts\]"):
            await model.complete(REQUEST)

    assert len(fake_openai_server.requests) == 3


async def test_a_bad_request_is_not_retried_and_shows_the_servers_message(
    fake_openai_server: FakeOpenAIServer,
) -> None:
    fake_openai_server.script(
        json_reply({"error": {"message": "context length 9000 exceeds 8192"}}, 400)
    )
    async with model_for(fake_openai_server) as model:
        with pytest.raises(ModelResponseError) as caught:
            await model.complete(REQUEST)

    assert "context length 9000 exceeds 8192" in str(caught.value)
    assert "[after 1 attempt]" in str(caught.value)
    assert len(fake_openai_server.requests) == 1


async def test_a_llama_cpp_context_overflow_names_the_prompt_size_and_the_window(
    fake_openai_server: FakeOpenAIServer,
) -> None:
    overflow = {
        "code": 400,
        "message": "the request exceeds the available context size, try increasing it",
        "type": "exceed_context_size_error",
        "n_prompt_tokens": 5120,
        "n_ctx": 4096,
    }
    fake_openai_server.script(json_reply({"error": overflow}, 400))
    async with model_for(fake_openai_server, max_retries=0) as model:
        with pytest.raises(ModelResponseError) as caught:
            await model.complete(REQUEST)

    assert str(caught.value) == (
        "the request has 5120 tokens but the context window is 4096; shrink the request or "
        "start the model with a larger context_window"
    )


async def test_an_unauthorized_answer_names_the_api_key_environment_variable(
    fake_openai_server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("MY_PROVIDER_KEY", raising=False)
    fake_openai_server.script(json_reply({"error": {"message": "invalid api key"}}, 401))
    async with model_for(fake_openai_server, api_key_env="MY_PROVIDER_KEY") as model:
        with pytest.raises(ModelUnavailableError) as caught:
            await model.complete(REQUEST)

    message = str(caught.value)
    assert "MY_PROVIDER_KEY" in message
    assert "No API key was sent" in message
    assert len(fake_openai_server.requests) == 1


async def test_the_api_key_is_read_from_the_named_environment_variable(
    fake_openai_server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MY_PROVIDER_KEY", "sk-from-env")
    fake_openai_server.script(json_reply(completion_json()))
    async with model_for(fake_openai_server, api_key_env="MY_PROVIDER_KEY") as model:
        await model.complete(REQUEST)

    assert fake_openai_server.requests[0].headers["Authorization"] == "Bearer sk-from-env"


async def test_not_found_names_the_path_and_the_model_and_suggests_listing_models(
    fake_openai_server: FakeOpenAIServer,
) -> None:
    fake_openai_server.script(json_reply({"error": {"message": "model not found"}}, 404))
    async with model_for(fake_openai_server) as model:
        with pytest.raises(ModelUnavailableError) as caught:
            await model.complete(REQUEST)

    message = str(caught.value)
    assert "/v1/chat/completions" in message
    assert "'test-model'" in message
    assert f"GET {fake_openai_server.url}/v1/models" in message


async def test_an_unreachable_server_fails_fast_with_a_hint_to_check_the_base_url() -> None:
    base = f"http://127.0.0.1:{free_port()}"
    async with OpenAICompatibleModel(base, "m", max_retries=1, backoff_s=0.0) as model:
        with anyio.fail_after(30), pytest.raises(ModelUnavailableError) as caught:
            await model.complete(REQUEST)

    message = str(caught.value)
    assert f"could not connect to {base}/v1 (connection refused)" in message
    assert "Is the server running? Check --base-url." in message
    assert "[after 2 attempts]" in message


async def test_a_server_that_never_answers_times_out_with_advice(
    fake_openai_server: FakeOpenAIServer,
) -> None:
    fake_openai_server.script(hang_reply())
    async with model_for(fake_openai_server, timeout_s=0.5, max_retries=0) as model:
        with pytest.raises(ModelUnavailableError) as caught:
            await model.complete(REQUEST)

    assert "the model sent nothing for 0.5 s (no token, no progress report)" in str(caught.value)
    assert "raise the model timeout (--model-timeout" in str(caught.value)


async def test_a_stall_is_not_retried_when_stalls_are_not_retryable(
    fake_openai_server: FakeOpenAIServer,
) -> None:
    fake_openai_server.script(hang_reply(), sse_reply([chunk({"content": "back"})]))
    async with model_for(
        fake_openai_server, timeout_s=0.5, max_retries=1, retry_stalls=False
    ) as model:
        with pytest.raises(ModelUnavailableError) as caught:
            await model.complete(REQUEST)

    assert "[after 1 attempt]" in str(caught.value)


async def test_a_read_timeout_is_retried(fake_openai_server: FakeOpenAIServer) -> None:
    fake_openai_server.script(hang_reply(), sse_reply([chunk({"content": "back"})]))
    async with model_for(fake_openai_server, timeout_s=0.5, max_retries=1) as model:
        response = await model.complete(REQUEST)

    assert response.message.content == "back"
    assert response.extra["attempts"] == 2


async def test_a_connection_broken_mid_response_is_retried(
    fake_openai_server: FakeOpenAIServer,
) -> None:
    fake_openai_server.script(truncated_reply(), json_reply(completion_json("whole")))
    async with model_for(fake_openai_server) as model:
        response = await model.complete(REQUEST)

    assert response.message.content == "whole"
    assert response.extra["attempts"] == 2


async def test_a_malformed_json_body_is_a_response_error(
    fake_openai_server: FakeOpenAIServer,
) -> None:
    fake_openai_server.script(raw_reply('{"choices": [', 200))
    async with model_for(fake_openai_server) as model:
        with pytest.raises(ModelResponseError, match="malformed JSON"):
            await model.complete(REQUEST)

    assert len(fake_openai_server.requests) == 1


async def test_a_malformed_streamed_chunk_is_a_response_error(
    fake_openai_server: FakeOpenAIServer,
) -> None:
    fake_openai_server.script(sse_reply([chunk({"content": "a"}), "{nope"]))
    async with model_for(fake_openai_server) as model:
        with pytest.raises(ModelResponseError, match="malformed chunk"):
            await model.complete(REQUEST)


async def test_an_error_event_inside_the_stream_is_reported(
    fake_openai_server: FakeOpenAIServer,
) -> None:
    fake_openai_server.script(sse_reply([{"error": {"message": "generation aborted"}}]))
    async with model_for(fake_openai_server) as model:
        with pytest.raises(ModelResponseError, match="generation aborted"):
            await model.complete(REQUEST)


def test_one_model_serves_successive_event_loops_and_each_loop_closes_its_connections() -> None:
    with running_server(keep_alive=True) as server:
        server.script(*(sse_reply([chunk({"content": word})]) for word in ("one", "two", "three")))
        model = model_for(server, max_retries=0)

        async def ask(times: int) -> list[str | None]:
            return [(await model.complete(REQUEST)).message.content for _ in range(times)]

        answers = [*anyio.run(ask, 2), *anyio.run(ask, 1)]
        # Neither loop closed the model: each closed its own client as it finished.
        closed = server.wait_for_closed_connections(2)

    assert answers == ["one", "two", "three"]
    assert closed
    assert server.connections_opened == 2  # one kept-alive connection per loop


def test_base_urls_get_v1_only_when_they_have_no_path() -> None:
    assert resolve_base_url("http://127.0.0.1:8080") == "http://127.0.0.1:8080/v1"
    assert resolve_base_url("http://127.0.0.1:8080/v1/") == "http://127.0.0.1:8080/v1"
    assert resolve_base_url("https://openrouter.ai/api/v1") == "https://openrouter.ai/api/v1"
    assert resolve_base_url("http://h:1/v1/chat/completions") == "http://h:1/v1"
    with pytest.raises(UsageError, match="not an http"):
        resolve_base_url("localhost:8080")


async def test_the_model_satisfies_the_model_protocol_and_reports_its_window() -> None:
    async with OpenAICompatibleModel("http://127.0.0.1:1", "m", context_window=32768) as model:
        assert isinstance(model, Model)
        assert (model.info.name, model.info.context_window) == ("m", 32768)
        assert model.info.backend == "openai-compatible"


async def test_the_default_token_counter_is_labelled_as_an_estimate() -> None:
    async with OpenAICompatibleModel("http://127.0.0.1:1", "m") as model:
        counter = model.token_counter()
        count = counter.count_request("sys", (), [UserMessage("hello world")])

    assert "estimate" in counter.method
    assert not count.exact
    assert count.total > 0


async def test_an_openai_encoding_gives_an_exact_counter() -> None:
    async with OpenAICompatibleModel("http://127.0.0.1:1", "m", tokenizer="openai:o200k_base") as m:
        counter = m.token_counter()
        count = counter.count_request(None, (), [UserMessage("hello world")])

    assert count.exact
    assert counter.method.startswith("exact:openai:o200k_base")
    assert counter.count_text("hello world") == 2


def test_an_unknown_tokenizer_is_refused_with_the_choices() -> None:
    with pytest.raises(UsageError, match="openai:o200k_base"):
        OpenAICompatibleModel("http://127.0.0.1:1", "m", tokenizer="gpt2-ish")


TOOLS_REQUEST = ModelRequest(
    messages=(UserMessage("Read a.py"),), tools=(ToolSpec("read_file", "Read a file."),)
)
CALL = '{"name": "read_file", "arguments": {"path": "a.py"}}'


def _repeating_calls() -> list[dict[str, Any]]:
    """A small model's reply: one call as text, then the same call again and again."""
    pieces = [chunk({"content": CALL[:20]}), chunk({"content": CALL[20:]})]
    for _ in range(5):
        pieces += [chunk({"content": "\n"}), chunk({"content": CALL})]
    return [*pieces, chunk(usage={"prompt_tokens": 40, "completion_tokens": 300})]


async def test_stop_after_call_ends_the_reply_once_a_second_call_begins(
    fake_openai_server: FakeOpenAIServer,
) -> None:
    fake_openai_server.script(sse_reply(_repeating_calls()))
    response = await model_for(fake_openai_server, stop_after_call=True).complete(TOOLS_REQUEST)
    assert response.message.content == CALL  # the first call only
    assert response.extra["cut_after_call"] is True
    assert fake_openai_server.wait_for_closed_connections(1)


async def test_without_stop_after_call_or_without_tools_the_whole_reply_is_read(
    fake_openai_server: FakeOpenAIServer,
) -> None:
    fake_openai_server.script(sse_reply(_repeating_calls()), sse_reply(_repeating_calls()))
    whole = await model_for(fake_openai_server).complete(TOOLS_REQUEST)
    no_tools = ModelRequest(messages=TOOLS_REQUEST.messages)
    also_whole = await model_for(fake_openai_server, stop_after_call=True).complete(no_tools)
    for response in (whole, also_whole):
        assert (response.message.content or "").count('"name"') == 6
        assert "cut_after_call" not in response.extra
        assert response.usage.prompt_tokens == 40
