"""ChatML rendering (Qwen2.5 and SmolLM2 families), split into per-item parts.

The text reproduces the models' own Jinja templates byte for byte; a real-model test checks it
against the llama.cpp server's ``/apply-template``. Each message renders from itself and the
roles of its neighbours only (Qwen groups consecutive tool results into one user turn), so a
rendered part is cached and call N+1 renders just what changed.

Parts split either just before ``<|im_start|>`` or just after a newline that precedes a
non-space character. Byte-level BPE pre-tokenizers (Qwen2, GPT-2) never join text across
those points, so the sum of per-part token counts equals the count of the whole prompt.
(Splitting before a newline would not: Qwen's tokenizer merges ``".\n\n"`` and ``">\n"``.)

SmolLM2's template is plain ChatML: it ignores tools, drops tool calls and shows tool results
as ``tool`` turns; ``ChatMLFormat(..., qwen_tools=False)`` renders that.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from workset.messages import AssistantMessage, Message, SystemMessage, ToolMessage, ToolSpec
from workset.tokens.base import Bucket, Part

QWEN_DEFAULT_SYSTEM = "You are Qwen, created by Alibaba Cloud. You are a helpful assistant."
SMOL_DEFAULT_SYSTEM = "You are a helpful AI assistant named SmolLM, trained by Hugging Face"

_QWEN_TOOLS_HEAD = (
    "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
    "You are provided with function signatures within <tools></tools> XML tags:\n<tools>"
)
_QWEN_TOOLS_TAIL = (
    "\n</tools>\n\nFor each function call, return a json object with function name and "
    "arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n"
    '{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call><|im_end|>\n'
)
GENERATION_PROMPT = "<|im_start|>assistant\n"


def tojson(value: object) -> str:
    """Jinja's ``tojson`` as llama.cpp's template engine prints it."""
    return json.dumps(value, ensure_ascii=False)


@dataclass(frozen=True, slots=True)
class ChatMLFormat:
    """ChatML with Qwen2.5's tool extension. ``default_system`` fills a missing system prompt.

    With ``qwen_tools=False`` the format is plain ChatML (SmolLM2): no tools block, assistant
    tool calls dropped, tool results rendered as ``tool`` turns.
    """

    default_system: str = QWEN_DEFAULT_SYSTEM
    family: str = "qwen2.5"
    qwen_tools: bool = True

    @property
    def name(self) -> str:
        return f"chatml/{self.family}"

    def render(
        self, system: str | None, tools: Sequence[ToolSpec], messages: Sequence[Message]
    ) -> list[Part]:
        sys_text = self.default_system if system is None else system
        parts: list[Part] = []
        if tools and self.qwen_tools:
            parts.append(Part("system", "system", "<|im_start|>system\n" + sys_text + "\n\n"))
            parts.append(Part("tools", "tools", _tools_block(tuple(tools))))
        else:
            parts.append(Part("system", "system", _plain("system", sys_text)))
        last = len(messages) - 1
        for i, message in enumerate(messages):
            prev_tool = i > 0 and isinstance(messages[i - 1], ToolMessage)
            next_tool = i < last and isinstance(messages[i + 1], ToolMessage)
            bucket: Bucket = "tool_results" if isinstance(message, ToolMessage) else "conversation"
            text = _message(message, prev_tool, next_tool, self.qwen_tools)
            parts.append(Part(message, bucket, text))
        parts.append(Part("generation_prompt", "template", GENERATION_PROMPT))
        return parts


def _plain(role: str, content: str) -> str:
    return f"<|im_start|>{role}\n{content}<|im_end|>\n"


@lru_cache(maxsize=64)
def _tools_block(tools: tuple[ToolSpec, ...]) -> str:
    lines = "".join("\n" + tojson(t.to_wire()) for t in tools)
    return _QWEN_TOOLS_HEAD + lines + _QWEN_TOOLS_TAIL


@lru_cache(maxsize=1 << 16)
def _message(message: Message, prev_tool: bool, next_tool: bool, qwen_tools: bool) -> str:
    if not qwen_tools:
        return _plain(message.role, message.content or "")
    if isinstance(message, ToolMessage):
        head = "" if prev_tool else "<|im_start|>user\n"
        tail = "\n" if next_tool else "<|im_end|>\n"
        return f"{head}<tool_response>\n{message.content}\n</tool_response>{tail}"
    if isinstance(message, AssistantMessage) and message.tool_calls:
        text = "<|im_start|>assistant"
        if message.content:
            text += "\n" + message.content
        for call in message.tool_calls:
            text += f'\n<tool_call>\n{{"name": "{call.name}", "arguments": '
            text += tojson(_arguments_value(call.arguments)) + "}\n</tool_call>"
        return text + "<|im_end|>\n"
    if isinstance(message, SystemMessage):
        return _plain("system", message.content)
    return _plain(message.role, message.content or "")


def _arguments_value(arguments: str) -> object:
    try:
        return json.loads(arguments)
    except json.JSONDecodeError:
        return arguments
