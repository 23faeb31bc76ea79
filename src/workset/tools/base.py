"""A tool: the spec the model sees, the handler that runs, and what the runtime may assume.

:meth:`Tool.from_function` (or the :func:`tool` decorator) builds the JSON Schema from type
hints and the per-parameter descriptions from a Google-style ``Args:`` docstring section, so a
tool is written once, as a typed function::

    @tool(read_only=True, idempotent=True, examples=({"city": "Lima"},))
    def weather(city: str, unit: Literal["C", "F"] = "C") -> str:
        '''Current weather for a city. Use when… Do not use when…

        Args:
            city: City name, e.g. "Lima".
            unit: Temperature unit.
        '''

Supported parameter types: ``str``, ``int``, ``float``, ``bool``, ``list[X]``,
``dict[str, X]``, ``Literal[...]`` and ``X | None``. Parameters with defaults are optional.
"""

from __future__ import annotations

import inspect
import json
import re
import types
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias, Union, get_args, get_origin, get_type_hints, overload

import jsonschema

from workset.errors import UsageError
from workset.messages import ToolSpec

Risk: TypeAlias = Literal["low", "medium", "high"]
Handler: TypeAlias = Callable[..., str] | Callable[..., Awaitable[str]]

MAX_EXAMPLES = 5


@dataclass(frozen=True, slots=True)
class Tool:
    """A callable capability with the metadata the loop, the policy and the model need.

    ``handler`` takes the validated arguments as keywords and returns the text the model sees;
    it may be sync (run in a worker thread) or async. ``read_only`` tools do not change the
    world, so their results may be cached and several may run at once; ``idempotent`` tools
    may be retried safely. ``examples`` are 1–5 argument objects (tools bridged from elsewhere,
    such as MCP servers, may have none); each must satisfy the schema.
    """

    spec: ToolSpec
    handler: Handler
    read_only: bool = False
    idempotent: bool = False
    risk: Risk = "low"
    cost_hint: str = ""
    examples: tuple[Mapping[str, Any], ...] = ()
    # Set for tools whose effect cannot be undone: it describes what a call would do without
    # doing it, and the call only runs when repeated with the confirm token (tools.confirm).
    precheck: Handler | None = None
    # The loop wraps the output as untrusted data (<external_content>). False for workset's
    # own bookkeeping tools (TODO list, tool search) and for tools that wrap their own output
    # (the MCP bridge).
    wrap_output: bool = True
    # How long one call may run before the loop cancels it (None: the agent's tool timeout).
    # Tools that wait for a person or a subagent set their own.
    timeout_s: float | None = None

    def __post_init__(self) -> None:
        if self.risk not in ("low", "medium", "high"):
            raise UsageError(f"tool {self.name!r}: risk must be 'low', 'medium' or 'high'")
        if len(self.examples) > MAX_EXAMPLES:
            raise UsageError(
                f"tool {self.name!r} has {len(self.examples)} examples; keep at most "
                f"{MAX_EXAMPLES} (a few good ones teach more than many)"
            )
        validator = jsonschema.Draft202012Validator(dict(self.spec.parameters))
        for example in self.examples:
            problems = [e.message for e in validator.iter_errors(dict(example))]
            if problems:
                raise UsageError(
                    f"tool {self.name!r}: example {json.dumps(example)} does not match the "
                    f"parameters schema ({'; '.join(problems)}); fix the example or the schema"
                )

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def is_async(self) -> bool:
        return is_async_callable(self.handler)

    @classmethod
    def from_function(
        cls,
        fn: Handler,
        *,
        name: str | None = None,
        description: str | None = None,
        read_only: bool = False,
        idempotent: bool = False,
        risk: Risk = "low",
        cost_hint: str = "",
        examples: tuple[Mapping[str, Any], ...] = (),
        precheck: Handler | None = None,
        wrap_output: bool = True,
        timeout_s: float | None = None,
    ) -> Tool:
        """A tool whose schema comes from ``fn``'s type hints and docstring.

        The description defaults to the docstring without its ``Args:`` section.
        """
        summary, arg_docs = parse_docstring(inspect.getdoc(fn) or "")
        tool_name = name or str(getattr(fn, "__name__", ""))
        if not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", tool_name):
            raise UsageError(
                f"tool name {tool_name!r} is invalid: use 1-64 letters, digits, '_' or '-'"
            )
        text = description if description is not None else summary
        if not text.strip():
            raise UsageError(
                f"tool {tool_name!r} has no description: write a docstring saying when to use "
                "it and when not to"
            )
        spec = ToolSpec(tool_name, text.strip(), schema_for_function(fn, arg_docs))
        return cls(
            spec,
            fn,
            read_only,
            idempotent,
            risk,
            cost_hint,
            tuple(examples),
            precheck,
            wrap_output,
            timeout_s,
        )


@overload
def tool(fn: Handler, /) -> Tool: ...


@overload
def tool(
    *,
    name: str | None = None,
    description: str | None = None,
    read_only: bool = False,
    idempotent: bool = False,
    risk: Risk = "low",
    cost_hint: str = "",
    examples: tuple[Mapping[str, Any], ...] = (),
    precheck: Handler | None = None,
    wrap_output: bool = True,
) -> Callable[[Handler], Tool]: ...


