"""What a web or mobile app developer's tools do that a human must confirm, or must not do.

Asked, because the effect leaves this machine or weakens what ships:

- a development server told to listen on every interface (``vite --host 0.0.0.0``, ``next dev
  -H 0.0.0.0``, ``npm run dev -- --host``): everyone on the network reaches it, and dev
  servers serve source files, maps and debugging endpoints;
- every dependency's install scripts trusted at once (``bun pm trust --all``);
- end-to-end tests pointed at a deployed site (``CYPRESS_BASE_URL=https://…``, ``--config
  baseUrl=https://…``): the suites sign up, pay and delete there;
- an edit that switches off a protection the project's code turns on: security headers
  deleted, personal data sent to a tracker, session replays unmasked.

Denied, each with what to do instead: a hosted app, site, project, database or bucket
deleted or reset (unless its name says it is a preview or test copy); payment API calls that
change things with a live key; a secret put into a variable the build ships to every browser
or app (``NEXT_PUBLIC_…``, ``EXPO_PUBLIC_…``, plain-text visibility), or production values
into preview builds; TLS checks switched off in a hosted app's settings; an auth provider's
attack protections switched off or its callbacks opened to any address.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety.rules import network
from workset.safety.rules.app_platforms import stays_local
from workset.safety.rules.base import (
    Cmd,
    Context,
    Finding,
    Handler,
    Result,
    ask_finding,
)
from workset.safety.rules.test_targets import E2E, aimed_elsewhere

# Development servers, and the options that say where they listen.
_DEV_SERVERS = frozenset({"vite", "next", "nuxt", "nuxi", "astro", "remix", "svelte-kit",
                          "webpack-dev-server", "webpack", "ng", "gatsby", "storybook",
                          "start-storybook", "serve", "http-server", "live-server", "parcel",
                          "vercel", "netlify", "wrangler", "firebase", "docusaurus",
                          "eleventy", "vite-node", "react-native", "uvicorn", "flask",
                          "hypercorn", "hugo", "jekyll", "mkdocs"})  # fmt: skip
_LISTEN = frozenset({"--host", "--hostname", "-H", "--ip", "--listen", "--bind", "--address",
                     "--listen-host"})  # fmt: skip
_SHORT_LISTEN = frozenset({"-a", "-b", "-l"})  # http-server -a, hugo -b, serve -l
# Dev servers where a bare ``--host`` means every interface.
_BARE_HOST = frozenset({"vite", "astro", "nuxt", "nuxi", "remix", "svelte-kit", "vite-node"})


def _everywhere(name: str, words: list[str], short: bool = True) -> str | None:
    """The address a dev server is told to listen on when it is beyond this machine."""
    short = short and name in _DEV_SERVERS - {"ng", "next"}
    options = _LISTEN | (_SHORT_LISTEN if short else set())
    for index, word in enumerate(words):
        option, equals, value = word.partition("=")
        if option not in options:
            continue
        if not equals:
            value = words[index + 1] if index + 1 < len(words) else ""
        if not value or value.startswith("-"):
            if option == "--host" and name in _BARE_HOST:
                return "every interface"
            continue
        if not stays_local(value):
            return value
    return None


def _served_everywhere(tool: Cmd, how: str) -> Iterator[Finding]:
    address = _everywhere(tool.name, list(tool.args())) if tool.name in _DEV_SERVERS else None
    if address is not None:
        yield _serves_network(how, address)


def _serves_network(how: str, address: str) -> Finding:
    return ask_finding(
        "serves-network",
        f"{how} listens on {address}, so everyone on the network reaches the development "
        "server, its source files and its debugging endpoints",
        "a human must confirm, or leave it on localhost",
    )


def _script_args(cmd: Cmd) -> list[str]:
    """What ``npm run dev -- --host 0.0.0.0`` passes on to the script's server."""
    args = list(cmd.args())
    return args[args.index("--") + 1 :] if "--" in args else []


