"""The arguments of a call in inline perl/ruby/node/php/lua/awk code, when they are literal.

:func:`call_words` reads what follows a call such as ``execSync(`` or ``system``: string
literals joined by ``+``, ``.``, ``..`` or awk's juxtaposition, with the user's home
(``os.homedir()``, ``process.env.HOME``, ``$ENV{HOME}``, ``ENV['HOME']``, ``Dir.home``,
``getenv('HOME')``) read as ``~``; a list form (``spawn('rm', ['-rf', x])``, perl's
``system('rm', '-rf', $x)``) gives one word per element. Anything else in the argument (a
variable, a call, an interpolation ``${x}``/``#{x}``/``$x`` that is not the home) makes the
command unknown until the code runs, and the answer is None. :func:`blank_strings` hides the
text of string literals so that a word inside a printed string (``print "system(x)"``) is not
mistaken for a call.
"""

from __future__ import annotations

import re

_HOME = re.compile(
    r"require\s*\(\s*['\"]os['\"]\s*\)\s*\.\s*homedir\s*\(\s*\)|\bos\.homedir\s*\(\s*\)|"
    r"\bhomedir\s*\(\s*\)|\bprocess\.env\.HOME\b|\bprocess\.env\[\s*['\"]HOME['\"]\s*\]|"
    r"\$ENV\{\s*['\"]?HOME['\"]?\s*\}|\bENV\[\s*['\"]HOME['\"]\s*\]|\bDir\.home\b|"
    r"\b(?:os\.)?getenv\s*\(\s*['\"]HOME['\"]\s*\)|\$_SERVER\[\s*['\"]HOME['\"]\s*\]|"
    r"\bENVIRON\[\s*\"HOME\"\s*\]"
)
# What a double-quoted (for node: a backtick) string interpolates, per language.
_INTERPOLATION = {
    "perl": re.compile(r"\$\{([^}]*)\}|[$@](\w+(?:\{[^}]*\}|\[[^]]*\])?)"),
    "php": re.compile(r"\{\$([^}]*)\}|\$(\w+(?:\[[^]]*\])?)"),
    "ruby": re.compile(r"#\{([^}]*)\}"),
    "node": re.compile(r"\$\{([^}]*)\}"),
}
_OPERATOR = re.compile(r"\s*(\+|\.\.|\.(?!\w)|\s)\s*")
_ESCAPES = {"n": "\n", "t": "\t"}
_CALL_END = re.compile(r"(end|do|if|unless|rescue|and|or)\b|&&|\|\|")
_EXPAND_HOME = re.compile(r"\b(?:File\.expand_path|(?:os\.path\.)?expanduser)\s*\(\s*")
HOME = "\ue000"  # where the code puts the user's home; see :func:`shell_text`
_MAX_WORDS = 64


def shell_text(words: list[str]) -> str | None:
    """The shell command the words make: one string as it is, a list form quoted word by word.

    The home becomes ``$HOME``, which the shell analysis reads as the home; None when the home
    would land inside single quotes, where the shell would not expand it.
    """
    if len(words) == 1:
        text = words[0]
        before = text.split(HOME)[:-1]
        if any(re.sub(r"\\.|\"[^\"]*\"", "", "".join(before[: i + 1])).count("'") % 2
               for i in range(len(before))):  # fmt: skip
            return None
        return text.replace(HOME, "$HOME")
    quoted = ('"' + re.sub(r'([\\"`$])', r"\\\1", w) + '"' for w in words)
    return " ".join(quoted).replace(HOME, "$HOME")


def blank_strings(code: str) -> str:
    """``code`` with the text inside every string literal replaced by spaces (same length)."""
    out = list(code)
    index = 0
    while index < len(code):
        quote = code[index]
        if quote in "\"'`":
            end = _string_end(code, index)
            for position in range(index + 1, min(end - 1, len(code))):
                if out[position] != "\n":
                    out[position] = " "
            index = end
        else:
            index += 1
    return "".join(out)


def call_words(code: str, start: int, program: str, *, first_only: bool) -> list[str] | None:
    """The words of the command a call passes to a shell, read from ``code[start:]``.

    ``start`` is just after the function's name; ``first_only`` reads only the first argument
    (``execSync(cmd, options)``, php's ``system(cmd, $status)``). None when some part is only
    known at run time; an empty list when no argument is given.
    """
    index = _skip_space(code, start)
    parens = index < len(code) and code[index] in "({"
    if parens:
        index += 1
    words: list[str] = []
    first = True
    while len(words) < _MAX_WORDS:
        index = _skip_space(code, index)
        if index >= len(code) or code[index] in ");}\n" or (parens and code[index] == ")"):
            return words
        if code[index] == "[" and not first:
            items = _array(code, index, program)
            if items is None:
                return None
            words.extend(items[0])
            index = items[1]
        elif code[index] in "{" or (not first and re.match(r"(function\b|\(|\w+\s*=>|\w+:\s|"
                                                           r"(FILE_APPEND|LOCK_EX)\b)",
                                                           code[index:])):  # fmt: skip
            return words  # options, php's write flags or a callback: no more words
        else:
            value = _expression(code, index, program)
            if value is None:
                return None
            text, index = value
            words.append(text)
            if first_only:
                return words
        first = False
        index = _skip_space(code, index)
        if index < len(code) and code[index] == ",":
            index += 1
        elif not parens and _CALL_END.match(code, index):
            return words  # ruby's ``sh "…" end``, ``system "…" if ok``: the call ends there
        elif index < len(code) and code[index] not in ");}\n":
            return None
    return None


