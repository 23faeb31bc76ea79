"""Rules for scripted editors: ``ed`` scripts and the text vim's ``normal`` mode types.

An ``ed`` script fed on stdin (a here-string, a here-document, ``printf … | ed -s FILE``) is
read line by line: text added with ``a``/``i``/``c`` up to the lone ``.``, plain commands
(``w``, ``q``, ``s/…/…/``, ``d``, ``g/re/d``, printing), and ``!cmd`` or ``w !cmd``, which run a
shell. :func:`ed_vouch` lets a script of plain commands edit workspace files without asking;
:func:`editor_code` hands what the editor runs (``!cmd``) to the walker, and the text it adds
to a file that runs later (``~/.profile``, a hook, a unit) too, so that planting a download
piped into a shell through ``ed`` or ``vim -c 'normal Go…'`` is judged like ``echo … >>``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from workset.safety import paths
from workset.safety.rules.base import (
    Cmd,
    Context,
    Finding,
    Handler,
    Nested,
    Result,
    unknown_program,
)
from workset.safety.rules.persistence import is_persistence_place, planted
from workset.safety.rules.static import static_output
from workset.safety.rules.writes import write_target

_ADDRESS = r"(?:[0-9]+|[.$]|'[a-z]|/(?:[^/\\]|\\.)*/|\?(?:[^?\\]|\\.)*\?|[-+^][0-9]*)*"
_RANGE = rf"(?:{_ADDRESS}(?:[,;]{_ADDRESS})?|[,;%])"
_INSERT = re.compile(rf"^\s*{_RANGE}\s*[aic]\s*$")
_PLAIN = re.compile(
    rf"^\s*{_RANGE}\s*(?:[dpnlhHPjkmtuyx=]|[mt]\s*{_ADDRESS}|k[a-z]|"
    r"s(.)(?:(?!\1)[^\\]|\\.)*\1(?:(?!\1)[^\\]|\\.)*\1[gpnl0-9]*|"
    r"[gvGV]/(?:[^/\\]|\\.)*/\s*[dpnl]?|[wW]q?|q|Q|wq|)\s*$"
)


@dataclass
class EdScript:
    """What an ed script does: the text it adds, the shell commands it runs, and the
    commands that are neither plain edits nor understood (``r file``, ``e file``…)."""

    added: list[str] = field(default_factory=list)
    shell: list[str] = field(default_factory=list)
    writes_to: list[str] = field(default_factory=list)  # ``w OTHER``: another file
    writes: bool = False
    unknown: list[str] = field(default_factory=list)


def _script(cmd: Cmd) -> str | None:
    """The script fed to ``ed`` on stdin, when the line shows it."""
    fed = [text for op, text in cmd.redirects if op == "<<"]
    if fed:
        return "\n".join(fed) if not cmd.stdin_dynamic else None
    if cmd.upstream:
        return static_output(cmd.upstream)
    return None


def read_ed(text: str) -> EdScript:
    script = EdScript()
    adding = False
    for line in text.splitlines():
        if adding:
            if line == ".":
                adding = False
            else:
                script.added.append(line)
            continue
        stripped = line.strip()
        if not stripped:
            continue
        if _INSERT.match(stripped):
            adding = True
        elif stripped.startswith("!"):
            script.shell.append(stripped[1:])
        elif m := re.fullmatch(rf"{_RANGE}\s*[wW]q?\s*!(.*)", stripped):
            script.shell.append(m.group(1))
        elif m := re.fullmatch(rf"{_RANGE}\s*[wW]q?\s+(\S.*)", stripped):
            script.writes = True
            script.writes_to.append(m.group(1).strip())
        elif _PLAIN.match(stripped):
            script.writes = script.writes or bool(re.search(r"[wW]q?\s*$", stripped))
        else:
            script.unknown.append(stripped)
    return script


def _files(cmd: Cmd) -> list[tuple[int, str]]:
    return [(i, a) for i, a in enumerate(cmd.args(), start=1) if not a.startswith("-")]


def ed_vouch(cmd: Cmd, ctx: Context) -> Finding | None:
    """A script of plain edits (``1i``, ``s/…/…/``, ``w``) on a workspace file is a workspace
    write; anything else asks."""
    text = _script(cmd)
    files = _files(cmd)
    if text is None or len(files) != 1:
        return unknown_program(cmd.name, " (an editor run without a script the line shows)")
    script = read_ed(text)
    if script.unknown:
        return unknown_program(f"{cmd.name} {script.unknown[0][:30]!r}", " (an ed command)")
    for index, word in files + [(0, w) for w in script.writes_to]:
        if cmd.is_dynamic(index) or not paths.in_workspace(ctx.resolve(word), ctx.workspace):
            return Finding(
                "outside-workspace",
                "ask",
                f"{cmd.name} edits {word!r}, outside the workspace; a human must confirm, or "
                "work on a copy inside the workspace",
            )
    return None


def _runs_later(word: str, ctx: Context) -> bool:
    place = ctx.resolve(word)
    return is_persistence_place(place) or paths.is_startup_file(place)


def _ed(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    text = _script(cmd)
    if text is None:
        return
    script = read_ed(text)
    for command in script.shell:
        yield Nested(command)
    if script.writes or script.added:
        for index, word in _files(cmd):
            if not cmd.is_dynamic(index):
                yield from write_target(word, cmd.name, ctx)
    if script.added and any(_runs_later(w, ctx) for _, w in _files(cmd)):
        yield from _planted("\n".join(script.added))


# vim's normal-mode commands that start typing text: o/O (a new line), a/A/i/I, and the
# count or motion before them (``Go``: the end of the file, then a new line).
_NORMAL = re.compile(r"^\s*norm(?:al)?!?\s+(.*)$", re.DOTALL)
_TYPING = re.compile(r"^(?:[0-9]*[Gg]{1,2}|[0-9]*[jk$0^]|)*[oOaAiI](.*)$", re.DOTALL)
_APPEND = re.compile(r"""^\s*(?:call\s+)?append\s*\(\s*[^,]+,\s*(['"])(.*)\1\s*\)\s*$""")


def _vim(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    commands = [args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-c", "--cmd")]
    commands += [a[1:] for a in args if a.startswith("+") and len(a) > 1]
    files = [a for a in args if not a.startswith(("-", "+")) and a not in commands]
    if not any(_runs_later(w, ctx) for w in files):
        return
    if any(re.fullmatch(r"\s*:?\s*(w|wq|x|wq!|x!|update)\s*", c) for c in commands):
        for word in files:
            yield from write_target(word, cmd.name, ctx)
    typed = [t for t in (typed_text(c) for c in commands) if t is not None]
    if typed:
        yield from _planted("\n".join(typed))


def typed_text(command: str) -> str | None:
    """The text an ex command types into the buffer (``normal Go…``, ``call append('$',
    '…')``), when it only types text; else None."""
    command = command.strip().lstrip(":")
    normal = _NORMAL.match(command)
    typing = _TYPING.match(normal.group(1)) if normal else None
    if typing:
        text = typing.group(1)
        return None if any(ord(c) < 0x20 for c in text) else text
    append = _APPEND.match(command)
    return append.group(2) if append else None


def _planted(text: str) -> Iterator[Result]:
    payload = planted(text)
    if payload is not None:
        yield payload
    yield Nested(text, later=True)


HANDLERS: dict[str, Handler] = {
    "ed": _ed,
    "red": _ed,
    **{n: _vim for n in ("vim", "vi", "nvim", "ex")},
}