def dev_server(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """A development server (run directly, by a package runner or by a project script)
    listening beyond this machine."""
    if cmd.name in ("npx", "bunx"):
        tool, _ = network.package_runner(cmd)
        if tool is not None:
            yield from _served_everywhere(tool, f"{cmd.name} {tool.name}")
            yield from aimed_elsewhere(tool)
        return
    if cmd.name in ("npm", "pnpm", "yarn", "bun"):
        passed = _script_args(cmd)
        address = _everywhere("vite", passed, short=False)  # the script's server, unnamed
        if address is not None:
            yield _serves_network(f"{cmd.name} run", address)
        if cmd.name == "bun":
            yield from _trusts_scripts(cmd)
        return
    yield from _served_everywhere(cmd, cmd.name)
    yield from aimed_elsewhere(cmd)


def _trusts_scripts(cmd: Cmd) -> Iterator[Finding]:
    if cmd.args()[:2] == ("pm", "trust"):
        yield ask_finding(
            "install-scripts-trusted",
            "bun pm trust lets dependencies run their install scripts (code from the registry, "
            "run with the user's rights on every install)",
            "a human must confirm, and trust only a package named and read",
        )


# s/PATTERN/REPLACEMENT/ (any delimiter) and /PATTERN/d in a sed or perl script.
_SUBSTITUTION = re.compile(r"(?:^|[;\s{])s([^\w\s\\])((?:\\.|(?!\1).)*)\1((?:\\.|(?!\1).)*)\1")
_DELETION = re.compile(r"(?:^|[;\s{])/((?:\\.|[^/])*)/\s*d")
_SETTING = re.compile(r"([A-Za-z_][\w-]*)[\"']?\s*[:=]\s*(true|false)\b", re.IGNORECASE)
# Settings that protect when true (masking, verification, CSRF, secure cookies), and ones that
# expose when true (personal data sent, checks skipped, everything allowed).
_PROTECTS = re.compile(r"mask|block|secure|httponly|verif|csrf|saniti|scrub|redact|escape|"
                       r"enforce|protect|encrypt|validat|rejectunauthorized|samesite|hsts",
                       re.IGNORECASE)  # fmt: skip
_EXPOSES = re.compile(r"pii|allow_?all|insecure|dangerous|disable|skip_?(auth|verif|csrf|check)|"
                      r"bypass|unsafe", re.IGNORECASE)  # fmt: skip
_SECURITY_HEADER = re.compile(r"Content-Security-Policy|Strict-Transport-Security|X-Frame-Options|"
                              r"X-Content-Type-Options|Referrer-Policy|Permissions-Policy|"
                              r"Cross-Origin-\w+-Policy", re.IGNORECASE)  # fmt: skip


def _weakened(pattern: str, replacement: str) -> str | None:
    """The protective setting a substitution turns off, or the header it removes."""
    before = {k.lower(): v.lower() for k, v in _SETTING.findall(pattern)}
    for key, value in _SETTING.findall(replacement):
        was = before.get(key.lower())
        if was is None or was == value.lower():
            continue
        if (_PROTECTS.search(key) and value.lower() == "false") or (
            _EXPOSES.search(key) and value.lower() == "true"
        ):
            return f"{key}: {was} → {value}"
    header = _SECURITY_HEADER.search(pattern)
    if header and not _SECURITY_HEADER.search(replacement):
        return header.group(0)
    return None


def protection_edit(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``sed -i 's/maskAllText: true/maskAllText: false/' sentry.client.config.ts``, ``sed -i
    '/Content-Security-Policy/d' next.config.mjs``: a protection of the app switched off."""
    args = cmd.args()
    if not any(re.fullmatch(r"-\w*i\S*|--in-place(=.*)?", a) for a in args):
        return
    for word in args:
        found = [_weakened(a, b) for _, a, b in _SUBSTITUTION.findall(word)]
        found += [_weakened(p, "") for p in _DELETION.findall(word)]
        what = next((f for f in found if f), None)
        if what is not None:
            yield ask_finding(
                "protection-off",
                f"the edit switches off a protection the app ships with ({what}): security "
                "headers, personal data kept from trackers, masking, verification",
                "a human must confirm the change",
            )
            return


HANDLERS: dict[str, Handler] = {
    **{n: dev_server for n in (*_DEV_SERVERS, *E2E, "npx", "bunx", "npm", "pnpm", "yarn", "bun")},
    **{n: protection_edit for n in ("sed", "gsed", "perl")},
}
