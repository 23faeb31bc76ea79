"""Mobile app tools: ``expo``, ``eas``, CocoaPods' ``pod`` and ``fastlane``.

What builds, runs or generates the app on this machine runs without asking: ``expo start``
(without ``--tunnel``), ``expo prebuild`` and ``expo run:ios`` (native projects generated and
built in the workspace), ``eas build --local``, ``pod install`` (pods into the workspace, as
``npm install`` fills ``node_modules``), fastlane's listings of lanes and actions. What reaches
the stores, the signing certificates or the hosted builds asks, and two harms are denied: a
store submission that releases to every user by itself once reviewed, and ``match nuke``,
which revokes the team's certificates.

``bundle exec fastlane …`` is the same fastlane: a project runner (``bundle exec``, ``poetry
run``) in front of an app or platform tool does not make its deploys the project's own code,
so the tool is judged in full (:func:`through_runner`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety.rules import app_platforms, platform_reads
from workset.safety.rules.app_platforms import verbs
from workset.safety.rules.base import (
    Cmd,
    Context,
    Finding,
    Handler,
    Nested,
    Result,
    Voucher,
    deny_finding,
    requote,
    unknown_program,
)

_EXPO_LOCAL = frozenset({"start", "prebuild", "run", "export", "config", "customize", "lint",
                         "whoami", "install-check"})  # fmt: skip


def expo(cmd: Cmd, ctx: Context) -> Finding | None:
    """``expo start``, ``prebuild``, ``run:ios``, ``export``, ``install --check``."""
    words, args = verbs(cmd), set(cmd.args())
    check = words[:1] == ["install"] and {"--check"} & args and "--fix" not in args
    if (words[:1] and words[0] in _EXPO_LOCAL and "--tunnel" not in args) or check:
        return None  # --tunnel: a public address that leads to the dev server
    return unknown_program(f"expo {' '.join(words[:1])}".strip(), " (only its local verbs "
                           "are known)")  # fmt: skip


def eas(cmd: Cmd, ctx: Context) -> Finding | None:
    """``eas build --local``, listings of builds, channels and branches; submissions, updates
    and environment variables ask."""
    words, args = verbs(cmd), set(cmd.args())
    local = words[:1] in (["build"], ["build", "inspect"]) and "--local" in args
    reads = words[:1] in (["whoami"], ["config"], ["diagnostics"]) or (
        len(words) >= 2 and words[0] in ("build", "channel", "branch", "update", "project")
        and words[1] in ("list", "view", "info")
    )  # fmt: skip
    if (local and not {"--auto-submit", "--auto-submit-with-profile"} & args) or reads:
        return None
    return unknown_program(f"eas {' '.join(words[:2])}".strip(), " (it builds, submits or "
                           "publishes on Expo's servers)")  # fmt: skip


_POD_LOCAL = frozenset({"install", "update", "outdated", "list", "search", "deintegrate", "env",
                        "init", "ipc", "try-nothing"})  # fmt: skip


_POD_READS = (["spec", "lint"], ["lib", "lint"], ["repo", "list"], ["cache", "list"])


def pod(cmd: Cmd, ctx: Context) -> Finding | None:
    """``pod install``, ``pod update``, ``pod outdated``, ``pod spec lint``; publishing a
    spec (``pod trunk push``, ``pod repo push``) and adding spec sources ask."""
    words = verbs(cmd)
    if not words or words[0] in _POD_LOCAL or words[:2] in _POD_READS:
        return None
    return unknown_program(f"pod {' '.join(words[:2])}", " (it publishes or adds a spec source)")


# Words of a lane's name that keep it on this machine (``tests``, ``lint``, ``unit_tests``).
_LOCAL_LANES = frozenset({"test", "tests", "lint", "check", "unit", "coverage", "format"})
_OUTWARD_LANES = frozenset({"deploy", "release", "upload", "submit", "beta", "alpha", "publish",
                            "push", "ship", "store", "distribute", "testflight", "appstore",
                            "playstore", "production", "prod", "internal", "match", "certs",
                            "certificates", "nuke", "firebase", "promote"})  # fmt: skip
_FASTLANE_READS = frozenset({"lanes", "list", "actions", "action", "env", "docs",
                             "search_plugins", "--version", "version"})  # fmt: skip


def fastlane(cmd: Cmd, ctx: Context) -> Finding | None:
    """``fastlane lanes``, ``fastlane action NAME``: printed; a lane or an action runs (builds,
    signs, uploads) and asks."""
    words = [a for a in cmd.args() if not a.startswith("-") and ":" not in a]
    if words[:1] and words[0] in _FASTLANE_READS:
        return None
    lane = words[1:2] if words[:1] in (["ios"], ["android"], ["mac"]) else words[:1]
    named = set(re.split(r"[^a-z]+", lane[0].lower())) if lane else set()
    if named & _LOCAL_LANES and not named & _OUTWARD_LANES:
        return None  # fastlane ios tests: a lane named for testing or linting the app here
    return unknown_program(f"fastlane {' '.join(words[:1])}".strip(), " (its lanes and actions "
                           "sign, upload and submit)")  # fmt: skip


# Actions that send the app to a store, and the options that release it with no one between.
_STORE_ACTIONS = frozenset({"deliver", "upload_to_app_store", "appstore", "supply",
                            "upload_to_play_store"})  # fmt: skip


def fastlane_harms(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    words = [a.lower() for a in cmd.args()]
    head = [w for w in words if not w.startswith("-")][:2]
    if (head[:1] == ["match"] and "nuke" in words) or head[:1] == ["match_nuke"]:
        yield deny_finding(
            "signing-revoked",
            "fastlane match nuke revokes the team's signing certificates and profiles, which "
            "stops every build signed with them from being installed or updated",
            "ask the user to renew certificates themselves",
        )
    automatic = any(w.lstrip("-").split("=")[0] in ("automatic_release", "release_status")
                    for w in words)  # fmt: skip
    submits = any(w.lstrip("-").split("=")[0] in ("submit_for_review", "track") for w in words)
    if head[:1] and head[0] in _STORE_ACTIONS and automatic and submits:
        yield deny_finding(
            "store-release",
            f"fastlane {head[0]} submits the app and releases it to every user by itself once "
            "the store approves, with no one left to stop it",
            "upload it for review without the automatic release and let the user release it",
        )


# Tools a project runner may put in front of them whose verbs deploy or publish.
_JUDGED_IN_FULL = frozenset({"fastlane", "pod", "eas", "expo", *app_platforms.VOUCHERS,
                             *platform_reads.VOUCHERS})  # fmt: skip
_RUNNER_VERBS = {"bundle": "exec", "poetry": "run", "pipenv": "run", "pdm": "run", "hatch": "run"}


def through_runner(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``bundle exec fastlane deliver``: judged as ``fastlane deliver``."""
    args = cmd.args()
    if args[:1] != (_RUNNER_VERBS.get(cmd.name),):
        return
    rest = list(args[1:])
    while rest and rest[0].startswith("-"):
        rest.pop(0)  # bundle exec --keep-file-descriptors fastlane …
    if rest and rest[0].rsplit("/", 1)[-1] in _JUDGED_IN_FULL:
        yield Nested(requote(rest))


VOUCHERS: dict[str, Voucher] = {"expo": expo, "eas": eas, "pod": pod, "fastlane": fastlane}
HANDLERS: dict[str, Handler] = {
    "fastlane": fastlane_harms,
    **{n: through_runner for n in _RUNNER_VERBS},
}
