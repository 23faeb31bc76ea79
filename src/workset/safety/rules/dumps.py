"""Rules for whole-database (and whole-repository) dumps sent to another host.

``pg_dump``, ``mysqldump``, ``mongodump`` and kin copy every row of a database, ``git
archive``/``git bundle`` the whole repository; piped straight
into something that sends its input away (``| aws s3 cp - s3://…``, ``| ssh host 'cat > …'``,
``| curl -T - …``, ``| nc host port``) they carry the data off the machine, which is denied as
exfiltration. A dump into a workspace file only asks, as the unknown program it is.

The same holds for the whole workspace (``scp -r ./ host:``, ``tar czf - . | curl -T - …``,
an archive of ``.`` the line made and then sends) and for a file upload to a host that asks
for no login (``curl -F f=@dist/main.js https://…``, ``npm test | curl -d @- …``): anyone
can run such a receiver, so nothing says the data stays with the user. An upload that logs
in (``-u``, an ``Authorization`` header, ``--netrc``) or an ``scp`` to an account of the
user's goes to a place the user controls, and only asks.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import urlsplit

from workset.safety import paths
from workset.safety.rules.base import Cmd, Context, Finding, Handler, Result, option_value
from workset.safety.rules.credentials import printed
from workset.safety.rules.interpreters import OTHER_INTERPRETERS, PYTHON
from workset.safety.rules.loopback import LOCAL_HOST as _LOCAL
from workset.safety.rules.network import _HOST_ARG as _REMOTE
from workset.safety.rules.network import NETWORK, local_only
from workset.safety.rules.static import static_output
from workset.safety.rules.wrappers import unwrap

DUMPERS = frozenset({"pg_dump", "pg_dumpall", "mysqldump", "mariadb-dump", "mongodump",
                     "mongoexport", "redis-cli", "sqlite3", "influxd", "etcdctl",
                     "cockroach"})  # fmt: skip
_CLOUD_COPIES = {"aws": "s3", "gsutil": "cp", "gcloud": "storage", "az": "storage",
                 "rclone": "rcat"}  # fmt: skip


def _dump_name(cmd: Cmd) -> str:
    """``pg_dump``, or ``git archive``/``git bundle`` (the whole repository), else ""."""
    if cmd.name in DUMPERS:
        return cmd.name
    words = [a for a in cmd.args() if not a.startswith("-")]
    if cmd.name == "git" and words[:1] in (["archive"], ["bundle"]):
        return f"git {words[0]}"
    return ""


_ARCHIVERS = frozenset({"tar", "bsdtar", "zip", "7z", "7za", "rar", "cpio", "pax"})
_SOURCES = frozenset({"scp", "rsync", "rclone", "sftp"})
_HTTP = frozenset({"curl", "wget", "http", "https", "xh"})
# Options that log in to the receiver: the upload goes to an account of the user's.
_LOGINS = ("-u", "--user", "--oauth2-bearer", "-n", "--netrc", "--netrc-file", "-E", "--cert",
           "--aws-sigv4", "--http-user", "--auth", "-a")  # fmt: skip
_AUTH_HEADER = re.compile(r"(?i)^\s*(authorization|x-api-key|x-auth-token|private-token|"
                          r"x-[\w-]*token|cookie)\s*:")  # fmt: skip
_FILE_BODY = re.compile(r"^(-[dF]|--data(-binary|-urlencode)?|--form|--json|--post-file|"
                        r"--body-file|-T|--upload-file)$")  # fmt: skip


def whole_workspace(word: str, ctx: Context) -> bool:
    """``word`` names the workspace's root (``.``, ``./``, ``*``, ``$PWD``, its path)."""
    if word in ("$PWD", "${PWD}", "$(pwd)") and ctx.cwd is None:
        return True
    if "$" in word:
        return False
    if re.search(r"[*?\[{\s]", word) and word.rstrip("/") not in ("*", "./*", ".*", "./.*"):
        return False  # *.tar.gz names some files, not the workspace
    place = ctx.resolve(word)
    root = paths.normalize(ctx.workspace) if ctx.workspace else None
    return place == "." or place == root


