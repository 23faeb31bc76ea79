"""Rules for package managers' settings and scripts: where packages come from, and the code
``npm install`` runs.

Pointing npm, yarn, pnpm or pip at a registry over plain ``http://`` on another host
(``registry=http://203.0.113.30:4873/`` in ``~/.npmrc``, ``npm config set registry http://…``,
``pip config set global.index-url http://…``) lets anyone on the way swap the packages every
later install fetches; it is denied. A registry on this machine (a local mirror) or over
https only asks as the config write it is. ``npm pkg set scripts.NAME=CODE`` and ``npm
set-script NAME CODE`` leave CODE for ``npm install``/``npm run`` to run, so CODE is analysed
like the line itself; other ``npm pkg`` calls edit ``package.json`` in the workspace.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator

from workset.safety.rules.base import Cmd, Context, Finding, Handler, Nested, Result, parse_flags
from workset.safety.rules.static import static_output

_REGISTRY_KEYS = re.compile(
    r"^(@[\w-]+:)?registry$|^(global\.|install\.)?(extra-)?index-url$|^index$", re.IGNORECASE
)
_PLAIN_REMOTE = re.compile(r"^http://(?!(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?(/|$))")
_CONFIG_FILE = re.compile(r"(^|/)(\.npmrc|\.yarnrc(\.yml)?|pip\.conf|pip\.ini|\.pydistutils\.cfg)$")
_SETTING = re.compile(r"^\s*([@\w:.-]+)\s*[=:]\s*['\"]?(\S+?)['\"]?\s*$", re.MULTILINE)


def _insecure(key: str, value: str) -> Finding | None:
    if _REGISTRY_KEYS.match(key.strip()) and _PLAIN_REMOTE.match(value.strip()):
        return Finding(
            "registry-insecure",
            "deny",
            f"{key.strip()}={value.strip()} makes every later install fetch packages over plain "
            "http from another host, where anyone on the way can swap them; use the official "
            "registry over https, or ask the user to configure a mirror",
        )
    return None


def _config_set(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``npm config set registry URL`` / ``pip config set global.index-url URL``."""
    words = [w for _, w in parse_flags(cmd.args())[1]]
    if words[:2] in (["config", "set"], ["set"]) or (words[:1] == ["config"] and "set" in words):
        rest = words[words.index("set") + 1 :]
        pairs = [tuple(w.split("=", 1)) for w in rest if "=" in w]
        if len(rest) >= 2 and "=" not in rest[0]:
            pairs.append((rest[0], rest[1]))
        for key, value in pairs:
            found = _insecure(key, value)
            if found is not None:
                yield found
                return
        project = any(a in ("--location=project", "--site") for a in cmd.args()) or (
            "--location" in cmd.args() and "project" in cmd.args()
        )
        if not project:
            yield Finding(
                "user-config",
                "ask",
                f"{cmd.name} config set changes the user's {cmd.name} settings outside the "
                "workspace, for every project; a human must confirm, or set it in the project "
                "(--location=project)",
            )


def _npm_scripts(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """The code ``npm pkg set scripts.X=CODE`` / ``npm set-script X CODE`` leaves to run."""
    words = [w for _, w in parse_flags(cmd.args())[1]]
    if words[:2] == ["pkg", "set"]:
        for word in words[2:]:
            key, eq, value = word.partition("=")
            if eq and key.startswith("scripts."):
                yield Nested(value)
    elif words[:1] == ["set-script"] and len(words) > 2:
        yield Nested(words[2])


def _written_settings(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``echo registry=http://… >> ~/.npmrc``, or the same through ``tee``."""
    if cmd.name == "tee":
        places = [w for _, w in parse_flags(cmd.args())[1]]
        text = static_output(cmd.upstream)
    else:
        places = [t for op, t in cmd.redirects if op in (">", ">>", ">|")]
        text = static_output([dataclasses.replace(cmd, redirects=())])
    if text is None or not any(_CONFIG_FILE.search(ctx.resolve(p)) for p in places):
        return
    for key, value in _SETTING.findall(text):
        found = _insecure(key, value)
        if found is not None:
            yield found
            return


def _npm(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    yield from _config_set(cmd, ctx)
    yield from _npm_scripts(cmd, ctx)


HANDLERS: dict[str, Handler] = {
    "npm": _npm,
    **{n: _config_set for n in ("pnpm", "yarn", "pip", "pip3", "uv")},
    **{n: _written_settings for n in ("echo", "printf", "tee", "cat")},
}
