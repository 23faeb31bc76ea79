#!/usr/bin/env python3
"""Group the error lines of a log by signature and print counts, line ranges and a sample.

Usage: error_summary.py LOGFILE [--level ERROR|WARN] [--top N] [--since TEXT] [--pattern RE]

See references/formats.md for the level words recognised and how lines are grouped.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ERROR_WORDS = r"ERROR|ERR|FATAL|CRITICAL|CRIT|PANIC|SEVERE|EMERG|ALERT"
WARN_WORDS = r"WARN|WARNING"
TIMESTAMP = re.compile(
    r"^\s*(?:\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?\]?"
    r"|[A-Z][a-z]{2} +\d{1,2} \d{2}:\d{2}:\d{2}|\d{10}(?:\.\d+)?)\s*"
)
VARIABLE = [
    (re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b", re.I), "<id>"),
    (re.compile(r"\b(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?\b"), "<ip>"),
    (re.compile(r"\b0x[0-9a-f]+\b|\b[0-9a-f]{8,}\b", re.I), "<id>"),
    (re.compile(r"\"[^\"]*\"|'[^']*'"), '"…"'),
    (re.compile(r"(?<![\w.])/[\w.\-/]+"), "<path>"),
    (re.compile(r"\d+(?:\.\d+)?"), "<n>"),
]


@dataclass
class Group:
    level: str
    count: int
    first: int
    last: int
    sample: str


def signature(line: str) -> str:
    text = TIMESTAMP.sub("", line.strip())
    for pattern, placeholder in VARIABLE:
        text = pattern.sub(placeholder, text)
    return re.sub(r"\s+", " ", text)[:300]


def summarise(lines: list[str], matcher: re.Pattern[str], since: str) -> dict[str, Group]:
    groups: dict[str, Group] = {}
    in_traceback = 0
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip("\n")
        if since and TIMESTAMP.match(line) and line.lstrip("[ ") < since:
            continue
        if line.startswith("Traceback (most recent call last)"):
            in_traceback = number
            continue
        if in_traceback:
            if line.startswith((" ", "\t")) or not line.strip():
                continue
            add(groups, "ERROR", signature(line), in_traceback, line)
            in_traceback = 0
            continue
        found = matcher.search(line)
        if found:
            level = "WARN" if re.fullmatch(WARN_WORDS, found.group(0), re.I) else "ERROR"
            add(groups, level, signature(line), number, line)
    return groups


def add(groups: dict[str, Group], level: str, key: str, number: int, line: str) -> None:
    group = groups.get(key)
    if group is None:
        groups[key] = Group(level, 1, number, number, line.strip()[:240])
    else:
        group.count += 1
        group.last = number


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("logfile", type=Path)
    parser.add_argument("--level", choices=["ERROR", "WARN"], default="ERROR")
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--since", default="", help="skip timestamped lines before this text")
    parser.add_argument("--pattern", default="", help="regex: matching lines count as errors")
    args = parser.parse_args()
    try:
        with args.logfile.open(encoding="utf-8", errors="replace") as handle:
            lines = handle.readlines()
    except OSError as exc:
        sys.exit(f"{args.logfile}: cannot read ({exc.strerror}); check the path")
    words = ERROR_WORDS if args.level == "ERROR" else f"{ERROR_WORDS}|{WARN_WORDS}"
    try:
        matcher = re.compile(args.pattern or rf"(?<![\w-])(?:{words})(?![\w-])", re.I)
    except re.error as exc:
        sys.exit(f"--pattern is not a valid regular expression ({exc})")
    groups = sorted(
        summarise(lines, matcher, args.since).values(), key=lambda g: (-g.count, g.first)
    )
    total = sum(g.count for g in groups)
    print(
        f"{args.logfile}: {len(lines):,} lines, {total:,} matching lines, "
        f"{len(groups)} distinct signatures"
    )
    for g in groups[: args.top]:
        print(f"{g.count:>7,}  {g.level:<5}  lines {g.first}-{g.last}  {g.sample}")
    if len(groups) > args.top:
        print(f"… {len(groups) - args.top} more signatures: rerun with --top {len(groups)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
