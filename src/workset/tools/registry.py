"""The tool registry: specs in a stable order, and execution that turns every bad call into a
tool message the model can act on.

:meth:`ToolRegistry.execute` never raises for a bad call. Invalid JSON, schema violations
(no type coercion: ``"3"`` is not an integer), unknown names (answered with the closest
existing name), :class:`ToolError` from the handler and crashes of the handler all come back
as ``ToolMessage(is_error=True)`` saying what went wrong and how to fix it. Other
:class:`ToolSignal` subclasses propagate: they steer the loop and are not failures.
"""

from __future__ import annotations

import difflib
import functools
import json
import re
import secrets
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from typing import Any, cast

import anyio.to_thread
import jsonschema

from workset.errors import ToolError, UsageError
from workset.messages import ToolCall, ToolMessage, ToolSpec
from workset.tools import confirm
from workset.tools.base import Tool, is_async_callable
from workset.tools.context import CallContext, serving

_MAX_LISTED = 30
_MAX_SHOWN = 120


def error_message(call: ToolCall, text: str) -> ToolMessage:
    """An error result for ``call`` without running it (denied, cancelled, over budget…)."""
    return ToolMessage(tool_call_id=call.id, content=text, name=call.name, is_error=True)


class ToolRegistry:
    """A fixed set of tools with unique names."""

    def __init__(self, tools: Iterable[Tool]) -> None:
        self._tools: dict[str, Tool] = {}
        self._specs: dict[str, ToolSpec] = {}
        self._validators: dict[str, jsonschema.Draft202012Validator] = {}
        self._secret = secrets.token_bytes(16)  # signs confirm tokens of two-phase tools
        for item in tools:
            if item.name in self._tools:
                raise UsageError(f"two tools are named {item.name!r}; tool names must be unique")
            spec = confirm.spec_with_token(item.spec) if item.precheck else item.spec
            schema = dict(spec.parameters)
            try:
                jsonschema.Draft202012Validator.check_schema(schema)
            except jsonschema.SchemaError as exc:
                raise UsageError(
                    f"tool {item.name!r} has an invalid schema: {exc.message}"
                ) from exc
            self._tools[item.name] = item
            self._specs[item.name] = spec
            self._validators[item.name] = jsonschema.Draft202012Validator(schema)

    def __len__(self) -> int:
        return len(self._tools)

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def names(self) -> tuple[str, ...]:
        return tuple(sorted(self._tools))

    def specs(self) -> tuple[ToolSpec, ...]:
        """Specs sorted by name, so the tools block of the prompt (and its cache) is stable."""
        return tuple(self._specs[name] for name in self.names())

    def get(self, name: str) -> Tool:
        try:
            return self._tools[name]
        except KeyError:
            raise UsageError(f"no tool named {name!r}; {self._unknown_hint(name)}") from None

    def spec(self, name: str) -> ToolSpec:
        """The spec the model sees for ``name`` (with ``confirm_token`` for two-phase tools)."""
        self.get(name)
        return self._specs[name]

    def is_read_only(self, name: str) -> bool:
        """True for a registered read-only tool; False for anything else, unknown names too."""
        found = self._tools.get(name)
        return found is not None and found.read_only

    def gives_same_result(self, name: str) -> bool:
        """True for a registered tool both read-only and idempotent (a read, a search): the
        same call gives the same result until something changes the world. A read-only status
        poll (``task_status``) is not: its next result may differ."""
        found = self._tools.get(name)
        return found is not None and found.read_only and found.idempotent

    def is_idempotent(self, name: str) -> bool:
        """True for a registered tool that is safe to run again (read-only ones included)."""
        found = self._tools.get(name)
        return found is not None and (found.idempotent or found.read_only)

    async def execute(self, call: ToolCall, context: CallContext | None = None) -> ToolMessage:
        """Validate and run ``call``; every failure becomes an error result, never a raise.

        ``context`` (session and call ids, the idempotency key) is visible to the handler
        through :func:`workset.tools.context.current_call`.
        """
        arguments = self.validate(call)
        if isinstance(arguments, ToolMessage):
            return arguments
        return await self.run(call, arguments, context)

    def validate(self, call: ToolCall) -> dict[str, Any] | ToolMessage:
        """The call's arguments checked against its tool's schema (no coercion), or the
        error result the model should see: unknown tool, invalid JSON, schema violations."""
        found = self._tools.get(call.name)
        if found is None:
            hint = self._by_arguments(call) or self._unknown_hint(call.name)
            error = ToolError(f"unknown tool `{call.name}`", hint=hint)
            return error_message(call, error.for_model())
        arguments = self._parse_arguments(call, found)
        if isinstance(arguments, str):
            return error_message(call, arguments)
        return arguments

    async def run(
        self, call: ToolCall, arguments: dict[str, Any], context: CallContext | None = None
    ) -> ToolMessage:
        """Run ``call`` with arguments :meth:`validate` returned for it."""
        found = self.get(call.name)
        arguments = dict(arguments)
        handler = found.handler
        if found.precheck is not None:
            given = arguments.pop(confirm.TOKEN_FIELD, None)
            expected = confirm.token(self._secret, found.name, arguments)
            if given != expected:
                handler = found.precheck
        with serving(context or CallContext("", call.id, call.name)):
            try:
                if is_async_callable(handler):
                    result = await cast(Callable[..., Awaitable[str]], handler)(**arguments)
                else:
                    sync = cast(Callable[..., str], handler)
                    result = await anyio.to_thread.run_sync(functools.partial(sync, **arguments))
            except ToolError as exc:
                return error_message(call, exc.for_model())
            except Exception as exc:  # the tool is an I/O edge: its crash is reported to the model
                return error_message(call, _crash_text(found.name, exc))
        if not isinstance(result, str):
            problem = TypeError(f"handler returned {type(result).__name__} instead of str")
            return error_message(call, _crash_text(found.name, problem))
        if handler is found.precheck:
            result = confirm.pending_text(found.name, result, expected)
        return ToolMessage(tool_call_id=call.id, content=result, name=found.name)

    def _parse_arguments(self, call: ToolCall, found: Tool) -> dict[str, Any] | str:
        """The arguments as a dict, or the error text for the model."""
        usage = f"Expected: {signature(found.spec)}" + _example_text(found)
        text = call.arguments if call.arguments.strip() else "{}"  # "" is how some servers say {}
        try:
            arguments = json.loads(text)
        except json.JSONDecodeError as exc:
            message = (
                f"the arguments for `{found.name}` are not valid JSON ({exc.msg} at line "
                f"{exc.lineno} column {exc.colno}): {_shorten(call.arguments)}"
            )
            return ToolError(message, hint=f"send one JSON object. {usage}").for_model()
        if not isinstance(arguments, dict):
            message = (
                f"the arguments for `{found.name}` must be a JSON object, "
                f"but got {_json_kind(arguments)}: {_shorten(call.arguments)}"
            )
            return ToolError(message, hint=usage).for_model()
        problems = _describe_errors(self._validators[found.name], arguments, found.spec)
        if problems:
            message = f"invalid arguments for `{found.name}`: " + " ".join(problems)
            return ToolError(message, hint=f"fix the arguments and call again. {usage}").for_model()
        return arguments

    def _by_arguments(self, call: ToolCall) -> str:
        """A hint naming the one tool whose parameters fit the call's argument names (small
        models put a class or file name where the tool name goes: ``JSONStorage`` with
        ``{"path": …, "offset": …}`` meant ``read_file``)."""
        fit = tool_for_arguments(self.specs(), call.arguments)
        if fit is None:
            return ""
        return (
            f"these arguments are those of `{fit}`: to do that, call {fit} with "
            f"{_shorten(call.arguments)}. Tool names are: {', '.join(self.names()[:_MAX_LISTED])}."
        )

    def _unknown_hint(self, name: str) -> str:
        close = closest_names(name, self.names())
        listed = ", ".join(f"`{n}`" for n in self.names()[:_MAX_LISTED])
        more = len(self._tools) - _MAX_LISTED
        if more > 0:
            listed += f" and {more} more"
        available = f"Available tools: {listed}." if self._tools else "No tools are available."
        if not close:  # a small model names a function or class of the code (`increment`)
            return (
                f"`{name}` is not a tool; names of functions, classes or files are not tools. "
                f"{available}"
            )
        also = f" (also close: {', '.join(f'`{n}`' for n in close[1:])})" if close[1:] else ""
        return f"Did you mean `{close[0]}`?{also} {available}"


