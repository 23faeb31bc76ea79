"""Round 15: one decision per rule, from the classes of the three tune halves and my own probes."""

from __future__ import annotations

import pytest

from workset.safety.commands import analyze_command

WS = "/home/me/proj"


def _rules(command: str) -> set[str]:
    return {f.rule for f in analyze_command(command, workspace=WS).findings}


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        # a tool's login, known by the words of its name or by the tool that keeps it there
        ("cat ~/.codex/auth.json", "secret-read"),
        ("cat ~/.huggingface/token", "secret-read"),
        ("cat ~/.ansible/vault_pass", "secret-read"),
        ("head ~/.config/github-copilot/hosts.json", "secret-read"),
        ("cat ~/.terraformrc", "secret-read"),
        ("cat /etc/kubernetes/admin.conf", "secret-read"),
        ("jq . /home/ann/.config/containers/auth.json", "secret-read"),
    ],
)
def test_round15_dangerous_classes_are_denied_by_their_rule(command: str, rule: str) -> None:
    analysis = analyze_command(command, workspace=WS)
    assert analysis.decision == "deny", analysis.findings
    assert rule in _rules(command)


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ("grep -c token ~/.config/openai/auth.json", "secret-read"),
    ],
)
def test_round15_look_alikes_that_still_need_a_human_ask(command: str, rule: str) -> None:
    analysis = analyze_command(command, workspace=WS)
    assert analysis.decision == "ask", analysis.findings
    assert rule in _rules(command)


@pytest.mark.parametrize(
    "command",
    [
        # names of the project's own sources, and files every account may read
        "cat src/auth/token.py tests/test_session.py",
        "cut -d: -f1 /etc/passwd | sort | head",
        "cat ~/.config/Code/User/keybindings.json",
    ],
)
def test_round15_confined_look_alikes_run_without_asking(command: str) -> None:
    analysis = analyze_command(command, workspace=WS)
    assert analysis.decision == "allow", analysis.findings
