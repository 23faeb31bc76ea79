"""Rules for variables a line sets (``NAME=value``, ``export``, ``env NAME=value``).

Some variables change what later commands do rather than hold data:

- history switched off (``HISTFILE=/dev/null``, ``HISTSIZE=0``, ``HISTIGNORE='*'``) is
  denied, as hiding what ran;
- loader variables (``LD_PRELOAD``, ``DYLD_INSERT_LIBRARIES``) ask, and so do the
  variables perl, ruby and bash load code from (``PERL5OPT``, ``PERL5DB``, ``-r``/``-I`` of a
  file outside the workspace, ``BASH_FUNC_name%%``), whose code is analysed too;
- variables whose value is a command that git, ssh, less or bash run by themselves
  (``GIT_SSH_COMMAND``, ``GIT_EXTERNAL_DIFF``, ``GIT_EDITOR``, ``PAGER``, ``BASH_ENV``,
  ``PROMPT_COMMAND``…) are code: their text is analysed like the line itself, so
  ``GIT_SSH_COMMAND='rm -rf ~' git fetch`` is ``rm -rf ~``; an ssh there that no longer checks
  host keys (``StrictHostKeyChecking=no``) asks;
- a registry or index over plain http on another host, or TLS and checksum checks switched
  off (``PIP_INDEX_URL=http://…``, ``GOSUMDB=off``), is denied
  (:mod:`~workset.safety.rules.registries`);
- a ``PATH`` (or ``PYTHONPATH``, ``NODE_PATH``…) that searches a directory anyone on the
  machine can write (``/tmp``, ``/var/tmp``, ``/dev/shm``) asks, since every later command
  name or import may then run code planted there; so do settings and trusted certificates
  taken from there (``GIT_CONFIG_GLOBAL``, ``REQUESTS_CA_BUNDLE``), code loaded into every
  process from outside the workspace (``NODE_OPTIONS='--require /x.js'``,
  ``JAVA_TOOL_OPTIONS=-javaagent:…``) and a proxy on another host (``HTTPS_PROXY``).
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from workset.safety.rules import llm_endpoints, option_commands, test_targets
from workset.safety.rules.base import Finding, Nested, Result
from workset.safety.rules.env_names import PRODUCTION
from workset.safety.rules.known_lists import PROJECT
from workset.safety.rules.loopback import LOCAL_HOST
from workset.safety.rules.records import wipe
from workset.safety.rules.registries import insecure_variable

# The value is a command line that a program runs by itself.
_COMMAND_VARS = frozenset({"GIT_SSH_COMMAND", "GIT_SSH", "GIT_PROXY_COMMAND",
                           "GIT_EXTERNAL_DIFF", "GIT_ASKPASS", "SSH_ASKPASS", "SUDO_ASKPASS",
                           "BASH_ENV", "ENV", "LESSOPEN", "LESSCLOSE", "RSYNC_RSH",
                           "CVS_RSH", "PROMPT_COMMAND"})  # fmt: skip
# The value names an editor or pager: a bare name (vim, less) is left to the user's choice.
_EDITOR_VARS = frozenset({"EDITOR", "VISUAL", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "PAGER",
                          "GIT_PAGER", "MANPAGER", "SYSTEMD_PAGER", "BROWSER"})  # fmt: skip
EDITORS = frozenset({"vi", "vim", "nvim", "gvim", "nano", "pico", "emacs", "emacsclient",
                      "code", "code-insiders", "codium", "cursor", "subl", "mate", "micro", "hx",
                      "kak", "ed", "joe", "gedit", "kate", "zed", "less", "more", "most", "bat",
                      "cat", "delta", "diff-so-fancy", "true", "idea", "nvr"})  # fmt: skip
# Commands inside the value (a; b, $(…), a | b) or ssh options that run a command.
_SHELL_SYNTAX = re.compile(r"[;&|`$<>()]|ProxyCommand|LocalCommand|KnownHostsCommand", re.I)
# ssh options that stop it checking the host's key.
_HOST_KEYS_OFF = re.compile(
    r"StrictHostKeyChecking[= ]+(no|off)|UserKnownHostsFile[= ]+/dev/null", re.IGNORECASE
)
_LOADER_VARS = frozenset({"LD_PRELOAD", "LD_LIBRARY_PATH", "DYLD_INSERT_LIBRARIES",
                          "DYLD_LIBRARY_PATH", "npm_config_script_shell", "NPM_CONFIG_SCRIPT_SHELL",
                          "npm_config_shell", "YARN_SHELL"})  # fmt: skip
# (npm_config_script_shell: the program every npm script runs in)
# Search paths for programs and for modules that programs import.
_PRELOAD_VARS = frozenset({"LD_PRELOAD", "LD_AUDIT", "DYLD_INSERT_LIBRARIES"})
# Programs that read passwords or run as root: code preloaded into them sees or gets both.
_GUARDED = frozenset({"sudo", "su", "doas", "pkexec", "passwd", "chsh", "chfn", "login",
                      "ssh", "ssh-add", "gpg", "gpg2", "gpg-agent", "pinentry", "newgrp",
                      "sg"})  # fmt: skip
_SEARCH_VARS = frozenset({"PATH", "PYTHONPATH", "NODE_PATH", "PERL5LIB", "PERLLIB", "RUBYLIB",
                          "GEM_PATH", "CLASSPATH"})  # fmt: skip
# Options that load code into every process: node --require/--import, java -javaagent.
_CODE_OPTION_VARS = frozenset({"NODE_OPTIONS", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS",
                               "JDK_JAVA_OPTIONS"})  # fmt: skip
_LOADED_CODE = re.compile(
    r"(?:--require|--import|--loader|--experimental-loader|-r)[= ]+['\"]?((?:/|~|\$HOME)\S*)|"
    r"-javaagent:((?:/|~|\$HOME)[^=\s]*)"
)
# Files and folders that later programs read their settings or trusted certificates from.
_TRUSTED_FILES = frozenset({"SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE",
                            "CURL_CA_BUNDLE", "NODE_EXTRA_CA_CERTS", "GIT_SSL_CAINFO",
                            "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG",
                            "PIP_CONFIG_FILE", "NPM_CONFIG_USERCONFIG", "ZDOTDIR",
                            "PYTHONSTARTUP", "KUBECONFIG", "DOCKER_CONFIG"})  # fmt: skip
_PROXIES = frozenset({"http_proxy", "https_proxy", "all_proxy", "ftp_proxy"})
_LOOPBACK = re.compile(r"^(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?/?$", re.IGNORECASE)
_WORLD_WRITABLE = re.compile(r"^(/tmp|/var/tmp|/dev/shm)(/|$)")


def remote_engine(value: str) -> bool:
    """A container engine reached over the network (``tcp://203.0.113.9:2375``, ``ssh://…``)."""
    host = re.sub(r"^(tcp|ssh|http|https)://([^@/]*@)?", "", value, flags=re.I).split(":")[0]
    return bool(re.match(r"^(tcp|ssh|https?)://", value, re.I)) and not _LOOPBACK.match(host)


def remote_engine_finding(value: str) -> Finding:
    return Finding(
        "network",
        "ask",
        f"the container commands go to the engine at {value}, another machine, which runs them "
        "there with its owner's rights; a human must confirm",
    )


def _relative_dirs(value: str) -> bool:
    """Every entry is a plain relative folder that does not climb out (``./lib:build/lib``)."""
    parts = value.split(":")
    return all(re.fullmatch(r"(\./)?[\w.+-]+(/[\w.+-]+)*/?", p) and ".." not in p for p in parts)


def _own_libraries(value: str) -> bool:
    """Each library is the project's (a relative path that does not climb out) or one the
    system's packages installed (``/usr/lib/…``); preloaded into the project's own tool or
    program (``pytest``, ``make``, ``./build/app``), it adds no code the run did not already
    have. Into another program (``ls``), or from anywhere else, it stays asked."""
    parts = value.replace(" ", ":").split(":")
    return all(
        _relative_dirs(p) or (re.fullmatch(r"/usr/lib(64)?/[\w.+/-]+", p) and ".." not in p)
        for p in parts
        if p
    ) and any(parts)


# Variables that choose the cloud account (and so the credentials) commands act with.
_ACCOUNT_VARIABLES = frozenset({"AWS_PROFILE", "AWS_DEFAULT_PROFILE", "CLOUDSDK_CORE_PROJECT",
                                "GOOGLE_CLOUD_PROJECT", "CLOUDSDK_ACTIVE_CONFIG_NAME",
                                "AZURE_SUBSCRIPTION_ID", "ARM_SUBSCRIPTION_ID"})  # fmt: skip
_PRODUCTION = re.compile(r"(^|[-_.])prod(uction)?([-_.]|$)", re.IGNORECASE)
# Variables that choose a framework's settings or environment (``config.settings.production``,
# ``RAILS_ENV=production``): the configuration, and so the services, the program runs against.
_SETTINGS_VARIABLES = frozenset({"DJANGO_SETTINGS_MODULE", "RAILS_ENV", "RACK_ENV", "MIX_ENV",
                                 "APP_ENV", "FLASK_ENV", "SPRING_PROFILES_ACTIVE",
                                 "ASPNETCORE_ENVIRONMENT", "DOTNET_ENVIRONMENT", "ENVIRONMENT",
                                 "APP_ENVIRONMENT", "DEPLOY_ENV", "STAGE",
                                 "SETTINGS_MODULE"})  # fmt: skip


# Variables that tell a program (an ORM, a migration tool, a test suite) which database to use.
_DATABASE_VARIABLES = re.compile(
    r"^(\w+_)?(DATABASE|DB)_(URL|URI|HOST)$|^SQLALCHEMY_DATABASE_URI$|^(PGHOST|PGHOSTADDR|"
    r"MYSQL_HOST|MONGO(DB)?_(URL|URI)|REDIS_(URL|HOST)|POSTGRES_HOST)$",
    re.IGNORECASE,
)
# A database host that only a local network resolves, beside loopback: a single label (a
# compose service: ``db``, ``postgres``), ``*.local``, ``*.test``, the container host.
_LOCAL_DATABASE = re.compile(
    r"^([\w-]+|[\w.-]+\.(local|localhost|test)|host\.docker\.internal)$", re.IGNORECASE
)


def remote_database(name: str, value: str) -> str | None:
    """The host of another machine that ``NAME=value`` points a program's database at."""
    if not _DATABASE_VARIABLES.match(name):
        return None
    value = value.strip("'\"")
    if "$" in value or not value:
        return None
    host = urlsplit(value).hostname if "://" in value else value.split(":")[0]
    if not host or LOCAL_HOST.match(host) or _LOCAL_DATABASE.match(host) or host.startswith("/"):
        return None  # a unix socket's folder, or this machine
    return host


def assignment(name: str, value: str, program: str | None = None) -> list[Result]:
    """Findings about ``NAME=value``, or the code the value is, to be analysed in turn;
    ``program``: the command the assignment is the environment of (``NAME=value program``)."""
    host = remote_database(name, value)
    if host is not None:
        return [
            Finding(
                "remote-database",
                "ask",
                f"{name}=… makes {program or 'the commands that follow'} act on the database "
                f"at {host}, on another machine (migrations, fixtures and tests write there); "
                "a human must confirm, or point it at a local or test database",
            )
        ]
    aimed = test_targets.remote_target(name, value)
    if aimed is not None:
        return [aimed]  # CYPRESS_BASE_URL=https://app.example.com: tests on a deployed site
    sent = llm_endpoints.redirected(name, value, program)
    if sent is not None:
        return [sent]  # LANGCHAIN_ENDPOINT=https://…: prompts and keys sent to another host
    if name == "DISABLE_DATABASE_ENVIRONMENT_CHECK" and value.strip("'\"") not in ("", "0"):
        return [
            Finding(
                "production-data",
                "deny",
                f"{name}={value} switches off Rails's refusal to drop or reset a production "
                "database; it exists only to let that happen — never from an agent",
            )
        ]
    if name in _SETTINGS_VARIABLES and PRODUCTION.search(value.strip("'\"")):
        return [
            Finding(
                "production-config",
                "ask",
                f"{name}={value} runs {program or 'the commands that follow'} with the "
                "production configuration: its database, queues and keys are the live ones "
                "(tests and migrations write there); a human must confirm, or use the "
                "development or test settings",
            )
        ]
    if name in _ACCOUNT_VARIABLES and _PRODUCTION.search(value.strip("'\"")):
        return [
            Finding(
                "production-account",
                "ask",
                f"{name}={value} makes {program or 'the commands that follow'} act with the "
                "production account's credentials; a human must confirm, or use a development "
                "account",
            )
        ]
    if name == "HISTFILE" and value in ("", "/dev/null"):
        return [wipe(f"HISTFILE={value}")]
    if name in ("HISTSIZE", "HISTFILESIZE", "SAVEHIST") and value.strip() in ("0", ""):
        return [wipe(f"{name}={value}")]
    if name == "HISTIGNORE" and "*" in value.strip("'\"").split(":"):
        return [wipe(f"{name}={value}")]  # every command matches: nothing is kept
    if name in ("DOCKER_HOST", "CONTAINER_HOST") and remote_engine(value):
        return [remote_engine_finding(value)]
    if name in ("LD_LIBRARY_PATH", "DYLD_LIBRARY_PATH") and _relative_dirs(value):
        return []  # LD_LIBRARY_PATH=./build/lib ./bin/app: the project's own libraries
    if (
        name in ("LD_PRELOAD", "DYLD_INSERT_LIBRARIES")
        and _own_libraries(value)
        and (program is not None and (program in PROJECT or program.startswith(("./", "build/"))))
    ):
        return []  # LD_PRELOAD=./build/libfaketime.so pytest: into the project's own run
    if name in _PRELOAD_VARS and (
        _WORLD_WRITABLE.match(value.strip("'\"")) or (program or "").rsplit("/", 1)[-1] in _GUARDED
    ):
        return [
            Finding(
                "hijack-env",
                "deny",
                f"{name}={value} makes {program or 'every program'} load or run extra code "
                "from a place anyone can write, or inside a program that handles passwords or "
                "root (a keylogger's or rootkit's trick); never run it",
            )
        ]
    if name in _LOADER_VARS:
        return [
            Finding(
                "hijack-env",
                "ask",
                f"{name} makes other programs load or run extra code; a human must confirm",
            )
        ]
    insecure = insecure_variable(name, value)
    if insecure is not None:
        return [insecure]
    if name in _INTERPRETER_OPTION_VARS or name.startswith("BASH_FUNC_"):
        return _interpreter_code(name, value)
    if name == "GIT_CONFIG_PARAMETERS" or name.startswith(("GIT_CONFIG_KEY_", "GIT_CONFIG_VALUE_")):
        return _git_settings(name, value)
    if name == "GOFLAGS":  # GOFLAGS=-toolexec=PROG: every go build runs PROG
        return [Nested(c) for c in option_commands.go_flag_commands(value)]
    if name in ("CURL_CA_BUNDLE", "REQUESTS_CA_BUNDLE") and not value.strip("'\" "):
        return [
            Finding(
                "tls-off",
                "deny",
                f"{name} set empty turns certificate checks off in Python's requests (the versions "
                "that read it as no bundle), so anyone "
                "on the network can serve code or packages; point it at the right CA bundle",
            )
        ]
    program = value.split()[0].rsplit("/", 1)[-1] if value.split() else ""
    plain = not _SHELL_SYNTAX.search(value)
    if name in _COMMAND_VARS and program in ("ssh", "autossh") and plain:
        checks_off = _HOST_KEYS_OFF.search(value)
        if checks_off:
            return [
                Finding(
                    "ssh-host-keys-off",
                    "ask",
                    f"{name} runs ssh with {checks_off.group(0)}, which stops checking who the "
                    "other host is, so a machine in the middle goes unnoticed; a human must "
                    "confirm, or add the host's key to known_hosts",
                )
            ]
        return []  # git's own transport with options (ssh -i ./deploy_key)
    if name in ("LESSOPEN", "LESSCLOSE"):  # "|cmd %s" (less reads its output), "||cmd %s"
        value = value.strip().lstrip("|").replace("%s", "")
    if name in _COMMAND_VARS and value.strip():
        return [Nested(value)]
    if name in _EDITOR_VARS and program not in EDITORS and (" " in value.strip() or "/" in value):
        return [Nested(value)]
    if name in _SEARCH_VARS:
        planted = [d for d in value.split(":") if _WORLD_WRITABLE.match(d)]
        if planted:
            return [
                Finding(
                    "path-hijack",
                    "ask",
                    f"{name} searches {planted[0]}, a directory anyone on the machine can "
                    "write, so the commands that follow may run programs or modules planted "
                    "there; put the tools in the workspace (./bin) instead",
                )
            ]
    return _trust(name, value)


# Variables perl, ruby and bash read code or options from, for every process they start.
_INTERPRETER_OPTION_VARS = frozenset({"PERL5OPT", "PERL5DB", "RUBYOPT", "PERL5DEBUGOPTS"})
_PERL_MODULE = re.compile(r"-[mM]-?(\S.*)")


def _interpreter_code(name: str, value: str) -> list[Result]:
    """``PERL5OPT='-Mstrict;system("…")'``: perl turns ``-MMOD;CODE`` into ``use MOD;CODE``,
    so the value is perl code run by every perl that follows; ``PERL5DB`` is code too, and a
    ``BASH_FUNC_name%%`` variable defines a function that overrides a command in every bash
    that follows. The code is analysed (as ``perl -e``, or as shell), and it asks anyway."""
    code = ""
    if name == "PERL5DB":
        code = "perl -e " + _quoted(value)
    elif name == "PERL5OPT":
        module = _PERL_MODULE.search(value)
        if module and re.search(r"[;({`]|\bqx", module.group(1)):
            code = "perl -e " + _quoted("use " + module.group(1))
    elif name.startswith("BASH_FUNC_"):
        body = re.match(r"^\(\)\s*\{(.*)\}\s*$", value.strip(), re.DOTALL)
        code = body.group(1) if body else value
    found: list[Result] = [Nested(code)] if code else []
    outside = re.search(r"-[rI]\s*['\"]?(/|~|\$HOME)|(^|\s)-d", value)
    if code or outside or name in ("PERL5DB", "PERL5DEBUGOPTS"):
        program = "bash" if name.startswith("BASH_FUNC_") else name[:4].lower().rstrip("5")
        found.append(
            Finding(
                "hijack-env",
                "ask",
                f"{name.rstrip('%')} makes every later {program} load or run extra code; a "
                "human must confirm",
            )
        )
    return found


_GIT_SETTING = re.compile(r"'((?:[^'\\]|\\.)*)'")


def _git_settings(name: str, value: str) -> list[Result]:
    """Settings git takes from its environment, as if given with ``git -c``: the list in
    ``GIT_CONFIG_PARAMETERS`` (``'core.fsmonitor=…'``), or the numbered ``GIT_CONFIG_KEY_n``
    and ``GIT_CONFIG_VALUE_n`` (a value is analysed as the command it may be)."""
    if name.startswith("GIT_CONFIG_VALUE_"):
        return [Nested(value, deny_only=True)] if value.strip() else []
    if name.startswith("GIT_CONFIG_KEY_"):
        return [Nested("git -c " + _quoted(value + "=x") + " version")]
    pairs = [m.group(1) for m in _GIT_SETTING.finditer(value)] or [value]
    return [Nested("git " + " ".join("-c " + _quoted(p) for p in pairs) + " version")]


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def _trust(name: str, value: str) -> list[Result]:
    """Variables that make later programs load code, trust certificates or settings, or send
    their traffic through another host."""
    loaded = _LOADED_CODE.search(value) if name in _CODE_OPTION_VARS else None
    if loaded:
        return [
            Finding(
                "hijack-env",
                "ask",
                f"{name} makes every later process it reaches load "
                f"{loaded.group(1) or loaded.group(2)}, code outside the workspace; a human "
                "must confirm",
            )
        ]
    if name in _TRUSTED_FILES and _WORLD_WRITABLE.match(value.strip("'\"")):
        return [
            Finding(
                "trust-hijack",
                "ask",
                f"{name}={value} makes later programs take their settings or trusted "
                "certificates from a place anyone on the machine can write; a human must "
                "confirm, or keep the file in the workspace",
            )
        ]
    host = value.split("://", 1)[-1].rsplit("@", 1)[-1]
    if name.lower() in _PROXIES and value.strip() and not _LOOPBACK.match(host):
        return [
            Finding(
                "proxy",
                "ask",
                f"{name}={value} sends every later request through that host, which sees "
                "what is sent (and, without TLS, can change it); a human must confirm",
            )
        ]
    return []