def tool_for_arguments(specs: Iterable[ToolSpec], arguments: str) -> str | None:
    """The one tool of ``specs`` whose parameters ``arguments`` (a JSON object) fit: every
    argument is one of its parameters and every required parameter is given. None when no
    tool or several fit, or when there are no arguments (``{}`` fits every optional tool)."""
    try:
        value = json.loads(arguments or "{}")
    except json.JSONDecodeError:
        return None
    if not isinstance(value, dict) or not value:
        return None
    keys = set(value)
    fits = [
        spec.name
        for spec in specs
        if keys <= set(spec.parameters.get("properties", {}))
        and set(spec.parameters.get("required", ())) <= keys
    ]
    return fits[0] if len(fits) == 1 else None


def closest_names(name: str, candidates: Sequence[str], limit: int = 3) -> list[str]:
    """Candidates that look like ``name``, best first: spelling plus shared words.

    Words after the first (the object: ``logs`` in ``search_logs``) weigh double, so
    ``read_log`` finds ``search_logs`` before ``read_file``.
    """
    scored = []
    for candidate in candidates:
        spelling = difflib.SequenceMatcher(None, name.lower(), candidate.lower()).ratio()
        score = max(spelling, (spelling + _word_overlap(name, candidate)) / 2 + 0.1)
        if score >= 0.55:
            scored.append((-score, candidate))
    return [candidate for _, candidate in sorted(scored)[:limit]]


def _words(name: str) -> list[str]:
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name)
    return [w for w in re.split(r"[^A-Za-z0-9]+", spaced.lower()) if w]


