"""The texts a tool and a server are found by (pure functions of their definitions).

Each tool is embedded as several texts: its full document (server, name in words,
description, parameters), a short one (name in words and the description's first sentence,
which a long description would otherwise drown), and the example requests written for it
offline (:mod:`workset.discovery.expansions`). Each server is one document: its name,
description and its tools' names and descriptions.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from workset.messages import ToolSpec
from workset.retrieval.ranking import tokenize

_DESCRIPTION_CHARS = 600  # per tool in a server document; keeps big servers readable
_SHORT_CHARS = 200
_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+|\n\s*\n")


def name_words(name: str) -> str:
    """``"get_weather_by_city"`` → ``"weather city"``: a tool name as the words it holds."""
    return " ".join(tokenize(name))


def tool_document(server: str, spec: ToolSpec) -> str:
    """The text a tool is found by: server, name in words, description, parameters."""
    params = spec.parameters.get("properties", {})
    lines = [f"{server}: {name_words(spec.name)} ({spec.name})", spec.description]
    if isinstance(params, Mapping):
        for name, schema in params.items():
            about = schema.get("description", "") if isinstance(schema, Mapping) else ""
            lines.append(f"{name}: {about}".strip())
    return "\n".join(line for line in lines if line)


def first_sentence(text: str, limit: int = _SHORT_CHARS) -> str:
    flat = text.strip()
    first = _SENTENCE_END.split(flat, maxsplit=1)[0] if flat else ""
    first = " ".join(first.split())
    return first if len(first) <= limit else first[: limit - 1] + "…"


def short_document(spec: ToolSpec) -> str:
    """The name in words and the first sentence of the description."""
    about = first_sentence(spec.description)
    return f"{name_words(spec.name)}: {about}" if about else name_words(spec.name)


def server_document(server: str, specs: Sequence[ToolSpec], description: str = "") -> str:
    """The text a server is found by: its name, description, and its tools."""
    lines = [server, description]
    for spec in specs:
        lines.append(f"{name_words(spec.name)}: {spec.description[:_DESCRIPTION_CHARS]}")
    return "\n".join(line for line in lines if line)
