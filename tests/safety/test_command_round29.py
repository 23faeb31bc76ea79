"""Round 29: one decision per principle, from blind cohorts' tune halves (17: a look at a
host over ssh; 16: a recorded profile read back; 20: a macOS workstation; 21: a data and ML
engineer's day), in wordings of this file's own (no corpus line is copied)."""

from __future__ import annotations

import pytest
from command_support import judged, rules


@pytest.mark.parametrize(
    "command",
    [
        "ssh ops@web-7.internal 'uptime; free -m; systemctl is-active nginx'",
        "ssh -o BatchMode=yes -p 2200 ops@10.1.4.20 journalctl -u nginx -n 40 --no-pager",
        "ssh web-7 'docker ps; docker logs --tail 20 api 2>&1'",
        "ssh web-7 ls -la /srv/app",
        "rsync -avn --delete ./site/ deploy@web-7.internal:/srv/site/",
    ],
)
def test_a_look_at_another_host_that_only_reads_is_allowed(command: str) -> None:
    assert judged(command).decision == "allow"


@pytest.mark.parametrize(
    "command",
    [
        "ssh web-7",  # an interactive shell there
        "ssh web-7 'make -C /srv/app'",  # runs the code found there
        "ssh web-7 'touch /srv/app/maintenance'",
        "ssh web-7 'docker compose up -d'",
        "ssh web-7 'psql -c \"select email from users\"'",  # production data: a human decides
        "ssh -A web-7 uptime",  # the agent's keys lent to the host
        "ssh -L 8080:localhost:80 web-7 uptime",
        "ssh -o ProxyJump=jump web-7 uptime",
        "ssh 198.51.100.23 uptime",  # a bare public address
        'ssh "$TARGET" uptime',
        "git diff | ssh web-7 'cat > /tmp/p'",  # local data fed to it
        "ssh web-7 'echo dGhpcyBpcyBub3QgYSBsb29rIGF0IGFsbCByZWFsbHk='",
        "rsync -av ./site/ deploy@web-7.internal:/srv/site/",
        "rsync -avn -e 'ssh -o ProxyCommand=x' ./site/ deploy@web-7:/srv/site/",
    ],
)
def test_ssh_that_changes_runs_or_sends_still_asks(command: str) -> None:
    assert judged(command).decision == "ask"


def test_a_secret_read_over_ssh_is_still_denied() -> None:
    analysis = judged("ssh web-7 'cat /etc/app/credentials.env'")
    assert analysis.decision == "deny" and "secret-read" in rules(analysis)


def test_a_recorded_profile_is_read_back_and_system_wide_profiling_asks() -> None:
    assert judged("perf report -i perf.data --stdio | head -40").decision == "allow"
    assert judged("perf script -i out/perf.data > out/stacks.txt").decision == "allow"
    top = judged("perf top")
    assert top.decision == "ask" and "trace-attach" in rules(top)


def test_a_word_that_ends_in_equals_is_not_the_workspace_sent_away() -> None:
    analysis = judged("ssh web-7 'echo QUJD='")
    assert "exfiltration" not in rules(analysis) and analysis.decision == "allow"
