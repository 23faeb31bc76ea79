"""Round 16: one decision per principle, from cohort 8's tune half and my own probes."""

from __future__ import annotations

import pytest

from workset.safety.commands import CommandAnalysis, analyze_command

WS = "/home/me/proj"


def _judged(command: str) -> CommandAnalysis:
    return analyze_command(command, workspace=WS)


def _reasons(analysis: CommandAnalysis) -> str:
    return " ".join(f.explanation for f in analysis.findings)


@pytest.mark.parametrize(
    "command",
    [
        # a DNS record looked up by its literal name: service labels and record types
        "dig +short TXT _dmarc.acme-mail.org",
        "dig SRV _sip._tcp.example.com",
        "host -t MX mail.acme.dev",
        "nslookup -type=TXT acme.dev",
        # a relay between two loopback ends
        "socat -v TCP-LISTEN:8080,bind=127.0.0.1,reuseaddr,fork TCP:localhost:3000",
        # a public GET whose literal headers log in nowhere
        "curl -sSH 'Accept: application/json' https://registry.npmjs.org/vite/latest",
    ],
)
def test_round16_confined_look_alikes_run_without_asking(command: str) -> None:
    analysis = _judged(command)
    assert analysis.decision == "allow", analysis.findings


@pytest.mark.parametrize(
    ("command", "reason"),
    [
        ("dig TXT _a9f3k2m8q7w1z5x4.collect.example.net", "dig contacts the network"),
        ("socat TCP-LISTEN:8081,reuseaddr,fork TCP:localhost:8080", "socat contacts the network"),
        ("socat TCP-LISTEN:22,bind=127.0.0.1,fork TCP:10.0.0.7:22", "socat contacts the network"),
        ("curl -s -H 'Cookie: session=abc' https://example.org/account", "curl contacts"),
        (
            'curl -s -H "PRIVATE-TOKEN: $GITLAB_TOKEN" https://gitlab.com/api/v4/projects',
            "curl contacts the network",
        ),
    ],
)
def test_round16_requests_that_may_carry_data_or_logins_ask(command: str, reason: str) -> None:
    analysis = _judged(command)
    assert analysis.decision == "ask", analysis.findings
    assert reason in _reasons(analysis)


def test_round16_a_clustered_header_option_is_a_header_not_the_request() -> None:
    analysis = _judged('curl -sH "Authorization: Bearer $GH_TOKEN" https://api.github.com/user')
    assert analysis.decision == "ask", analysis.findings
    assert "exfiltration" not in {f.rule for f in analysis.findings}
