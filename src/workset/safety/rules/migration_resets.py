"""A framework's migrations undone or its database emptied, pointed at a live database.

``DATABASE_URL=postgresql://…@db-prod.example.com/app alembic downgrade base``, ``npx prisma
migrate reset --force``, ``DJANGO_SETTINGS_MODULE=config.settings.production python manage.py
flush``: the command drops tables or deletes every row, and the environment written before it
aims it at another machine's database or the production settings. Each alone asks (the
variable by :mod:`~workset.safety.rules.environment`); together they are denied.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import urlsplit

from workset.safety.rules.base import Cmd, Context, Handler, Result
from workset.safety.rules.base import deny_finding as _deny
from workset.safety.rules.env_names import PRODUCTION
from workset.safety.rules.loopback import LOCAL_URL

# What drops the schema, undoes migrations or deletes every row, by the program that runs it.
_RESETS = {
    "alembic": r"\bdowngrade\b",
    "flask": r"\bdb\s+downgrade\b",
    "prisma": r"\bmigrate\s+reset\b|\bdb\s+push\b.*--(force-reset|accept-data-loss)\b",
    "manage.py": r"\b(flush|reset_db)\b|\bmigrate\s+\w+\s+zero\b",
    "rails": r"\bdb:(drop|reset|purge|rollback|schema:load|migrate:reset|truncate_all)\b",
    "knex": r"\bmigrate:(rollback|down)\b",
    "sequelize": r"\bdb:(migrate:undo(:all)?|drop)\b",
    "typeorm": r"\bschema:drop\b|\bmigration:revert\b",
    "mix": r"\becto\.(drop|reset|rollback)\b",
}
_RUNS = {
    **dict.fromkeys(("npx", "bunx", "pnpm", "yarn", "prisma"), "prisma"),
    **dict.fromkeys(("python", "python3", "django-admin"), "manage.py"),
    **dict.fromkeys(("rails", "rake"), "rails"),
    **dict.fromkeys(("sequelize", "sequelize-cli"), "sequelize"),
    **{n: n for n in ("alembic", "flask", "knex", "typeorm", "mix")},
}
_DATABASE = re.compile(
    r"(DATABASE|DB)_(URL|URI|HOST)$|^(PGHOST|MYSQL_HOST|SQLALCHEMY_DATABASE_URI)$", re.IGNORECASE
)
_NEARBY = (".local", ".test", ".localhost", "host.docker.internal")
_SETTINGS = re.compile(r"SETTINGS|_ENV$|^ENV|ENVIRONMENT|PROFILES?_ACTIVE|^STAGE$")


def _live(ctx: Context) -> str | None:
    """What the variables before the command aim it at, if that is live."""
    for name, value in ctx.prefixed.items():
        value = value.strip("'\"")
        host = urlsplit(value).hostname if "://" in value else value.split(":")[0]
        if (
            _DATABASE.search(name)
            and host
            and "." in host
            and not LOCAL_URL.match(host)
            and not host.endswith(_NEARBY)
        ):
            return f"the database at {host}"  # a named machine's, not a compose service's
        if _SETTINGS.search(name) and PRODUCTION.search(value):
            return f"the production settings ({name}={value})"
    return None


def _reset(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    tool = _RUNS[cmd.name]
    words = " ".join(cmd.args())
    if tool == "prisma" and cmd.name != "prisma" and "prisma" not in cmd.args():
        return
    if tool == "manage.py" and cmd.name != "django-admin" and "manage.py" not in words:
        return
    said = re.search(_RESETS[tool], words)
    where = _live(ctx) if said is not None else None
    if said is not None and where is not None:
        yield _deny("migration-destroy", f"{cmd.name} … {said.group(0)} drops tables or deletes "
                    f"every row, aimed at {where}", "never reset or roll back a live database "
                    "from an agent; show the command to a human")  # fmt: skip


HANDLERS: dict[str, Handler] = {n: _reset for n in _RUNS}
