"""Offline token counts for OpenAI encodings, and OpenAI's chat accounting split into parts.

:class:`OpenAITokenizer` wraps the ``bpe-openai`` package, which bundles ``o200k_base``
(GPT-4o, GPT-4.1, o-series) and ``cl100k_base`` (GPT-4, GPT-3.5) and needs no network.
:class:`OpenAIChatFormat` renders a request the way OpenAI documents its accounting: each
message costs its content plus a few framing tokens, and the reply is primed with three more.
"""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from workset.errors import UsageError
from workset.messages import AssistantMessage, Message, ToolMessage, ToolSpec
from workset.tokens.base import Bucket, Part

IM_START = "<|im_start|>"
IM_SEP = "<|im_sep|>"
IM_END = "<|im_end|>"
# The chat framing markers, each counted as one token (as the hosted models count them).
CHAT_MARKERS: tuple[str, ...] = (IM_START, IM_SEP, IM_END)
_MARKER_SPLIT = re.compile("(" + "|".join(re.escape(m) for m in CHAT_MARKERS) + ")")

INSTALL_HINT = "pip install 'workset[openai]'"


@lru_cache(maxsize=8)
def _load_encoding(encoding: str) -> Any:
    # bpe-openai 0.1.4 reads its bundled data with a deprecated importlib API, at import time
    # and on first use of an encoding; hide that warning so ``-W error`` runs keep working.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            import bpe_openai
        except ImportError as exc:
            raise UsageError(
                f"counting tokens with the OpenAI encoding {encoding!r} needs the bpe-openai "
                f"package: {INSTALL_HINT}"
            ) from exc
        known = list(bpe_openai.list_encoding_names())
        if encoding not in known:
            raise UsageError(
                f"unknown OpenAI encoding {encoding!r}; use one of {', '.join(known)} "
                "(o200k_base for GPT-4o and later, cl100k_base for GPT-4 and GPT-3.5)"
            )
        return bpe_openai.get_encoding(encoding)


class OpenAITokenizer:
    """Exact counts for an OpenAI encoding, offline.

    Text is encoded as ordinary text: special-token strings such as ``<|endoftext|>`` in user
    content are counted as the characters they are, never rejected. The three chat markers
    (``<|im_start|>``, ``<|im_sep|>``, ``<|im_end|>``) that :class:`OpenAIChatFormat` writes
    are the exception: each counts as one token, with an id above the vocabulary.
    """

    def __init__(self, encoding: str = "o200k_base") -> None:
        self._encoding = _load_encoding(encoding)
        self._encoding_name = encoding
        first = int(self._encoding.max_token_value) + 1
        self._marker_ids = {m: first + i for i, m in enumerate(CHAT_MARKERS)}

    @property
    def name(self) -> str:
        return f"openai:{self._encoding_name}"

    @property
    def exact(self) -> bool:
        return True

    def tokenize(self, text: str) -> list[int]:
        if IM_START[:2] not in text:  # fast path: no marker can be present
            return list(self._encoding.encode_ordinary(text))
        ids: list[int] = []
        for piece in _MARKER_SPLIT.split(text):
            marker = self._marker_ids.get(piece)
            if marker is not None:
                ids.append(marker)
            elif piece:
                ids.extend(self._encoding.encode_ordinary(piece))
        return ids

    def count(self, text: str) -> int:
        return len(self.tokenize(text))


@dataclass(frozen=True, slots=True)
class OpenAIChatFormat:
    """OpenAI's documented chat accounting, rendered one part per message.

    A message renders as ``<|im_start|>{role}<|im_sep|>{content}<|im_end|>``: three framing
    tokens plus its role plus its content, which is the per-message cost in OpenAI's
    "How to count tokens with tiktoken" guide. A tool result's ``name`` is added after the
    role; an assistant's tool calls as one JSON object per call after its content. The reply
    primer ``<|im_start|>assistant<|im_sep|>`` (three tokens) is the final "template" part.

    Tool definitions are approximate for hosted OpenAI models: the server rewrites them into a
    hidden format before the model sees them, so the "tools" part renders them as their JSON
    (one line per tool, in a system frame) and its count is an estimate of the real cost.
    Conversation parts follow the documented accounting and are exact up to that guide.
    """

    family: str = "openai"

    @property
    def name(self) -> str:
        return f"{self.family}-chat"

    def render(
        self, system: str | None, tools: Sequence[ToolSpec], messages: Sequence[Message]
    ) -> list[Part]:
        parts: list[Part] = []
        if system is not None:
            parts.append(Part("system", "system", _frame("system", system)))
        if tools:
            parts.append(Part("tools", "tools", _tools_block(tuple(tools))))
        for message in messages:
            bucket: Bucket = "tool_results" if isinstance(message, ToolMessage) else "conversation"
            parts.append(Part(message, bucket, _message(message)))
        parts.append(Part("reply_primer", "template", REPLY_PRIMER))
        return parts


REPLY_PRIMER = f"{IM_START}assistant{IM_SEP}"


def _frame(role: str, content: str) -> str:
    return f"{IM_START}{role}{IM_SEP}{content}{IM_END}"


@lru_cache(maxsize=64)
def _tools_block(tools: tuple[ToolSpec, ...]) -> str:
    lines = "\n".join(json.dumps(t.to_wire(), ensure_ascii=False) for t in tools)
    return _frame("system", lines)


@lru_cache(maxsize=1 << 16)
def _message(message: Message) -> str:
    if isinstance(message, ToolMessage):
        role = f"tool:{message.name}" if message.name else "tool"
        return _frame(role, message.content)
    if isinstance(message, AssistantMessage):
        text = message.content or ""
        for call in message.tool_calls:
            payload = {"name": call.name, "arguments": call.arguments}
            text += ("\n" if text else "") + json.dumps(payload, ensure_ascii=False)
        return _frame("assistant", text)
    return _frame(message.role, message.content)
