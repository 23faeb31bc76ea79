"""Rules for package managers' settings and scripts: where packages come from, and the code
``npm install`` runs.

Switching off the checks that make a download the package it claims to be (``npm config set
strict-ssl false``, ``git config http.sslVerify false``, ``--trusted-host``, ``GOSUMDB=off``,
``NODE_TLS_REJECT_UNAUTHORIZED=0``) and installing from a plain-http index on another host
(``pip install -i http://…``) are denied too; ``go env -w`` asks as the user config it writes.

Pointing npm, yarn, pnpm or pip at a registry over plain ``http://`` on another host
(``registry=http://203.0.113.30:4873/`` in ``~/.npmrc``, ``npm config set registry http://…``,
``pip config set global.index-url http://…``) lets anyone on the way swap the packages every
later install fetches; it is denied. A registry on this machine (a local mirror) or over
https only asks as the config write it is. The same options written into a
requirements file (``--index-url http://…``, ``--trusted-host``, ``--find-links``), whole or by
a ``sed -i`` edit, are judged as the install that reads them. ``npm pkg set
scripts.NAME=CODE`` and ``npm set-script NAME CODE`` leave CODE for ``npm install``/``npm
run`` to run, so CODE is analysed like the line itself; other ``npm pkg`` calls edit
``package.json`` in the workspace.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator

from workset.safety.rules.base import Cmd, Context, Finding, Handler, Nested, Result, parse_flags
from workset.safety.rules.persistence import planted
from workset.safety.rules.static import static_output

_REGISTRY_KEYS = re.compile(
    r"^(@[\w-]+:)?registry$|^(global\.|install\.)?(extra-)?index-url$|^index$|^sources?$|"
    r"^npmregistryserver$|^mirror\..+$|"
    r"^channels?$",
    re.IGNORECASE,
)
# Plain http to another host, also behind a transport prefix (cargo's ``sparse+http://``).
_PLAIN_REMOTE = re.compile(
    r"^(sparse\+|git\+|registry\+)?http://(?!(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?(/|$))"
)
_CONFIG_FILE = re.compile(
    r"(^|/)(\.npmrc|\.yarnrc(\.yml)?|pip\.conf|pip\.ini|\.pydistutils\.cfg|\.gemrc|\.condarc|"
    r"\.cargo/config(\.toml)?|\.bunfig\.toml|uv\.toml)$"
)
_SETTING = re.compile(r"^\s*([@\w:.-]+)\s*[=:]\s*['\"]?(\S+?)['\"]?\s*$", re.MULTILINE)
# A list item of a source list (``:sources:`` in ``.gemrc``, ``channels:`` in ``.condarc``).
_LISTED_SOURCE = re.compile(r"^\s*-\s*['\"]?([\w+.-]+://\S+?)['\"]?\s*$", re.MULTILINE)


# Settings that switch off the checks that make a download the package it claims to be.
_UNCHECKED = {
    "strict-ssl": "false",
    "http.sslverify": "false",
    "global.trusted-host": "",
    "install.trusted-host": "",
    "trusted-host": "",
    "gosumdb": "off",
    "goinsecure": "",
    "gonosumdb": "",
    "gonosumcheck": "",
    "goflags": "-insecure",
    "node_tls_reject_unauthorized": "0",
    "pip_trusted_host": "",
    "npm_config_strict_ssl": "false",
    "git_ssl_no_verify": "",
    "pythonhttpsverify": "0",
}
# Variables that name the registry or index (npm_config_*, PIP_*, UV_*, GOPROXY).
_REGISTRY_VARIABLES = re.compile(
    r"^(npm_config_registry|yarn_registry|pip_(extra_)?index_url|uv_(extra_)?index_url|"
    r"uv_default_index|goproxy|cargo_registries_\w+_index|pip_find_links|"
    # where version managers and installers fetch runtimes and prebuilt binaries
    r"rustup_dist_server|rustup_update_root|nvm_(nodejs|iojs)_org_mirror|fnm_node_dist_mirror|"
    r"node_mirror|python_build_mirror_url|homebrew_(bottle|api|artifact)_domain|"
    r"electron_mirror|sass_binary_site|puppeteer_download_(host|base_url)|"
    r"playwright_download_host|poetry_repositories_\w+_url|bundle_mirror__\w+)$",
    re.IGNORECASE,
)


def _plain_http(key: str, value: str) -> Finding:
    return Finding(
        "registry-insecure",
        "deny",
        f"{key}={value} makes installs fetch packages over plain http from another host, "
        "where anyone on the way can swap them; use the official registry over https, or "
        "ask the user to configure a mirror",
    )


def _unchecked(key: str, value: str) -> Finding:
    return Finding(
        "registry-unchecked",
        "deny",
        f"{key}={value} switches off the checks (TLS, checksums) that make a download the "
        "package it claims to be; leave them on — ask the user if a mirror truly needs it",
    )


def _insecure(key: str, value: str) -> Finding | None:
    key, value = key.strip(), value.strip().strip("'\"")
    registry = _REGISTRY_KEYS.match(key) or _REGISTRY_VARIABLES.match(key)
    if registry and any(_PLAIN_REMOTE.match(v) for v in value.split(",")):
        return _plain_http(key, value)
    off = _UNCHECKED.get(key.lower())
    if off is not None and (value.lower() == off or (not off and value)):
        return _unchecked(key, value)
    return None


def insecure_variable(name: str, value: str) -> Finding | None:
    """``export PIP_INDEX_URL=http://…``, ``GOSUMDB=off``: the variable form of a setting."""
    if _REGISTRY_VARIABLES.match(name) or name.lower() in _UNCHECKED:
        return _insecure(name, value) or _foreign_index(name, value)
    return None


