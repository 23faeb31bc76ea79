"""The shapes every rule shares: the resolved command, its context, and what a rule returns.

A rule takes one :class:`Cmd` (words already normalised by the walker) and the line's
:class:`Context`, and yields :class:`Finding` verdicts or :class:`Nested` code to analyse in
turn. This module also owns the option splitter the rule families share and the findings the
walker makes itself (fork bombs, unparseable text, nesting too deep).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Literal, TypeAlias

from workset.safety import paths

Severity: TypeAlias = Literal["deny", "ask"]


@dataclass(frozen=True, slots=True)
class Finding:
    rule: str
    severity: Severity
    explanation: str


@dataclass(frozen=True, slots=True)
class Nested:
    """Code that the command would run, to be analysed in turn."""

    code: str
    language: Literal["shell", "python"] = "shell"
    later: bool = False  # runs detached or on a timer, after the human has looked away
    deny_only: bool = False  # runs when a project tool does: only what is denied counts now


# What asks when it runs now but is a time bomb when it runs later, unattended.
DESTRUCTIVE = frozenset({"rm-recursive", "rsync-delete", "shred", "find-delete", "git-clean",
                         "git-reset-hard", "git-discard", "sql-write", "cluster-change",
                         "infra-change", "cloud-storage-change"})  # fmt: skip


def deferred(findings: Sequence[Finding]) -> Finding | None:
    """Deny destruction left to run later (``tmux new -d 'sleep 3600; rm -rf ~/x'``): no one
    is watching when it fires, so it cannot be confirmed the way running it now can."""
    hit = next((f for f in findings if f.rule in DESTRUCTIVE), None)
    if hit is None:
        return None
    return Finding(
        "deferred-destruction",
        "deny",
        f"the line leaves code to run later, unattended, that destroys data ("
        f"{hit.explanation.split(';')[0]}); run it now, in the foreground, if it is truly needed",
    )


@dataclass(frozen=True, slots=True)
class Cmd:
    """One simple command with everything the rules need to know about its words."""

    argv: tuple[str, ...]
    dynamic: tuple[bool, ...] = ()
    inner: tuple[tuple[Cmd, ...], ...] = ()  # commands run by substitutions in each word
    process: tuple[bool, ...] = ()  # the word is a process substitution <(…)
    redirects: tuple[tuple[str, str], ...] = ()
    extra_fd: tuple[bool, ...] = ()  # the redirection opens a descriptor above 2 (exec 3<>…)
    redirect_dynamic: tuple[bool, ...] = ()  # the redirection's target is only known at run time
    upstream: tuple[Cmd, ...] = ()  # earlier stages of the same pipeline
    piped: bool = False
    background: bool = False
    stdin_inner: tuple[Cmd, ...] = ()  # commands that make stdin: here-document, < <(…)
    stdin_dynamic: bool = False  # the here-document's text is only known at run time
    lookalike: bool = False  # the name was written with look-alike letters (ｒｍ, rм)

    @property
    def name(self) -> str:
        return self.argv[0].rsplit("/", 1)[-1] if self.argv else ""

    def args(self) -> tuple[str, ...]:
        return self.argv[1:]

    def shifted(self, start: int) -> Cmd:
        """The command that starts at word ``start`` (after a wrapper such as ``sudo``)."""
        return dataclasses.replace(
            self,
            argv=self.argv[start:],
            dynamic=self.dynamic[start:],
            inner=self.inner[start:],
            process=self.process[start:],
        )

    def with_argv(self, argv: Sequence[str]) -> Cmd:
        n = len(argv)
        return dataclasses.replace(
            self,
            argv=tuple(argv),
            dynamic=(self.dynamic + (False,) * n)[:n],
            inner=(self.inner + ((),) * n)[:n],
            process=(self.process + (False,) * n)[:n],
        )

    def is_dynamic(self, index: int) -> bool:
        return index < len(self.dynamic) and self.dynamic[index]

    def inner_of(self, index: int) -> tuple[Cmd, ...]:
        return self.inner[index] if index < len(self.inner) else ()


@dataclass
class Context:
    """What the rules know beyond one command: the workspace, and files downloaded so far."""

    workspace: str | None = None
    downloaded: set[str] = field(default_factory=set)
    cwd: str | None = None  # after a ``cd``; None is the workspace
    links: dict[str, str] = field(default_factory=dict)  # links the line made: where they lead
    removed: set[str] = field(default_factory=set)  # files an earlier rm of the line deleted
    root_owned: set[str] = field(default_factory=set)  # files the line gave to root (chown)
    services: set[str] = field(default_factory=set)  # service definitions the line wrote
    remotes: set[str] = field(default_factory=set)  # git remotes the line added or re-pointed
    bundles: set[str] = field(default_factory=set)  # archives the line made of the workspace
    written: set[str] = field(default_factory=set)  # files the line wrote (their text unseen)
    scripts: dict[str, str] = field(default_factory=dict)  # files the line wrote: their text
    cloned: set[str] = field(default_factory=set)  # folders a clone of the line filled
    tightened: set[str] = field(default_factory=set)  # agent settings with rules only added
    images: set[str] = field(default_factory=set)  # image tags the line built (docker build -t)
    hard_reset: bool = False  # a git reset --hard ran earlier in the line
    stashed: bool = False  # a git stash earlier in the line put uncommitted work aside
    venv: str = ""  # the workspace virtualenv a ``source …/bin/activate`` of the line put first
    reflog_expired: bool = False  # a git reflog expire --expire=now ran earlier in the line
    programs: dict[str, str] = field(default_factory=dict)  # copies of system programs: names
    secret_images: set[str] = field(default_factory=set)  # images built from the home
    staged_secret: str = ""  # a key or credential file a git add of the line staged
    socket_read: bool = False  # a command of the line read from a /dev/tcp connection
    requests: int = 0  # public pages the line reads (rules.public_reads): a loop of them beacons
    shown: bool = True  # what the command prints reaches the terminal (not a pipe or $(…))
    secret_holder: str = ""  # a keeper of secrets (ssh-agent…) a pgrep/pidof of the line found
    prefixed: dict[str, str] = field(default_factory=dict)  # NAME=value before this command
    dumped: set[str] = field(default_factory=set)  # files a dump of a live remote database filled
    staged_dump: str = ""  # such a dump a git add of the line staged
    retargeted: str = ""  # a test config an edit of the line pointed at production

    def resolve(self, word: str) -> str:
        path = paths.join(self.cwd, word)
        if self.workspace and (path == ".." or path.startswith("../")):
            path = paths.join(self.workspace, path)  # climbing out: say where it lands
        if self.links:
            key = self._absolute(path)
            for link, target in self.links.items():
                if key == link or key.startswith(link + "/"):
                    return target + key[len(link) :]  # written through a link: lands there
        return paths.in_home_form(path, self.workspace)

    def add_link(self, target: str, link: str) -> str:
        """Remember that ``link`` (made by ``ln``) leads to ``target``; return where."""
        where = self._absolute(paths.join(self.cwd, link))
        if not target.startswith(("/", "~")):  # relative to the link's own directory
            target = paths.normalize(where.rsplit("/", 1)[0] + "/" + target)
        self.links[where] = self.resolve(target)
        return self.links[where]

    def links_under(self, word: str) -> list[str]:
        """Where the links the line made inside the tree ``word`` lead (``ln -s ~/.ssh
        fixtures/keys`` puts ``~/.ssh`` under ``fixtures``), for programs that follow them."""
        root = self._absolute(paths.join(self.cwd, word)).rstrip("/")
        return [t for link, t in self.links.items() if link.startswith(root + "/")]

    def wrote(self, word: str) -> bool:
        """An earlier command of the line wrote ``word`` (or the folder it lies in)."""
        path = self.resolve(word)
        return path in self.downloaded or any(
            path == w or path.startswith(w.rstrip("/") + "/") for w in self.written
        )

    def _absolute(self, path: str) -> str:
        if self.workspace and not path.startswith(("/", "~")):
            return paths.join(self.workspace, path)
        return path


def ask_finding(rule: str, what: str, instead: str = "a human must confirm") -> Finding:
    """An ``ask`` verdict worded as the rule families word them: what, then what to do."""
    return Finding(rule, "ask", f"{what}; {instead}")


def deny_finding(rule: str, what: str, instead: str) -> Finding:
    """A ``deny`` verdict: why the command is refused, then what to do instead."""
    return Finding(rule, "deny", f"{what}; {instead}")


Result: TypeAlias = "Finding | Nested | Cmd"
Handler: TypeAlias = Callable[[Cmd, Context], Iterator[Result]]
"""A rule for one command name; the families map names to their handlers in ``HANDLERS``."""
Voucher: TypeAlias = Callable[[Cmd, Context], "Finding | None"]
"""Vouches for one command name: None when the call is shown read-only or confined, else the
finding that says why it asks; the families map names to theirs in ``VOUCHERS``."""


# A board's serial port: USB serial adapters, on-chip UARTs, macOS call-out devices.
_SERIAL = re.compile(r"^/dev/(tty(USB|ACM|S|AMA|SAC|THS|mxc|GS)\d+|cu\.[\w.-]+|tty\.[\w.-]+|"
                     r"serial/by-(id|path)/\S+|rfcomm\d+)$")  # fmt: skip


def serial_port(word: str) -> bool:
    """``word`` names a serial port (a board's console), not a disk or a program."""
    return bool(_SERIAL.match(word))


def option_value(args: tuple[str, ...], options: tuple[str, ...]) -> str | None:
    """The value of the first of ``options`` in ``args``: the next word (``-o out``), or what
    follows ``=`` for a long option (``--output=out``); None when none is given."""
    for index, word in enumerate(args):
        for option in options:
            if word == option and index + 1 < len(args):
                return args[index + 1]
            if option.startswith("--") and word.startswith(option + "="):
                return word.split("=", 1)[1]
    return None


def option_values(args: Sequence[str], options: Sequence[str]) -> list[str]:
    """Every value given to one of ``options`` in ``args``: the next word (``-H url``) or what
    follows ``=`` (``--bootstrap-server=host``), the separate form first."""
    separate = [args[i + 1] for i, a in enumerate(args[:-1]) if a in options]
    return separate + [a.split("=", 1)[1] for a in args if "=" in a and a.split("=")[0] in options]


def parse_flags(args: Sequence[str]) -> tuple[set[str], list[tuple[int, str]]]:
    """Short flags (as letters) and long flags (``--x``), and the operands with their index."""
    flags: set[str] = set()
    operands: list[tuple[int, str]] = []
    only_operands = False
    for index, word in enumerate(args, start=1):
        if only_operands or not word.startswith("-") or word == "-":
            operands.append((index, word))
        elif word == "--":
            only_operands = True
        elif word.startswith("--"):
            flags.add(word.split("=", 1)[0])
        else:
            flags.update(word[1:])
    return flags, operands


def requote(words: Sequence[str]) -> str:
    """Words joined back into a command line bash splits into the same words (a bare ``~``
    left unquoted, since the walker already wrote the home as ``~``)."""
    return " ".join(
        w if re.fullmatch(r"[\w@%+=:,./~-]+", w) else "'" + w.replace("'", "'\\''") + "'"
        for w in words
    )


def fork_bomb(name: str) -> Finding:
    return Finding(
        "fork-bomb",
        "deny",
        f"{name!r} starts copies of itself without end (a fork bomb) and exhausts the "
        "machine; write a loop with a fixed bound instead",
    )


def unparsed(excerpt: str) -> Finding:
    return Finding(
        "unparsed",
        "ask",
        f"part of the command could not be parsed as bash (near {excerpt!r}), so it cannot "
        "be checked; fix the quoting or split it into simpler commands",
    )


# Folders of the system's own programs: ``/usr/bin/cat`` is cat, ``/tmp/x/cat`` is not.
SYSTEM_PROGRAMS = ("/usr/bin/", "/bin/", "/usr/local/bin/", "/usr/sbin/", "/sbin/",
                   "/usr/local/sbin/", "/opt/homebrew/bin/", "/snap/bin/",
                   "/usr/libexec/")  # fmt: skip


def is_script(cmd: Cmd) -> bool:
    """The program is named by a path that is not a system program folder: what runs is the
    file found there, whatever its name (``/tmp/x/cat`` is not ``cat``)."""
    word = cmd.argv[0] if cmd.argv else ""
    return "/" in word and not word.startswith(SYSTEM_PROGRAMS)


def no_parser() -> Finding:
    return Finding(
        "no-parser",
        "ask",
        "the bash parser is not installed, so no command can be checked; install it with "
        "pip install 'workset[safety]'",
    )


def too_many(limit: int) -> Finding:
    return Finding(
        "too-many-commands",
        "ask",
        f"the line holds more than {limit} commands and only the first {limit} were checked; "
        "put long scripts in a file inside the workspace and run that",
    )


def unknown_program(name: str, why: str = "") -> Finding:
    return Finding(
        "unknown-program",
        "ask",
        f"{name!r} is not a program whose effects are known{why}, so it cannot be shown to "
        "stay read-only or inside the workspace; a human must confirm it",
    )


def too_many_words(word: str) -> Finding:
    return Finding(
        "too-many-words",
        "ask",
        f"the brace list {word[:40]!r}… makes more words than are checked, so what it names "
        "cannot be known; list the paths you mean",
    )


def too_deep() -> Finding:
    return Finding(
        "too-deep",
        "ask",
        "commands nested this deep (bash -c inside eval inside …) cannot be checked; "
        "write the command directly",
    )
