"""PowerShell acts that the statement-by-statement reading of
:mod:`~workset.safety.rules.powershell` cannot see whole.

- Denied wherever they appear: a Defender exclusion (``Add-MpPreference -ExclusionPath``),
  User Account Control switched off through the registry cmdlets, a module source trusted over
  plain http (``Register-PSRepository -SourceLocation http://…``), a scheduled task named like
  a vendor's, a WSL or VM disk (``ext4.vhdx``) deleted, the home's files read or packed and
  sent out (``Get-Content ~/.bash_history | Invoke-RestMethod -Method Post``).
- Code run from text: base64 decoded and run (``[scriptblock]::Create(…FromBase64String(…))``)
  is judged as the decoded text, denied when that is, asked otherwise.
- ``Start-Process PROGRAM -ArgumentList ARGS`` is the program run with its arguments, judged
  as that command line; ``-Verb RunAs`` asks too, it runs as administrator.
- A pipeline into ``Remove-Item`` deletes what the listing found: it asks.

:func:`as_shell` gives a file cmdlet with absolute paths (``Remove-Item -Force
/home/dev/proj/TestResults/*.trx``, ``Expand-Archive -Path … -DestinationPath …``) as the shell
command that does the same, its Windows places mapped to where WSL sees them
(``$env:LOCALAPPDATA`` is ``~/AppData/Local``), so the shell rules judge it. :func:`fed` judges
``powershell -Command -`` fed by a pipe.
"""

from __future__ import annotations

import base64
import binascii
import re
import shlex
from collections.abc import Callable, Iterator

from workset.safety.rules.base import Cmd, Finding, Nested, Result
from workset.safety.rules.static import static_output

Analyse = Callable[[str], Iterator[Result]]

# Places a Defender exclusion must never cover: where downloads, temporary files and other
# accounts' files land, Windows itself, a whole drive or profile (a project folder may ask).
_WIDE = (
    r"[a-z]:[\\/]?(['\"\s,]|$)|\$env:(temp|tmp|appdata|localappdata|userprofile|public|"
    r"programdata|windir|systemroot)|[^;|]*[\\/](temp|appdata|downloads|public|programdata|"
    r"windows)([\\/'\"\s,]|$)|[a-z]:[\\/]users[\\/][^\\/\s'\"]+[\\/]?(['\"\s,]|$)"
)
_DENIED: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\b(add|set)-mppreference\b[^;|]*-exclusion(path\s+['\"]?(" + _WIDE + r")|"
                r"extension\s+['\"]?\.?(exe|dll|ps1|bat|cmd|vbs|js|scr)\b)"),
     "exempts a place where downloads and malware land from Microsoft Defender's scans"),
    (re.compile(r"\b(set|new)-itemproperty\b[^;|]*policies[\\/]system\b[^;|]*"
                r"(enablelua|consentpromptbehavioradmin)[^;|]*-value\s+['\"]?0\b"),
     "switches User Account Control off, so any program gets administrator rights unasked"),
    (re.compile(r"\b(register|set)-psrepository\b[^;|]*-sourcelocation\s+['\"]?http://"
                r"(?!(localhost|127\.0\.0\.1)[:/])"),
     "trusts a module source over plain http, where anyone on the way can swap the code"),
    (re.compile(r"\bregister-scheduledtask\b[^;|]*-taskname\s+['\"]?\\?"
                r"(microsoft|windows|onedrive|google|adobe)"),
     "names a scheduled task like a vendor's, which only disguises it"),
    (re.compile(r"(remove-item|\b(rm|del|ri|erase)\b)[^;]*\.vhdx\b|\.vhdx\b[^;]*\|\s*"
                r"(remove-item|rm|del|ri|erase)\b"),
     "deletes a WSL distribution's or virtual machine's disk, every file inside it"),
)  # fmt: skip
_UPLOAD = re.compile(r"\b(invoke-restmethod|irm|invoke-webrequest|iwr)\b[^;]*"
                     r"(-method\s+['\"]?(post|put|patch)|-infile|-body)")  # fmt: skip
_HOME_READ = re.compile(r"\b(get-content|gc|cat|type|compress-archive|get-item|gi)\b[^;|]*?"
                        r"(\$env:(userprofile|appdata|localappdata|homepath)|\$home\b|"
                        r"(^|[\s,'\"])~[\\/]|[a-z]:[\\/]users[\\/])")  # fmt: skip
