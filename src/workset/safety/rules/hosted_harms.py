"""Clear harms to an app's hosted services, denied with what to do instead.

- A hosted app, site, project, database, bucket or worker deleted, disabled or reset
  (``fly apps destroy``, ``netlify sites:delete``, ``supabase projects delete``, ``wrangler r2
  bucket delete``, ``neonctl branches reset main``, ``supabase db reset --linked``): its data
  and address go with it. A name that says it is a throwaway copy (``pr-42``, ``preview``,
  ``staging``, ``test``) or a development branch asks instead.
- A payment API call that changes something with the live key (``stripe refunds create
  --live``, an ``sk_live_`` key, a ``$…LIVE…`` variable): real customers' money.
- A secret put where everyone reads it: a variable whose prefix ships it in every browser or
  app bundle (``NEXT_PUBLIC_``, ``VITE_``, ``EXPO_PUBLIC_``…), plain-text visibility; a
  production value copied into preview builds, which any branch or pull request runs; TLS
  checks switched off in a hosted app's settings (``NODE_TLS_REJECT_UNAUTHORIZED=0``).
- An auth provider's attack protections switched off, or its callbacks and origins opened to
  any address (``*``), which hands login tokens to whatever site asks.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety.rules.app_platforms import operands, verbs
from workset.safety.rules.base import Cmd, Context, Handler, Result, deny_finding, option_value
from workset.safety.rules.env_names import THROWAWAY
from workset.safety.rules.registries import insecure_variable

_DESTROYS = frozenset({"delete", "destroy", "remove", "rm", "reset", "disable", "purge", "drop",
                       "wipe", "nuke", "terminate"})  # fmt: skip
_HOSTED = frozenset({"apps", "app", "sites", "site", "projects", "project", "database",
                     "databases", "db", "bucket", "buckets", "hosting", "namespace", "d1",
                     "group", "groups", "service", "environment", "worker", "pg",
                     "branches", "branch"})  # fmt: skip
_MAIN_BRANCH = re.compile(r"^(main|master|prod|production|primary)$", re.IGNORECASE)


def _destroys(cmd: Cmd) -> str | None:
    """What hosted resource ``cmd`` deletes or resets for good, or None."""
    words, args = verbs(cmd), cmd.args()
    if "--dry-run" in args or not words:
        return None
    head = words[:3]
    if cmd.name == "wrangler" and words[0] == "delete":
        return "a worker"
    if (
        cmd.name == "supabase"
        and words[:2] == ["db", "reset"]
        and ("--linked" in args or option_value(args, ("--db-url",)))
    ):
        return "a hosted database"
    if cmd.name == "convex" and words[:1] == ["import"] and {"--replace", "--prod"} <= set(args):
        return "the production tables"
    verb = next((w for w in head if w in _DESTROYS), None)
    noun = next((w for w in head if w in _HOSTED), None)
    if verb is None or noun is None or (cmd.name == "supabase" and words[0] == "db"):
        return None  # supabase db reset: the local stack's database
    names = [w for w in args if not w.startswith("-") and w.lower() not in _DESTROYS | _HOSTED]
    if noun in ("branches", "branch") and not any(_MAIN_BRANCH.match(w) for w in names):
        return None  # a development branch of the database
    if any(THROWAWAY.search(w) for w in names) and not _production(args):
        return None
    return _KINDS.get(noun, f"a hosted {noun}")


_KINDS = {"apps": "an app", "app": "an app", "sites": "a site", "site": "a site",
          "projects": "a project", "project": "a project", "database": "a database",
          "databases": "a database", "db": "a database", "pg": "a database", "d1": "a database",
          "bucket": "a storage bucket", "buckets": "a storage bucket",
          "hosting": "a site's hosting", "branches": "the main branch of a database",
          "branch": "the main branch of a database"}  # fmt: skip


def _production(args: tuple[str, ...]) -> bool:
    return any(re.search(r"(^|[\W_])(prod|production|live)([\W_]|$)", a, re.I) for a in args)


def hosted_destroy(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    what = _destroys(cmd)
    if what is not None:
        yield deny_finding(
            "hosted-destroy",
            f"{cmd.name} {' '.join(verbs(cmd)[:2])} deletes or resets {what}, with its data "
            "and the address users reach it by; no undo brings them back",
            "ask the user to do it, or do it on a preview or development copy",
        )


_LIVE_KEY = re.compile(r"^(sk|rk)_live_|^\$\{?\w*LIVE\w*\}?$", re.IGNORECASE)
_STRIPE_READS = frozenset({"get", "logs", "listen", "status", "version", "samples", "open",
                           "completion", "login", "config", "help"})  # fmt: skip


def live_payments(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``stripe refunds create --live``, ``stripe fixtures f.json --api-key sk_live_…``."""
    words, args = verbs(cmd), cmd.args()
    key = option_value(args, ("--api-key",)) or ""
    if not ("--live" in args or _LIVE_KEY.search(key)) or not words:
        return
    if words[0] in _STRIPE_READS or (len(words) > 1 and words[1] in ("list", "retrieve")):
        return  # reads of the live account ask as unknown
    yield deny_finding(
        "live-payments",
        f"stripe {' '.join(words[:2])} changes the live account (real customers' charges, "
        "refunds and subscriptions)",
        "run it in test mode with a test key, or ask the user to do it",
    )


