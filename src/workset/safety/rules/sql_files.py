"""Files that data tools read, write and load as named inside their SQL or client commands.

Data tools read files named in their SQL (duckdb's ``read_text``, ``read_csv``, ``FROM
'path'``; sqlite's ``readfile``; ``pg_read_file``; MySQL's ``LOAD_FILE``) and in client
commands (sqlite's ``.import``, ``.read``, ``.open``; psql's ``\\i``): each is judged as the
``cat`` of that file it amounts to, so a key read through a query is refused as reading it
directly is. They write files too (sqlite's ``.output``/``.once``/``.save``/``.backup``,
psql's ``\\o``, ``COPY … TO 'file'``, ``INTO OUTFILE``): each is the ``> file`` it amounts to,
judged where it lands (a startup file, the home, the workspace). Native code loaded into the
tool (``.load``, ``load_extension(…)``) or a script run in it (``redis-cli --eval``) from
outside the workspace asks; a variable read by the SQL (``getenv('…')``) is judged as the
``printenv`` it amounts to.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety import paths
from workset.safety.rules.base import Cmd, Context, Finding, Handler, Result

_LITERAL = re.compile(r"'([^']+)'")
_PATH = re.compile(r"^(/|~|\$HOME\b|\$\{HOME\}|\.\.?/)")
_WORD = r"('[^']+'|\"[^\"]+\"|[^\s'\";|][^\s;]*)"
_DOT_READ = re.compile(rf"(?:^|[\n;])\s*(\.(?:import|read|restore|open)(?:\s+--?\w+)*|\\i|"
                       rf"\\include)\s+{_WORD}", re.IGNORECASE)  # fmt: skip
_DOT_WRITE = re.compile(rf"(?:^|[\n;])\s*(?:\.(?:output|once|save|backup|dump)"
                        rf"(?:\s+--?\w+)*(?:\s+main)?|\\o|\\out)\s+{_WORD}",
                        re.IGNORECASE)  # fmt: skip
_SQL_WRITE = re.compile(r"\b(?:TO|INTO\s+(?:OUT|DUMP)FILE)\s+'([^']+)'", re.IGNORECASE)
_LOAD = re.compile(rf"(?:^|[\n;])\s*\.load\s+{_WORD}|\bload_extension\s*\(\s*'([^']+)'",
                   re.IGNORECASE)  # fmt: skip
_GETENV = re.compile(r"\bgetenv\s*\(\s*'(\w+)'\s*\)", re.IGNORECASE)
DATA_TOOLS = ("duckdb", "sqlite3", "psql", "mysql", "mariadb", "clickhouse-local", "clickhouse",
              "redis-cli")  # fmt: skip


def read_paths(sql: str) -> list[str]:
    """The literal paths a query names (``'/home/dev/.ssh/id_*'``, ``'~/.aws/credentials'``)."""
    return [p for p in _LITERAL.findall(sql) if _PATH.match(p) and " " not in p]


def _unquoted(word: str) -> str:
    return word[1:-1] if word[:1] in "'\"" and word[-1:] == word[:1] else word


def _files(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    for index, text in enumerate(cmd.args(), start=1):
        if cmd.is_dynamic(index):
            continue
        scripts = [
            m
            for m in _DOT_READ.finditer(text)
            if m.group(1).lower() in (".read", "\\i", "\\include")
        ]
        reads = read_paths(text) + [_unquoted(m.group(2)) for m in _DOT_READ.finditer(text)]
        for path in reads:
            yield Cmd(argv=("cat", path), dynamic=(False, False), piped=cmd.piped)
        for path in [_unquoted(m.group(2)) for m in scripts]:
            if not paths.in_workspace(ctx.resolve(path), ctx.workspace):
                yield _foreign(cmd, path, "runs the SQL and client commands of")
        writes = [_unquoted(m.group(1)) for m in _DOT_WRITE.finditer(text)]
        writes += _SQL_WRITE.findall(text) if cmd.name != "psql" or "\\copy" in text else []
        for path in writes:
            if not path.startswith(("|", "-", "STDOUT", "stdout")):
                yield Cmd(argv=(":",), redirects=((">", path),), dynamic=(False,))
        for name in _GETENV.findall(text):  # duckdb's getenv('AWS_SECRET_ACCESS_KEY')
            yield Cmd(argv=("printenv", name), dynamic=(False, False), piped=cmd.piped)
        script = cmd.name == "redis-cli" and index > 1 and cmd.args()[index - 2] == "--eval"
        if script and not paths.in_workspace(ctx.resolve(text), ctx.workspace):
            yield _foreign(cmd, text, "runs the Lua script")
        for match in _LOAD.finditer(text):
            library = _unquoted(match.group(1) or match.group(2))
            if not paths.in_workspace(ctx.resolve(library), ctx.workspace):
                yield _foreign(cmd, library, "loads native code from")


def _foreign(cmd: Cmd, path: str, does: str) -> Finding:
    return Finding(
        "foreign-code",
        "ask",
        f"{cmd.name} {does} {path!r}, a file outside the workspace, so what it runs cannot "
        "be checked; a human must confirm it",
    )


HANDLERS: dict[str, Handler] = {n: _files for n in DATA_TOOLS}
