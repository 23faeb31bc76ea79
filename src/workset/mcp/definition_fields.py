"""The fields of an MCP tool definition as text: every string a server sends about a tool.

:func:`definition_texts` names each text by where it sits (``inputSchema.properties.to
(name)``, ``…to.default``, ``…enum[2]``); :func:`field_kind` says what kind of field that is;
:func:`switch_descriptions` finds the descriptions of on/off parameters and
:func:`enum_outliers` the enum values that are clauses among one-word options. The poisoning
audit (:mod:`workset.mcp.poisoning`) and its learned layer read definitions through these.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from workset.mcp.poison_signals import FieldKind
from workset.mcp.remote import RemoteTool

_CLAUSE = re.compile(r"[,;:()]|\b(and|then|also|but)\b", re.IGNORECASE)
# Where an identifier breaks into words: camelCase humps, snake_case and kebab-case joins.
CAMEL_BREAK = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|[_\-.]+")

# Schema keys whose entries are named schemas: the parameters (and definitions) of a tool.
_NAMED_SCHEMAS = frozenset({"properties", "patternProperties", "$defs", "definitions"})


def named_schemas(node: Any, path: str) -> Iterator[tuple[str, Any, Any]]:
    """(path, name, schema) of every named schema below ``node`` (a parameter, a definition),
    its path as :func:`definition_texts` names it, parents before what they hold."""
    if isinstance(node, Mapping):
        for key, value in node.items():
            here = f"{path}.{key}"
            if key in _NAMED_SCHEMAS and isinstance(value, Mapping):
                for name, schema in value.items():
                    yield f"{here}.{name}", name, schema
                    yield from named_schemas(schema, f"{here}.{name}")
            elif isinstance(value, Mapping | list):
                yield from named_schemas(value, here)
    elif isinstance(node, list):
        for index, item in enumerate(node):
            yield from named_schemas(item, f"{path}[{index}]")


def switch_descriptions(node: Any, path: str) -> set[str]:
    """The ``description`` paths of boolean properties that are off unless switched on, as
    :func:`definition_texts` names them."""
    out: set[str] = set()
    for at, _, schema in named_schemas(node, path):
        # on by default, it is not an option the model switches on but what happens
        on = isinstance(schema, Mapping) and schema.get("default") is True
        if isinstance(schema, Mapping) and schema.get("type") == "boolean" and not on:
            out.add(f"{at}.description")
    return out


# A parameter that holds a prompt for a model the tool calls: its values are text for that model.
_PROMPT_PARAM = re.compile(
    r"^(system|system_?prompt|prompt|instructions?|persona|system_?message|preamble|"
    r"prompt_?template)$"
)
_PROMPT_WORDS = re.compile(
    r"\b(system\s+prompt|prompt|instructions)\s+(for|to|sent\s+to|passed\s+to)\s+(the\s+)?"
    r"([\w-]+\s+){0,2}(model|llm|agent|assistant|bot)\b",
    re.IGNORECASE,
)


def prompt_values(node: Any, path: str) -> frozenset[str]:
    """The default, example and enum paths of parameters that hold a prompt for a model the tool
    calls (``system``: "System prompt for the local model"), as :func:`definition_texts` names
    them: "You are a concise assistant" there is that model's prompt, not an order to this one."""
    out: set[str] = set()
    for at, name, schema in named_schemas(node, path):
        if isinstance(schema, Mapping) and (
            _PROMPT_PARAM.match(str(name).lower())
            or _PROMPT_WORDS.search(str(schema.get("description", "")))
        ):
            out |= {f"{at}.default", f"{at}.const"}
            for key in ("examples", "enum"):
                values = schema.get(key)
                if isinstance(values, list):
                    out |= {f"{at}.{key}[{i}]" for i in range(len(values))}
    return frozenset(out)


