"""Static evaluation: what a pipeline of ``echo``/``printf``/``base64 -d``/``rev``/``xxd -r``
prints, when every word is known before the line runs.

The walker uses it to see through ``$(echo rm)`` and ``echo … | base64 -d | sh``.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Sequence

from workset.safety import paths
from workset.safety.rules.base import Cmd


def static_output(cmds: Sequence[Cmd]) -> str | None:
    """What a pipeline of ``echo``/``printf``/``base64 -d``/``rev``/``xxd -r`` prints, if static."""
    text: str | None = None
    for cmd in cmds:
        if any(cmd.dynamic) or any(op != "<<" for op, _ in cmd.redirects):
            return None
        args = list(cmd.args())
        fed = [t for op, t in cmd.redirects if op == "<<"]
        if text is None and fed and not cmd.stdin_dynamic and cmd.name in FILTERS:
            text = fed[0]  # base64 -d <<< '…', rev <<< '…': the filter reads the here-string
        if cmd.name == "echo":
            escapes = False
            while args and args[0] in ("-n", "-e", "-E", "-ne", "-en"):
                escapes = escapes or "e" in args.pop(0)
            text = " ".join(args) + "\n"
            text = _escapes(text) if escapes else text
        elif cmd.name == "printf" and args[args[:1] == ["--"] :]:
            args = args[args[:1] == ["--"] :]  # printf -- '- item': the format starts with -
            fmt = _escapes(args[0])
            if "%" not in fmt:
                text = fmt
            elif set(re.findall(r"%.", fmt)) <= {"%s", "%b", "%%"} and args[1:]:
                fmt = fmt.replace("%b", "%s")  # %b: the value's escapes decoded, as below
                values = [_escapes(v) if "%b" in args[0] else v for v in args[1:]]
                count = fmt.replace("%%", "").count("%s")
                if not count:
                    return None  # a format without conversions printed once per … (rare)
                while len(values) % count:
                    values.append("")
                text = "".join(
                    fmt.replace("%%", "\0") % tuple(values[i : i + count])
                    for i in range(0, len(values), count)
                ).replace("\0", "%")
            else:
                return None
        elif text is not None and cmd.name == "base64" and ({"-d", "--decode", "-D"} & set(args)):
            text = _b64(text)
        elif text is not None and cmd.name == "tr" and len(args) == 2:
            text = _tr(text, args[0], args[1])
        elif text is not None and cmd.name == "rev":
            text = "\n".join(line[::-1] for line in text.rstrip("\n").split("\n")) + "\n"
        elif text is not None and cmd.name == "xxd" and "-r" in args:
            try:
                text = bytes.fromhex(text.strip()).decode()
            except ValueError:
                return None
        elif text is not None and cmd.name == "cat" and not args:
            continue
        elif cmd.name in ("which", "command", "type") and text is None and _located(args):
            text = f"/usr/bin/{_located(args)}\n"  # where the program lives; its name is known
        elif cmd.name in ("dirname", "basename") and text is None and _path_words(args):
            text = _path_name(cmd.name, args) + "\n"  # dirname /home/me/proj: /home/me
        elif cmd.name == "mktemp" and text is None and _fresh_name(args) is not None:
            text = f"{_fresh_name(args)}\n"  # the fresh name it makes (where its template says)
        else:
            return None
        if text is None:
            return None
    return text


def _path_words(args: Sequence[str]) -> bool:
    return 1 <= len(args) <= 2 and not any(a.startswith("-") for a in args)


def _path_name(name: str, args: Sequence[str]) -> str:
    """What ``dirname PATH`` or ``basename PATH [SUFFIX]`` prints."""
    path = args[0].rstrip("/") or "/"
    if name == "dirname":
        return (path.rsplit("/", 1)[0] or "/") if "/" in path else "."
    base = path.rsplit("/", 1)[-1] or "/"
    suffix = args[1] if len(args) > 1 else ""
    return base[: -len(suffix)] if suffix and base.endswith(suffix) and base != suffix else base


def _fresh_name(args: Sequence[str]) -> str | None:
    """Where ``mktemp`` makes its fresh name: ``/tmp/tmp.XXXXXXXXXX`` by default, a template
    with a directory where it says (``./tmp.XXXX``), a bare template in the current directory
    unless ``-t``/``--tmpdir``/``-p DIR`` put it under a temporary directory."""
    rest = list(args)
    under: str | None = None
    templates: list[str] = []
    while rest:
        word = rest.pop(0)
        if word in ("-p", "--tmpdir") and rest and word == "-p":
            under = rest.pop(0)
        elif word.startswith("--tmpdir="):
            under = word.split("=", 1)[1]
        elif word in ("-t", "--tmpdir"):
            under = under or "/tmp"
        elif word.startswith("--suffix="):
            continue
        elif word.startswith("-"):
            if not re.fullmatch(r"-[dqu]+", word) and word not in (
                "--directory",
                "--quiet",
                "--dry-run",
            ):
                return None
        else:
            templates.append(word)
    if len(templates) > 1 or (templates and "XXX" not in templates[0]):
        return None
    if not templates:
        return (under.rstrip("/") if under else "/tmp") + f"/tmp.{paths.FRESH}"
    template = re.sub(r"XXX+", paths.FRESH, templates[0])
    if under is not None and not template.startswith("/"):
        return under.rstrip("/") + "/" + template
    return template


FILTERS = frozenset({"base64", "rev", "xxd", "tr", "cat"})


def _tr(text: str, first: str, second: str) -> str | None:
    """``tr 'A-Za-z' 'N-ZA-Mn-za-m'`` (rot13 and kin): plain sets and ranges only."""

    def expand(spec: str) -> str | None:
        if "[" in spec or "\\" in spec:
            return None
        return re.sub(r"(.)-(.)", lambda m: "".join(chr(c) for c in range(ord(m.group(1)),
                      ord(m.group(2)) + 1)), spec)  # fmt: skip

    source, target = expand(first), expand(second)
    if not source or not target or first.startswith("-"):
        return None
    target = (target + target[-1] * len(source))[: len(source)]
    return text.translate(str.maketrans(source, target))


_ESCAPE = re.compile(r"\\(x[0-9a-fA-F]{1,2}|0?[0-7]{1,3}|u[0-9a-fA-F]{4}|[abefnrtv\\])")
_NAMED = {"a": "\a", "b": "\b", "e": "\x1b", "f": "\f", "n": "\n", "r": "\r", "t": "\t",
          "v": "\v", "\\": "\\"}  # fmt: skip


def _escapes(text: str) -> str:
    """printf's format (and ``echo -e``): ``\\x72\\x6d`` and ``\\162\\155`` are ``rm``."""

    def one(match: re.Match[str]) -> str:
        code = match.group(1)
        if code[0] in "xu":
            return chr(int(code[1:], 16))
        if code[0].isdigit():
            return chr(int(code, 8) & 0xFF)
        return _NAMED[code]

    return _ESCAPE.sub(one, text)