_BASE64 = re.compile(r"frombase64string\(\s*['\"]([a-z0-9+/=]+)['\"]", re.I)
_RUNS_TEXT = re.compile(r"\b(iex|invoke-expression)\b|\[scriptblock\]::create|\.invoke\(")
_PIPED_DELETE = re.compile(r"\|\s*(remove-item|rm|del|ri|erase)\b(?![^;|]*-whatif)")
_RELATIVE = re.compile(r"^(\.[\\/])?[\w.*-]+([\\/][\w.*-]+)*[\\/]?$")


def check(text: str, analyse: Analyse) -> Iterator[Result]:
    """Findings about PowerShell ``text`` as a whole; ``analyse`` judges decoded text."""
    low = text.lower()
    for pattern, what in _DENIED:
        if pattern.search(low):
            yield _deny(what)
            return
    if _UPLOAD.search(low) and _HOME_READ.search(low):
        yield _deny("sends files of the user's home to the network")
        return
    if _RUNS_TEXT.search(low):
        yield from _decoded_run(text, analyse)
    if any(_listed_outside(t) for t in _PIPED_DELETE.split(low)[:-1][::2]):
        yield Finding("powershell", "ask", "Remove-Item deletes what the pipeline hands it, "
                      "which is not shown to be inside the workspace; a human must "
                      "confirm")  # fmt: skip
    for statement in re.split(r";|\n", text):
        yield from _start_process(statement)


def _listed_outside(before: str) -> bool:
    """The listing that feeds a pipeline's ``Remove-Item`` names a place that is not plainly
    the project's own (a relative path without ``..``)."""
    listing = re.split(r"[;|\n]", before)[-1]
    words = _words(listing)[1:]
    valued = ("-filter", "-include", "-exclude")
    places = [w for i, w in enumerate(words) if not w.startswith("-")
              and (i == 0 or words[i - 1].lower() not in valued)]  # fmt: skip
    return any(not _RELATIVE.match(p) or ".." in p for p in places)


def _decoded_run(text: str, analyse: Analyse) -> Iterator[Result]:
    for literal in _BASE64.findall(text):
        decoded = _decode(literal)
        found = list(analyse(decoded)) if decoded else []
        denied = [f for f in found if isinstance(f, Finding) and f.severity == "deny"]
        if denied:
            why = denied[0].explanation.split(";")[0].removeprefix("the PowerShell code ")
            yield _deny(f"runs base64-hidden code that {why}")
            return
    yield Finding("powershell", "ask", "the PowerShell runs text as code (Invoke-Expression, "
                  "[scriptblock]::Create), which hides it from whoever approves; a human must "
                  "confirm")  # fmt: skip


def _decode(literal: str) -> str | None:
    try:
        raw = base64.b64decode(literal + "=" * (-len(literal) % 4), validate=True)
    except (binascii.Error, ValueError):
        return None
    for encoding in ("utf-16-le", "utf-8") if b"\x00" in raw else ("utf-8",):
        try:
            return raw.decode(encoding)
        except UnicodeDecodeError:
            continue
    return None


def _words(statement: str) -> list[str]:
    return [w.strip("'\"") for w in re.findall(r"\"[^\"]*\"|'[^']*'|[^\s,]+", statement)]


def _start_process(statement: str) -> Iterator[Result]:
    words = _words(statement.strip())
    if not words or words[0].lower() not in ("start-process", "saps", "start"):
        return
    named: dict[str, str] = {}
    positional: list[str] = []
    flags: set[str] = set()
    index = 1
    while index < len(words):
        word = words[index].lower()
        if word in ("-filepath", "-argumentlist", "-args", "-verb", "-windowstyle",
                    "-workingdirectory", "-credential"):  # fmt: skip
            named[word.replace("-args", "-argumentlist")] = [*words, ""][index + 1]
            index += 2
            continue
        if word.startswith("-"):
            flags.add(word)
        else:
            positional.append(words[index])
        index += 1
    program = named.get("-filepath") or (positional[0] if positional else "")
    rest = positional[1:] if "-filepath" not in named else positional
    arguments = named.get("-argumentlist") or " ".join(rest)
    if not program:
        return
    if named.get("-verb", "").lower() == "runas":
        yield Finding("powershell", "ask", f"Start-Process -Verb RunAs runs {program} as "
                      "administrator; a human must confirm")  # fmt: skip
    yield Nested(f"{program} {arguments}".replace("\\", "/").strip())


