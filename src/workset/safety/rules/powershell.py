"""PowerShell text (``powershell -Command …``, a decoded ``-EncodedCommand``) judged by capability.

PowerShell is not parsed here: its statements are split at ``;``, ``|``, ``&&``, ``||``,
braces and newlines (outside quotes) and each is judged by its first word. A cmdlet whose verb
only reads (``Get-``, ``Test-``, ``Select-``…) runs; a file cmdlet (``Remove-Item``,
``Set-Content``…) runs when every path it names is relative and stays in the workspace; a
native program (``vssadmin``, ``reg``, ``git``) is handed back as shell code, judged like the
same command typed into bash. What is denied wherever it appears: code downloaded and run
(``iex (iwr …)``), Defender switched off, event logs or shadow copies cleared, autorun keys
written, and a hidden window around anything that is not a read; what only the whole text
shows (code decoded and run, ``Start-Process``, the home's files sent out) is judged by
:mod:`~workset.safety.rules.powershell_acts`. Anything else asks.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety.rules import powershell_acts
from workset.safety.rules.base import Finding, Nested, Result

# Verbs that only read or shape data already read (Out-File writes: not here).
_READ_VERBS = frozenset({"get", "test", "select", "measure", "format", "where", "sort", "group",
                         "compare", "convertto", "convertfrom", "resolve", "join", "split",
                         "write", "out", "find", "foreach", "tee", "show", "read", "import",
                         "confirm", "trace"})  # fmt: skip
# The project's own test and analysis runners, like pytest or eslint in bash.
_PROJECT_CMDLETS = frozenset({"invoke-pester", "invoke-scriptanalyzer", "invoke-build",
                              "invoke-psake"})  # fmt: skip
_WRITING_OUT = frozenset({"out-file", "tee-object", "import-module", "write-eventlog",
                          "out-printer"})  # fmt: skip
_ALIASES = frozenset({"ls", "dir", "gci", "cat", "gc", "type", "echo", "pwd", "gl", "select",
                      "sort", "measure", "ft", "fl", "%", "?", "where", "foreach", "gi", "gp",
                      "gcm", "gal", "gps", "gsv", "sls", "write", "cls", "cd", "sl", "popd",
                      "pushd", "if", "else", "elseif", "return", "exit", "param", "try",
                      "catch", "finally", "foreach-object", "where-object"})  # fmt: skip
_FILE_CMDLETS = frozenset({"remove-item", "rm", "del", "erase", "rd", "rmdir", "ri",
                           "set-content", "add-content", "out-file", "new-item", "ni", "mkdir",
                           "md", "copy-item", "cp", "copy", "move-item", "mv", "move",
                           "expand-archive", "compress-archive", "rename-item", "ren",
                           "clear-content"})  # fmt: skip
_DOWNLOAD = re.compile(r"\b(iwr|irm|invoke-webrequest|invoke-restmethod|downloadstring|"
                       r"downloaddata|downloadfile|net\.webclient|start-bitstransfer|"
                       r"bitsadmin|wget|curl)\b")  # fmt: skip
_RUN_TEXT = re.compile(r"\b(iex|invoke-expression|invoke-command|\[scriptblock\]::create)\b|"
                       r"\|\s*(powershell|pwsh|cmd)\b")  # fmt: skip
_DENIED: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"set-mppreference\b[^;|]*-disable\w*"),
     "switches Microsoft Defender's protection off"),
    (re.compile(r"\b(clear-eventlog|remove-eventlog|wevtutil(\.exe)?\s+(cl|clear-log))\b"),
     "clears the system's event logs, the record of what ran"),
    (re.compile(r"\b(vssadmin(\.exe)?\s+delete|wmic(\.exe)?\s+shadowcopy\s+delete|"
                r"win32_shadowcopy\b.*\bremove-)"),
     "deletes the volume shadow copies, the machine's restore points"),
    (re.compile(r"^(?=[\s\S]*\b(set-itemproperty|new-itemproperty|new-item|sp|ni|copy-item|"
                r"reg(\.exe)?\s+(add|import)|set-item)\b)"  # a write: reading the key only shows it
                r"[\s\S]*(\\currentversion\\(run|runonce|policies\\explorer\\run)\b|\\winlogon\b|"
                r"image file execution options)"),
     "writes an autorun registry key, code that runs at every logon"),
    (re.compile(r"start`?\s*menu[\\/]programs[\\/]startup"),
     "puts a program in the Startup folder, which runs it at every logon"),
    (re.compile(r"\b(sekurlsa|mimikatz|lsass)\b"), "reads the passwords of logged-in users"),
    (re.compile(r"login data|web data|\\cookies\b|\.ssh[\\/]id_|\.aws[\\/]credentials"),
     "reads browser logins or keys"),
)  # fmt: skip
HIDDEN = re.compile(r"-w(indowstyle)?\s+(hidden|1)\b|\s-w\s+h\b")
_SCHEDULED = re.compile(r"\b(register-scheduledtask|new-scheduledtask\w*|schtasks)\b")
_DELETERS = frozenset({"remove-item", "rm", "del", "erase", "rd", "rmdir", "ri"})
_WHOLE = re.compile(
    r"(?i)^([a-z]:[\\/]?|[a-z]:[\\/](users|windows|program files[^\\/]*)"
    r"([\\/][^\\/]+)?[\\/]?|\$env:(userprofile|homepath|systemroot|"
    r"appdata|localappdata)[\\/]?|~[\\/]?|\$home[\\/]?)$"
)
_SAFE_PATH = re.compile(r"^(\.[\\/])?[\w.-]+([\\/][\w.*-]+)*[\\/]?$")
_SPLIT = re.compile(r"""("[^"]*"|'[^']*')|(;|\|\||&&|\||\n|\{|\}|\(|\))""")