# The ecosystems' own indexes (and go's "direct", which fetches from the module's own host).
_OFFICIAL = re.compile(
    r"^(https://(pypi\.org|files\.pythonhosted\.org|registry\.npmjs\.org|"
    r"registry\.yarnpkg\.com|proxy\.golang\.org|index\.crates\.io|rubygems\.org|"
    r"conda\.anaconda\.org|static\.rust-lang\.org|nodejs\.org/dist|www\.python\.org/ftp|"
    r"ghcr\.io/v2/homebrew|formulae\.brew\.sh|cdn\.playwright\.dev)(/|$)|direct$|off$|"
    r"defaults$|sparse\+https://index\.crates\.io/|"
    r"https?://(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?(/|$))",  # or one on this machine
    re.IGNORECASE,
)


def _foreign_index(key: str, value: str) -> Finding | None:
    """A registry or index on another host than the ecosystem's own (``PIP_EXTRA_INDEX_URL=
    https://…``, ``registry=https://…`` in ``.npmrc``): every install that follows may take its
    packages from there, where a package named like an internal one can win."""
    registry = _REGISTRY_KEYS.match(key.strip()) or _REGISTRY_VARIABLES.match(key.strip())
    values = [v.strip().strip("'\"") for v in value.split(",") if v.strip()]
    if not registry or all(_OFFICIAL.match(v) for v in values):
        return None
    if key.strip().startswith("@"):
        return None  # @acme:registry=https://…: only the scope's own packages come from there
    return Finding(
        "package-index",
        "ask",
        f"{key.strip()}={value.strip()} makes the installs that follow take packages from that "
        "index (an internal name can lose to a public one there: dependency confusion); a human "
        "must confirm the index",
    )


_INDEX_OPTIONS = ("-i", "--index-url", "--extra-index-url", "--registry", "--index", "--source",
                  "--default-index", "--find-links", "-f")  # fmt: skip


