"""What MCP servers list and return, as plain frozen values (no SDK types leak out)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class RemoteTool:
    """A tool as a server lists it. ``None`` hints mean the server did not say; ``title`` is
    the display title (the tool's or its annotations'), ``output_schema`` what its results hold."""

    server: str
    name: str
    description: str
    input_schema: Mapping[str, Any]
    read_only_hint: bool | None = None
    destructive_hint: bool | None = None
    idempotent_hint: bool | None = None
    title: str = ""
    output_schema: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class CallResult:
    """A tool call's outcome: its content as text, the server's error flag, structured data."""

    text: str
    is_error: bool = False
    structured: Any = None


@dataclass(frozen=True, slots=True)
class RemoteResource:
    uri: str
    name: str
    description: str = ""
    mime_type: str = ""


@dataclass(frozen=True, slots=True)
class PromptArgument:
    name: str
    description: str = ""
    required: bool = False


@dataclass(frozen=True, slots=True)
class RemotePrompt:
    name: str
    description: str = ""
    arguments: tuple[PromptArgument, ...] = ()


@dataclass(frozen=True, slots=True)
class PromptMessage:
    role: str
    text: str
