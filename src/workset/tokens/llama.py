"""Token counts from a running llama.cpp server: its own tokenizer and its own chat template.

:class:`LlamaServerTokenizer` calls ``/tokenize`` the way the server tokenizes chat prompts
(special tokens parsed, no BOS added; a model that adds a BOS is caught by the embedded
backend's self-check). :class:`ServerTemplateCounter` is the fallback for templates that
:class:`~workset.tokens.chatml.ChatMLFormat` does not reproduce: exact, but it renders and
tokenizes the whole request on every call.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import httpx

from workset.errors import ModelResponseError, ModelUnavailableError
from workset.messages import Message, SystemMessage, ToolMessage, ToolSpec, to_wire
from workset.tokens.base import Bucket, CountedPart, Part, RequestCount


class LlamaServerClient:
    """The two template endpoints, over a small synchronous client."""

    def __init__(self, base_url: str, *, timeout_s: float = 60.0) -> None:
        self.base_url = base_url
        self._http = httpx.Client(base_url=base_url, timeout=timeout_s)

    def tokenize(self, text: str, *, add_special: bool = False) -> list[int]:
        body = {"content": text, "add_special": add_special, "parse_special": True}
        tokens = self._post("/tokenize", body).get("tokens")
        if not isinstance(tokens, list):
            raise ModelResponseError(f"{self.base_url}/tokenize answered without a token list")
        return [int(t) for t in tokens]

    def apply_template(
        self, system: str | None, tools: Sequence[ToolSpec], messages: Sequence[Message]
    ) -> str:
        """The prompt the server builds for this request (with the generation prompt)."""
        body: dict[str, Any] = {"messages": wire_messages(system, messages)}
        if tools:
            body["tools"] = [t.to_wire() for t in tools]
        prompt = self._post("/apply-template", body).get("prompt")
        if not isinstance(prompt, str):
            raise ModelResponseError(f"{self.base_url}/apply-template answered without a prompt")
        return prompt

    def close(self) -> None:
        self._http.close()

    def _post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        try:
            response = self._http.post(path, json=body)
        except httpx.HTTPError as exc:
            raise ModelUnavailableError(
                f"the llama.cpp server at {self.base_url} did not answer {path}: {exc}; "
                "was the model closed?"
            ) from exc
        if response.status_code != 200:
            raise ModelResponseError(
                f"{self.base_url}{path} failed with HTTP {response.status_code}: "
                f"{response.text[:300]}"
            )
        data = response.json()
        if not isinstance(data, dict):
            raise ModelResponseError(f"{self.base_url}{path} answered with non-object JSON")
        return data


def wire_messages(system: str | None, messages: Sequence[Message]) -> list[dict[str, Any]]:
    head = [to_wire(SystemMessage(system))] if system is not None else []
    return head + [to_wire(m) for m in messages]


class LlamaServerTokenizer:
    """The loaded model's own tokenizer, through the server's ``/tokenize``."""

    def __init__(
        self, base_url: str | LlamaServerClient, *, name: str = "llama.cpp", exact: bool = True
    ) -> None:
        self._client = (
            base_url if isinstance(base_url, LlamaServerClient) else LlamaServerClient(base_url)
        )
        self._name = name
        self._exact = exact

    @property
    def name(self) -> str:
        return self._name

    @property
    def exact(self) -> bool:
        """False when the text given to it only approximates the server's own template."""
        return self._exact

    def tokenize(self, text: str) -> list[int]:
        return self._client.tokenize(text) if text else []

    def count(self, text: str) -> int:
        return len(self.tokenize(text))


class ServerTemplateCounter:
    """Exact counts from the server's template and tokenizer; buckets by subtraction.

    Four whole-request counts give the buckets with three subtractions:

    - ``full``: the request as sent;
    - ``no_tools``: without tools, so ``tools = full - no_tools``;
    - ``empty_results``: also with every tool result's content emptied, so
      ``tool_results = no_tools - empty_results`` (result wrappers stay in conversation);
    - ``bare``: the system prompt alone, so ``conversation = empty_results - bare`` and
      ``system = bare`` (it includes the template's generation prompt).

    Results are cached by the request's JSON, not per part: every new request costs four
    renders and four tokenizations of the whole prompt.
    """

    def __init__(self, client: LlamaServerClient, *, name: str = "llama.cpp") -> None:
        self._client = client
        self._name = name
        self._cache: OrderedDict[str, RequestCount] = OrderedDict()

    @property
    def method(self) -> str:
        return f"exact:{self._name}+server-template"

    def count_text(self, text: str) -> int:
        return len(self._client.tokenize(text)) if text else 0

    def tokenize(self, text: str) -> list[int]:
        return self._client.tokenize(text) if text else []

    def count_request(
        self, system: str | None, tools: Sequence[ToolSpec], messages: Sequence[Message]
    ) -> RequestCount:
        key = json.dumps(
            [system, [t.to_wire() for t in tools], wire_messages(None, messages)],
            sort_keys=True,
        )
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        emptied = [_emptied(m) for m in messages]
        full = self._count(system, tools, messages)
        no_tools = self._count(system, (), messages) if tools else full
        empty_results = self._count(system, (), emptied) if emptied != list(messages) else no_tools
        bare = self._count(system, (), [])
        sizes: tuple[tuple[Bucket, int], ...] = (
            ("system", bare),
            ("tools", full - no_tools),
            ("tool_results", no_tools - empty_results),
            ("conversation", empty_results - bare),
        )
        # Parts carry derived counts only: their text is empty (no per-part rendering here).
        parts = tuple(CountedPart(Part(bucket, bucket, ""), n) for bucket, n in sizes)
        result = RequestCount(parts, self.method, exact=True)
        self._cache[key] = result
        if len(self._cache) > 256:
            self._cache.popitem(last=False)
        return result

    def _count(
        self, system: str | None, tools: Sequence[ToolSpec], messages: Sequence[Message]
    ) -> int:
        prompt = self._client.apply_template(system, tools, messages)
        return len(self._client.tokenize(prompt, add_special=True))  # as the server does


def _emptied(message: Message) -> Message:
    if isinstance(message, ToolMessage) and message.content:
        return ToolMessage(message.tool_call_id, "", message.name, message.is_error)
    return message
