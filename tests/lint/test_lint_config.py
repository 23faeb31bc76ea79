from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from workset.config import AgentSection, MemorySection, StatusSection, WorksetConfig
from workset.lint import Finding, find_volatile_text, lint_config, lint_tool_specs
from workset.messages import ToolSpec
from workset.session.agent import DEFAULT_SYSTEM_PROMPT
from workset.tools.execution import execution_tools
from workset.tools.perception import perception_tools
from workset.tools.registry import ToolRegistry
from workset.tools.workspace import Workspace


def with_prompt(prompt: str, **memory: str) -> WorksetConfig:
    return WorksetConfig(
        agent=AgentSection(system_prompt=prompt), memory=MemorySection(**memory), source="w.toml"
    )


def codes(findings: list[Finding]) -> list[str]:
    return [f.code for f in findings]


def workset_tools(tmp_path: Path) -> tuple[ToolSpec, ...]:
    workspace = Workspace(tmp_path)
    return ToolRegistry([*perception_tools(workspace), *execution_tools(workspace)]).specs()


def test_the_default_agent_configuration_with_its_real_tools_is_clean(tmp_path: Path) -> None:
    first, second = workset_tools(tmp_path), workset_tools(tmp_path)
    assert lint_config(WorksetConfig(), first, tools_again=second) == []


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("Current date: 2025-09-14.", "date"),
        ("Now: 2025-09-14T10:30:45.123456Z", "timestamp"),
        ("The office opens at 09:30.", "time"),
        ("Generated at 1795000000.", "unix timestamp"),
        ("Request 3f2a1b4c-1111-2222-3333-444455556666.", "uuid"),
        ("It is {now} where you are.", "placeholder"),
        ("Current time: {{now}}", "placeholder"),
        ("Today is a good day to ship.", "current-date phrase"),
        ("Prices as of Sep 14, 2025.", "date"),
    ],
)
def test_volatile_text_in_the_system_prompt_is_an_error_with_its_line(line: str, kind: str) -> None:
    findings = lint_config(with_prompt(f"You help with billing.\n{line}"))
    assert "WS101" in codes(findings)
    hit = next(f for f in findings if f.code == "WS101" and f.message.startswith(kind))
    assert hit.severity == "error" and hit.where == "w.toml [agent] system_prompt, line 2"
    assert "end of the request" in hit.fix


def test_versions_line_numbers_and_json_examples_are_not_volatile() -> None:
    assert find_volatile_text(DEFAULT_SYSTEM_PROMPT) == []
    assert find_volatile_text('Version 1.4.2, ratio 3:1, {"path": "a.txt"}, line 12|') == []


def test_the_memory_tenant_or_a_user_name_in_the_system_prompt_is_per_user_state() -> None:
    config = with_prompt("You answer for tenant Acme.\nBe brief with Maria.", tenant="acme")
    findings = lint_config(config, user_values=["Maria"])
    assert codes(findings) == ["WS104", "WS104"]
    assert "memory tenant 'acme'" in findings[0].message and findings[0].where.endswith("line 1")
    assert "'Maria'" in findings[1].message and findings[1].where.endswith("line 2")


def test_a_configured_tenant_that_the_prompt_does_not_name_is_fine() -> None:
    assert lint_config(with_prompt("You answer billing questions.", tenant="acme")) == []


def test_tools_given_as_a_table_are_flagged_as_unordered() -> None:
    config = replace(
        WorksetConfig(source="w.toml"), agent=AgentSection(tools=("grep",), tools_from="table")
    )
    [finding] = lint_config(config)
    assert finding.code == "WS102" and finding.where == "w.toml [agent] tools"


def test_tools_handed_over_as_a_mapping_or_a_set_are_flagged(tmp_path: Path) -> None:
    specs = workset_tools(tmp_path)
    assert codes(lint_tool_specs({s.name: s for s in specs})) == ["WS102"]
    assert codes(lint_tool_specs(frozenset(specs))) == ["WS102"]
    assert lint_tool_specs(specs) == []


def test_tools_in_a_different_order_on_a_second_load_are_flagged(tmp_path: Path) -> None:
    specs = list(workset_tools(tmp_path))
    [finding] = lint_tool_specs(specs, again=[specs[1], specs[0], *specs[2:]])
    assert finding.code == "WS103" and "in a different order" in finding.message
    assert f"position 0: {specs[0].name} then {specs[1].name}" in finding.message


def test_a_tool_definition_that_changes_between_loads_is_flagged(tmp_path: Path) -> None:
    specs = list(workset_tools(tmp_path))
    changed = replace(specs[2], description=specs[2].description + " (cached)")
    [finding] = lint_tool_specs(specs, again=[*specs[:2], changed, *specs[3:]])
    assert f"position 2: {specs[2].name}'s definition differs" in finding.message


def test_a_timestamp_in_a_tool_description_is_volatile_prefix_text() -> None:
    spec = ToolSpec("report", "Sales report, refreshed 2025-09-14 10:30.", {"type": "object"})
    [finding] = lint_tool_specs([spec])
    assert finding.code == "WS101" and finding.where.startswith("tool report")


def test_a_status_block_placed_after_the_system_prompt_is_rotating_state_near_the_start() -> None:
    config = replace(WorksetConfig(), status=StatusSection(placement="after_system"))
    [finding] = lint_config(config)
    assert finding.code == "WS105" and 'placement = "end"' in finding.fix


def test_both_status_strategies_at_the_end_are_clean() -> None:
    for strategy in ("replace", "append"):
        config = replace(WorksetConfig(), status=StatusSection(strategy=strategy))  # type: ignore[arg-type]
        assert lint_config(config) == []
