"""Project initializers: ``npm init X``, ``npm create X``, ``pnpm create X``, ``bun create X``.

Each fetches the package ``create-X`` from the registry (``@scope/create-X`` for a scope, a
GitHub repository for ``bun create user/repo``) and runs it, exactly as ``npx create-X`` does,
so it asks as that package runner does: code fetched and run, whatever starter it claims to
be. ``npm init`` alone or with its flags (``npm init -y``) only writes a ``package.json``.
"""

from __future__ import annotations

from collections.abc import Iterator

from workset.safety.rules.base import Cmd, Context, Finding, Handler, Result

_VERBS = {"npm": ("init", "create"), "pnpm": ("create",), "yarn": ("create",), "bun": ("create",)}


def initializer(cmd: Cmd) -> str | None:
    """The package an ``npm init X``-style call fetches and runs, or None."""
    args = list(cmd.args())
    if not args or args[0] not in _VERBS.get(cmd.name, ()):
        return None
    names = [w for w in args[1:] if not w.startswith("-")]
    if not names:
        return None  # npm init -y: a package.json written here
    first = names[0]
    name, _, version = first.lstrip("@").partition("@")
    name = ("@" + name) if first.startswith("@") else name
    if name.startswith("@"):
        scope, _, rest = name.partition("/")
        package = f"{scope}/create" + (f"-{rest}" if rest else "")
    elif "/" in name:
        package = name  # a GitHub template: user/repo
    else:
        package = f"create-{name}"
    return package + (f"@{version}" if version else "")


def _initialize(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    package = initializer(cmd)
    if package is not None:
        yield Finding(
            "fetch-and-run",
            "ask",
            f"{cmd.name} {cmd.args()[0]} fetches {package} from the registry and runs it; a "
            "human must confirm, or declare it as a dependency of the project",
        )


HANDLERS: dict[str, Handler] = {n: _initialize for n in _VERBS}