# Windows places as WSL sees them: the profile is the home (paths.normalize reads
# /mnt/c/Users/dev as ~ too), other drives are mounted under /mnt.
_PLACES = (
    (re.compile(r"(?i)^\$env:localappdata(?=[\\/]|$)"), "~/AppData/Local"),
    (re.compile(r"(?i)^\$env:appdata(?=[\\/]|$)"), "~/AppData/Roaming"),
    (re.compile(r"(?i)^\$env:te?mp(?=[\\/]|$)"), "~/AppData/Local/Temp"),
    (re.compile(r"(?i)^(\$env:userprofile|\$home|~)(?=[\\/]|$)"), "~"),
    (re.compile(r"(?i)^[a-z]:[\\/]users[\\/](?!public\b)[^\\/]+(?=[\\/]|$)"), "~"),
    (re.compile(r"(?i)^([a-z]):(?=[\\/]|$)"), "/mnt/DRIVE"),
)
_DELETE = frozenset({"remove-item", "rm", "del", "erase", "rd", "rmdir", "ri"})
_VALUED = frozenset({"-path", "-literalpath", "-destinationpath", "-destination", "-include",
                     "-exclude", "-filter", "-itemtype", "-compressionlevel"})  # fmt: skip


def _place(word: str) -> str | None:
    if word.startswith("/"):
        return word
    for pattern, place in _PLACES:
        match = pattern.match(word)
        if match:
            drive = match.group(1).lower() if match.groups() else ""
            return place.replace("DRIVE", drive) + word[match.end() :].replace("\\", "/")
    return None


def _quoted(place: str) -> str:
    """``place`` as one shell word; a leading ``~/`` stays bare, so the shell reads the home."""
    if place.startswith("~/"):
        return "~/" + shlex.quote(place[2:])
    return shlex.quote(place)


def as_shell(statement: str) -> str | None:
    """The shell command a PowerShell file cmdlet amounts to, when every path it names is
    absolute (a POSIX path, a drive, the profile); ``None`` when it cannot be said."""
    words = _words(statement)
    if not words:
        return None
    name = words[0].lower()
    options: dict[str, str] = {}
    operands: list[str] = []
    index = 1
    while index < len(words):
        word = words[index].lower()
        if word in _VALUED and index + 1 < len(words):
            options[word] = words[index + 1]
            index += 2
            continue
        if word.startswith("-"):
            options[word] = ""
        else:
            operands.append(words[index])
        index += 1
    if "-include" in options or "-exclude" in options or "-filter" in options:
        return None
    sources = [options[o] for o in ("-path", "-literalpath") if o in options] + operands
    target = options.get("-destinationpath") or options.get("-destination")
    places = [_place(p) for p in sources + ([target] if target else [])]
    if not sources or any(p is None for p in places):
        return None
    quoted = [_quoted(p) for p in places if p is not None]
    recurse = "-recurse" in options or "-r" in options
    if name in _DELETE and target is None:
        return " ".join(["rm", *(["-r"] if recurse else []), "-f", *quoted])
    if name == "expand-archive" and len(quoted) == 2:
        return f"unzip -o {quoted[0]} -d {quoted[1]}"
    if name == "compress-archive" and target is not None:
        return " ".join(["zip", "-r", quoted[-1], *quoted[:-1]])
    return None


def fed(cmd: Cmd, analyse: Analyse) -> Iterator[Result]:
    """``echo … | base64 -d | powershell -Command -``: PowerShell runs what the pipe prints,
    judged when the pipe's text is known; decoded on the way, it is denied unless harmless."""
    text = static_output(cmd.upstream) if cmd.piped else None
    if text is None:
        return
    found = list(analyse(text))
    hidden = any(c.name in ("base64", "base32", "xxd", "gunzip", "rev") for c in cmd.upstream)
    if hidden and any(isinstance(f, Finding) for f in found):
        yield _deny("is decoded on the way into PowerShell, which only hides what it does")
        return
    yield from found


def undecodable(raw: str, analyse: Analyse) -> Iterator[Result]:
    """The denials in an ``-EncodedCommand`` value built when the line runs (``$(printf '…' |
    iconv -t UTF-16LE | base64 -w0)``): its literal text is the PowerShell it encodes."""
    for found in analyse(re.sub(r"\\{2,}", r"\\", raw)):
        if isinstance(found, Finding) and found.severity == "deny":
            yield found
            return


def _deny(what: str) -> Finding:
    return Finding("powershell", "deny", f"the PowerShell code {what}; never run it")
