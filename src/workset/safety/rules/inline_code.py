"""Inline code of interpreters other than Python: perl, ruby, node, php, lua and awk.

There is no parser here for each language, so the judgement is by capability: code that only
computes and prints is allowed; the strings it hands to a shell (``system("…")``, backticks,
``qx{…}``, ``execSync('…')``, awk's ``system()`` and ``"cmd" | getline``) are analysed as shell
commands; the paths it deletes or writes become the ``rm``/redirection they amount to; and
what cannot be resolved (a command or path built at run time, a socket, ``eval``) asks. A
socket together with a shell is a reverse shell and is denied.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety.rules.base import Cmd, Finding, Nested, Result, fork_bomb

_QUOTED = r"""(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|`([^`]*)`)"""
_EXEC = re.compile(
    r"(?:\bsystem|\bexec(?:Sync|File|FileSync)?|\bspawn(?:Sync)?|\bpopen|\bshell_exec|"
    r"\bpassthru|\bproc_open|\bos\.execute|\bio\.popen|\bIO\.popen|\bOpen3\.\w+|%x|\bqx|"
    r"\bKernel\.(?:system|exec))\s*[({\[]?\s*" + _QUOTED
)
_BACKTICK = re.compile(r"`([^`]+)`")
_EXEC_DYNAMIC = re.compile(
    r"\b(system|exec(Sync)?|spawn(Sync)?|popen|shell_exec|passthru|proc_open|os\.execute|"
    r"io\.popen|child_process|Open3|qx|eval|Function\s*\(|require\s*\(\s*['\"]child_process)\b"
)
_DELETE = re.compile(
    r"(?:\bunlink(?:Sync)?|\brmtree|\bremove_tree|\brm(?:_rf|_r|Sync)?|\brmdir(?:Sync)?|"
    r"\bFile\.delete|\bFileUtils\.rm\w*|\bos\.remove|\bfs\.rm\w*|\bDir\.rmdir)\s*[(]?\s*" + _QUOTED
)
_DELETE_ANY = re.compile(
    r"\b(unlink(Sync)?|rmtree|remove_tree|rm_rf|rmSync|rmdirSync|File\.delete|FileUtils\.rm|"
    r"os\.remove|fs\.rm)\b"
)
_WRITE = re.compile(
    r"(?:\bopen\s*\(?\s*\w*\s*,?\s*['\"]\+?(?:>>?|w|a)['\"]?\s*,?\s*|\bwriteFileSync\s*\(\s*|"
    r"\bappendFileSync\s*\(\s*|\bFile\.write\s*\(\s*|\bfile_put_contents\s*\(\s*|"
    r"\bprint\s*>>?\s*|\bprintf\s*\(?[^>|]*\)?\s*>>?\s*)" + _QUOTED
)
_WRITE_ANY = re.compile(
    r"\b(writeFile(Sync)?|appendFile(Sync)?|File\.write|file_put_contents|fwrite|"
    r"createWriteStream)\b|open\s*\(?[^)]*['\"][+]?[>wa]"
)
_AWK_PIPE = re.compile(r"""("[^"]*"|'[^']*')\s*\|\s*getline|\|\s*("[^"]*"|'[^']*')""")
_SOCKET = re.compile(
    r"\b(socket|Socket|fsockopen|TCPSocket|UDPSocket|net\.connect|net\.Socket|IO::Socket|"
    r"LWP|HTTP::Tiny|Net::HTTP|curl_exec|https?\.request|fetch\s*\(|XMLHttpRequest|"
    r"/inet/tcp|/dev/tcp)"
)
_SHELL = re.compile(r"(/bin/(ba|z|da)?sh|\bsh\s+-i|\bbash\b|cmd\.exe|\bpty\b|dup2|<&3|>&3)")
_FORK = re.compile(r"fork\s*(\(\s*\))?\s*(while|;|\))|while.{0,40}fork", re.DOTALL)


def effects(code: str, program: str) -> Iterator[Result | Cmd]:
    """What inline ``code`` of ``program`` (perl, node, awk…) does, as far as can be told."""
    if _FORK.search(code):
        yield fork_bomb("fork")
    if _SOCKET.search(code) and (_SHELL.search(code) or _EXEC_DYNAMIC.search(code)):
        yield Finding(
            "reverse-shell",
            "deny",
            f"{program} code that opens a network connection and runs a shell gives a remote "
            "machine a shell here (a reverse shell); never run it",
        )
        return
    if _SOCKET.search(code):
        yield Finding(
            "network",
            "ask",
            f"{program} code that talks to the network; confirm the host, or fetch with a "
            "tool that saves into the workspace",
        )
    commands = [_text(m) for m in _EXEC.finditer(code)]
    if program in ("awk", "gawk", "mawk", "nawk"):
        commands += [m.group(1 if m.group(1) else 2)[1:-1] for m in _AWK_PIPE.finditer(code)]
    elif program in ("perl", "ruby", "php"):
        commands += [m.group(1) for m in _BACKTICK.finditer(code)]
    for command in commands:
        yield Nested(command)
    if not commands and _EXEC_DYNAMIC.search(code):
        yield Finding(
            "dynamic-code",
            "ask",
            f"{program} code runs a command or code built at run time, so it cannot be "
            "checked; write the command literally",
        )
    deleted = [_text(m) for m in _DELETE.finditer(code)]
    for path in deleted:
        yield Cmd(argv=("rm", "-r", path), dynamic=(False, False, False))
    if not deleted and _DELETE_ANY.search(code):
        yield _unresolved(program, "deletes files")
    written = [_text(m) for m in _WRITE.finditer(code)]
    for path in written:
        yield Cmd(argv=(program,), redirects=((">", path),), dynamic=(False,))
    if not written and _WRITE_ANY.search(code):
        yield _unresolved(program, "writes files")


def _text(match: re.Match[str]) -> str:
    return next(g for g in match.groups()[-3:] if g is not None)


def _unresolved(program: str, what: str) -> Finding:
    return Finding(
        "dynamic-path",
        "ask",
        f"{program} code {what} at paths only known at run time; a human must confirm, or "
        "write the paths literally",
    )