def _expression(code: str, index: int, program: str) -> tuple[str, int] | None:
    """String literals and the home joined by operators, up to a ``,`` or the call's end."""
    parts: list[str] = []
    while True:
        home = _HOME.match(code, index)
        expand = _EXPAND_HOME.match(code, index)
        if home:
            parts.append(HOME)
            index = home.end()
        elif expand:  # File.expand_path("~/.bashrc"): the path with the home in front
            inner = _expression(code, expand.end(), program)
            close = _skip_space(code, inner[1]) if inner is not None else len(code)
            if inner is None or close >= len(code) or code[close] != ")":
                return None
            parts.append(HOME + inner[0][1:] if inner[0].startswith("~") else inner[0])
            index = close + 1
        elif index < len(code) and code[index] in "\"'`":
            if code[index] == "`" and program not in ("node", "nodejs", "bun", "deno"):
                return None  # perl/ruby/php backticks: the output of a command
            end = _string_end(code, index)
            text = _literal(code[index], code[index + 1 : end - 1], program)
            if text is None:
                return None
            parts.append(text)
            index = end
        else:
            return None
        operator = _OPERATOR.match(code, index)
        after = _skip_space(code, index)
        if after >= len(code) or code[after] in ",);}]\n" or _CALL_END.match(code, after):
            return "".join(parts), after
        if operator is None:
            return None
        index = operator.end()


def _literal(quote: str, body: str, program: str) -> str | None:
    """The value of a string literal; None when it interpolates something unknown."""
    text = re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), body)
    family = "node" if program in ("node", "nodejs", "bun", "deno") else program
    pattern = _INTERPOLATION.get(family)
    if quote == "'" or pattern is None or (family == "node" and quote != "`"):
        return text

    def home(match: re.Match[str]) -> str:
        inner = next(g for g in match.groups() if g is not None)
        if _HOME.fullmatch(inner.strip()) or re.fullmatch(r"ENV\{\s*['\"]?HOME['\"]?\s*\}", inner):
            return HOME
        raise LookupError(inner)

    try:
        return pattern.sub(home, text)
    except LookupError:
        return None


_TCL_HOME = re.compile(r"\$(?:::)?env\(HOME\)|\[\s*file\s+normalize\s+~\s*\]")
_TCL_VALUE = re.compile(r"\$\{[^}]*\}|\$(?:::)?\w+(?:\([^)]*\))?|\[[^\]]*\]")
RUN_TIME = "$RUN_TIME_VALUE"  # an interpolation the shell analysis must treat as unknown


def shell_body(text: str, program: str) -> str:
    """The shell command a backtick, ``qx{}``/``%x()`` body or a tcl ``exec`` line becomes:
    the home it interpolates written ``$HOME``, anything else it interpolates (``#{dir}``,
    ``$d``, tcl ``[pwd]``) an unknown value, so that ruby's ``#{…}`` is not read as a shell
    comment and the command is judged with what is known."""
    if program in ("tclsh", "wish", "expect"):
        return _TCL_VALUE.sub(RUN_TIME, _TCL_HOME.sub(HOME, text)).replace(HOME, "$HOME")
    family = "node" if program in ("node", "nodejs", "bun", "deno") else program
    pattern = _INTERPOLATION.get(family)
    if pattern is None:
        return text

    def value(match: re.Match[str]) -> str:
        inner = next(g for g in match.groups() if g is not None)
        home = _HOME.fullmatch(inner.strip()) or re.fullmatch(
            r"ENV\{\s*['\"]?HOME['\"]?\s*\}|HOME", inner.strip()
        )  # a bare $HOME too: read as the home, as the shell would, never as nothing
        return "$HOME" if home else RUN_TIME

    return pattern.sub(value, text)


def _array(code: str, index: int, program: str) -> tuple[list[str], int] | None:
    """``['-rf', '/']``: its literal elements and the index after ``]``."""
    items: list[str] = []
    index += 1
    while True:
        index = _skip_space(code, index)
        if index < len(code) and code[index] == "]":
            return items, index + 1
        value = _expression(code, index, program) if index < len(code) else None
        if value is None or len(items) >= _MAX_WORDS:
            return None
        items.append(value[0])
        index = _skip_space(code, value[1])
        if index < len(code) and code[index] == ",":
            index += 1


def _string_end(code: str, start: int) -> int:
    """The index just after the string literal that opens at ``start``."""
    quote = code[start]
    index = start + 1
    while index < len(code):
        if code[index] == "\\":
            index += 2
            continue
        if code[index] == quote:
            return index + 1
        index += 1
    return len(code)


def _skip_space(code: str, index: int) -> int:
    while index < len(code) and code[index] in " \t":
        index += 1
    return index