def _located(args: list[str]) -> str | None:
    """The program ``which X``, ``command -v X`` or ``type -P X`` looks up."""
    names = [a for a in args if not a.startswith("-")]
    flags = [a for a in args if a.startswith("-")]
    if len(names) != 1 or "/" in names[0]:
        return None
    return names[0] if flags in ([], ["-v"], ["-P"], ["-p"]) else None


def _b64(text: str) -> str | None:
    try:
        return base64.b64decode(text.strip(), validate=True).decode()
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None


# Commands whose output is one short word that names no place: a date in a format without
# "/", a commit, tag or branch name (git refuses ".." and a leading "/" in those), the user's
# or machine's name, a count. Inside a path (``dist/app-$(date +%F)``) it stays where the
# literal part says; the word stands for that output.
_INERT_GIT = (("rev-parse", "HEAD"), ("rev-parse", "--short", "HEAD"),
              ("rev-parse", "--abbrev-ref", "HEAD"), ("branch", "--show-current"),
              ("describe", "--tags"), ("describe", "--tags", "--always"), ("describe",),
              ("describe", "--always"), ("describe", "--tags", "--abbrev=0"))  # fmt: skip


def inert_output(cmds: Sequence[Cmd]) -> str | None:
    """A stand-in for what ``$(date +%F)``, ``$(git rev-parse --short HEAD)`` or ``$(whoami)``
    print, or None when the output could name a place."""
    if len(cmds) != 1 or cmds[0].redirects or any(cmds[0].dynamic) or cmds[0].upstream:
        return None
    cmd = cmds[0]
    args = cmd.args()
    if cmd.name == "date" and all(
        (a.startswith("+") and "/" not in a and not re.search(r"%[Dxc]", a)) or a in ("-u", "--utc")
        for a in args
    ):
        return "DATE"
    if cmd.name == "git" and args in _INERT_GIT:
        return "GITREF"
    if (cmd.name in ("whoami", "hostname", "nproc", "arch") and not args) or (
        cmd.name == "uname" and all(re.fullmatch(r"-[smrnpio]+", a) for a in args)
    ):
        return "NAME"
    return None
