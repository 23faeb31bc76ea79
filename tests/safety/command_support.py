"""What the round tests of the command analysis share: one workspace, the analysis of a
command in it, and the rules that fired."""

from __future__ import annotations

from workset.safety.commands import CommandAnalysis, analyze_command

WS = "/home/me/proj"


def judged(command: str) -> CommandAnalysis:
    """``command`` analysed as run in :data:`WS`."""
    return analyze_command(command, workspace=WS)


def rules(analysis: CommandAnalysis) -> set[str]:
    """The rules of ``analysis``'s findings."""
    return {f.rule for f in analysis.findings}
