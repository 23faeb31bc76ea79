"""Files that SQL reads: ``read_text('~/.ssh/id_*')``, ``readfile('/etc/shadow')``.

Data tools read files named inside their SQL (duckdb's ``read_text``, ``read_csv``, ``FROM
'path'``; sqlite's ``readfile``; ``pg_read_file``; MySQL's ``LOAD_FILE``). Each literal path
in the SQL is judged as the ``cat`` of that file it amounts to, so a key or credential file
read through a query is refused as reading it directly is, and workspace data runs.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety.rules.base import Cmd, Context, Handler, Result

_LITERAL = re.compile(r"'([^']+)'")
_PATH = re.compile(r"^(/|~|\$HOME\b|\$\{HOME\}|\.\.?/)")
DATA_TOOLS = ("duckdb", "sqlite3", "psql", "mysql", "mariadb", "clickhouse-local", "clickhouse")


def read_paths(sql: str) -> list[str]:
    """The literal paths a query names (``'/home/dev/.ssh/id_*'``, ``'~/.aws/credentials'``)."""
    return [p for p in _LITERAL.findall(sql) if _PATH.match(p) and " " not in p]


def _reads(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    for index, word in enumerate(cmd.args(), start=1):
        if cmd.is_dynamic(index) or "'" not in word:
            continue
        for path in read_paths(word):
            yield Cmd(argv=("cat", path), dynamic=(False, False), piped=cmd.piped)


HANDLERS: dict[str, Handler] = {n: _reads for n in DATA_TOOLS}
