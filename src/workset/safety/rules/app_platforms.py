"""Web app platforms whose local and read verbs are shown to change nothing outside the
workspace: hosting (``vercel``, ``netlify``, ``wrangler``, ``firebase``), backends and
serverless databases (``supabase``, ``neonctl``, ``pscale``, ``turso``, ``convex``), payments
(``stripe``), auth (``auth0``), error tracking (``sentry-cli``) and ``volta``'s listings.

A verb runs without asking when it only lists or shows (``firebase projects:list``,
``auth0 logs tail``), or when it stays on this machine: a development server or an emulator
(``netlify dev``, ``turso dev``, ``firebase emulators:start``), a dry run (``wrangler deploy
--dry-run``), a migration of the local database (``wrangler d1 migrations apply db
--local``), types generated into the workspace (``supabase gen types typescript --local``).
Stripe's verbs run only in test mode (no ``--live``, no live key). Everything else (deploy,
publish, delete, settings, secrets, a login) asks as an unknown program; what is clearly a
harm is denied by :mod:`~workset.safety.rules.app_harms`.
"""

from __future__ import annotations

import re

from workset.safety.rules import platform_reads, toolchains
from workset.safety.rules.base import Cmd, Context, Finding, Voucher, option_value, unknown_program
from workset.safety.rules.loopback import LOCAL_HOST

# Binaries a package runner finds in the project's node_modules (``npx expo start``): the
# packages of these platforms that projects declare as development dependencies.
RUNNER_TOOLS = frozenset({"expo", "convex", "supabase", "sentry-cli", "vercel", "netlify"})

# Verbs that only list, show or follow logs, in any platform's command tree.
_READS = frozenset({"list", "ls", "show", "get", "info", "inspect", "status", "logs", "log",
                    "tail", "whoami", "me", "version", "describe", "view", "diff", "explain",
                    "resolve", "check", "lint", "validate", "retrieve", "search-plugins",
                    "sdkconfig", "find"})  # fmt: skip
# Nouns whose listing prints secrets or personal data: asked even when only read.
_SENSITIVE = frozenset({"env", "secret", "secrets", "variables", "vars", "users", "user",
                        "connection-string", "credentials", "keys", "config",
                        "api-keys"})  # fmt: skip
# Options that show secrets a listing otherwise hides.
_REVEAL = frozenset({"--reveal", "--reveal-secrets", "--show-secrets", "--plain", "--json-secrets",
                     "--show-values", "--values"})  # fmt: skip


def verbs(cmd: Cmd) -> list[str]:
    """The words of the command tree, lowered and split at ``:`` (``sites:list`` is two)."""
    return [part for word in operands(cmd) for part in word.lower().split(":") if part]


def operands(cmd: Cmd) -> list[str]:
    """The words that are not options, nor the word after an option that takes one
    (``--project acme deploy``)."""
    words = cmd.args()
    out: list[str] = []
    for index, word in enumerate(words):
        if word.startswith("-"):
            continue
        before = words[index - 1] if index else ""
        if before.startswith("--") and "=" not in before and before not in _FLAGS:
            continue  # the value of the option before it
        out.append(word)
    return out


# Options of these CLIs that take no value (the word after them is a verb or an operand).
_FLAGS = frozenset({"--local", "--remote", "--force", "--yes", "--json", "--prod", "--debug",
                    "--dry-run", "--linked", "--clean", "--dev-client", "--experimental",
                    "--non-interactive", "--live", "--preview", "--persist",
                    "--prebuilt"})  # fmt: skip


def _reads(words: list[str], args: tuple[str, ...], depth: int = 3) -> bool:
    """The command only lists, shows or tails, and nothing it reads holds secrets."""
    head = words[:depth]
    return bool(set(head) & _READS) and not (set(head) & _SENSITIVE or set(args) & _REVEAL)


def _local_host(cmd: Cmd, options: tuple[str, ...]) -> bool:
    """No option of ``options`` names an address beyond this machine."""
    return stays_local(option_value(cmd.args(), options))


# An address to listen on that is this machine only: a bare port, loopback, or none given.
_LISTEN_LOCAL = re.compile(
    r"^((tcp|https?)://)?((localhost|127\.\d+\.\d+\.\d+|\[?::1\]?)(:\d+)?|:?\d+)/?$", re.I
)


def stays_local(address: str | None) -> bool:
    """``--listen 3000``, ``--host 127.0.0.1``: this machine only; ``0.0.0.0``, ``::``, a LAN
    address or a name of another host are reached from elsewhere."""
    return address is None or _LISTEN_LOCAL.match(address.split(",")[0]) is not None


def _judged(cmd: Cmd, ctx: Context, local: bool) -> Finding | None:
    """None when shown local or read-only; else the platform's read verbs, or an ask."""
    if local:
        return None
    if cmd.name in platform_reads.VOUCHERS:
        return platform_reads.VOUCHERS[cmd.name](cmd, ctx)  # its read verbs, its denies
    return unknown_program(cmd.argv[0], " (only its local and read verbs are known)")


def vercel(cmd: Cmd, ctx: Context) -> Finding | None:
    """``vercel dev``, ``vercel build``, listings; deploys, env and domains ask."""
    words, args = verbs(cmd), cmd.args()
    local = (words[:1] == ["dev"] and _local_host(cmd, ("--listen", "-l"))) or words[:1] == [
        "build"
    ]
    return _judged(cmd, ctx, local or _reads(words, args, 2))


def netlify(cmd: Cmd, ctx: Context) -> Finding | None:
    """``netlify dev``, ``netlify build``, ``functions:serve``, listings."""
    words, args = verbs(cmd), cmd.args()
    local = words[:1] in (["dev"], ["serve"], ["build"]) or words[:2] == ["functions", "serve"]
    local = local and "--live" not in args  # --live: a public address to the dev server
    return _judged(cmd, ctx, local or _reads(words, args, 2))