def _archive(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """Remember an archive the line makes of the whole workspace, to see it sent later."""
    args = cmd.args()
    operands = [a for a in args if not a.startswith("-")]
    if cmd.name in ("tar", "bsdtar"):
        bundled = next((i for i, a in enumerate(args[:2]) if re.fullmatch(r"-?[a-zA-Z]*f", a)
                        and "c" in a), None)  # fmt: skip
        named = option_value(args, ("-f", "--file"))
        if named is None and bundled is not None and bundled + 1 < len(args):
            named = args[bundled + 1]
    elif cmd.name in ("7z", "7za", "rar"):
        named = operands[1] if len(operands) > 2 and operands[0] == "a" else None
    else:
        named = operands[0] if operands else None
    if named and named != "-" and any(whole_workspace(a, ctx) for a in operands if a != named):
        ctx.bundles.add(ctx.resolve(named))
    return iter(())


def _sends_workspace(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """The whole workspace (or an archive of it) copied or uploaded to another host."""
    if not _sends_away(cmd):
        return
    args = cmd.args()
    words = [a.split("=", 1)[-1].lstrip("@<") for a in args]
    sources = words[:-1] if cmd.name in _SOURCES else words
    sent = [
        w
        for w in sources
        if w  # "echo QUJD=": nothing after its "=", not the workspace
        and not w.startswith("-")
        and (whole_workspace(w, ctx) or ctx.resolve(w) in ctx.bundles)
    ]
    stages = [unwrap(c, []) for c in cmd.upstream]
    packed = [
        u.name
        for u in stages
        if u.name in _ARCHIVERS and any(whole_workspace(a, ctx) for a in u.args())
    ]
    if (sent or packed) and cmd.name in _SOURCES | {"ssh"} and _named_login(cmd):
        yield Finding(
            "upload",
            "ask",
            f"{cmd.name} copies the whole workspace to an account on a named host; a human "
            "must confirm the host is the user's",
        )
    elif sent or packed:
        what = f"{packed[0]} of the workspace" if packed else sent[0]
        yield Finding(
            "exfiltration",
            "deny",
            f"{cmd.name} sends {what} (the whole workspace) to another host, which carries the "
            "project off the machine; send only the artifact that is needed, to a host the "
            "user named",
        )


_IP_HOST = re.compile(r"^\[?[0-9a-f:.]+\]?$", re.I)


def _named_login(cmd: Cmd) -> bool:
    """``rsync ./ dev@build-box.lan:proj/``: a copy over ssh to an account on a host named, not
    a bare address (where implants' listeners usually are)."""
    operands = [a for a in cmd.args() if not a.startswith("-")]
    target = (operands[0] if cmd.name == "ssh" else operands[-1]) if operands else ""
    login, at, rest = target.partition("@")
    host = rest.split(":", 1)[0] if at else ""
    return bool(login and host) and not _IP_HOST.match(host) and not any(cmd.dynamic)


def _anonymous_upload(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """Local file content (``@file``, ``-T file``, a program's output on stdin) sent to a
    host that asks for no login: anyone can run such a receiver."""
    if cmd.name not in _HTTP or not _sends_away(cmd):
        return
    args = cmd.args()
    urls = [a for a in args if "://" in a and not a.startswith("-")]
    if urls and all(_LOCAL.match(u) for u in urls):
        return  # this machine's own service
    logged_in = any(
        a in _LOGINS
        or a.startswith(tuple(o + "=" for o in _LOGINS if o.startswith("--")))
        or (i and args[i - 1] in ("-H", "--header") and _AUTH_HEADER.match(a))
        for i, a in enumerate(args)
    )
    if logged_in:
        return
    files: list[str] = []
    for index, word in enumerate(args):
        value = args[index + 1] if index + 1 < len(args) else ""
        option, _, attached = word.partition("=")
        if word.startswith("--") and attached:
            word, value = option, attached
        if not _FILE_BODY.match(word):
            if cmd.name != "curl" and re.match(r"^[\w-]+@[^@]", word) and "://" not in word:
                files.append(word.split("@", 1)[1])  # httpie: field@file
            continue
        if word in ("-T", "--upload-file", "--post-file", "--body-file"):
            files.append(value)
        else:
            files.extend(m.group(1) for m in re.finditer(r"(?:^|[=;])@([^;,]+)", value))
    for name in files:
        if name == "-" or name == "":
            if cmd.upstream and static_output(cmd.upstream) is None:
                yield _upload(cmd, "the output of " + unwrap(cmd.upstream[-1], []).name)
                return
        elif name != "." or cmd.name != "curl":
            yield _artifact_upload(cmd, name) if _artifact(name, urls, ctx) else _upload(cmd, name)
            return


def _raw_upload(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``… | nc HOST PORT``, ``nc HOST PORT < data.csv``: a program's output or a file sent
    over a bare connection, which logs in nowhere (literal text, ``echo ruok | nc``, is a
    query of the service, not data sent away)."""
    local = any(_LOCAL.match(a) for a in cmd.args() if not a.startswith("-"))
    if not _sends_away(cmd) or local or {"-l", "--listen"} & set(cmd.args()):
        return
    fed = [t for op, t in cmd.redirects if op == "<"]
    if cmd.upstream and static_output(cmd.upstream) is None:
        yield _upload(cmd, "the output of " + unwrap(cmd.upstream[-1], []).name)
    elif fed:
        yield _upload(cmd, fed[0])


def _artifact(name: str, urls: list[str], ctx: Context) -> bool:
    """``name`` is a build output of the workspace (``dist/report.html``, ``app.whl``) and every
    address is a host named as a project's own build or release service (``ci.internal…``,
    ``artifactory.corp…``), not a public drop box (paste sites, request bins)."""
    place = ctx.resolve(name)
    if not paths.in_workspace(place, ctx.workspace) or paths.is_sensitive(place):
        return False
    if place in ctx.bundles or not _ARTIFACT.search(name):
        return False
    hosts = [urlsplit(u).hostname or "" for u in urls]  # the host, past any "user@"
    return bool(hosts) and all(
        _INFRASTRUCTURE.search(h.lower()) and not _DROP_BOX.search(h.lower()) for h in hosts
    )


def _artifact_upload(cmd: Cmd, what: str) -> Finding:
    return Finding(
        "upload",
        "ask",
        f"{cmd.name} sends the build output {what} to another host; a human must confirm "
        "the host is the project's own service",
    )


# Build outputs: a file under the usual output folders, or a package or report by its type.
_ARTIFACT = re.compile(
    r"^(\./)?(dist|build|out|target|coverage|htmlcov|reports?|artifacts?|site|public)/"
    r"|\.(whl|jar|war|apk|aab|ipa|deb|rpm|nupkg|gem|tgz|html|junit\.xml|sarif|lcov)$",
    re.IGNORECASE,
)
# Host names of a project's own infrastructure: CI, artifact stores, an internal domain.
_INFRASTRUCTURE = re.compile(
    r"(^|[.-])(ci|cd|build|builds|jenkins|gitlab|artifacts?|artifactory|nexus|jfrog|registry|"
    r"releases?|staging|deploy|internal|intranet|corp)([.-]|$)|\.(internal|corp|lan|local)$"
)
# Hosts that take anyone's upload and hand it to anyone: paste sites, file drops, request bins.
_DROP_BOX = re.compile(
    r"(^|\.)(transfer\.sh|file\.io|0x0\.st|paste\.rs|pastebin\.com|termbin\.com|ix\.io|"
    r"sprunge\.us|hastebin\.com|dpaste\.(com|org)|webhook\.site|requestbin\.\w+|"
    r"pipedream\.net|ngrok(-free)?\.(io|app|dev)|bashupload\.com|temp\.sh|catbox\.moe|"
    r"gofile\.io|anonfiles\.com|oast\.\w+|interact\.sh|burpcollaborator\.net|"
    r"trycloudflare\.com|serveo\.net|localhost\.run)$|(^|\.)(pastes?|bins?|drops?|webhooks?)[.-]"
)


def _upload(cmd: Cmd, what: str) -> Finding:
    return Finding(
        "exfiltration",
        "deny",
        f"{cmd.name} sends {what} to a host that asks for no login, so anyone may be the "
        "receiver (exfiltration); send data only to a service the user named and logs in to, "
        "and ask the user first",
    )


def _sends_away(cmd: Cmd) -> bool:
    if cmd.name in _SOURCES:
        operands = [a for a in cmd.args() if not a.startswith("-")]
        return bool(operands) and _REMOTE.match(operands[-1]) is not None
    if cmd.name in NETWORK:
        return not local_only(cmd)
    marker = _CLOUD_COPIES.get(cmd.name)
    return marker is not None and marker in cmd.args()


def _dumped_away(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    if not _sends_away(cmd):
        return
    dumps = [_dump_name(c) for c in (unwrap(u, []) for u in cmd.upstream) if _dump_name(c)]
    secrets = [w for w in (printed(unwrap(u, [])) for u in cmd.upstream) if w and _posts(cmd)]
    if dumps:
        yield Finding(
            "exfiltration",
            "deny",
            f"{dumps[0]} dumps a database or repository and {cmd.name} sends the dump to "
            "another host in the same pipeline, which carries the data off the machine; dump "
            "into the workspace and ask the user to move it",
        )
    elif secrets:
        yield Finding(
            "exfiltration",
            "deny",
            f"{secrets[0]} prints a live credential and {cmd.name} posts it where others read "
            "it (an issue, a pull request, a gist, a release); pass secrets only to the "
            "command that logs in with them, or store them with gh secret set",
        )


# Forge commands whose text is published for others to read.
_PUBLISHED = frozenset({"issue", "pr", "mr", "gist", "release", "discussion", "snippet"})


def _posts(cmd: Cmd) -> bool:
    words = [a for a in cmd.args() if not a.startswith("-")]
    return cmd.name in ("gh", "glab", "hub") and bool(words) and words[0] in _PUBLISHED


_SENDERS = [
    n for n in (*NETWORK, *_CLOUD_COPIES) if n not in OTHER_INTERPRETERS and not PYTHON.match(n)
]  # those are judged as code
HANDLERS: dict[str, Handler] = {
    **{n: _dumped_away for n in _SENDERS},
    **{n: _archive for n in _ARCHIVERS},
}
EXTRA: dict[str, Handler] = {
    **{n: _sends_workspace for n in (*_SENDERS, "rsync")},
    **{n: _anonymous_upload for n in _HTTP},
    **{n: _raw_upload for n in ("nc", "ncat", "netcat", "telnet")},
}