def _install_from(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``pip install -i http://203.0.113.7/simple x``, ``--trusted-host``: one install from
    an index anyone on the way can answer for."""
    args = cmd.args()
    if not {"install", "add", "i", "download", "sync", "ci"} & set(args):
        return
    for index, word in enumerate(args):
        option, _, attached = word.partition("=")
        value = attached or (args[index + 1] if index + 1 < len(args) else "")
        if option in _INDEX_OPTIONS and _PLAIN_REMOTE.match(value):
            yield _plain_http(option, value)
            return
        if option == "--trusted-host" and value:
            yield _unchecked(option, value)
            return


def _go_env(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``go env -w KEY=VALUE`` writes the user's go settings."""
    args = cmd.args()
    if args[:1] != ("env",) or not ({"-w", "-u"} & set(args)):
        return
    for word in args:
        key, eq, value = word.partition("=")
        found = _insecure(key, value) if eq else None
        if found is not None:
            yield found
            return
    yield Finding(
        "user-config",
        "ask",
        "go env -w changes the user's go settings outside the workspace, for every project; "
        "a human must confirm, or set the variable for one command",
    )


# Settings whose value is a program the tool runs for its scripts, its git calls or its
# prompts (npm's script-shell, shell, git, editor, browser, viewer; pip's editor).
_RUNNER_KEYS = re.compile(r"^(script-shell|shell|git|editor|browser|viewer|node-options)$", re.I)


def _runner(key: str, value: str) -> Finding | None:
    """A program setting that points at a planted place (/tmp, a dot-folder of the home's
    cache): every script or call that tool makes then runs it first."""
    if not _RUNNER_KEYS.match(key.strip()):
        return None
    return planted(value.strip().strip("'\""))


def _config_set(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``npm config set registry URL`` / ``pip config set global.index-url URL``."""
    words = [w for _, w in parse_flags(cmd.args())[1]]
    if words[:2] in (["config", "set"], ["set"]) or (words[:1] == ["config"] and "set" in words):
        rest = words[words.index("set") + 1 :]
        pairs = [tuple(w.split("=", 1)) for w in rest if "=" in w]
        if len(rest) >= 2 and "=" not in rest[0]:
            pairs.append((rest[0], rest[1]))
        for key, value in pairs:
            found = _insecure(key, value) or _foreign_index(key, value) or _runner(key, value)
            if found is not None:
                yield found
                return
        project = any(a in ("--location=project", "--site") for a in cmd.args()) or (
            "--location" in cmd.args() and "project" in cmd.args()
        )
        if not project:
            yield Finding(
                "user-config",
                "ask",
                f"{cmd.name} config set changes the user's {cmd.name} settings outside the "
                "workspace, for every project; a human must confirm, or set it in the project "
                "(--location=project)",
            )


def _npm_scripts(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """The code ``npm pkg set scripts.X=CODE`` / ``npm set-script X CODE`` leaves to run."""
    words = [w for _, w in parse_flags(cmd.args())[1]]
    if words[:2] == ["pkg", "set"]:
        for word in words[2:]:
            key, eq, value = word.partition("=")
            if eq and key.startswith("scripts."):
                yield Nested(value)
    elif words[:1] == ["set-script"] and len(words) > 2:
        yield Nested(words[2])


REQUIREMENTS_FILE = re.compile(r"(^|/)(requirements|constraints)[\w.-]*\.(txt|in)$")
_OPTION_LINE = re.compile(r"^\s*(-i|--index-url|--extra-index-url|--trusted-host|-f|--find-links)"
                          r"(?:\s+|=)(\S+)", re.MULTILINE)  # fmt: skip
_REMOTE_URL = re.compile(r"^https?://\S+$")


# Lockfiles: each locked package with the address it is downloaded from.
LOCK_FILE = re.compile(
    r"(^|/)(package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.ya?ml|bun\.lock|"
    r"poetry\.lock|Pipfile\.lock|pdm\.lock|uv\.lock|Cargo\.lock|composer\.lock|Gemfile\.lock|"
    r"go\.sum|conda-lock\.ya?ml)$"
)
_ADDRESS = re.compile(r"\b(?:https?|git\+https?|git\+ssh|git)://[^\s\"'#,]+", re.IGNORECASE)


# A lockfile's hash field written empty ("integrity": "", checksum = "", hash: null).
_BLANKED_CHECK = re.compile(
    r"""["']?\b(integrity|checksum|hash|shasum|sha256|sha512)["']?\s*[:=]\s*(""|''|null|~)?\s*(,|$)""",
    re.IGNORECASE | re.MULTILINE,
)


def lockfile_text(path: str, texts: list[str]) -> Finding | None:
    """An address an edit writes into a lockfile: the locked package is then downloaded from
    there by every install, under the name and version the lockfile promises (``sed -i
    's#registry.npmjs.org/lodash/…#npm-mirror.cc/…#' package-lock.json``). Only the
    ecosystem's own registry (or this machine) is left alone. Hash fields written empty are
    denied too: the check that the package is the one locked is gone."""
    for text in texts:
        if _BLANKED_CHECK.search(text):
            return Finding(
                "lockfile-source",
                "deny",
                f"blanks the integrity hashes in {path}: every install then takes whatever the "
                "registry (or anyone on the way) serves under the locked name and version; never "
                "edit a lockfile's hashes by hand — let the package manager rewrite the lockfile",
            )
        for address in _ADDRESS.findall(text):
            if not _OFFICIAL.match(address):
                return Finding(
                    "lockfile-source",
                    "deny",
                    f"writes {address} into {path} as where a locked package comes from: every "
                    "install would fetch it from there; never edit a lockfile's sources by hand "
                    "— change the dependency and let the package manager rewrite the lockfile",
                )
    return None


def requirements_text(texts: list[str]) -> Finding | None:
    """Index options written into a requirements file, judged as the install that reads them;
    a bare address inserted there (a ``sed`` swap of the index's URL) is read as an index."""
    for text in texts:
        options = _OPTION_LINE.findall(text)
        if not options and _REMOTE_URL.match(text.strip()):
            options = [("--index-url", text.strip())]
        for option, value in options:
            if option == "--trusted-host":
                return _unchecked(option, value)
            if _PLAIN_REMOTE.match(value):
                return _plain_http(option, value)
            foreign = _foreign_index("index-url", value) if "://" in value else None
            if foreign is not None:
                return foreign
    return None


def _written_settings(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``echo registry=http://… >> ~/.npmrc``, or the same through ``tee``."""
    if cmd.name == "tee":
        places = [w for _, w in parse_flags(cmd.args())[1]]
        text = static_output(cmd.upstream)
    else:
        places = [t for op, t in cmd.redirects if op in (">", ">>", ">|")]
        text = static_output([dataclasses.replace(cmd, redirects=())])
    if text is not None and any(REQUIREMENTS_FILE.search(p) for p in places):
        found = requirements_text([text])
        if found is not None:
            yield found
            return
    if text is None or not any(_CONFIG_FILE.search(ctx.resolve(p)) for p in places):
        return
    settings = [*_SETTING.findall(text), *(("source", v) for v in _LISTED_SOURCE.findall(text))]
    for key, value in settings:
        found = _insecure(key, value) or _foreign_index(key, value)
        if found is not None:
            yield found
            return


def _bundle_config(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``bundle config [set] [--global] mirror.https://rubygems.org URL``: a mirror for every
    gem; plain http is denied, and a ``--global`` setting asks as the user config it is."""
    args = [a for a in cmd.args() if a not in ("set", "--local")]
    if args[:1] != ["config"] or len(args) < 3:
        return
    words = [a for a in args[1:] if not a.startswith("--")]
    if len(words) >= 2:
        found = _insecure(words[0], words[1]) or _foreign_index(words[0], words[1])
        if found is not None:
            yield found
            return
    if "--global" in args:
        yield Finding(
            "user-config",
            "ask",
            "bundle config --global changes the user's bundler settings outside the workspace, "
            "for every project; a human must confirm, or set it with --local",
        )


_SOURCE_ADDERS = {"gem": (("sources",), ("--add", "-a")), "conda": (("config",), ("--add",
                   "--append", "--prepend")), "poetry": (("source", "add"), ())}  # fmt: skip


def source_added(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``gem sources --add URL``, ``conda config --add channels URL``, ``poetry source add NAME
    URL``: a package source every later install may take from. Plain http to another host is
    denied; another host over https asks as the user setting it is, except in ``poetry``'s
    case, whose sources live in the project's ``pyproject.toml`` (a workspace edit)."""
    name = "conda" if cmd.name in ("mamba", "micromamba") else cmd.name
    words, options = _SOURCE_ADDERS.get(name, ((), ()))
    args = cmd.args()
    if not words or tuple(a for a in args if not a.startswith("-"))[: len(words)] != words:
        return
    urls = [a.partition("=")[2] or a for a in args if "://" in a]
    for url in urls:
        if _PLAIN_REMOTE.match(url):
            yield _plain_http(f"{cmd.name} {' '.join(words)}", url)
            return
    changes = name != "poetry" and any(a.partition("=")[0] in options or a in (
        "--remove", "-r", "--clear-all", "--remove-key", "--set") for a in args)  # fmt: skip
    if changes:
        yield Finding(
            "user-config",
            "ask",
            f"{cmd.name} {' '.join(words)} changes where every later install takes packages "
            "from, for every project of the user; a human must confirm the source",
        )


def _npm(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    yield from _config_set(cmd, ctx)
    yield from _npm_scripts(cmd, ctx)
    yield from _install_from(cmd, ctx)


def _package_manager(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    yield from _config_set(cmd, ctx)
    yield from _install_from(cmd, ctx)
    yield from source_added(cmd, ctx)


def _git_config(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``git config [--global] http.sslVerify false``: a setting that stays."""
    words = [a for a in cmd.args() if not a.startswith("-")]
    if words[:1] == ["config"] and len(words) >= 3:
        found = _insecure(words[1], words[2])
        if found is not None:
            yield found


_MANAGERS = ("pnpm", "yarn", "pip", "pip3", "uv", "pipx", "poetry", "gem", "conda", "mamba",
             "micromamba", "cargo")  # fmt: skip

HANDLERS: dict[str, Handler] = {
    "npm": _npm,
    **dict.fromkeys(_MANAGERS, _package_manager),
    "bundle": _bundle_config,
    "go": _go_env,
    "git": _git_config,
    **{n: _written_settings for n in ("echo", "printf", "tee", "cat")},
}