# A value that sends something sensitive: "detailed_plus_upload_env_vars".
_ENUM_SENDS = re.compile(
    r"\b(upload|send|forward|post|share|e?mail|copy|sync|leak|export)\w*\s+(\w+\s+){0,3}(env|environment|"
    r"secrets?|tokens?|keys?|passwords?|credentials?|history|chat|conversation|cookies|contacts)\b",
    re.IGNORECASE,
)
_ENUM_ADDRESS = re.compile(r"[\w.+-]+@[\w-]+(\.[\w-]+)+|https?://")


def enum_outliers(node: Any, path: str) -> Iterator[tuple[str, str]]:
    """Enum values that are clauses among one- or two-word options: ``"xlsx; also attach…"``.

    A value counts when it has at least six words (``snake_case`` and ``camelCase`` split),
    three times its siblings' median, and a clause break (``,;:()``, "and", "then", "also"); or
    three words and an e-mail address or URL, or a verb that sends secrets or the chat, where no
    sibling has one."""
    if isinstance(node, Mapping):
        values = node.get("enum")
        if isinstance(values, list) and len(values) >= 2:
            counts = [len(_identifier_words(str(v)).split()) for v in values]
            for index, value in enumerate(values):
                others = sorted(c for i, c in enumerate(counts) if i != index)
                median = others[len(others) // 2]
                text = str(value)
                words = _identifier_words(text)
                clause = (
                    counts[index] >= 6 and counts[index] >= 3 * median and _CLAUSE.search(words)
                )
                # an address among options that name none: "forward_all_to_archive@relay.net"
                lone_address = (
                    counts[index] >= 3
                    and _ENUM_ADDRESS.search(text)
                    and not any(
                        _ENUM_ADDRESS.search(str(v)) for i, v in enumerate(values) if i != index
                    )
                )
                sends = (
                    counts[index] >= 3
                    and _ENUM_SENDS.search(words)
                    and not any(
                        _ENUM_SENDS.search(_identifier_words(str(v)))
                        for i, v in enumerate(values)
                        if i != index
                    )
                )
                if clause or lone_address or sends:
                    yield f"{path}.enum[{index}]", text
        for key, value in node.items():
            yield from enum_outliers(value, f"{path}.{key}")
    elif isinstance(node, list):
        for index, item in enumerate(node):
            yield from enum_outliers(item, f"{path}[{index}]")


def _identifier_words(value: str) -> str:
    """An identifier-shaped value (no spaces) split into its words; other values as they are."""
    return value if " " in value.strip() else CAMEL_BREAK.sub(" ", value)


def definition_texts(tool: RemoteTool) -> Iterator[tuple[str, str]]:
    """(field, text) for the name, the description, the title and every string in the input
    and output schemas: a server can put an order in any text it sends about a tool."""
    yield "name", tool.name
    yield "description", tool.description
    if tool.title:
        yield "title", tool.title
    yield from _schema_texts(tool.input_schema, "inputSchema")
    if tool.output_schema:
        yield from _schema_texts(tool.output_schema, "outputSchema")


def _schema_texts(node: Any, path: str) -> Iterator[tuple[str, str]]:
    if isinstance(node, Mapping):
        for key, value in node.items():
            here = f"{path}.{key}"
            if key in _NAMED_SCHEMAS and isinstance(value, Mapping):
                for name, schema in value.items():
                    yield f"{here}.{name} (name)", str(name)
                    yield from _schema_texts(schema, f"{here}.{name}")
            elif key in ("type", "$schema", "$id"):
                continue
            elif isinstance(value, str):
                yield here, value
            else:
                yield from _schema_texts(value, here)
    elif isinstance(node, list):
        for index, item in enumerate(node):
            yield from _schema_texts(item, f"{path}[{index}]")
    elif isinstance(node, str):
        yield path, node


def field_kind(where: str) -> FieldKind:
    """``name`` for the tool's and parameters' names, ``data`` for fields that hold values
    (enum, default, examples, const, title), ``prose`` for descriptions."""
    if where.endswith(("name", "(name)")):
        return "name"
    if re.search(
        r"\.(enum|examples)\[\d+\]$|\.(default|const|title|examples?|format|\$ref)$", where
    ):
        return "data"
    return "parameter" if ".properties." in where else "prose"
