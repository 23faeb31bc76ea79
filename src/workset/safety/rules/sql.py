"""SQL that throws data away: ``DROP``, ``TRUNCATE``, ``DELETE`` without ``WHERE``, and the
Mongo/Redis equivalents. Shared by the database clients (:mod:`~workset.safety.rules.infra`)
and ``sqlite3`` (:mod:`~workset.safety.rules.known`).
"""

from __future__ import annotations

import re

SQL_DESTROY = re.compile(
    r"\b(DROP\s+(DATABASE|SCHEMA|TABLE|USER|ROLE|INDEX|VIEW|COLLECTION)|TRUNCATE\b|"
    r"DELETE\s+FROM\s+[\w.\"`]+\s*(;|$)|FLUSHALL|FLUSHDB|dropDatabase\s*\(|\.drop\s*\(|"
    # a WHERE that every row meets is none: "WHERE 1=1", "WHERE true" (ClickHouse's
    # "ALTER TABLE t DELETE WHERE 1" too)
    r"\bDELETE\b[^;]*?\bWHERE\s+(1\s*=\s*1|true|1|'a'\s*=\s*'a')\s*(;|$|\)|\"|')|"
    r"deleteMany\s*\(\s*\{\s*\}\s*\))",
    re.IGNORECASE,
)


def destroys(sql: str) -> bool:
    return SQL_DESTROY.search(sql) is not None
