#!/usr/bin/env python3
"""Print a configuration file as `key = value  (line N)` lines with secrets masked.

Usage: show_config.py FILE [--key SUBSTRING]

Formats: INI-style files (.ini .cfg .conf and systemd .service .socket .timer .mount .path),
TOML, JSON, YAML (needs PyYAML) and .env files. Repeated keys (as in systemd units) are all
shown. Values whose key mentions password, secret, token, key, credential or auth are
replaced by a mask that only says how long they are.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

SECRET = re.compile(r"pass|secret|token|key|credential|auth|private", re.IGNORECASE)
INI = {".ini", ".cfg", ".conf", ".service", ".socket", ".timer", ".mount", ".path", ".unit"}
Setting = tuple[str, str, int | None]


def mask(key: str, value: str) -> str:
    if key.rsplit(".", 1)[-1].upper() == "ENVIRONMENT":
        return mask_environment(value)
    if SECRET.search(key.rsplit(".", 1)[-1]) and value:
        return f"****** (masked, {len(value)} characters)"
    return value


def mask_environment(value: str) -> str:
    """systemd `Environment=` holds NAME=VALUE pairs: mask the secret ones."""
    try:
        pairs = shlex.split(value)
    except ValueError:
        return value
    shown = []
    for pair in pairs:
        name, sep, inner = pair.partition("=")
        shown.append(f"{name}{sep}{mask(name, inner)}" if sep else pair)
    return " ".join(shown)


def read_ini(text: str) -> Iterator[Setting]:
    section = ""
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip()
            continue
        key, sep, value = line.partition("=")
        if not sep:
            key, sep, value = line.partition(":")
        name = key.strip() if not section else f"{section}.{key.strip()}"
        yield name, value.strip(), number


def read_env(text: str) -> Iterator[Setting]:
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.removeprefix("export ").partition("=")
        yield key.strip(), value.strip().strip("'\""), number


def flatten(data: Any, prefix: str = "") -> Iterator[Setting]:
    if isinstance(data, dict):
        for key, value in data.items():
            yield from flatten(value, f"{prefix}.{key}" if prefix else str(key))
    elif isinstance(data, list) and any(isinstance(item, dict | list) for item in data):
        for index, value in enumerate(data):
            yield from flatten(value, f"{prefix}[{index}]")
    else:
        yield prefix, json.dumps(data) if not isinstance(data, str) else data, None


def settings(path: Path, text: str) -> list[Setting]:
    suffix = path.suffix.lower()
    if suffix == ".toml":
        return list(flatten(tomllib.loads(text)))
    if suffix == ".json":
        return list(flatten(json.loads(text)))
    if suffix in (".yaml", ".yml"):
        try:
            import yaml
        except ImportError:
            sys.exit(f"{path}: YAML needs PyYAML (pip install pyyaml); read it with read_file")
        return list(flatten(yaml.safe_load(text)))
    if suffix == ".env" or path.name.startswith(".env"):
        return list(read_env(text))
    if suffix in INI:
        return list(read_ini(text))
    sys.exit(
        f"{path}: unsupported format {suffix or '(no extension)'!r}; read it with read_file "
        "and mask secret values yourself"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--key", default="", help="show only keys containing this text")
    args = parser.parse_args()
    try:
        text = args.file.read_text(encoding="utf-8")
    except OSError as exc:
        sys.exit(f"{args.file}: cannot read ({exc.strerror}); check the path and permissions")
    try:
        found = settings(args.file, text)
    except (ValueError, tomllib.TOMLDecodeError) as exc:
        sys.exit(f"{args.file}: not valid ({exc}); read it with read_file")
    shown = [s for s in found if args.key.lower() in s[0].lower()]
    for key, value, line in shown:
        where = f"  (line {line})" if line is not None else ""
        print(f"{key} = {mask(key, value)}{where}")
    print(f"# {len(shown)} of {len(found)} settings from {args.file}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
