"""Example requests per tool: the needs a tool serves, written once by a model, kept by hash.

A tool's description says what it *is*; an agent states what it *wants* ("do I need a coat in
Oslo tonight?" for a weather tool). The index closes that gap offline: a local model reads each
tool definition once and writes a handful of requests that tool serves, in everyday words
(:func:`expansion_request`); the index embeds each request next to the tool's own text, so a
need close to any of them finds the tool.

Requests are stored in a JSON-lines file, one tool per line, keyed by :func:`definition_key`
(the sha256 of the server name, the tool's name, description and parameter schema, and the
prompt version). :func:`expand_catalog` generates only the keys the file lacks, appending
each line as soon as it is written (a checkpoint: an interrupted run resumes where it
stopped), so a changed definition is regenerated and the rest are reused. The file for the
LiveMCPBench catalog is committed (``benchmarks/data/tool_expansions.jsonl``; regenerate it
with ``benchmarks/expand_tools.py``), so nobody needs a model to use it.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workset.discovery.lines import answer_object, read_rows
from workset.errors import ModelError
from workset.messages import SystemMessage, ToolSpec, UserMessage
from workset.models.base import Model, ModelRequest

PROMPT_VERSION = 4  # part of every key: changing the prompt regenerates every tool
_DESCRIPTION_CHARS = 500
_PARAMETER_CHARS = 50

# One string per field, each a different way to state a need the tool serves: fields force a
# variety that "write N requests" does not (small models repeat one template), and the
# situation and the question say what a person wants without the tool's own words.
FIELDS: Mapping[str, str] = {
    "situation": "one first-person sentence about a person's circumstances that make them "
    "need this tool, without naming what the tool does or using its words",
    "question": "a question someone asks whose answer this tool gives, with concrete names, "
    "places or numbers",
    "synonyms": "five other words or short phrases people use for what this tool does",
}
# Only for a description mostly in another script: its English meaning, so English needs match.
SUMMARY = ("summary", "what the tool does, in one plain English sentence")
# The fixed part comes first (system prompt), so llama.cpp's prompt cache reuses it and only
# the tool's own text is prefilled for each tool.
SYSTEM = (
    "You help people find the right software tool. For the tool you are shown, write a JSON "
    "object in English with the requested fields. Each field is one short line, about what a "
    "person wants done, never about the software or its parameters."
)
TOOL_TEMPLATE = """Tool {name} (from the toolbox "{server}"{about})
Description: {description}
Parameters: {parameters}

Fields:
{fields}"""
# The length bound is in the pattern: llama.cpp's grammar ignores maxLength beside a pattern,
# and a small model that loops on a list ("pinpoint, pinpoint location, ...") then runs out of
# tokens with the JSON unclosed.
_ENGLISH = {"type": "string", "minLength": 8, "maxLength": 120, "pattern": "^[ -~]{8,120}$"}


def definition_key(server: str, spec: ToolSpec) -> str:
    """The sha256 of what a tool's requests depend on: server, definition, prompt version."""
    payload = {
        "server": server,
        "name": spec.name,
        "description": spec.description,
        "parameters": spec.parameters,
        "prompt": PROMPT_VERSION,
    }
    text = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class ToolExpansion:
    """The example requests written for one tool definition."""

    key: str
    server: str
    tool: str
    model: str
    requests: tuple[str, ...]

    def to_json(self) -> str:
        row = {
            "key": self.key,
            "server": self.server,
            "tool": self.tool,
            "model": self.model,
            "requests": list(self.requests),
        }
        return json.dumps(row, ensure_ascii=False)


def read_expansions(path: Path) -> dict[str, ToolExpansion]:
    """Every expansion in a JSON-lines file by key (a later line for a key wins).

    A missing file is an empty store; a malformed line raises a UsageError naming the line.
    """
    rows = read_rows(
        path,
        _expansion,
        what="an expansion line",
        hint="each line must be JSON with key, server, tool and requests; delete the line to "
        "regenerate that tool",
    )
    return {e.key: e for e in rows}


def _expansion(row: dict[str, Any]) -> ToolExpansion:
    return ToolExpansion(
        str(row["key"]),
        str(row["server"]),
        str(row["tool"]),
        str(row.get("model", "")),
        tuple(str(r) for r in row["requests"]),
    )


def requests_by_key(path: Path) -> dict[str, tuple[str, ...]]:
    """The example requests of a file, by definition key: what :meth:`ToolIndex.build` takes."""
    return {key: e.requests for key, e in read_expansions(path).items()}


def expansion_fields(spec: ToolSpec) -> dict[str, str]:
    """The fields asked for one tool: :data:`FIELDS`, plus a summary for non-English text."""
    text = spec.description or spec.name
    foreign = sum(1 for ch in text if ord(ch) > 0x2E7F) > len(text) / 4
    return {SUMMARY[0]: SUMMARY[1], **FIELDS} if foreign else dict(FIELDS)


