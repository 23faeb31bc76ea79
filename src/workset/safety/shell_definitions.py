"""What a shell line defines, kept for the walker: functions, aliases, variables and arrays.

:class:`ShellDefinitions` sits between word resolution
(:class:`~workset.safety.shell_words.ShellWords`) and the walker
(:class:`~workset.safety.shell_walker.Walker`). It keeps the functions and aliases the line
defines (a function named like a fork bomb is a finding), applies assignments and
declarations (``declare -n`` references included) and has the rules judge each assignment,
and keeps what a command that ran sets: ``read`` (the one path a listing prints, when a loop
reads it), ``set --``, ``alias`` and ``unset``.
"""

from __future__ import annotations

import re
from abc import abstractmethod
from collections.abc import Iterable
from typing import Any

from workset.safety import paths, rules
from workset.safety.rules import Cmd
from workset.safety.shell_record import fork_bomb
from workset.safety.shell_text import ASSIGNMENT, Word, node_text, unescape
from workset.safety.shell_words import ShellWords, Stdin, joined
from workset.safety.unicode_fold import fold


class ShellDefinitions(ShellWords):
    """The functions, aliases and variables a line defines, and what its commands set."""

    def __init__(self, context: rules.Context) -> None:
        super().__init__()
        self.context = context
        self.functions: dict[str, Any] = {}
        self.aliases: dict[str, str] = {}

    @abstractmethod
    def _apply(self, results: Iterable[rules.Result], depth: int) -> None:
        """Record findings, analyse nested code, judge file operations (the walker's)."""

    @abstractmethod
    def _record(
        self,
        words: list[Word],
        redirects: list[tuple[str, Word]],
        depth: int,
        upstream: tuple[Cmd, ...],
        *,
        piped: bool,
        background: bool,
        stdin: Stdin | None = None,
    ) -> Cmd:
        """Resolve, keep and judge one simple command (the walker's)."""

    def _listed(self, cmds: Iterable[Cmd]) -> list[str] | None:
        """What a listing (the last pipeline of ``cmds``) prints, as loop values, or None."""
        cmds = list(cmds)
        if not cmds or len(cmds[-1].upstream) + 1 != len(cmds):
            return None  # $(cd ~ && find .): not one pipeline alone
        return rules.loop_values((*cmds[-1].upstream, cmds[-1]), self.context)

    def _function(self, node: Any) -> None:
        name_node = node.child_by_field_name("name")
        body = node.child_by_field_name("body")
        if name_node is None or body is None:
            return
        name = fold(unescape(node_text(name_node)))
        self.functions[name] = body
        found = fork_bomb(name, body)
        if found is not None:
            self._report(found)

    def _assign(self, node: Any, depth: int, program: str | None = None) -> None:
        name_node = node.child_by_field_name("name")
        value_node = node.child_by_field_name("value")
        if name_node is None:
            return
        name = node_text(name_node)
        parts: list[Word] = []
        if value_node is None:
            value = Word("")
        elif value_node.type == "array":
            parts = [w for c in value_node.named_children for w in self._fields(c, depth)]
            value = Word(" ".join(p.text for p in parts), dynamic=any(p.dynamic for p in parts))
        else:
            value = joined(self._fields(value_node, depth, quoted=True))
        text = node_text(node)
        appended = text.startswith(name + "+=")
        base = self.env.get(name, "") if appended else ""
        items = list(self.arrays.get(name, [])) if appended else []
        self._set(name, base + value.text, dynamic=value.dynamic)
        if value_node is not None and value_node.type == "array" and not value.dynamic:
            self.arrays[name] = items + [p.text for p in parts]
        local = paths.workspace_relative(value.text, self.context.workspace)
        self._apply(rules.assignment(name, local, program), depth)

    def _declaration(self, node: Any, depth: int) -> None:
        keyword = node.children[0].type if node.children else "declare"
        shown: list[Word] = []
        named: list[str] = []
        for child in node.named_children:
            if child.type == "variable_assignment":
                self._assign(child, depth)
                shown.append(Word(node_text(child)))
                named.append(node_text(child).split("=", 1)[0].rstrip("+"))
                continue
            for word in self._fields(child, depth):
                match = ASSIGNMENT.match(word.text)
                if match:  # declare "X=1": an assignment inside a word
                    self._set(match.group(1), match.group(2), dynamic=word.dynamic)
                    named.append(match.group(1))
                shown.append(word)
        if any(re.fullmatch(r"-\w*n\w*", w.text) for w in shown):
            for name in named:  # declare -n r=HOME: r reads and writes HOME
                target = self.env.get(name, "")
                known = target in self.env and target not in self.unknown
                self._set(name, self.env[target] if known else "", dynamic=not known)
        self._record([Word(keyword), *shown], [], depth, (), piped=False, background=False)

    def _read_words(self, cmd: Cmd) -> bool:
        """``read -ra x <<< 'chmod 777 /etc/sudoers'``: the array holds the here-string's words
        (True when set so); another input is read as below."""
        args = list(cmd.args())
        fed = [t for op, t in cmd.redirects if op == "<<"]  # a here-string
        options = [a for a in args if a.startswith("-")]
        names = [a for a in args if not a.startswith("-")]
        if len(fed) != 1 or cmd.stdin_dynamic or any(cmd.dynamic) or len(names) != 1:
            return False
        if "IFS" in self.env or "IFS=" in " ".join(cmd.argv):
            return False  # split other than on blanks: read as below
        if not any("a" in o[1:] for o in options):
            return False
        self._set(names[0], fed[0], dynamic=False)
        self.arrays[names[0]] = fed[0].split()
        return True

    def _remember(self, cmd: Cmd) -> None:
        """What ``cmd`` sets for the rest of the line: variables it reads into, positional
        parameters, aliases; variables it unsets."""
        if cmd.name == "read" and self._read_words(cmd):
            return
        if cmd.name == "read":
            names = [w for w in cmd.args() if not w.startswith("-")]
            listed = self._listed(cmd.upstream) if names == list(cmd.args()[-1:]) else None
            for word in names:  # find ./b | while read -r f: f is a path the listing prints
                self._set(
                    word,
                    listed[0] if listed and len(listed) == 1 else "",
                    dynamic=not (listed and len(listed) == 1),
                )
        elif cmd.name == "set" and "--" in cmd.argv:
            self.positional = list(cmd.argv[cmd.argv.index("--") + 1 :])
        elif cmd.name == "alias":
            for word in cmd.args():
                name, eq, value = word.partition("=")
                if eq:
                    self.aliases[fold(name)] = value
        elif cmd.name == "unset":
            for word in cmd.args():
                self.env.pop(word, None)
