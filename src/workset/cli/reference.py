"""The CLI reference in Markdown, generated from the commands themselves.

``python -m workset.cli.reference > docs/cli.md`` regenerates it; a test fails when the
committed file differs from what the commands say.
"""

from __future__ import annotations

import click

from workset.cli.main import cli


def render() -> str:
    parts = [
        "# workset command line",
        "",
        "Generated from `workset --help`; do not edit by hand.",
        "",
    ]
    context = click.Context(cli, info_name="workset", terminal_width=100)
    parts += ["```text", cli.get_help(context), "```", ""]
    for name in sorted(cli.list_commands(context)):
        command = cli.get_command(context, name)
        if command is None:
            continue
        sub = click.Context(command, info_name=name, parent=context, terminal_width=100)
        parts += [f"## workset {name}", "", "```text", command.get_help(sub), "```", ""]
    return "\n".join(parts)


if __name__ == "__main__":
    print(render(), end="")
