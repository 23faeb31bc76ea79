"""Inline code of interpreters other than Python: perl, ruby, node, php, lua and awk.

There is no parser here for each language, so the judgement is by capability: code that only
computes and prints is allowed; the strings it hands to a shell (``system("…")``, backticks,
``qx{…}``, ``execSync('…')``, awk's ``system()`` and ``"cmd" | getline``) are analysed as shell
commands; the paths it deletes or writes become the ``rm``/redirection they amount to; and
what cannot be resolved (a command or path built at run time, a socket, ``eval``) asks. A
socket together with a shell is a reverse shell and is denied.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterator

from workset.safety.rules.base import Cmd, Finding, Nested, Result, fork_bomb
from workset.safety.rules.inline_args import (
    HOME,
    blank_strings,
    call_words,
    shell_body,
    shell_text,
)
from workset.safety.rules.known_lists import READ_ONLY
from workset.safety.rules.network import download_exec
from workset.safety.rules.secrets import is_secret, plain_secret, secret_read, secret_variables

_QUOTED = r"""(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|`([^`]*)`)"""
# Calls that hand a command to a shell, found in the code with its strings blanked.
_EXEC = re.compile(
    r"(?<![\w$])(system|exec(?:Sync|File|FileSync)?|spawn(?:Sync)?|popen|shell_exec|passthru|"
    r"proc_open|os\.execute|io\.popen|IO\.popen|Open3\.\w+|Kernel\.(?:system|exec))(?![\w$])"
)
# Of those, the ones whose further arguments are the command's own words (a list form).
_LIST_FORM = frozenset({"system", "exec", "execFile", "execFileSync", "spawn", "spawnSync",
                        "Kernel.system", "Kernel.exec"})  # fmt: skip
# Rake's ``sh "…"`` (and FileUtils' in a Rakefile): a command handed to the shell.
_RAKE_SH = re.compile(r"(?<![\w$.:@])(sh)(?=\s*\(?\s*[\"'%])")
_QX = re.compile(r"\bqx\s*\{([^}]*)\}|\bqx\s*\(([^)]*)\)|%x\{([^}]*)\}|%x\(([^)]*)\)")
_CHILD_PROCESS = re.compile(r"require\s*\(\s*['\"](node:)?child_process|from\s+['\"]child_process")
_BACKTICK = re.compile(r"`([^`]+)`")
_EXEC_DYNAMIC = re.compile(
    r"\b(system|exec(Sync)?|spawn(Sync)?|popen|shell_exec|passthru|proc_open|os\.execute|"
    r"io\.popen|child_process|Open3|qx|eval|Function\s*\(|require\s*\(\s*['\"]child_process|"
    r"Deno\.(run|Command)|Bun\.spawn(Sync)?|process\.binding|process\.dlopen|vm\.run\w*|"
    r"call_user_func(_array)?|create_function|instance_eval|class_eval|"
    r"(public_)?send\s*\(?\s*:(system|exec|spawn|`))"
)
# A string that is only the name of a function that runs commands or deletes files: a callback
# (php ``array_map("unlink", …)``, ``call_user_func("system", …)``, ``cp["execSync"](…)``).
_CALLBACK = re.compile(
    r"""(["'])(system|exec|execSync|spawn|spawnSync|shell_exec|passthru|popen|proc_open|"""
    r"""unlink|unlinkSync|rmdir|rmSync|rmtree|remove_tree|eval)\1"""
)
# Ways code calls a function named by a string: callback takers, variable functions
# (``$f(…)``), subscripts (``cp["execSync"]``), ``send``/``method``, perl's ``&{"…"}``.
_CALLS_BY_NAME = re.compile(
    r"\b(call_user_func(_array)?|array_(map|filter|walk(_recursive)?|reduce)|u[ak]?sort|"
    r"register_(shutdown|tick)_function|iterator_apply|forward_static_call(_array)?|"
    r"Reflection\w+|__send__|public_send|send|method|define_method|const_get|"
    r"instance_variable_get|apply|call|bind|Reflect|globalThis|global|window|can)\b|"
    r"\$\w+\s*\(|\$\{|\[\s*['\"\w]|&\s*[{$]|\*\{|\)\s*\("
)
_SHELL_TARGET = re.compile(r"\s*(/(usr/)?bin/)?(ba|z|da|k|c|tc)?sh(\s+-[si]+)?\s*$")
_AWK_PRINT = re.compile(r"\bprintf?\b\s*\(?")
_BUN_SHELL = re.compile(r"\$`([^`]*)`")
_DELETE = re.compile(
    r"(?<![\w$])(unlink(?:Sync)?|rmtree|remove_tree|rm(?:_rf|_r|Sync)?|rmdir(?:Sync)?|"
    r"File\.delete|FileUtils\.rm\w*|os\.remove|fs\.rm\w*|Dir\.rmdir|Deno\.remove(?:Sync)?)"
    r"(?=\s*[('\"])"
)
_DELETE_ANY = re.compile(
    r"\b(unlink(Sync)?|rmtree|remove_tree|rm_rf|rmSync|rmdirSync|File\.delete|FileUtils\.rm|"
    r"os\.remove|fs\.rm)\b"
)
_WRITE = re.compile(
    r"(?:\bopen\s*\(?\s*\w*\s*,?\s*['\"]\+?(?:>>?|w|a)['\"]?\s*,?\s*|\bwriteFileSync\s*\(\s*|"
    r"\bappendFileSync\s*\(\s*|\bFile\.write\s*\(\s*|\bfile_put_contents\s*\(\s*|"
    r"\bDeno\.write(?:Text)?File(?:Sync)?\s*\(\s*|\bBun\.write\s*\(\s*|"
    r"\bprint\s*>>?\s*|\bprintf\s*\(?[^>|]*\)?\s*>>?\s*)" + _QUOTED
)
_WRITE_ANY = re.compile(
    r"\b(writeFile(Sync)?|appendFile(Sync)?|File\.write|file_put_contents|fwrite|"
    r"createWriteStream|Deno\.write\w*|Bun\.write)\b|open\s*\(?[^)]*['\"][+]?[>wa]"
)
_AWK_PIPE = re.compile(r"""("[^"]*"|'[^']*')\s*\)*\s*\|\s*getline|\|\s*("[^"]*"|'[^']*')""")
_SOCKET = re.compile(
    r"\b(socket|Socket|fsockopen|TCPSocket|UDPSocket|net\.connect|net\.Socket|IO::Socket|"
    r"LWP|HTTP::Tiny|Net::HTTP|curl_exec|https?\.request|fetch\s*\(|XMLHttpRequest)|"
    r"/inet[46]?/(tcp|udp)/|/dev/(tcp|udp)/"
)
_URL = re.compile(r"\b(https?|ftp)://[^\s'\"`)]+")
_LOCAL_URL = re.compile(r"^(https?|ftp)://(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?(/|$)")
_RAW_SOCKETS = re.compile(
    r"\b(socket|Socket|fsockopen|TCPSocket|UDPSocket|net\.connect|IO::Socket)|"
    r"/inet[46]?/(tcp|udp)/|/dev/(tcp|udp)/"
)
# Modules that open connections (node's http, https, net…; ruby's open-uri and net/http).
_NETWORK_MODULE = re.compile(
    r"""require\s*\(?\s*['"](node:)?(net|dgram|tls|https?|http2|open-uri|net/https?|socket)['"]|"""
    r"""\bfrom\s+['"](node:)?(net|dgram|tls|https?|http2)['"]|\bURI\.open\b|\bfile_get_contents\s*\(\s*['"]https?:"""
)
# The environment read by inline code: one variable by name, or the whole of it.
_ENV_NAME = re.compile(
    r"""process\.env\.(\w+)|process\.env\[\s*['"](\w+)|getenv\s*\(\s*['"](\w+)|"""
    r"""\bENV(?:\.fetch\(|\[)\s*['"](\w+)|\$ENV\{\s*['"]?(\w+)|\$_ENV\[\s*['"](\w+)"""
)
# Calls that print or keep what they are given (console.log, a file written, puts, print).
_SHOWS_ENV = re.compile(
    r"console\.(log|dir|error|info)|write(File)?(Sync)?\s*\(|\bputs\b|\bp\b|\bpp\b|\bprint|"
    r"\bsay\b|\becho\b|var_dump|File\.write|IO\.write|Deno\.writeTextFile"
)
_WHOLE_ENV = re.compile(
    r"process\.env(?!\s*[.\[])|\bENV\.(to_h|to_a|each|map|inspect)\b|%ENV\b|\$_ENV(?!\s*\[)|"
    r"\bgetenv\s*\(\s*\)|Deno\.env\.toObject"
)
# gawk's two-way pipe: ``NAME |& getline`` (or ``print … |& NAME``) starts NAME as a command
# unless NAME holds a /inet socket path.
_AWK_COPROCESS = re.compile(r"([A-Za-z_]\w*)\s*\|&|\|&\s*([A-Za-z_]\w*)")
_AWK_SOCKET_NAME = re.compile(r"([A-Za-z_]\w*)\s*=\s*\"/inet")
_EVALS = re.compile(r"(?<![.\w])(eval|Function|instance_eval|create_function)\s*[\s(]")
_SHELL = re.compile(r"(/bin/(ba|z|da)?sh|\bsh\s+-i|\bbash\b|cmd\.exe|\bpty\b|dup2|<&3|>&3)")
_TCL_EXEC = re.compile(r"(^|[;\[\n{]|\bthen\b)\s*(?:exec|spawn)\s+([^;\]\n}]+)")
_FORK = re.compile(r"fork\s*(\(\s*\))?\s*(while|;|\))|while.{0,40}fork", re.DOTALL)


_S = r"""(['"])([^'"\\]*)\{q}"""  # a plain string literal; {q} names its quote's group
# Calls that decode a literal (hex, base64) or glob it: what they give is as literal as it.
_DECODERS: tuple[tuple[re.Pattern[str], int, str], ...] = (
    (re.compile(r"\bpack\s*\(?\s*(['\"])H\*\1\s*,\s*" + _S.format(q=2) + r"\s*\)?"), 3, "hex"),
    (
        re.compile(r"\[\s*" + _S.format(q=1) + r"\s*\]\s*\.pack\s*\(?\s*(['\"])H\*\3\s*\)?"),
        2,
        "hex",
    ),
    (re.compile(r"\bhex2bin\s*\(\s*" + _S.format(q=1) + r"\s*\)"), 2, "hex"),
    (
        re.compile(
            r"(?:\bMIME::Base64::|\b)(?:decode_base64|base64_decode|Base64\.(?:strict_|urlsafe_)?"
            r"decode64|atob)\s*\(?\s*" + _S.format(q=1) + r"\s*\)?"
        ),
        2,
        "base64",
    ),
    (
        re.compile(
            r"\bBuffer\.from\s*\(\s*" + _S.format(q=1) + r"\s*,\s*(['\"])(hex|base64)\3\s*\)"
            r"(?:\s*\.\s*toString\s*\(\s*(?:(['\"])[\w-]*\5)?\s*\))?"
        ),
        2,
        "buffer",
    ),
    (
        re.compile(
            _S.format(q=1) + r"\s*\.\s*unpack1?\s*\(?\s*(['\"])m0?\3\s*\)?(?:\.first|\[0\])?"
        ),
        2,
        "base64",
    ),
    # A glob of a literal pattern names the same files the pattern does.
    (re.compile(r"(?<![\w.$])(?:Dir\.)?glob\s*\(\s*" + _S.format(q=1) + r"\s*\)"), 2, "same"),
    (re.compile(r"\bDir\s*\[\s*" + _S.format(q=1) + r"\s*\]"), 2, "same"),
)


# A path joined onto the home (ruby ``File.join(Dir.home, "**", "id_*")``, node
# ``path.join(os.homedir(), ".aws", "credentials")``): the literal ``~/…`` it names.
# The module may be bound to any name (``const p = require("path"), o = require("os")``).
_HOME_EXPR = (r"(?:Dir\.home|ENV\[\s*['\"]HOME['\"]\s*\]|process\.env\.HOME|"
              r"(?:require\(\s*['\"](?:node:)?os['\"]\s*\)\.|\b[\w$]+\.|\b)"
              r"homedir\(\s*\))")  # fmt: skip
_HOME_JOIN = re.compile(
    r"(?:\bFile\.join|\bFile\.expand_path|(?:\b[\w$]+|require\(\s*['\"](?:node:)?path['\"]\s*\))"
    r"\.(?:join|resolve))\s*\(\s*" + _HOME_EXPR + r"\s*((?:,\s*(['\"])[^'\"]*\2\s*)+)\)"
)


def _home_joined(match: re.Match[str]) -> str:
    parts = re.findall(r"['\"]([^'\"]*)['\"]", match.group(1))
    return "'~/" + "/".join(p.strip("/") for p in parts) + "'"


def decode_literals(code: str) -> str:
    """``code`` with each decoder call of a literal (perl ``pack("H*", "726d…")``, php
    ``base64_decode('…')``, node ``Buffer.from('…', 'base64').toString()``) replaced by the
    string it yields, so that the commands hidden that way are analysed like plain ones; a
    path joined onto the home becomes the ``~/…`` literal it names."""
    code = _HOME_JOIN.sub(_home_joined, code)
    for pattern, group, kind in _DECODERS:

        def decoded(match: re.Match[str], group: int = group, kind: str = kind) -> str:
            body = match.group(group)
            kind_now = match.group(4) if kind == "buffer" else kind
            try:
                if kind_now == "same":
                    raw = body.encode()
                elif kind_now == "hex":
                    raw = bytes.fromhex(body)
                else:
                    raw = base64.b64decode(body + "=" * (-len(body) % 4), altchars=b"-_"
                                           if "-" in body or "_" in body else None)  # fmt: skip
                text = raw.decode("utf-8")
            except (ValueError, binascii.Error):
                return match.group(0)
            return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"

        code = pattern.sub(decoded, code)
    return code


def effects(code: str, program: str) -> Iterator[Result | Cmd]:
    """What inline ``code`` of ``program`` (perl, node, awk…) does, as far as can be told."""
    code = decode_literals(code)
    if _FORK.search(blank_strings(code)):
        yield fork_bomb("fork")
    if _SOCKET.search(code) and (
        _SHELL.search(code) or _EXEC_DYNAMIC.search(code) or _awk_runs_variable(code, program)
    ):
        yield Finding(
            "reverse-shell",
            "deny",
            f"{program} code that opens a network connection and runs a shell gives a remote "
            "machine a shell here (a reverse shell); never run it",
        )
        return
    fetches = _SOCKET.search(code) or _URL.search(code)
    runs_text = _EVALS.search(blank_strings(code)) or (
        program in _AWKS and _AWK_SYSTEM_VARIABLE.search(blank_strings(code))
    )  # awk '"curl …" | getline x; system(x)': the fetched text run as a command
    if fetches and runs_text:
        yield download_exec(f"{program} code evaluates text it fetches from the network")
        return
    if _WHOLE_ENV.search(code) and _SHOWS_ENV.search(code):
        yield secret_read(["the environment"], reveals=False)  # writeFileSync(f, …process.env)
    remote = any(not _LOCAL_URL.match(u.group(0)) for u in _URL.finditer(code))
    if (_SOCKET.search(code) or _NETWORK_MODULE.search(code) or remote) and not _local_only(code):
        leaked = _environment_read(code)
        if leaked:
            yield Finding(
                "exfiltration",
                "deny",
                f"{program} code reads {leaked} and talks to the network, which can hand a "
                "credential to another host; never send those anywhere — ask the user if it "
                "is truly needed",
            )
        yield Finding(
            "network",
            "ask",
            f"{program} code that talks to the network; confirm the host, or fetch with a "
            "tool that saves into the workspace",
        )
    bare = blank_strings(code)
    commands: list[str] = []
    unresolved = False
    tcl = program in ("tclsh", "wish", "expect")
    rake = _RAKE_SH.finditer(bare) if program == "ruby" else ()
    for match in () if tcl else [*_EXEC.finditer(bare), *rake]:
        name = match.group(1)
        first_only = name not in _LIST_FORM or program in ("php", "awk", "gawk", "mawk", "nawk")
        words = call_words(code, match.end(), program, first_only=first_only)
        if words is None and program in _AWKS and name == "system":
            prefixed = _AWK_PREFIXED.match(code, match.end())  # system("wc -l " $1): a read
            reads = prefixed is not None and prefixed.group(1).split()[0] in READ_ONLY
            words = [prefixed.group(1) + '"${RUN_TIME_VALUE}"'] if prefixed and reads else None
        text = shell_text(words) if words else None
        if words is None or (words and text is None):
            unresolved = True
        elif text is not None:
            commands.append(text)
    commands += [next(g for g in m.groups() if g is not None) for m in _QX.finditer(code)]
    if program in ("awk", "gawk", "mawk", "nawk"):
        for match in _AWK_PIPE.finditer(code):
            target = match.group(1 if match.group(1) else 2)[1:-1]
            if match.group(2) and _SHELL_TARGET.match(target):  # print "rm -rf ~" | "sh"
                printed = _awk_printed(code, match.start())
                unresolved = unresolved or printed is None
                commands += [printed] if printed else []
            else:
                commands.append(target)
    elif program in ("perl", "ruby", "php"):
        commands += [m.group(1) for m in _BACKTICK.finditer(code)]
    elif program == "bun":
        commands += [m.group(1) for m in _BUN_SHELL.finditer(code) if "${" not in m.group(1)]
        unresolved = unresolved or any("${" in m.group(1) for m in _BUN_SHELL.finditer(code))
    elif tcl:
        commands += [m.group(2) for m in _TCL_EXEC.finditer(code)]
    for command in commands:
        yield Nested(shell_body(command, program))
    dynamic_only = not commands and (_EXEC_DYNAMIC.search(bare) or _CHILD_PROCESS.search(code))
    unresolved = unresolved or bool(_CALLBACK.search(code) and _CALLS_BY_NAME.search(bare))
    if unresolved or dynamic_only:
        yield Finding(
            "dynamic-code",
            "ask",
            f"{program} code runs a command or code built at run time, so it cannot be "
            "checked; write the command literally",
        )
    read = _secret_reads(code, program)
    if read:
        globbed = [w for w in read if _GLOB.search(w) and plain_secret(w)]  # Dir.glob("~/**/.env*")
        reveals = any(plain_secret(w) for w in _read_calls(code, program)) or (
            any(plain_secret(w) for w in read) and len(_PERL_SLURP.findall(code)) >= 2
        )  # open F, "$ENV{HOME}/.ssh/id_rsa"; print <F>
        yield secret_read(read, reveals=reveals or bool(globbed and _READS_FILES.search(code)))
    deleted: list[str] = []
    unresolved = False
    for match in _DELETE.finditer(bare):
        words = call_words(code, match.end(), program, first_only=True)
        unresolved = unresolved or words is None
        deleted.extend(words or [])
    for path in deleted:
        yield Cmd(argv=("rm", "-r", path.replace(HOME, "~")), dynamic=(False, False, False))
    if unresolved or (not deleted and _DELETE_ANY.search(bare)):
        yield _unresolved(program, "deletes files")
    written = [_text(m) for m in _WRITE.finditer(code)]
    for path in written:
        yield Cmd(argv=(program,), redirects=((">", path),), dynamic=(False,))
    if program in ("awk", "gawk", "mawk", "nawk"):
        yield from _awk_writes(code)
    calls = list(_written_by_calls(code, program))
    yield from (c for c in calls if c.redirects[0][1] not in written)
    if not written and not calls and _WRITE_ANY.search(code):
        yield _unresolved(program, "writes files")


_AWKS = ("awk", "gawk", "mawk", "nawk")
# system(NAME): awk runs what a variable holds (text read from a command, a file, a field).
_AWK_SYSTEM_VARIABLE = re.compile(r"(?<![\w$])system\s*\(\s*[A-Za-z_]\w*\s*\)")
# system("wc -l " $1): a literal command with one run-time value as its last word; judged
# as that command with an unknown last word when the command only reads.
_AWK_PREFIXED = re.compile(r'\s*\(\s*"([A-Za-z][\w .=/-]* )"\s*(\$\d+|\$NF|[A-Za-z_]\w*)\s*\)')


def _environment_read(code: str) -> str | None:
    """A credential variable (``process.env.AWS_SECRET_ACCESS_KEY``) or the whole environment
    (``JSON.stringify(process.env)``) that ``code`` reads, named; None when it reads neither."""
    if _WHOLE_ENV.search(code):
        return "the whole environment"
    for match in _ENV_NAME.finditer(code):
        name = next(g for g in match.groups() if g)
        if secret_variables(f"${name}"):
            return f"${name}"
    return None


def _awk_runs_variable(code: str, program: str) -> bool:
    """gawk code that starts a command named by a variable through ``|&`` (a coprocess), not
    the variable holding its /inet socket: the command comes from data, e.g. the socket."""
    if program not in ("awk", "gawk"):
        return False
    bare = blank_strings(code)
    sockets = {m.group(1) for m in _AWK_SOCKET_NAME.finditer(code)}
    names = {m.group(1) or m.group(2) for m in _AWK_COPROCESS.finditer(bare)}
    return bool(names - sockets - {"getline", "print", "printf"})


def _awk_printed(code: str, pipe: int) -> str | None:
    """What the ``print`` before an awk pipe to a shell prints, when it is literal: the
    command the shell runs (``print "rm -rf ~" | "sh"``)."""
    starts = [m for m in _AWK_PRINT.finditer(blank_strings(code)) if m.end() <= pipe]
    if not starts:
        return None
    words = call_words(code[:pipe] + ")", starts[-1].end(), "awk", first_only=True)
    return shell_text(words) if words else None


_AWK_REDIRECT = re.compile(r"""(>>?)\s*("[^"]*"|'[^']*')""")
# print > $1 ".txt": a file named only when the data is read (strings blanked: no quote follows)
_AWK_COMPUTED_REDIRECT = re.compile(r"\bprintf?\b[^;{}|]*?(>>?)\s*(?=[$\w(])")


def _awk_writes(code: str) -> Iterator[Cmd | Finding]:
    """``print "…" >> "/home/me/.bashrc"``: the file awk writes, with the text when the
    print is literal, as the ``printf … >> FILE`` it amounts to."""
    bare = blank_strings(code)
    if _AWK_COMPUTED_REDIRECT.search(bare):
        yield _unresolved("awk", "writes files")
    for match in _AWK_REDIRECT.finditer(code):
        if bare[match.start() : match.start(2)].strip() != match.group(1):
            continue  # a > inside a string, or a comparison
        if not _AWK_PRINT.search(bare[: match.start()]):
            continue
        printed = _awk_printed(code, match.start())
        yield Cmd(
            argv=("printf", "%s\n", printed or ""),
            redirects=((match.group(1), match.group(2)[1:-1]),),
            dynamic=(False, False, printed is None),
        )


_WRITE_CALL = re.compile(
    r"\b(writeFileSync|appendFileSync|writeFile|appendFile|File\.write|IO\.write|"
    r"file_put_contents|Deno\.writeTextFile(?:Sync)?|Bun\.write)\s*(?=\()"
)


def _written_by_calls(code: str, program: str) -> Iterator[Cmd]:
    """``File.write(File.expand_path("~/.bashrc"), "curl …|sh", mode: "a")``: the file and
    the text, as the ``printf … >> FILE`` they amount to, so that what is left in a startup
    file or a hook is analysed as code."""
    for match in _WRITE_CALL.finditer(blank_strings(code)):
        words = call_words(code, match.end(), program, first_only=False)
        if not words:
            continue
        path = words[0].replace(HOME, "~")
        appends = "append" in match.group(1).lower() or bool(
            re.search(r"mode:\s*['\"]a|FILE_APPEND|flag:\s*['\"]a", code[match.end() :])
        )
        text = words[1] if len(words) > 1 else ""
        yield Cmd(
            argv=("printf", "%s", text),
            redirects=((">>" if appends else ">", path),),
            dynamic=(False, False, False),
        )


_READ = re.compile(
    r"(?<![\w$])(readFileSync|readFile|createReadStream|File\.read|IO\.read|File\.open|"
    r"file_get_contents|readfile|fopen|file|open|slurp|io\.open|Deno\.readTextFile(?:Sync)?|"
    r"Bun\.file)"
    r"(?=\s*[('\"])"
)
_LITERAL = re.compile(r"\"((?:[^\"\\]|\\.)*)\"|'((?:[^'\\]|\\.)*)'")
_AWK_GETLINE = re.compile(r"\bgetline\b[^<\n;]*<\s*\"([^\"]+)\"")


def _read_calls(code: str, program: str) -> list[str]:
    """The paths the code's read calls open (``file_get_contents(getenv('HOME').'/x')``)."""
    found: list[str] = []
    bare = blank_strings(code)
    for match in _READ.finditer(bare):
        words = call_words(code, match.end(), program, first_only=True) or []
        found += [w.replace(HOME, "~") for w in words]
    if program in ("awk", "gawk", "mawk", "nawk"):  # getline line < "FILE"
        found += _AWK_GETLINE.findall(code)
    return found


_GLOB = re.compile(r"[*?\[]")
_READS_FILES = re.compile(r"\b(read|readFileSync|readFile|read_text|read_bytes|readlines|"
                          r"file_get_contents|slurp|IO\.read|open)\b")  # fmt: skip


def _secret_reads(code: str, program: str) -> list[str]:
    """Key and credential files the code names: a literal path, or the home joined to one."""
    found = [w for w in _read_calls(code, program) if is_secret(w)]
    literals = [t for m in _LITERAL.finditer(code) if is_secret(t := _homed(_text(m) or ""))]
    return found + [t for t in literals if not any(f.endswith(t) for f in found)]


def _homed(text: str) -> str:
    """A string literal with the home written in it (``"$ENV{HOME}/.ssh/id_rsa"``, perl and
    shell interpolation) as the path it names (``~/.ssh/id_rsa``)."""
    return _HOME_IN_TEXT.sub("~", text)


_HOME_IN_TEXT = re.compile(r"^(\$ENV\{\s*['\"]?HOME['\"]?\s*\}|\$\{?HOME\}?(?!\w)|#\{Dir\.home\}|"
                           r"#\{ENV\[['\"]HOME['\"]\]\})")  # fmt: skip
# Perl's readline of a handle (<F>, <$fh>) and a print of what it read.
_PERL_SLURP = re.compile(r"<\$?\w*>|\bprint\b|\bputs\b|console\.log|\becho\b")


def _local_only(code: str) -> bool:
    """HTTP requests only to this machine (``fetch('http://localhost:3000/…')``)."""
    urls = [m.group(0) for m in _URL.finditer(code)]
    return bool(urls) and all(_LOCAL_URL.match(u) for u in urls) and not _RAW_SOCKETS.search(code)


def _text(match: re.Match[str]) -> str:
    return next(g for g in match.groups()[-3:] if g is not None)


def _unresolved(program: str, what: str) -> Finding:
    return Finding(
        "dynamic-path",
        "ask",
        f"{program} code {what} at paths only known at run time; a human must confirm, or "
        "write the paths literally",
    )
