from __future__ import annotations

import tomllib

import pytest

from workset.errors import UsageError
from workset.safety.policy import PermissionPolicy, Quotas
from workset.testing import FakeClock

TOML = """
[permissions]
deny_tools = ["drop_table"]
ask_tools = ["send_email"]
allow_tools = ["shell"]
command_tools = { shell = "command", ssh_run = "cmd" }
ask_risk = "medium"
max_calls_per_tool = 5
rate_limit_per_minute = 2
"""


def test_a_policy_loads_from_a_toml_permissions_table() -> None:
    policy = PermissionPolicy.from_mapping(tomllib.loads(TOML)["permissions"])
    assert policy.deny_tools == frozenset({"drop_table"})
    assert policy.allow_tools == frozenset({"shell"})
    assert dict(policy.command_tools) == {"shell": "command", "ssh_run": "cmd"}
    assert dict(policy.code_tools) == {"run_python": "code"}
    assert policy.needs_approval_for_risk("medium")
    assert not policy.needs_approval_for_risk("low")
    assert (policy.max_calls_per_tool, policy.rate_limit_per_minute) == (5, 2)


def test_defaults_ask_for_high_risk_and_analyse_shell_and_python_tools() -> None:
    policy = PermissionPolicy()
    assert policy.ask_risk == "high"
    assert dict(policy.command_tools) == {"shell": "command", "initiate_shell": "command"}
    assert dict(policy.code_tools) == {"run_python": "code"}
    assert PermissionPolicy.from_mapping({"ask_risk": "never"}).ask_risk is None


def test_an_unknown_key_names_itself_and_the_valid_ones() -> None:
    with pytest.raises(UsageError) as caught:
        PermissionPolicy.from_mapping({"deny_tool": ["x"]})
    assert "'deny_tool'" in str(caught.value)
    assert "deny_tools" in str(caught.value) and "rate_limit_per_minute" in str(caught.value)


@pytest.mark.parametrize(
    "table",
    [
        {"deny_tools": "shell"},
        {"command_tools": {"shell": 1}},
        {"ask_risk": "extreme"},
        {"max_calls_per_tool": 0},
        {"allow_tools": ["x"], "deny_tools": ["x"]},
    ],
)
def test_malformed_settings_are_usage_errors(table: dict[str, object]) -> None:
    with pytest.raises(UsageError):
        PermissionPolicy.from_mapping(table)


def test_quotas_count_calls_per_run_and_per_minute_on_the_given_clock() -> None:
    clock = FakeClock()
    quotas = Quotas(PermissionPolicy(max_calls_per_tool=3, rate_limit_per_minute=2), clock)
    quotas.record("grep")
    quotas.record("grep")
    assert "2 times in the last minute" in (quotas.exceeded("grep") or "")
    assert quotas.exceeded("read_file") is None
    clock.advance(60)
    assert quotas.exceeded("grep") is None
    quotas.record("grep")
    assert "already called 3 times" in (quotas.exceeded("grep") or "")