def wrangler(cmd: Cmd, ctx: Context) -> Finding | None:
    """``wrangler dev``, ``types``, a dry-run deploy, D1 and KV on the local copy."""
    words, args = verbs(cmd), cmd.args()
    remote = "--remote" in args
    served = words[:1] == ["dev"] or words[:2] == ["pages", "dev"]
    local = (served and not remote) or words[:1] == ["types"]
    dry = "--dry-run" in args and words[:1] in (["deploy"], ["publish"], ["versions"])
    on_copy = "--local" in args and not remote and words[:1] in (["d1"], ["kv"], ["r2"])
    return _judged(cmd, ctx, local or dry or on_copy or _reads(words, args))


def firebase(cmd: Cmd, ctx: Context) -> Finding | None:
    """``firebase emulators:start``, ``serve``, listings (``projects:list``)."""
    words, args = verbs(cmd), cmd.args()
    local = words[:2] == ["emulators", "start"] or words[:1] == ["serve"]
    local = local and _local_host(cmd, ("--host", "-o"))
    return _judged(cmd, ctx, local or _reads(words, args))


def supabase(cmd: Cmd, ctx: Context) -> Finding | None:
    """The local stack (``start``, ``db reset``, ``functions serve``), generated types,
    migrations written into the workspace, listings; ``--linked`` and ``--db-url`` elsewhere
    reach the hosted project and ask."""
    words, args = verbs(cmd), cmd.args()
    hosted = "--linked" in args or not _local_url(option_value(args, ("--db-url",)))
    local = (
        words[:1] in (["start"], ["stop"], ["status"], ["init"])
        or words[:2] in (["functions", "serve"], ["functions", "new"], ["migration", "new"],
                         ["test", "db"], ["db", "start"])
        or (words[:2] in (["db", "reset"], ["db", "diff"], ["db", "lint"]) and not hosted)
        or (words[:2] == ["gen", "types"] and not {"--db-url"} & set(args))
    )  # fmt: skip
    dry = "--dry-run" in args and words[:2] == ["db", "push"]
    return _judged(cmd, ctx, local or dry or _reads(words, args))


def _local_url(url: str | None) -> bool:
    return url is None or bool(re.match(r"^\w+://([^@/]*@)?(localhost|127\.[\d.]+)[:/]", url))


def serverless_db(cmd: Cmd, ctx: Context) -> Finding | None:
    """``turso dev``, ``pscale connect`` (a proxy on 127.0.0.1), ``convex dev`` and
    ``codegen`` (the developer's own deployment), listings of databases and branches."""
    words, args = verbs(cmd), cmd.args()
    local = (
        (cmd.name == "turso" and words[:1] == ["dev"])
        or (cmd.name == "pscale" and words[:1] == ["connect"]
            and _local_host(cmd, ("--host",)))
        or (cmd.name == "convex" and words[:1] in (["dev"], ["codegen"])
            and not {"--prod", "--run", "--url"} & set(args))
    )  # fmt: skip
    return _judged(cmd, ctx, local or _reads(words, args))


_STRIPE_LOCAL = frozenset({"trigger", "listen", "logs", "samples", "status", "version",
                           "completion", "open"})  # fmt: skip


def stripe(cmd: Cmd, ctx: Context) -> Finding | None:
    """Test mode only: ``stripe trigger EVENT``, ``listen --forward-to localhost:…``, ``logs
    tail``, reads of resources; with ``--live`` or a live key everything asks (writes there are
    denied by :mod:`~workset.safety.rules.app_harms`)."""
    words, args = verbs(cmd), cmd.args()
    key = option_value(args, ("--api-key",))
    test = "--live" not in args and (key is None or key.startswith(("sk_test_", "rk_test_")))
    forward = option_value(args, ("--forward-to", "-f", "--forward-connect-to"))
    local = words[:1] and words[0] in _STRIPE_LOCAL and (forward is None or LOCAL_HOST.match(
        forward) is not None)  # fmt: skip
    reads = words[:2] == ["get"] or (len(words) >= 2 and words[1] in ("list", "retrieve"))
    return _judged(cmd, ctx, test and bool(local or reads) and words[:1] != ["config"])


def auth0(cmd: Cmd, ctx: Context) -> Finding | None:
    """Listings of tenants, apps, APIs, logs; users, secrets and every change ask."""
    words, args = verbs(cmd), cmd.args()
    return _judged(cmd, ctx, _reads(words, args, 2) and words[:1] != ["test"])


def sentry(cmd: Cmd, ctx: Context) -> Finding | None:
    """``sentry-cli releases list``, ``info``, ``sourcemaps explain``; uploads ask."""
    words, args = verbs(cmd), cmd.args()
    return _judged(cmd, ctx, words[:1] == ["info"] or _reads(words, args, 2))


def volta(cmd: Cmd, ctx: Context) -> Finding | None:
    """``volta list``, ``volta which node``: printed; installs are judged as runtimes."""
    if cmd.args()[:1] in (("list",), ("ls",), ("which",)):
        return None
    return toolchains.runtime_install(cmd, ctx)


VOUCHERS: dict[str, Voucher] = {
    "vercel": vercel,
    "netlify": netlify,
    "wrangler": wrangler,
    "firebase": firebase,
    "supabase": supabase,
    "stripe": stripe,
    "auth0": auth0,
    "sentry-cli": sentry,
    "volta": volta,
    **{n: serverless_db for n in ("turso", "pscale", "convex", "neonctl", "neon")},
}
