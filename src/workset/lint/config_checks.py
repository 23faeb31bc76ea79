"""Checks on a configuration and its tool definitions, before any call is made."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet

from workset.config import WorksetConfig
from workset.lint.findings import Finding
from workset.lint.volatile import find_volatile_text
from workset.messages import ToolSpec

_MOVE_TO_END = (
    "remove it from the system prompt; per-call values belong at the end of the request "
    "(the status block shows the current time), or behind a tool the model calls when needed"
)
_PLACEHOLDER_FIX = (
    "remove the placeholder: a template filled per call changes the prompt on every call; "
    "put per-call values in a message at the end of the request"
)


def lint_config(
    config: WorksetConfig,
    tools: Sequence[ToolSpec] | Mapping[str, ToolSpec] | AbstractSet[ToolSpec] | None = None,
    *,
    tools_again: Sequence[ToolSpec] | None = None,
    user_values: Sequence[str] = (),
) -> list[Finding]:
    """Prefix breakers in ``config``, and in its actual tool definitions when given.

    ``tools_again`` is a second load of the same tools (a new registry, another process):
    it must be identical. ``user_values`` are further per-user strings (user names, account
    ids) that must not appear in the system prompt; the memory tenant and subject are always
    checked.
    """
    where = _prompt_where(config)
    findings = [
        *_volatile(config.agent.system_prompt, where, "the system prompt"),
        *_per_user(config, where, user_values),
    ]
    if config.agent.tools_from == "table":
        findings.append(
            Finding(
                "WS102",
                "error",
                f"{config.source} [agent] tools",
                "tools are given as a table of name = true/false, which has no order of its own",
                'write an ordered list, tools = ["read_file", "grep"], or tools = "all"',
            )
        )
    if config.status.placement == "after_system":
        findings.append(
            Finding(
                "WS105",
                "error",
                f"{config.source} [status] placement",
                f"the status block ({config.status.strategy} strategy) is placed right after the "
                "system prompt, so its time and counters change the request near its start",
                'placement = "end": the status block goes after the trajectory, where only '
                "the last few tokens change each round",
            )
        )
    if tools is not None:
        findings += lint_tool_specs(tools, again=tools_again)
    return findings


def lint_tool_specs(
    tools: Iterable[ToolSpec] | Mapping[str, ToolSpec],
    *,
    again: Iterable[ToolSpec] | None = None,
) -> list[Finding]:
    """Tool definitions as the prefix will hold them: ordered, stable, free of volatile text."""
    findings: list[Finding] = []
    if isinstance(tools, Mapping | AbstractSet):
        kind = "mapping" if isinstance(tools, Mapping) else "set"
        findings.append(
            Finding(
                "WS102",
                "error",
                "tools",
                f"the tools are given as a {kind}; their order in the prompt is whatever "
                "iteration gives",
                "pass a list or tuple in a fixed order (ToolRegistry.specs() sorts by name)",
            )
        )
    specs = list(tools.values()) if isinstance(tools, Mapping) else list(tools)
    for spec in specs:
        text = f"{spec.description}\n{json.dumps(spec.parameters, ensure_ascii=False)}"
        findings += _volatile(text, f"tool {spec.name}", f"the definition of tool {spec.name}")
    if again is not None:
        findings += _compare_loads(specs, list(again))
    return findings


def _compare_loads(first: list[ToolSpec], second: list[ToolSpec]) -> list[Finding]:
    one = [json.dumps(s.to_wire(), ensure_ascii=False) for s in first]
    two = [json.dumps(s.to_wire(), ensure_ascii=False) for s in second]
    if one == two:
        return []
    names_one, names_two = [s.name for s in first], [s.name for s in second]
    for index, (a, b) in enumerate(zip(one, two, strict=False)):
        if a != b:
            if names_one[index] != names_two[index]:
                detail = f"position {index}: {names_one[index]} then {names_two[index]}"
            else:
                detail = f"position {index}: {names_one[index]}'s definition differs"
            break
    else:
        index = min(len(one), len(two))
        detail = f"position {index}: one load has {abs(len(one) - len(two))} more tools"
    same_set = sorted(names_one) == sorted(names_two)
    what = "in a different order" if same_set and names_one != names_two else "differently"
    return [
        Finding(
            "WS103",
            "error",
            "tools",
            f"two loads of the same tools render {what}; first difference at {detail}",
            "sort tools by name (or keep a fixed list) and build every definition from "
            "constant text: no dict/set iteration order, no per-load values",
        )
    ]


def _volatile(text: str, where: str, what: str) -> list[Finding]:
    return [
        Finding(
            "WS101",
            "error",
            f"{where}, line {hit.line}",
            f"{hit.kind} {hit.text!r} in {what}",
            _PLACEHOLDER_FIX if hit.kind == "placeholder" else _MOVE_TO_END,
        )
        for hit in find_volatile_text(text)
    ]


def _per_user(config: WorksetConfig, where: str, user_values: Sequence[str]) -> list[Finding]:
    prompt = config.agent.system_prompt
    labelled = [
        ("memory tenant", config.memory.tenant),
        ("memory subject", config.memory.subject),
        *(("per-user value", v) for v in user_values),
    ]
    findings = []
    for label, value in labelled:
        if not value.strip():
            continue
        match = re.search(rf"(?<!\w){re.escape(value.strip())}(?!\w)", prompt, re.IGNORECASE)
        if match is None:
            continue
        line = prompt.count("\n", 0, match.start()) + 1
        findings.append(
            Finding(
                "WS104",
                "error",
                f"{where}, line {line}",
                f"the system prompt names the {label} {value!r}",
                "keep the system prompt identical for every user; per-user facts come from "
                "memory ([memory] tenant/subject) at the end of the request",
            )
        )
    return findings


def _prompt_where(config: WorksetConfig) -> str:
    if config.agent.system_prompt_file is not None:
        return f"{config.agent.system_prompt_file} ([agent] system_prompt_file)"
    return f"{config.source} [agent] system_prompt"