def tool(
    fn: Handler | None = None,
    /,
    *,
    name: str | None = None,
    description: str | None = None,
    read_only: bool = False,
    idempotent: bool = False,
    risk: Risk = "low",
    cost_hint: str = "",
    examples: tuple[Mapping[str, Any], ...] = (),
    precheck: Handler | None = None,
    wrap_output: bool = True,
) -> Tool | Callable[[Handler], Tool]:
    """Decorator form of :meth:`Tool.from_function`; usable bare (``@tool``) or with options."""

    def build(f: Handler) -> Tool:
        return Tool.from_function(
            f,
            name=name,
            description=description,
            read_only=read_only,
            idempotent=idempotent,
            risk=risk,
            cost_hint=cost_hint,
            examples=examples,
            precheck=precheck,
            wrap_output=wrap_output,
        )

    return build(fn) if fn is not None else build


def is_async_callable(fn: object) -> bool:
    """True for coroutine functions and for objects whose ``__call__`` is one."""
    call = getattr(fn, "__call__", None)  # noqa: B004 - callable objects
    return inspect.iscoroutinefunction(fn) or inspect.iscoroutinefunction(call)


_SECTION = re.compile(r"^(\w+):\s*$")
_ARG_SECTIONS = ("Args", "Arguments", "Parameters")
_ARG_LINE = re.compile(r"^(\w+)\s*(?:\([^)]*\))?\s*:\s*(.*)$")


def parse_docstring(doc: str) -> tuple[str, dict[str, str]]:
    """Split a cleaned docstring into (text without the Args section, {param: description}).

    The Args section lists ``name: text`` (or ``name (type): text``) lines; more-indented
    lines continue the previous entry; a line indented like the section header ends it.
    """
    kept: list[str] = []
    args: dict[str, str] = {}
    in_args, arg_indent, current = False, -1, ""
    for line in doc.splitlines():
        indent = len(line) - len(line.lstrip())
        stripped = line.strip()
        header = _SECTION.match(stripped)
        if header and indent == 0:
            in_args, arg_indent, current = header.group(1) in _ARG_SECTIONS, -1, ""
            if in_args:
                continue
        if in_args and stripped and indent == 0:
            in_args = False
        if not in_args:
            kept.append(line)
            continue
        match = _ARG_LINE.match(stripped)
        if match and (arg_indent < 0 or indent == arg_indent):
            arg_indent, current = indent, match.group(1)
            args[current] = match.group(2).strip()
        elif current and stripped:
            args[current] = f"{args[current]} {stripped}".strip()
    return "\n".join(kept).strip(), args


def schema_for_function(fn: Callable[..., Any], arg_docs: Mapping[str, str]) -> dict[str, Any]:
    """The JSON Schema (Draft 2020-12) of ``fn``'s keyword arguments, in signature order."""
    fn_name = getattr(fn, "__name__", repr(fn))
    try:
        hints = get_type_hints(fn)
    except (NameError, TypeError) as exc:
        raise UsageError(f"cannot read the type hints of {fn_name}: {exc}") from exc
    properties: dict[str, Any] = {}
    required: list[str] = []
    for param in inspect.signature(fn).parameters.values():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD, param.POSITIONAL_ONLY):
            raise UsageError(
                f"{fn_name}: parameter {param.name!r} must be a plain keyword parameter "
                "(no *args, **kwargs or positional-only)"
            )
        if param.name not in hints:
            raise UsageError(f"{fn_name}: parameter {param.name!r} needs a type annotation")
        schema = _schema_for_type(hints[param.name], f"{fn_name}.{param.name}")
        if param.name in arg_docs:
            schema = {"description": arg_docs[param.name], **schema}
        if param.default is param.empty:
            required.append(param.name)
        else:
            _check_json_default(param.default, f"{fn_name}.{param.name}")
            schema["default"] = param.default
        properties[param.name] = schema
    result: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        result["required"] = required
    result["additionalProperties"] = False
    return result


_SCALARS: dict[type, str] = {str: "string", int: "integer", float: "number", bool: "boolean"}


def _schema_for_type(hint: Any, where: str) -> dict[str, Any]:
    if hint in _SCALARS:
        return {"type": _SCALARS[hint]}
    origin, args = get_origin(hint), get_args(hint)
    if origin is Literal:
        kinds = {_SCALARS.get(type(a)) for a in args}
        if None in kinds or len(kinds) != 1:
            raise UsageError(f"{where}: Literal values must all be str, int, float or bool")
        return {"type": kinds.pop(), "enum": list(args)}
    if origin is list and len(args) == 1:
        return {"type": "array", "items": _schema_for_type(args[0], where)}
    if origin is dict and len(args) == 2 and args[0] is str:
        if args[1] is Any:
            return {"type": "object"}
        return {"type": "object", "additionalProperties": _schema_for_type(args[1], where)}
    if origin in (Union, types.UnionType) and type(None) in args:
        rest = [a for a in args if a is not type(None)]
        inner = _schema_for_type(rest[0] if len(rest) == 1 else Union[tuple(rest)], where)  # noqa: UP007
        if isinstance(inner.get("type"), str):
            nullable = {**inner, "type": [inner["type"], "null"]}
            if "enum" in inner:
                nullable["enum"] = [*inner["enum"], None]
            return nullable
        return {"anyOf": [inner, {"type": "null"}]}
    raise UsageError(
        f"{where}: unsupported parameter type {hint!r}; use str, int, float, bool, list[X], "
        "dict[str, X], Literal[...] or X | None"
    )


def _check_json_default(value: Any, where: str) -> None:
    try:
        json.dumps(value)
    except (TypeError, ValueError) as exc:
        raise UsageError(f"{where}: default {value!r} is not JSON-serializable") from exc
