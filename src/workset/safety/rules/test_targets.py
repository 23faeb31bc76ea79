"""End-to-end suites pointed at a deployed site instead of a local one.

Cypress, Playwright and kin drive a browser through the app as a user would: they sign up,
pay, and in admin suites delete. Pointed at ``localhost`` or a compose service that stays on
this machine; pointed at a deployed site (``CYPRESS_BASE_URL=https://app.example.com``,
``--config baseUrl=https://…``) it acts on real accounts and data there, so it asks.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety.rules.app_platforms import stays_local
from workset.safety.rules.base import Cmd, Finding, ask_finding

# Variables and options that tell an end-to-end suite which site to drive.
_TEST_TARGET_VARIABLE = re.compile(
    r"^(CYPRESS_BASE_?URL|PLAYWRIGHT_(TEST_)?BASE_URL|(E2E|TEST)_BASE_URL)$",
    re.IGNORECASE,
)
E2E = frozenset({"cypress", "playwright", "testcafe", "wdio", "nightwatch", "codeceptjs"})


def remote_target(name: str, value: str, shown: str = "") -> Finding | None:
    """``CYPRESS_BASE_URL=https://app.example.com``: the suite's site is another machine."""
    value = value.strip("'\"")
    if not _TEST_TARGET_VARIABLE.match(name) or not re.match(r"^https?://", value):
        return None
    host = re.sub(r"^https?://([^@/]*@)?", "", value).split("/")[0]
    if stays_local(host) or re.match(r"^[\w-]+(:\d+)?$|.*\.(local|localhost|test)(:\d+)?$", host):
        return None  # this machine, or a compose service's name
    return ask_finding(
        "remote-test-target",
        f"{shown or name}={value} points the end-to-end tests at {host}, a deployed site, "
        "where they sign up, pay and delete as a real user would",
        "a human must confirm, or run them against a local or preview server",
    )


def aimed_elsewhere(cmd: Cmd) -> Iterator[Finding]:
    """``cypress run --config baseUrl=https://…``, ``--env BASE_URL=…``: the same, as options."""
    if cmd.name not in E2E:
        return
    for word in cmd.args():
        for pair in re.split(r"[,\s]", word):
            name, equals, value = pair.partition("=")
            known = "E2E_BASE_URL" if name.lower() in ("baseurl", "base_url") else name
            found = remote_target(known, value, name) if equals else None
            if found is not None:
                yield found
                return
