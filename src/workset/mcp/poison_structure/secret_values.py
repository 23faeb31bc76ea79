"""``secret-in-value``: a value the definition fills in for the model (a default, example, const
or enum value, anywhere inside it) that expands an environment variable holding a secret:
``{"X-Debug-Auth": "${env:AWS_SECRET_ACCESS_KEY}"}`` as a fetcher's default headers sends that
key to whatever URL is fetched.

The tool's own credential parameter defaulting to its own service's variable (``api_key:
"${WEATHERAPI_KEY}"`` on ``weatherapi``) is how a server documents its own authentication, not a
leak."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from workset.mcp.poison_context import credential_params
from workset.mcp.poison_terms import CREDENTIAL_FILE

_I = re.IGNORECASE

# What a template, shell or runtime expands to an environment variable's value: ``$NAME``,
# ``${NAME}``, ``${env:NAME}``, ``${process.env.NAME}``, ``process.env.NAME``, ``{{env.NAME}}``,
# ``{{ secrets.NAME }}``, ``%NAME%``, ``$env:NAME``, ``os.environ["NAME"]``, ``os.getenv('NAME')``.
_REFERENCE = re.compile(
    r"\$\{\s*(?:env[:.]|process\.env\.|secrets?\.)?\s*(?P<a>[A-Za-z_][\w]*)\s*\}"
    r"|\{\{\s*(?:env|secrets?|environ)\s*\.\s*(?P<b>[A-Za-z_]\w*)\s*\}\}"
    r"|(?:process\.env|os\.environ|\$env:)\.?(?P<c>[A-Za-z_]\w*)"
    r"|(?:os\.environ\[|os\.getenv\(|getenv\()\s*['\"](?P<d>[A-Za-z_]\w*)['\"]"
    r"|%(?P<e>[A-Z_][A-Z0-9_]*)%"
    r"|\$(?P<f>[A-Z_][A-Z0-9_]{2,})\b"
)
# A variable's name that says it holds a credential (any part of it).
_SECRET_NAME = re.compile(
    r"(^|_)(SECRET|TOKEN|PASSWORD|PASSWD|PWD|CREDENTIALS?|KEY|APIKEY|PAT|COOKIE|SESSION|AUTH|"
    r"PRIVATE)(_|$)",
    _I,
)
_VALUE_KEYS = ("default", "const", "examples", "example", "enum")


def secret_values(schema: Any, server: str, tool: str) -> Iterator[tuple[str, str]]:
    """(field, value) for every value in ``schema`` that expands a secret environment variable,
    but the tool's own credential parameter set to its own service's variable."""
    words = frozenset(w for w in re.split(r"[^a-z0-9]+", f"{server} {tool}".lower()) if len(w) >= 3)
    yield from _walk(schema, "inputSchema", words)


def _walk(node: Any, path: str, words: frozenset[str]) -> Iterator[tuple[str, str]]:
    if isinstance(node, dict):
        props = node.get("properties")
        if isinstance(props, dict):
            own = credential_params(str(k).lower() for k in props)
            for name, schema in props.items():
                if not isinstance(schema, dict):
                    continue
                for key in _VALUE_KEYS:
                    if key not in schema:
                        continue
                    for text in _strings(schema[key]):
                        secret = _secret_reference(text)
                        if secret and not (
                            str(name).lower() in own and _own_service(secret, words)
                        ):
                            yield f"{path}.properties.{name}.{key}", text[:80]
                            break
        for key, value in node.items():
            if key not in _VALUE_KEYS:
                yield from _walk(value, f"{path}.{key}", words)
    elif isinstance(node, list):
        for index, item in enumerate(node):
            yield from _walk(item, f"{path}[{index}]", words)


def _strings(value: Any) -> Iterator[str]:
    """Every string in a value, keys of objects included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _secret_reference(text: str) -> str:
    """The first secret variable ``text`` expands, or a command substitution that prints a
    secret (``$(gh auth token)``, ``$(cat ~/.netrc)``), or ""."""
    for match in _REFERENCE.finditer(text):
        name = next(g for g in match.groups() if g)
        if _SECRET_NAME.search(name):
            return name
    for match in _SUBSTITUTION.finditer(text):
        if _PRINTS_SECRET.search(match.group(0)):
            return match.group(0)
    return ""


# A shell command substitution, ``$(…)`` or backticks, whose output becomes the value.
_SUBSTITUTION = re.compile(r"\$\([^)]*\)|`[^`]*`")
_PRINTS_SECRET = re.compile(
    rf"\b(token|secret|password|passwd|credentials?|api[_-]?key|printenv|env)\b|{CREDENTIAL_FILE}",
    _I,
)


def _own_service(variable: str, words: frozenset[str]) -> bool:
    """The variable's first part is a word of the tool's or server's name."""
    first = re.split(r"_", variable.lower(), maxsplit=1)[0]
    return first in words or any(
        first.startswith(w) or w.startswith(first) for w in words if len(w) >= 4
    )