# Prefixes that make a build put the variable into every browser or app bundle.
_PUBLIC = re.compile(r"^(NEXT_PUBLIC_|VITE_|EXPO_PUBLIC_|REACT_APP_|NUXT_PUBLIC_|PUBLIC_|"
                     r"GATSBY_|VUE_APP_|STORYBOOK_)")  # fmt: skip
_SECRET_NAME = re.compile(r"SECRET|PRIVATE|PASSWORD|PASSWD|SERVICE_ROLE|(^|_)SK(_|$)|"
                          r"WEBHOOK_SIGNING", re.IGNORECASE)  # fmt: skip
_SECRET_VALUE = re.compile(r"^(sk|rk)_(live|test)_|^whsec_|^-----BEGIN|^sbp_|^npm_\w{20}")
_PREVIEW = re.compile(r"^(deploy-preview|branch-deploy|preview|development|dev)$", re.I)
_PRODUCTION_VALUE = re.compile(r"\$\{?\w*PROD(UCTION)?\w*\}?", re.IGNORECASE)


_SETS = frozenset({"add", "set", "create", "put", "update", "push"})


def _settings(cmd: Cmd) -> list[tuple[str, str]]:
    """The variables a platform command sets, with their values ("" when piped in)."""
    args = cmd.args()
    if not {"env", "secrets", "secret", "variables", "config"} & set(verbs(cmd)[:2]):
        return []
    pairs = [w.split("=", 1) for w in args if re.match(r"^[A-Za-z_]\w*=", w)]
    if pairs:
        return [(k, v) for k, v in pairs]  # fly secrets set K=V, railway variables --set K=V
    if option_value(args, ("--name",)) is not None:  # eas env:create --name K --value V
        return [(option_value(args, ("--name",)) or "", option_value(args, ("--value",)) or "")]
    plain = operands(cmd)
    at = next((i for i, w in enumerate(plain) if _SETS & set(w.lower().split(":"))), None)
    if at is None or at + 1 >= len(plain):
        return []
    piped = cmd.name == "vercel"  # vercel env add NAME [ENVIRONMENT]: the value comes on stdin
    value = "" if piped or at + 2 >= len(plain) else plain[at + 2]
    return [(plain[at + 1], value)]


def exposed_secrets(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    fed = " ".join(w for up in cmd.upstream for w in up.argv)  # grep SECRET .env | vercel env add
    context = option_value(args, ("--context", "--environment", "-e")) or ""
    for name, value in _settings(cmd):
        insecure = insecure_variable(name, value)
        if insecure is not None:
            yield insecure
            return
        secret = (
            _SECRET_NAME.search(name)
            or _SECRET_VALUE.search(value.strip("'\""))
            or (not value and _SECRET_NAME.search(fed))
        )
        plaintext = option_value(args, ("--visibility",)) == "plaintext"
        if secret and (_PUBLIC.match(name) or plaintext):
            yield deny_finding(
                "secret-public",
                f"{cmd.name} puts a secret into {name}, which the build ships in every browser or "
                "app bundle (or shows in plain text) for anyone to read",
                "keep it in a server-side variable without the public prefix, as a secret",
            )
            return
        if _PRODUCTION_VALUE.search(value) and _PREVIEW.match(context):
            yield deny_finding(
                "secret-public",
                f"{cmd.name} copies a production value into {name} of the {context} builds, "
                "which any branch or pull request runs",
                "give previews their own development credentials",
            )
            return


_PROTECTIONS = re.compile(r"protection|brute|breached|suspicious|throttl|mfa|bot-detection",
                          re.IGNORECASE)  # fmt: skip
_URL_OPTIONS = ("--callbacks", "-c", "--origins", "-o", "--web-origins", "-w", "--logout-urls",
                "-l", "--allowed-origins")  # fmt: skip


def auth_weakened(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``auth0 protection brute-force-protection disable``, ``--callbacks 'http://*'``."""
    words, args = verbs(cmd), cmd.args()
    if any(_PROTECTIONS.search(w) for w in words[:2]) and {"disable", "off"} & set(words):
        yield deny_finding(
            "auth-protection-off",
            f"{cmd.name} {' '.join(words[:3])} switches off the login's defences against "
            "password guessing and stolen credentials, for every user",
            "leave them on, or ask the user to change them",
        )
        return
    for option in _URL_OPTIONS:
        for value in re.split(r"[,\s]+", option_value(args, (option,)) or ""):
            if value == "*" or re.match(r"^(https?://)?\*(/|:|$)", value):
                yield deny_finding(
                    "auth-open-redirect",
                    f"{cmd.name} {option} {value} lets any site receive the login's tokens or "
                    "call it as the app",
                    "list the app's exact addresses",
                )
                return


_SETTERS = ("vercel", "netlify", "eas", "fly", "flyctl", "railway", "heroku", "firebase",
            "convex", "supabase", "wrangler", "render", "amplify")  # fmt: skip
_HOSTS = ("fly", "flyctl", "netlify", "heroku", "vercel", "supabase", "neonctl", "neon",
          "pscale", "turso", "wrangler", "firebase", "railway", "convex", "amplify",
          "render")  # fmt: skip

HANDLERS: dict[str, Handler] = {
    **{n: hosted_destroy for n in _HOSTS},
    "stripe": live_payments,
    "auth0": auth_weakened,
}
SETTINGS: dict[str, Handler] = {n: exposed_secrets for n in _SETTERS}
