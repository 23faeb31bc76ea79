"""Earning trust: which commands are shown to be read-only or to stay inside the workspace.

The other rule families find what is dangerous. This one is the other half of failing closed:
:func:`vouch` lets a command run without asking only when its program is one whose effects
are known and the words it was given keep those effects harmless:

- **read-only** programs (``ls``, ``cat``, ``grep``, ``git log``…) may read anything but
  secrets (judged in :mod:`~workset.safety.rules.secrets`), as long as no option makes them
  write (``sort -o``);
- **workspace writers** (``cp``, ``mkdir``, ``sed -i``, ``tar``…) may change only paths inside
  the workspace or the scratch directories ``/tmp`` and ``/var/tmp``, never a path that is
  only known at run time;
- **project tools** (``make``, ``pytest``, ``npm test``, ``cargo build``, a script inside the
  workspace…) run the project's own code in the workspace; what confines them is the OS
  sandbox of the execution tools, not this analysis, and the docs say so;
- shell builtins that only change the shell itself (``cd``, ``export``, ``set -e``).

Anything else, a program not listed here, a subcommand not listed for its program, or a name
written with look-alike letters, asks with a one-line reason.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from workset.safety import paths
from workset.safety.rules import editors, keytools, network, system
from workset.safety.rules import sql as sql_rules
from workset.safety.rules.base import (
    Cmd,
    Context,
    Finding,
    option_value,
    parse_flags,
    unknown_program,
)
from workset.safety.rules.known_lists import (
    BUILTINS,
    HELP,
    JUDGED_BY_FAMILY,
    OPTION_VALUES,
    PROJECT,
    READ_ONLY,
    SCRATCH,
    SHELL_SETUP,
    SUBCOMMANDS,
    WRITERS,
    WRITING_FLAGS,
)
from workset.safety.rules.writes import MKFS


def subcommand(cmd: Cmd) -> tuple[str, tuple[str, ...]]:
    """The subcommand of ``git``/``docker``/…, skipping global options, and what follows."""
    args = list(cmd.args())
    with_value = OPTION_VALUES.get(cmd.name, ())
    while args and args[0].startswith("-") and cmd.name in OPTION_VALUES:
        flag = args.pop(0)
        if flag in with_value and args:
            args.pop(0)
    return (args[0], tuple(args[1:])) if args else ("", ())


def inside(word: str, ctx: Context) -> bool:
    """The path ``word`` names is in the workspace or a scratch directory (or harmless)."""
    path = ctx.resolve(word)
    return (
        paths.in_workspace(path, ctx.workspace)
        or paths.is_scratch(path)
        or path.startswith(SCRATCH)
        or paths.is_harmless_device(path)
    )


def unpacks_inside(word: str, ctx: Context) -> bool:
    """An archive unpacked into ``word`` stays in the workspace (or a folder ``mktemp`` made
    in this line). Unlike one file copied there, an archive writes whatever names it holds,
    so a shared scratch directory (``/tmp``, where others' files and links lie) asks."""
    path = ctx.resolve(word)
    return paths.in_workspace(path, ctx.workspace) or paths.is_own_temp(path)


def vouch(cmd: Cmd, ctx: Context) -> Finding | None:
    """None when ``cmd`` is shown to be read-only or confined; else why it must be asked."""
    name = cmd.name
    if cmd.lookalike:
        return Finding(
            "lookalike-name",
            "ask",
            f"the command name {cmd.argv[0]!r} is written with look-alike letters, which only "
            "disguises what runs; write the command name in plain ASCII",
        )
    if cmd.args() and all(a in HELP for a in cmd.args()):
        return None  # only prints its help or version
    if name in JUDGED_BY_FAMILY or MKFS.match(name):
        return None  # their rules ask for everything but reads (rules.infra, rules.writes)
    if is_python(name):
        return _interpreter(cmd, ctx)
    if name in BUILTINS or name in READ_ONLY:
        return _read_only(cmd, ctx)
    if name in WRITERS:
        return _writer(cmd, ctx)
    if name in PROJECT or _is_script(cmd):
        return _project(cmd, ctx)
    check = _SPECIAL.get(name)
    if check is not None:
        return check(cmd, ctx)
    if system.simulated(cmd):
        return None
    allowed = SUBCOMMANDS.get(name)
    if allowed is not None:
        sub, _ = subcommand(cmd)
        if sub in allowed:
            return None
        what = f"{name} {sub}" if sub else name
        return unknown_program(what, " (its subcommand is not one known to be safe)")
    return unknown_program(cmd.argv[0])


def _read_only(cmd: Cmd, ctx: Context) -> Finding | None:
    flags, operands = parse_flags(cmd.args())
    writing = WRITING_FLAGS.get(cmd.name)
    if cmd.name == "sort" and (flags & {"o", "--output"}):
        target = option_value(cmd.args(), ("-o", "--output"))
        return None if target is None or inside(target, ctx) else outside(target)
    if cmd.name == "tar" and writing:
        return _tar(cmd, ctx, flags)
    if cmd.name in ("tee",):
        for _, word in operands:
            if cmd.is_dynamic(_) or not inside(word, ctx):
                return outside(word)
        return None
    if cmd.name in _ARCHIVERS:
        unpacking = cmd.name == "unzip" or (
            cmd.name in ("7z", "7za") and operands[:1] and operands[0][1] in ("x", "e")
        )
        confined = unpacks_inside if unpacking else inside
        for word in archive_writes(cmd):
            if not confined(word, ctx):
                return outside(word, f"{cmd.name} (unpacking)" if unpacking else "")
        return None
    if cmd.name in ("date", "hostname") and operands and cmd.name == "hostname":
        return unknown_program("hostname NAME", " (it renames the machine)")
    if cmd.name == "date" and ("s" in flags or "--set" in flags):
        return unknown_program("date --set", " (it sets the clock)")
    if cmd.name == "uniq" and len(operands) >= 2 and not inside(operands[1][1], ctx):
        return outside(operands[1][1])
    if cmd.name == "sqlite3":
        return _sqlite(cmd, ctx)
    if cmd.name == "ip" and set(cmd.args()) & _IP_CHANGES:
        return unknown_program(
            "ip " + " ".join(a for a in cmd.args() if not a.startswith("-"))[:40],
            " (it changes the network configuration)",
        )
    return None


_ARCHIVERS = frozenset({"zip", "7z", "7za", "gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz",
                        "zstd", "unzip", "unzstd"})  # fmt: skip


def archive_writes(cmd: Cmd) -> list[str]:
    """Where zip/unzip/7z/gzip… write: unzip's ``-d DIR``, 7z's ``-oDIR`` (the current
    directory without them), the archive zip or ``7z a`` creates, the files gzip and kin
    replace in place (none with ``-c``), zstd's ``-o FILE``."""
    args = cmd.args()
    flags, operands = parse_flags(args)
    words = [w for _, w in operands]
    if cmd.name == "unzip":
        if {"l", "t", "p", "Z", "z"} & parse_flags([a for a in args if a[:2] != "-d"])[0]:
            return []  # lists, tests or prints to stdout
        attached = [a[2:] for a in args if a.startswith("-d") and len(a) > 2]
        return [option_value(args, ("-d",)) or (attached[0] if attached else ".")]
    if cmd.name in ("7z", "7za"):
        out = [a[2:] for a in args if a.startswith("-o") and len(a) > 2]
        if words[:1] in (["x"], ["e"]):
            return out or ["."]
        return words[1:2] if words[:1] in (["a"], ["u"], ["d"], ["rn"]) else out
    if cmd.name == "zip":
        return words[:1]
    if "c" in flags or "--stdout" in flags or "l" in flags or "t" in flags:
        return []
    target = option_value(args, ("-o",)) if cmd.name in ("zstd", "unzstd") else None
    return [target] if target else words


_IP_CHANGES = frozenset({"add", "del", "delete", "change", "replace", "set", "flush", "exec",
                         "append", "prepend", "restore", "attach", "detach"})  # fmt: skip


def _tar(cmd: Cmd, ctx: Context, flags: set[str]) -> Finding | None:
    args = cmd.args()
    first = args[0] if args else ""
    letters = set(first) if first and not first.startswith("-") else set()
    letters |= flags
    extracting = bool(letters & {"x", "--extract", "--get"})
    confined = unpacks_inside if extracting else inside
    for option in ("-C", "--directory"):
        target = option_value(args, (option,))
        if target is not None and not confined(target, ctx):
            return outside(target, "tar -x" if extracting else "")
    into = any(option_value(args, (o,)) for o in ("-C", "--directory"))
    if extracting and not into and not unpacks_inside(".", ctx):
        return outside(ctx.resolve("."), "tar -x")  # cd /tmp && tar xf …
    if extracting and letters & {"P", "--absolute-names"}:
        return outside("/", "tar --absolute-names")  # members land where their names say
    if letters & {"c", "r", "u", "--create", "--append"}:
        archive = option_value(args, ("-f", "--file")) or _archive_in_bundle(args)
        if archive is not None and archive != "-" and not inside(archive, ctx):
            return outside(archive)
    return None


def _archive_in_bundle(args: tuple[str, ...]) -> str | None:
    for index, word in enumerate(args):
        if re.fullmatch(r"-?[a-zA-Z]*f", word) and index + 1 < len(args):
            return args[index + 1]
    return None


def sqlite_destroy(cmd: Cmd, ctx: Context) -> Iterator[Finding]:
    """sqlite3 DB 'DROP …' on a database outside the workspace (a browser's history)."""
    _, operands = parse_flags(cmd.args())
    sql = " ".join(w for _, w in operands[1:]).upper()
    database = operands[0][1] if operands else ""
    if database and not inside(database, ctx) and sql_rules.destroys(sql):
        yield Finding(
            "sql-destroy",
            "deny",
            f"the SQL empties or drops data in {database}, a database outside the workspace "
            "that belongs to the user or another program; work on a copy inside the workspace",
        )


def _sqlite(cmd: Cmd, ctx: Context) -> Finding | None:
    _, operands = parse_flags(cmd.args())
    sql = " ".join(w for _, w in operands[1:]).upper()
    if re.search(r"\b(DROP|DELETE|UPDATE|INSERT|ALTER|CREATE|REPLACE|ATTACH|VACUUM)\b", sql):
        return Finding(
            "sql-write",
            "ask",
            "the SQL changes the database; a human must confirm, or run a SELECT to look first",
        )
    fed = [t for op, t in cmd.redirects if op == "<"]
    database = operands[0][1] if operands else ""
    if (
        not sql
        and not cmd.piped
        and fed
        and all(paths.in_workspace(ctx.resolve(t), ctx.workspace) for t in fed)
        and database
        and not cmd.is_dynamic(operands[0][0])
        and paths.in_workspace(ctx.resolve(database), ctx.workspace)
        and ctx.resolve(database) in ctx.removed
    ):
        return None  # the project's SQL script builds a database the line just deleted
    if not sql and (cmd.piped or any(op in ("<<", "<") for op, _ in cmd.redirects)):
        return Finding(
            "sql-stdin",
            "ask",
            "sqlite3 runs SQL fed on its input, which cannot be checked here; pass one SELECT "
            "as an argument instead",
        )
    return None


def _writer(cmd: Cmd, ctx: Context) -> Finding | None:
    name = cmd.name
    flags, operands = parse_flags(cmd.args())
    if name in ("chmod", "chown", "chgrp") and operands:
        operands = operands[1:] if "--reference" not in flags else operands
    if name == "dd":
        target = next((a.split("=", 1)[1] for a in cmd.args() if a.startswith("of=")), None)
        operands = [(1, target)] if target is not None else []
    if name in ("cp", "install", "ln", "rsync") and len(operands) >= 2:
        if name == "rsync" and any(":" in w.split("/", 1)[0] for _, w in operands):
            return None  # a remote copy: the network rule asks
        operands = operands[-1:]
    if name == "mktemp":
        return None
    for index, word in operands:
        if cmd.is_dynamic(index):
            return Finding(
                "dynamic-path",
                "ask",
                f"{name} changes {word!r}, a path only known when the line runs; a human must "
                "confirm, or name the path literally",
            )
        if not inside(word, ctx):
            return outside(word, name)
        if name in ("chmod",) and (
            flags & {"s"} or re.search(r"[0-7]?[4-7][0-7]{3}|\+s|u\+s|g\+s", " ".join(cmd.args()))
        ):
            return unknown_program("chmod setuid", " (it lets a program run as its owner)")
    return None


def outside(word: str, name: str = "") -> Finding:
    via = f"{name} changes" if name else "writes"
    return Finding(
        "outside-workspace",
        "ask",
        f"{via} {word!r}, outside the workspace; a human must confirm, or work on a copy "
        "inside the workspace",
    )


def _is_script(cmd: Cmd) -> bool:
    word = cmd.argv[0] if cmd.argv else ""
    return "/" in word and not word.startswith(("/usr/bin/", "/bin/", "/usr/local/bin/"))


# ex commands a scripted edit may run (vim -es -c CMD): substitutions, deletions by pattern,
# re-indenting, and writing the file being edited. Anything else (``!``, ``\=``, ``:r``,
# ``:w OTHER``, ``:source``, ``:call``…) can run programs or touch other files.
_EX_SAFE = re.compile(
    r"(%|[0-9.$,]+)?\s*(s|substitute)/([^/\\]|\\.)*/([^/\\]|\\.)*/[gcieIn]*"
    r"|(%|[0-9.$,]+)?\s*(g|v|global)/([^/\\]|\\.)*/\s*(d|delete)"
    r"|w|wq|x|q|q!|wq!|x!|wa|wqa|xa|qa!|update|retab!?|%?\s*(le|left|ri|right|ce|center)"
    r"|set\s+(no)?(ff|fileformat|et|expandtab|eol|fixeol|fixendofline|bomb)(=\w+)?"
)
_VIM = frozenset({"vim", "vi", "nvim", "ex"})


def _ex_edit(cmd: Cmd, ctx: Context) -> Finding | None:
    """``vim -es -c '%s/\\s\\+$//e' -c wq FILE``: a scripted edit of workspace files is a
    workspace write when every command is a plain edit; anything else asks."""
    args = cmd.args()
    silent = cmd.name == "ex" or any(re.fullmatch(r"-[eEs]*[eE][eEs]*", a) for a in args)
    commands: list[str] = []
    files: list[tuple[int, str]] = []
    index = 0
    while index < len(args):
        word = args[index]
        if word in ("-c", "--cmd") and index + 1 < len(args):
            commands.append(args[index + 1])
            index += 1
        elif word.startswith("+") and len(word) > 1:
            commands.append(word[1:])
        elif word in ("-u", "-i") and index + 1 < len(args) and args[index + 1] == "NONE":
            index += 1
        elif word.startswith("-") and re.fullmatch(r"-[eEsnNX]+|--clean|--noplugin", word):
            pass
        elif word.startswith("-"):
            return unknown_program(cmd.name, f" (with option {word})")
        else:
            files.append((index + 1, word))
        index += 1
    if not (silent and commands and files and not cmd.piped and not cmd.redirects):
        return unknown_program(cmd.name, " (an editor run without a plain scripted edit)")
    for command in commands:
        typed = editors.typed_text(command)
        if typed is not None and "\\=" not in typed:
            continue  # only types text into the buffer (normal Go…, call append('$', …))
        if "\\=" in command or not _EX_SAFE.fullmatch(command.strip().lstrip(":")):
            return unknown_program(f"{cmd.name} -c {command[:30]!r}", " (an ex command)")
    for position, word in files:
        if cmd.is_dynamic(position) or not paths.in_workspace(ctx.resolve(word), ctx.workspace):
            return outside(word, cmd.name)
    return None


def _project(cmd: Cmd, ctx: Context) -> Finding | None:
    if _is_script(cmd) and not paths.in_workspace(ctx.resolve(cmd.argv[0]), ctx.workspace):
        return Finding(
            "script-outside",
            "ask",
            f"runs {cmd.argv[0]}, a program outside the workspace; a human must confirm, or "
            "copy it into the workspace and read it first",
        )
    if cmd.name == "tflint" and any(a.startswith("--init") for a in cmd.args()):
        return unknown_program("tflint --init", " (it downloads plugins, which are programs)")
    if (
        cmd.name in ("make", "gmake")
        and {"install", "uninstall"} & set(cmd.args())
        and not (system.simulated(cmd))
    ):
        return Finding(
            "install-outside",
            "ask",
            "make install copies files into system or user directories outside the "
            "workspace; a human must confirm",
        )
    for option in ("-C", "--directory", "-f", "--file", "--makefile"):
        target = option_value(cmd.args(), (option,))
        if cmd.name in ("make", "gmake") and target is not None and not inside(target, ctx):
            return outside(target, cmd.name)
    if cmd.name in _REWRITERS:
        _, operands = parse_flags(cmd.args())
        args = cmd.args()
        for index, word in operands:
            if index > 1 and args[index - 2] in _REWRITER_VALUES:
                continue  # --config ~/.eslintrc.js: a setting read, not a file rewritten
            if cmd.is_dynamic(index) or not inside(word, ctx):
                return outside(word, cmd.name)  # black ~/notes.py: formats a file out there
    return None


# Project tools that rewrite the files they are given (formatters, fixers).
_REWRITERS = frozenset({"black", "isort", "ruff", "prettier", "eslint", "rustfmt", "gofmt",
                        "shfmt", "clang-format", "biome", "stylelint", "autopep8", "yapf",
                        "markdownlint", "codespell", "sqlfluff"})  # fmt: skip
# Their options that take a value (a settings file, a pattern, a format): not files rewritten.
_REWRITER_VALUES = frozenset({"--config", "-c", "--settings-path", "--settings-file", "--sp",
                              "--config-path", "--rcfile", "--ignore-path", "--stdin-filename",
                              "--stdin-filepath", "--cache-location", "--output-file", "-o",
                              "--format", "-f", "--line-length", "-l", "--target-version",
                              "-t", "--exclude", "--extend-exclude", "--include", "--select",
                              "--ignore", "--extend-select", "--plugin", "--parser", "--style",
                              "--ext", "--rule", "--dialect", "--skip", "-S", "-L",
                              "--ignore-words-list", "--resolve-plugins-relative-to"})  # fmt: skip


def _interpreter(cmd: Cmd, ctx: Context) -> Finding | None:
    """python/node/perl…: inline code was analysed already; a script must be in the workspace."""
    args = cmd.args()
    for index, word in enumerate(args, start=1):
        if word in ("-c", "-e", "-E", "-r", "--eval", "-p", "--print", "-m", "-"):
            return None
        if not is_python(cmd.name) and re.fullmatch(r"-[a-zA-Z]*[eE]", word):
            return None  # perl -pe CODE: the code was analysed already
        if word.startswith("-"):
            continue
        if word in ("/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"):
            return None  # the program is the input, analysed already
        if cmd.is_dynamic(index):
            return Finding(
                "dynamic-script",
                "ask",
                f"{cmd.name} runs a script whose path is only known at run time; a human must "
                "confirm, or name the script literally",
            )
        if not paths.in_workspace(ctx.resolve(word), ctx.workspace):
            return Finding(
                "script-outside",
                "ask",
                f"{cmd.name} runs {word}, a script outside the workspace; a human must "
                "confirm, or copy it into the workspace and read it first",
            )
        return None
    return None


def _keytool(cmd: Cmd, ctx: Context) -> Finding | None:
    if cmd.name in ("gpg", "gpg2"):
        return keytools.gpg(cmd)
    outside_targets = [t for t in keytools.writes(cmd) if not inside(t, ctx)]
    return keytools.write_outside(cmd, outside_targets[0]) if outside_targets else None


def _ssh_add(cmd: Cmd, ctx: Context) -> Finding | None:
    if cmd.args() and set(cmd.args()) <= {"-l", "-L", "-E", "sha256", "md5"}:
        return None  # lists the keys the agent holds (public fingerprints)
    return unknown_program("ssh-add", " (it adds or removes keys of the SSH agent)")


def _port_check(cmd: Cmd, ctx: Context) -> Finding | None:
    """nc -z localhost PORT only tries to connect; anything else of nc is not vouched for."""
    scan = any(re.fullmatch(r"-[a-zA-Z]*z[a-zA-Z]*", a) for a in cmd.args())
    hosts = [a for a in cmd.args() if not a.startswith("-")][:1]
    if scan and hosts in (["localhost"], ["127.0.0.1"], ["::1"]) and not cmd.redirects:
        return None
    return unknown_program(cmd.argv[0])


def shell_setup(cmd: Cmd) -> bool:
    """``pyenv init -``, ``ssh-agent -s``, ``direnv hook bash``: prints code that sets up
    this shell, and nothing else (see ``SHELL_SETUP``)."""
    forms = SHELL_SETUP.get(cmd.name, ())
    args = tuple(a for a in cmd.args() if a not in ("--no-rehash",))
    return not any(cmd.dynamic) and any(args == form for form in forms)


def _shell_setup(cmd: Cmd, ctx: Context) -> Finding | None:
    if shell_setup(cmd):
        return None
    allowed = SUBCOMMANDS.get(cmd.name)
    if allowed is not None and subcommand(cmd)[0] in allowed:
        return None
    return unknown_program(cmd.argv[0])


def _fc(cmd: Cmd, ctx: Context) -> Finding | None:
    """``fc -l`` (``-ln``, ``-lr``) lists the shell's history; without ``-l`` it runs it again."""
    flags, _ = parse_flags(cmd.args())
    if "l" in flags and not flags & {"e", "s"}:
        return None
    return unknown_program("fc", " (without -l it runs earlier commands again)")


def _cpio(cmd: Cmd, ctx: Context) -> Finding | None:
    """``cpio -t`` lists, ``cpio -o`` writes the archive to its output, ``cpio -i
    --no-absolute-filenames`` unpacks under the current folder, ``cpio -p DIR`` copies there:
    confined when that folder is in the workspace (``-i`` without the option is denied)."""
    flags, operands = parse_flags(cmd.args())
    here = ctx.cwd is None or paths.in_workspace(ctx.cwd, ctx.workspace)
    if flags & {"t", "--list"} or (flags & {"o", "--create"} and not flags & {"F", "--file"}):
        return None
    if flags & {"i", "--extract"} and here and not flags & {"F", "--file", "E"}:
        return None
    if flags & {"p", "--pass-through"} and operands and inside(operands[-1][1], ctx):
        return None
    return unknown_program("cpio", " (it writes files where an archive or a list says)")


# rclone subcommands that copy, compare or list files; judged by where they touch.
_RCLONE_FILES = frozenset({"copy", "copyto", "sync", "move", "moveto", "check", "ls", "lsf",
                           "lsd", "lsl", "size", "tree", "md5sum", "sha1sum", "dedupe",
                           "delete", "purge", "mkdir", "rmdir", "cat"})  # fmt: skip


def _rclone(cmd: Cmd, ctx: Context) -> Finding | None:
    """``rclone copy ./src ./backup/src``: with no remote named, a local copy, confined when
    every path lies in the workspace (a remote is asked by the network rules)."""
    sub, _ = subcommand(cmd)
    if sub not in _RCLONE_FILES:
        return unknown_program(f"rclone {sub}".strip())
    for index, word in enumerate(cmd.args(), start=1):
        if word.startswith("-") or word == sub:
            continue
        if cmd.is_dynamic(index) or not inside(word, ctx):
            return outside(word, "rclone")
    return None


_DUMPERS = ("pg_dump", "pg_dumpall", "mysqldump", "mariadb-dump", "mongodump", "mongoexport")
_DUMP_OUTPUTS = ("-f", "--file", "-r", "--result-file", "-o", "--out", "--archive")
_DUMP_HOSTS = ("-h", "--host", "--uri")
_LOCAL_DB = re.compile(r"^(localhost|127\.0\.0\.1|::1|/.*|mongodb://(localhost|127\.0\.0\.1)\b.*)$")


def _dump(cmd: Cmd, ctx: Context) -> Finding | None:
    """pg_dump/mysqldump/mongodump only read the database; a local one dumped to the terminal
    or into the workspace is confined. A remote host copies another machine's data: asks."""
    host = option_value(cmd.args(), _DUMP_HOSTS)
    attached = [a[2:] for a in cmd.args() if a.startswith("-h") and len(a) > 2]
    host = host or (attached[0] if attached else None)
    if host is not None and not _LOCAL_DB.match(host):
        return unknown_program(f"{cmd.name} -h {host}", " (it copies a remote database)")
    target = option_value(cmd.args(), _DUMP_OUTPUTS)
    if target is not None and not inside(target, ctx):
        return outside(target, cmd.name)
    return None


# plutil's actions that rewrite the file they are given (in place, or into ``-o OUT``).
_PLUTIL_WRITES = frozenset({"-convert", "-insert", "-replace", "-remove", "-create"})


def _plutil(cmd: Cmd, ctx: Context) -> Finding | None:
    """plutil -lint/-p/-type read; -convert/-insert… rewrite the file (or ``-o OUT``)."""
    args = cmd.args()
    out = option_value(args, ("-o",))
    if out is not None and out != "-" and not inside(out, ctx):
        return outside(out, "plutil -o")
    if not _PLUTIL_WRITES & set(args) or out is not None:
        return None
    files = [(i, a) for i, a in enumerate(args, start=1) if a.startswith(("./", "/", "~"))
             or a.endswith((".plist", ".json", ".xml", ".strings"))]  # fmt: skip
    for index, word in files:
        if cmd.is_dynamic(index) or not inside(word, ctx):
            return outside(word, "plutil")
    return None if files else unknown_program("plutil", " (it rewrites a file it cannot name)")


# duckdb SQL that only reads: no writes, no COPY/EXPORT out, no extensions, no other database.
_DUCKDB_CHANGES = re.compile(
    r"\b(INSERT|UPDATE|DELETE|DROP|ALTER|CREATE|REPLACE|COPY|EXPORT|IMPORT|INSTALL|LOAD|ATTACH|"
    r"DETACH|SET|RESET|PRAGMA|CALL|VACUUM|CHECKPOINT|TRUNCATE|FORCE|USE)\b|"
    r"\b(getenv|read_text|read_blob|glob)\s*\(|://",
    re.IGNORECASE,
)


def _duckdb(cmd: Cmd, ctx: Context) -> Finding | None:
    """``duckdb -c "select … from read_csv('data/x.csv')"``: a query that only reads files of
    the workspace, on an in-memory database or one in the workspace, is a read."""
    args = cmd.args()
    sql = [args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-c", "-s")]
    values = {i + 1 for i, a in enumerate(args[:-1]) if a in ("-c", "-s", "-cmd", "-init")}
    operands = [(i, a) for i, a in enumerate(args) if not a.startswith("-") and i not in values]
    if len(operands) > 1:
        sql.append(operands[1][1])
    database = operands[0][1] if operands else None
    if not sql or cmd.piped or any(a in ("-cmd", "-init") for a in args):
        return unknown_program("duckdb", " (its SQL is not one the line shows)")
    text = " ".join(sql)
    literals = re.findall(r"'([^']*)'", text)
    if _DUCKDB_CHANGES.search(text) or "-unsigned" in args:
        return Finding(
            "sql-write",
            "ask",
            "the SQL changes a database, writes or fetches files, or loads an extension; a "
            "human must confirm, or run a SELECT on workspace files",
        )
    for word in [w for w in literals if "/" in w or "." in w] + ([database] if database else []):
        if not paths.in_workspace(ctx.resolve(word), ctx.workspace):
            return outside(word, "duckdb") if word == database else unknown_program(
                "duckdb", f" (its query reads {word!r}, outside the workspace)")  # fmt: skip
    return None


def _package_runner(cmd: Cmd, ctx: Context) -> Finding | None:
    """``npx tsc --noEmit``: the project's own tool, judged as the tool; the runner's rule
    (:func:`~workset.safety.rules.network.package_runner`) asks for a package it fetches."""
    tool, fetched = network.package_runner(cmd)
    if tool is None:
        return fetched
    return vouch(tool, ctx)


def _network_client(cmd: Cmd, ctx: Context) -> Finding | None:
    return None  # judged by the network rules: they ask unless the host is this machine


_SPECIAL: dict[str, Callable[[Cmd, Context], Finding | None]] = {
    **{
        n: _interpreter
        for n in (
            "python",
            "python3",
            "python2",
            "pypy",
            "pypy3",
            "node",
            "nodejs",
            "perl",
            "ruby",
            "php",
            "lua",
            "luajit",
            "Rscript",
            "julia",
            "bash",
            "sh",
            "zsh",
            "dash",
            "ksh",
            "fish",
            "tclsh",
            "groovy",
            "scala",
            "kotlin",
            "ts-node",
            "tsx",
            "busybox",
        )
    },
    **{
        n: _network_client
        for n in ("curl", "wget", "http", "https", "xh", "ping", "ping6", "dig", "nslookup", "host")
    },
    **{n: _package_runner for n in ("npx", "bunx")},
    **{n: _network_client for n in ("gh", "glab")},  # forge reads pass, the rest the network asks
    "fc": _fc,
    **{n: _shell_setup for n in SHELL_SETUP if n not in ("conda",)},
    "rclone": _rclone,
    "cpio": _cpio,
    **{n: _keytool for n in ("ssh-keygen", "openssl", "gpg", "gpg2")},
    "ssh-add": _ssh_add,
    "plutil": _plutil,
    "duckdb": _duckdb,
    **{n: _dump for n in _DUMPERS},
    **{n: _ex_edit for n in _VIM},
    "ed": editors.ed_vouch,
    "red": editors.ed_vouch,
    **{n: _port_check for n in ("nc", "ncat", "netcat")},
}


def is_python(name: str) -> bool:
    return re.match(r"^(python|pypy)[0-9.]*$", name) is not None