_TYPED_CMDLET = re.compile(r"[A-Z][a-z]+-[A-Z][A-Za-z0-9]*")


def typed_cmdlet(word: str) -> bool:
    """A cmdlet typed as a command in PowerShell's own casing (``Get-Process``), judged as the
    PowerShell it is; bash programs are not named so."""
    return _TYPED_CMDLET.fullmatch(word) is not None


def analyse(text: str) -> Iterator[Result]:
    """Findings, and native commands to analyse as shell code, for PowerShell ``text``."""
    low = text.lower()
    if _DOWNLOAD.search(low) and _RUN_TEXT.search(low):
        yield _deny("runs code it downloads (a download cradle such as iex (iwr …))")
        return
    for pattern, what in _DENIED:
        if pattern.search(low):
            yield _deny(what)
            return
    whole = list(powershell_acts.check(text, analyse))  # acts seen only in the whole text
    if any(isinstance(r, Finding) and r.severity == "deny" for r in whole):
        yield from whole
        return
    statements = list(_statements(text))
    judged = [*whole, *(_statement(s) for s in statements)]
    asks = [r for r in judged if isinstance(r, Finding)]
    if HIDDEN.search(low) and asks:
        yield _deny("runs in a hidden window what is not a plain read, which only hides it")
        return
    if _SCHEDULED.search(low):
        yield Finding("persistence", "ask", "registers a scheduled task, code that runs "
                      "later by itself; a human must confirm")  # fmt: skip
    for result in judged:
        if result is not None:
            yield result


def _deny(what: str) -> Finding:
    return Finding("powershell", "deny", f"the PowerShell code {what}; never run it")


_CONTENT_READERS = frozenset({"get-content", "gc", "cat", "type", "select-string", "sls"})
_WEB = frozenset({"invoke-webrequest", "iwr", "invoke-restmethod", "irm"})
_HOME = re.compile(r"(?i)^(\$env:userprofile|\$home|~|[a-z]:[\\/]users[\\/][^\\/]+)(?=[\\/]|$)")


def _posix(path: str) -> str:
    """A Windows path as the shell rules read paths: the profile is ``~``, ``\\`` is ``/``."""
    return _HOME.sub("~", path).replace("\\", "/")


def _quoted(word: str) -> str:
    return "'" + word.replace("'", "'\\''") + "'"


def _statements(text: str) -> Iterator[str]:
    part: list[str] = []
    start = 0
    for match in _SPLIT.finditer(text):
        if match.group(2) is None:
            continue
        part.append(text[start : match.start()])
        start = match.end()
    part.append(text[start:])
    for piece in part:
        piece = piece.strip()
        if piece:
            yield piece


def _statement(statement: str) -> Result | None:
    words = statement.replace("`", "").split()
    first = words[0].lower().lstrip("&.")
    if not first or first.startswith(("$", "'", '"', "[", "@", "-", "#")) or first.isdigit():
        if "=" in statement and not statement.lstrip().startswith("#"):
            rest = statement.split("=", 1)[1].strip()
            return _statement(rest) if rest and rest[0].isalpha() else None
        return None
    verb = first.split("-", 1)[0] if "-" in first else ""
    if first in _FILE_CMDLETS:
        operands = [o.strip("'\"") for w in words[1:] if not w.startswith("-")
                    for o in w.split(",") if o]  # fmt: skip
        bad = next((o for o in operands if not _SAFE_PATH.match(o) or ".." in o), None)
        if bad is None:
            return None
        if _WHOLE.match(bad) and first in _DELETERS:
            return _deny(f"deletes {bad}, a drive, a home or the system folder")
        shell = powershell_acts.as_shell(statement)
        if shell is not None:  # absolute paths: judged as the shell command that does the same
            return Nested(shell)
        return Finding(
            "powershell",
            "ask",
            f"PowerShell {words[0]} touches {bad!r}, which is not shown to be inside the "
            "workspace; a human must confirm",
        )
    operands = [w.strip("'\"") for w in words[1:] if not w.startswith("-")]
    if first in _CONTENT_READERS or first in ("get-childitem", "gci", "ls", "dir"):
        if any(o.lower().rstrip("\\/") == "env:" for o in operands):
            return Nested("env")  # the whole environment: judged as ``env`` is
        if first in _CONTENT_READERS and operands:
            return Nested("cat " + " ".join(_quoted(_posix(o)) for o in operands))
    if first in _WEB and not re.search(r"-(body|infile|method\s+(post|put|delete|patch)|"
                                        r"credential|headers)\b", statement, re.I):  # fmt: skip
        url = next((o for o in operands if re.match(r"^https?://", o)), "")
        out = re.search(r"-outfile\s+(\S+)", statement, re.I)
        if url:  # a GET: judged as curl's
            saved = f" -o {_quoted(_posix(out.group(1).strip(chr(39) + chr(34))))}" if out else ""
            return Nested(f"curl -s {_quoted(url)}{saved}")
    if first in _WRITING_OUT:
        return Finding("powershell", "ask", f"PowerShell {words[0]} writes or loads code; "
                       "a human must confirm")  # fmt: skip
    if first in _ALIASES or verb in _READ_VERBS or first in _PROJECT_CMDLETS:
        return None
    if verb:
        return Finding(
            "powershell",
            "ask",
            f"the PowerShell cmdlet {words[0]!r} is not one known to only read; a human must "
            "confirm it",
        )
    return Nested(statement.replace("\\", "/"))  # a native program: judged as typed in bash