def expansion_request(server: str, spec: ToolSpec, *, about: str = "") -> ModelRequest:
    """The model request that asks for one tool's fields as JSON, in printable ASCII."""
    fields = expansion_fields(spec)
    text = TOOL_TEMPLATE.format(
        server=server,
        about=f": {_clip(about, 120)}" if about else "",
        name=spec.name,
        description=_clip(spec.description, _DESCRIPTION_CHARS) or "(none)",
        parameters=_parameters(spec) or "(none)",
        fields="\n".join(f"- {name}: {about}" for name, about in fields.items()),
    )
    schema = {
        "type": "object",
        "properties": {name: _ENGLISH for name in fields},
        "required": list(fields),
        "additionalProperties": False,
    }
    return ModelRequest(
        (SystemMessage(SYSTEM), UserMessage(text)),
        max_tokens=60 * len(fields) + 40,
        temperature=0.0,
        json_schema=schema,
    )


def request_fields(requests: Sequence[str]) -> tuple[str, ...] | None:
    """The field each of a tool's requests answers, as :func:`parse_requests` wrote them.

    The requests follow :data:`FIELDS` in order, after the summary when there is one; None
    when their number fits neither layout (a value dropped as a duplicate, or requests not
    written by :func:`expand_catalog`), so that no request can be taken for another field.
    """
    if len(requests) == len(FIELDS):
        return tuple(FIELDS)
    if len(requests) == len(FIELDS) + 1:
        return (SUMMARY[0], *FIELDS)
    return None


def parse_requests(content: str) -> tuple[str, ...]:
    """The distinct, non-empty field values of a model's JSON answer, in :data:`FIELDS` order.

    A ModelError when the answer is not a JSON object or has no usable value.
    """
    value = answer_object(content)
    out: list[str] = []
    for name in (SUMMARY[0], *FIELDS):
        text = " ".join(str(value.get(name, "")).split())
        if text and text.lower() not in {o.lower() for o in out}:
            out.append(text)
    if not out:
        raise ModelError(f"the model wrote no usable requests: {content[:120]!r}")
    return tuple(out)


@dataclass(frozen=True, slots=True)
class ExpansionReport:
    generated: int
    reused: int
    failed: tuple[str, ...]  # "server/tool: reason" for tools left without requests


async def expand_catalog(
    model: Model,
    servers: Mapping[str, Sequence[ToolSpec]],
    path: Path,
    *,
    descriptions: Mapping[str, str] | None = None,
    on_tool: Callable[[str, str, ToolExpansion | None], object] | None = None,
) -> ExpansionReport:
    """Write requests for every tool of ``servers`` that ``path`` has no key for.

    Each new line is appended and flushed before the next tool starts, so stopping at any
    point loses at most the tool in progress. Existing lines are never rewritten (see
    :func:`prune_expansions` to drop the ones no tool uses any more).
    """
    have = read_expansions(path)
    about = descriptions or {}
    generated, reused, failed = 0, 0, []
    path.parent.mkdir(parents=True, exist_ok=True)
    for server, spec in interleaved(servers):
        key = definition_key(server, spec)
        if key in have:
            reused += 1
            continue
        request = expansion_request(server, spec, about=about.get(server, ""))
        try:
            response = await model.complete(request)
            requests = parse_requests(response.message.content or "")
        except ModelError as exc:
            failed.append(f"{server}/{spec.name}: {exc}")
            if on_tool is not None:
                on_tool(server, spec.name, None)
            continue
        expansion = ToolExpansion(key, server, spec.name, model.info.name, requests)
        with path.open("a", encoding="utf-8") as out:
            out.write(expansion.to_json() + "\n")
        have[key] = expansion
        generated += 1
        if on_tool is not None:
            on_tool(server, spec.name, expansion)
    return ExpansionReport(generated, reused, tuple(failed))


def interleaved(servers: Mapping[str, Sequence[ToolSpec]]) -> list[tuple[str, ToolSpec]]:
    """Every (server, tool): first tools of all servers, then second tools, and so on.

    The generation order: a run stopped early leaves every server partly covered, not the
    first servers complete and the rest bare.
    """
    out: list[tuple[str, ToolSpec]] = []
    depth = max((len(specs) for specs in servers.values()), default=0)
    for position in range(depth):
        out += [(name, specs[position]) for name, specs in servers.items() if position < len(specs)]
    return out


def prune_expansions(path: Path, keep: Iterable[str]) -> int:
    """Rewrite ``path`` with only the keys in ``keep``; returns how many lines were dropped."""
    wanted = set(keep)
    have = read_expansions(path)
    kept = [e for key, e in have.items() if key in wanted]
    partial = path.with_suffix(".tmp")
    partial.write_text("".join(e.to_json() + "\n" for e in kept), encoding="utf-8")
    partial.replace(path)
    return len(have) - len(kept)


def _parameters(spec: ToolSpec) -> str:
    properties = spec.parameters.get("properties", {})
    if not isinstance(properties, Mapping):
        return ""
    parts = []
    for name, schema in properties.items():
        about = schema.get("description", "") if isinstance(schema, Mapping) else ""
        parts.append(f"{name} ({_clip(str(about), _PARAMETER_CHARS)})" if about else str(name))
    return "; ".join(parts)


def _clip(text: str, limit: int) -> str:
    flat = re.sub(r"\s+", " ", text).strip()
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
