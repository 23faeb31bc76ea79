"""Load tests of the project's own scripts against this machine: ``k6 run`` and ``jmeter -n``.

A load test runs the project's script (a k6 JavaScript file, a JMeter plan) the way ``node
script.js`` runs project code: allowed when the script is a file of the workspace, every host
the command names is this machine (``-e BASE_URL=http://localhost:8080``,
``-Jhost=localhost``) and its results land in the workspace. Aimed at another host, streamed
to a cloud service (``k6 run --out cloud``), spread over remote engines (``jmeter -R``) or fed
a plan this line downloaded, it asks (the download is denied by
:func:`~workset.safety.rules.load_tests.downloaded_plan`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety.rules.app_platforms import stays_local
from workset.safety.rules.base import (
    Cmd,
    Context,
    Finding,
    Handler,
    Result,
    Voucher,
    unknown_program,
)
from workset.safety.rules.confinement import inside
from workset.safety.rules.network import download_exec
from workset.safety.rules.platform_reads import platform_read

_HOST_KEY = re.compile(r"(host|url|server|endpoint|target|domain)", re.IGNORECASE)
_URL_HOST = re.compile(r"^[a-z][\w+.-]*://([^/@]*@)?(\[[^\]]+\]|[^/:?#]+)", re.IGNORECASE)


def _local_setting(pair: str) -> bool:
    """``BASE_URL=http://localhost:8080``, ``host=127.0.0.1``, ``VUS=10``: names no other host."""
    key, _, value = pair.partition("=")
    value = value.strip("'\"")
    url = _URL_HOST.match(value)
    if url is not None:
        return stays_local(url.group(2).strip("[]"))
    return not _HOST_KEY.search(key) or not value or stays_local(value.split(":")[0])


def _away(why: str) -> Finding:
    return unknown_program("load test", f" ({why})")


_K6_VALUED = frozenset({"--vus", "-u", "--duration", "-d", "--iterations", "-i", "--stage",
                        "-s", "--rps", "--max", "-m", "--summary-export", "--out", "-o",
                        "--env", "-e", "--tag", "--log-output", "--user-agent"})  # fmt: skip
_K6_FLAGS = frozenset({"--quiet", "-q", "--no-color", "--no-summary", "--no-thresholds",
                       "--verbose", "-v", "--insecure-skip-tls-verify", "--no-usage-report",
                       "--http-debug"})  # fmt: skip


def k6(cmd: Cmd, ctx: Context) -> Finding | None:
    """``k6 run -e BASE_URL=http://localhost:8080 load/smoke.js``: a project script against
    this machine. Other verbs are judged as the platform tools' (read verbs only)."""
    args = cmd.args()
    if args[:1] != ("run",):
        return platform_read(cmd, ctx)
    scripts: list[str] = []
    index = 1
    while index < len(args):
        word = args[index]
        option, equals, value = word.partition("=")
        if option in _K6_VALUED:
            if not equals:
                index += 1
                value = args[index] if index < len(args) else ""
            if cmd.is_dynamic(index + 1):
                return _away("an option only known at run time")
            if option in ("-e", "--env") and not _local_setting(value):
                return _away(f"it is aimed at another host: {value}")
            if option in ("-o", "--out", "--summary-export", "--log-output"):
                path = value.split("=", 1)[1] if re.match(r"^(json|csv)=", value) else value
                if (option in ("-o", "--out") and path == value) or not inside(path, ctx):
                    return _away(f"it sends or writes its results elsewhere: {value}")
        elif word not in _K6_FLAGS and word.startswith("-"):
            return _away(f"{word} is not an option known to stay local")
        else:
            scripts.append(word)
        index += 1
    return _script(scripts, cmd, ctx)


def _script(scripts: list[str], cmd: Cmd, ctx: Context) -> Finding | None:
    if len(scripts) != 1 or cmd.is_dynamic(cmd.argv.index(scripts[0])):
        return _away("its script is not one file named here")
    script = scripts[0]
    if "://" in script or not inside(script, ctx) or ctx.wrote(script):
        return _away(f"its script {script} is not a file of the workspace")
    return None


def jmeter(cmd: Cmd, ctx: Context) -> Finding | None:
    """``jmeter -n -t load/plan.jmx -Jhost=localhost -l results/r.jtl -e -o results/html``."""
    args = cmd.args()
    if "-n" not in args and "--nongui" not in args:
        return _away("without -n it opens its window, where anything can be run")
    plans: list[str] = []
    index = 0
    while index < len(args):
        word = args[index]
        if word in ("-n", "--nongui", "-e", "--reportatendofloadtests"):
            pass
        elif word.startswith("-J") and len(word) > 2:
            if not _local_setting(word[2:]):
                return _away(f"it is aimed at another host: {word[2:]}")
        elif word in ("-t", "--testfile", "-l", "--logfile", "-j", "--jmeterlogfile", "-o",
                      "--reportoutputfolder", "-q", "--addprop"):  # fmt: skip
            index += 1
            value = args[index] if index < len(args) else ""
            if cmd.is_dynamic(index + 1) or not inside(value, ctx):
                return _away(f"{word} {value} is not a file of the workspace")
            if word in ("-t", "--testfile"):
                plans.append(value)
        else:  # -R/-r remote engines, -G remote properties, -H proxy, -s server…
            return _away(f"{word} is not an option known to stay local")
        index += 1
    return _script(plans, cmd, ctx)


def downloaded_plan(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``curl … -o p.jmx && jmeter -n -t p.jmx``: a plan runs its samplers' scripts (Groovy,
    BeanShell, OS commands), so one fetched by this line is code run unseen."""
    args = cmd.args()
    for index, word in enumerate(args[:-1]):
        if word in ("-t", "--testfile"):
            plan = args[index + 1]
            if ctx.resolve(plan) in ctx.downloaded or plan in ctx.downloaded:
                yield download_exec(f"jmeter runs the plan {plan}, which this line downloaded")


VOUCHERS: dict[str, Voucher] = {"k6": k6, "jmeter": jmeter}
HANDLERS: dict[str, Handler] = {"jmeter": downloaded_plan}
