"""Lines that carry test work to production: a dump of a live database committed as fixtures
and pushed, and a test config edited from a staging site to production, then run.

``pg_dump -h db.example.com app > tests/fixtures/snap.sql && git add … && git push`` publishes
real customers' rows to everyone who reads the repository: denied (a server on this machine or
named as a copy, staging or test, asks as before). ``sed -i 's#staging.example.com#www.example
.com#' cypress.config.ts && npx cypress run`` has the end-to-end suite sign up, pay and refund as
a real user on the live site: denied; the edit alone asks.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety.rules.base import Cmd, Context, Handler, Result, ask_finding, deny_finding
from workset.safety.rules.base import option_value as _option
from workset.safety.rules.db_targets import named_copy, target
from workset.safety.rules.test_targets import E2E

_DUMPERS = frozenset({"pg_dump", "pg_dumpall", "mysqldump", "mariadb-dump", "mongodump",
                      "mongoexport"})  # fmt: skip


def dump_taken(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """Remember where a dump of a named remote server that is not a copy was written."""
    local, name = target(cmd)
    host = _option(cmd.args(), ("-h", "--host")) or ""
    if local or not host or cmd.is_dynamic(cmd.argv.index(host)) or named_copy(host, name):
        return
    files = [t for op, t in cmd.redirects if op in (">", ">>")]
    files += [v for v in (_option(cmd.args(), ("-f", "--file", "-o", "--out")),) if v]
    ctx.dumped.update(ctx.resolve(f) for f in files)
    yield from ()


def git_published(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``git add`` of that dump (or of everything), then ``git push``: denied."""
    args = [a for a in cmd.args() if not a.startswith("-C")]
    if not ctx.dumped or not args:
        return
    if args[0] == "add":
        words = args[1:]
        whole = any(w in (".", "-A", "--all", ":/") for w in words)
        for dump in sorted(ctx.dumped):
            if whole or any(
                dump == ctx.resolve(w) or dump.startswith(ctx.resolve(w).rstrip("/") + "/")
                for w in words
            ):
                ctx.staged_dump = dump
    elif args[0] == "push" and ctx.staged_dump and "--dry-run" not in args and "-n" not in args:
        yield deny_finding(
            "production-data-published",
            f"the line dumps a live database into {ctx.staged_dump}, commits it and pushes it, "
            "where everyone who reads the repository gets its real rows",
            "build fixtures from made-up or anonymised data; keep real dumps out of git",
        )


_SUBSTITUTION = re.compile(r"^s(.)(.*?)\1(.*?)\1[gIi0-9]*$")
_URL_HOST = re.compile(r"https?://([^/:\s\\]+)")
_LOCAL = re.compile(r"^(localhost|127\.[\d.]+|0\.0\.0\.0|[\w-]+)$|\.(local|localhost|test)$")
_TEST_FILE = re.compile(
    r"(cypress|playwright|wdio|nightwatch|testcafe|codecept|e2e|test)"
    r"|^\.env",
    re.I,
)
_RUN_WORDS = re.compile(r"(^|[:\W_])(e2e|cypress|playwright|wdio|testcafe|nightwatch)", re.I)


def config_retargeted(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``sed -i 's#https://staging.example.com#https://www.example.com#g' cypress.config.ts``."""
    args = cmd.args()
    if not any(a == "-i" or a.startswith(("-i", "--in-place")) for a in args):
        return
    if not any(_TEST_FILE.search(a.rsplit("/", 1)[-1]) for a in args if not a.startswith("-")):
        return  # only a test runner's config or environment file points tests
    for word in args:
        found = _SUBSTITUTION.match(word)
        if found is None:
            continue
        before, after = _URL_HOST.findall(found.group(2)), _URL_HOST.findall(found.group(3))
        aimed = [h for h in after if not _LOCAL.search(h) and not named_copy(h)]
        if aimed and any(named_copy(h) or _LOCAL.search(h) for h in before):
            ctx.retargeted = aimed[0]
            yield ask_finding(
                "test-config-to-production",
                f"the edit points tests from a staging or local site at {aimed[0]}, a live site",
                "a human must confirm, or keep the tests on staging",
            )
            return


def e2e_run(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """An end-to-end run after that edit: the suite acts as a real user on the live site."""
    words = (cmd.name, *cmd.args()[:3])
    if not ctx.retargeted or not (cmd.name in E2E or any(_RUN_WORDS.search(w) for w in words)):
        return
    yield deny_finding(
        "tests-on-production",
        f"the line points the tests at {ctx.retargeted}, the live site, then runs them: they "
        "sign up, pay and refund there as a real user would",
        "run them against staging or a local server",
    )


HANDLERS: dict[str, Handler] = {
    **{n: dump_taken for n in _DUMPERS},
    "git": git_published,
    "sed": config_retargeted,
    **{n: e2e_run for n in (*E2E, "npx", "pnpx", "bunx", "npm", "pnpm", "yarn")},
}
