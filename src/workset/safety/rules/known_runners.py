"""Vouching for package runners: ``npx tsc``, ``bunx eslint``, ``uvx ruff check .``, ``pipx run
black .`` run a project tool (from the project's ``node_modules``, or a popular package from the
official index) and are judged as that tool by the ``vouch`` of
:mod:`~workset.safety.rules.known`, which passes itself in; anything else a runner fetches or
does (installs, publishes) asks.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from workset.safety.rules import network, option_commands, typosquat
from workset.safety.rules.base import Cmd, Context, Finding, unknown_program
from workset.safety.rules.known_lists import PROJECT

Vouch = Callable[[Cmd, Context], "Finding | None"]


def package_runner(cmd: Cmd, ctx: Context, vouch: Vouch) -> Finding | None:
    """``npx tsc --noEmit``: the project's own tool, judged as the tool; the runner's rule
    (:func:`~workset.safety.rules.network.package_runner`) asks for a package it fetches."""
    tool, fetched = network.package_runner(cmd)
    if tool is None:
        return fetched
    if tool.name in option_commands.WRAPPED_BY_RUNNERS:
        return None  # judged in full as the command it stands for
    if tool.name in _RUNNER_PROJECT:
        words = [a for a in tool.args() if not a.startswith("-")]
        browsers = (
            tool.name in ("playwright", "cypress")
            and words[:1] == ["install"]
            and not ({"--with-deps", "install-deps"} & set(tool.args()))
        )  # the official browsers, into the user's cache (--with-deps: system packages, sudo)
        if _RUNNER_EFFECTS & set(words[:2]) and tool.name != "husky" and not browsers:
            return unknown_program(f"{tool.name} {words[0]}", " (it installs or publishes)")
        if tool.name not in PROJECT:
            return None  # npx playwright test: the project's own test runner, linter or bundler
    return vouch(tool, ctx)


# Development tools a runner finds in node_modules that only build, check or test the project
# (not the ones that run a command given to them, delete, serve or publish).
_RUNNER_PROJECT = frozenset({"tsc", "eslint", "prettier", "jest", "vitest", "mocha", "webpack",
                             "vite", "rollup", "esbuild", "playwright", "cypress", "stylelint",
                             "biome", "tailwindcss", "postcss", "babel", "svelte-check",
                             "vue-tsc", "ava", "c8", "nyc", "markdownlint", "depcheck", "knip",
                             "tsup", "typedoc", "lint-staged", "husky", "nx", "turbo", "next",
                             "nuxt", "astro", "ng", "storybook", "prisma",
                             "drizzle-kit", "knex", "sequelize", "sequelize-cli", "typeorm",
                             "nodemon", "ts-node", "tsx", "npm-run-all", "run-p", "run-s",
                             "vue-cli-service", "react-scripts", "ember", "svelte-kit",
                             "wrangler-dev", "sass", "tsc-watch", "madge", "license-checker",
                             "size-limit", "stryker", "commitlint", "changeset",
                             "lerna", "docusaurus", "svgo"})  # fmt: skip
_RUNNER_EFFECTS = frozenset({"install", "publish", "deploy", "release", "login", "logout",
                             "upload", "reset", "push"})  # fmt: skip


def tool_runner(cmd: Cmd, ctx: Context, vouch: Vouch) -> Finding | None:
    """``uvx ruff check .``, ``pipx run black .``: a popular Python project tool (on the list
    the typosquat rule guards) fetched from the official index and run on the workspace is
    judged as that tool; any other package, or extra packages (``--with``), asks."""
    start = 1 if cmd.name == "uvx" else 2
    words = list(cmd.args()[start - 1 :])
    if cmd.name != "uvx" and cmd.args()[: start - 1] not in (("run",), ("tool",)):
        return unknown_program(cmd.argv[0])
    if cmd.name == "uv" and cmd.args()[:2] != ("tool", "run"):
        return unknown_program("uv tool")
    if cmd.name == "uv":
        words, start = words[1:], 3
    while words and words[0] in ("-q", "--quiet", "--isolated"):
        words, start = words[1:], start + 1
    tool = re.split(r"[=@<>]", words[0], maxsplit=1)[0].lower() if words else ""
    if not tool or any(cmd.dynamic) or tool not in typosquat.TRUSTED_PYPI or tool not in PROJECT:
        return unknown_program(f"{cmd.name} {tool}".strip(), " (a package fetched and run)")
    shifted = cmd.shifted(start)
    return vouch(shifted.with_argv([tool, *shifted.args()]), ctx)