def _word_overlap(a: str, b: str) -> float:
    """Weighted Dice overlap of the words of two names; 'log' matches 'logs'."""
    words_a, words_b = _words(a), _words(b)
    if not words_a or not words_b:
        return 0.0

    def weights(words: list[str]) -> list[float]:
        return [1.0] + [2.0] * (len(words) - 1) if len(words) > 1 else [1.0]

    def same(x: str, y: str) -> bool:
        return x == y or (min(len(x), len(y)) >= 3 and (x.startswith(y) or y.startswith(x)))

    wa, wb = weights(words_a), weights(words_b)
    matched = sum(
        wa[i] + wb[j] for i, x in enumerate(words_a) for j, y in enumerate(words_b) if same(x, y)
    )
    return min(1.0, matched / (sum(wa) + sum(wb)))


def signature(spec: ToolSpec) -> str:
    """A one-line signature for hints: ``read_file(path: string, limit?: integer = 200)``."""
    properties: Mapping[str, Any] = spec.parameters.get("properties", {})
    required = set(spec.parameters.get("required", ()))
    parts = []
    for key, schema in properties.items():
        optional = "" if key in required else "?"
        default = f" = {json.dumps(schema['default'])}" if "default" in schema else ""
        parts.append(f"{key}{optional}: {_type_label(schema)}{default}")
    return f"{spec.name}({', '.join(parts)})"


def _type_label(schema: Mapping[str, Any]) -> str:
    if "enum" in schema:
        return " | ".join(json.dumps(v, ensure_ascii=False) for v in schema["enum"])
    kind = schema.get("type")
    if kind == "array" and isinstance(schema.get("items"), Mapping):
        return f"array of {_type_label(schema['items'])}"
    if isinstance(kind, list):
        return " | ".join(str(k) for k in kind)
    if isinstance(kind, str):
        return kind
    if "anyOf" in schema:
        return " | ".join(_type_label(s) for s in schema["anyOf"])
    return "any"


_ARTICLE = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "a boolean (true or false)",
    "array": "an array",
    "object": "an object",
    "null": "null",
}


def _json_kind(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return "null"


def _describe_errors(
    validator: jsonschema.Draft202012Validator, arguments: dict[str, Any], spec: ToolSpec
) -> list[str]:
    problems: list[str] = []
    for error in validator.iter_errors(arguments):
        field = _field(error.absolute_path)
        given = _shorten(json.dumps(error.instance, ensure_ascii=False))
        match error.validator:
            case "required":
                missing = [p for p in error.validator_value if p not in error.instance]
                problems.append(
                    f"missing required argument {', '.join(f'`{m}`' for m in missing)}."
                )
            case "additionalProperties":
                allowed = list(error.schema.get("properties", {}))
                for extra in [k for k in error.instance if k not in allowed]:
                    close = difflib.get_close_matches(extra, allowed, n=1, cutoff=0.5)
                    guess = f" Did you mean `{close[0]}`?" if close else ""
                    accepted = ", ".join(f"`{a}`" for a in allowed) or "none"
                    problems.append(
                        f"unexpected argument `{extra}`.{guess} Accepted arguments: {accepted}."
                    )
            case "type":
                kinds = error.validator_value
                expected = " or ".join(
                    _ARTICLE.get(str(k), str(k))
                    for k in (kinds if isinstance(kinds, list) else [kinds])
                )
                problems.append(
                    f"`{field}` must be {expected}, but got {given} ({_json_kind(error.instance)})."
                    + _unquote_hint(error.instance, kinds)
                )
            case "enum":
                options = ", ".join(
                    json.dumps(v, ensure_ascii=False) for v in error.validator_value
                )
                problems.append(f"`{field}` must be one of {options}, but got {given}.")
            case _:
                problems.append(f"`{field}`: {error.message}.")
    return list(dict.fromkeys(problems))


def _unquote_hint(instance: Any, kinds: Any) -> str:
    """For "3" where an integer was expected: say to write it without quotes."""
    if not isinstance(instance, str):
        return ""
    try:
        value = json.loads(instance)
    except json.JSONDecodeError:
        return ""
    number = isinstance(value, int | float) and not isinstance(value, bool)
    fits = {
        "integer": number and isinstance(value, int),
        "number": number,
        "boolean": isinstance(value, bool),
        "array": isinstance(value, list),
        "object": isinstance(value, dict),
    }
    wanted = kinds if isinstance(kinds, list) else [kinds]
    if any(fits.get(kind, False) for kind in wanted):
        return f" Write it without quotes: {instance.strip()}."
    return ""


def _field(path: Iterable[Any]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "arguments"


def _shorten(text: str) -> str:
    return text if len(text) <= _MAX_SHOWN else text[:_MAX_SHOWN] + "…"


def _example_text(found: Tool) -> str:
    if not found.examples:
        return ""
    return f" Example arguments: {json.dumps(found.examples[0], ensure_ascii=False)}"


def _crash_text(name: str, exc: BaseException) -> str:
    return ToolError(
        f"tool `{name}` failed with {type(exc).__name__}: {exc}. This is a bug in the tool or "
        "its environment, not a problem with your arguments",
        hint="do not repeat the same call; try another tool or approach, or report the failure",
    ).for_model()
