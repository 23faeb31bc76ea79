"""Rules for secrets: reading keys and credentials, and dumping or searching the environment.

Reading a secret asks (a person should see that the agent wants its SSH key); reading one and
reaching the network in the same line is exfiltration and is denied (see
:func:`workset.safety.commands.analyze_command`). Wiping the record of what ran is
:mod:`~workset.safety.rules.records`.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterator, Sequence

from workset.safety import paths
from workset.safety.rules import keytools
from workset.safety.rules.base import Cmd, Context, Finding
from workset.safety.rules.credential_names import credential_named, login_settings

_SECRET_FILE = re.compile(
    r"(^|/)("
    r"id_(rsa|dsa|ecdsa|ed25519)(_sk)?|[^/]*_(rsa|dsa|ecdsa|ed25519)_key|ssh_host_[^/]*_key|"
    r"\.env(\.(local|prod|production|staging|dev|development|test|secret|secrets))?|"
    r"\.netrc|\.npmrc|\.pypirc|\.git-credentials|\.pgpass|\.my\.cnf|\.vault-token|"
    r"credentials(\.json|\.db|\.toml|\.tfrc\.json)?|application_default_credentials\.json|"
    r"access_tokens\.db|service[-_]account[^/]*\.json|secrets?\.(ya?ml|json|toml|env)|"
    r"\.htpasswd|[^/]*\.(pem|key|p12|pfx|jks|keystore|kdbx)|"
    r"\.[a-z_]*_history|\.histfile|\.zhistory|fish/fish_history|nushell/history\.txt|"
    r"atuin/history\.db|ConsoleHost_history\.txt|Login Data|Cookies|logins\.json|key[34]\.db|"
    r"cookies\.sqlite|Web Data|"
    # the credential stores of other common tools: cloud, build, registry and wallet clients
    r"\.s3cfg|\.boto|rclone\.conf|\.m2/settings(-security)?\.xml|\.gradle/gradle\.properties|"
    r"\.config/hub|\.config/op/config|\.config/doctl/config\.yaml|\.oci/config|"
    r"\.config/hcloud/cli\.toml|\.fly/config\.yml|\.dockercfg|\.composer/auth\.json|"
    r"\.gem/credentials|\.config/configstore/[^/]*\.json|wallet\.dat|\.electrum/wallets/[^/]+|"
    r"\.ethereum/keystore/[^/]+|\.config/Bitwarden[^/]*/data\.json|\.authinfo(\.gpg)?|"
    r"[^/]*\.tfstate(\.backup)?"
    r")$"
)
_PUBLIC = re.compile(
    r"\.(pub|pem\.pub)$|(^|/)([^/]*(cert|chain|crt|bundle)[^/]*|([^/]*[-_.])?ca)\.pem$|(^|/)(known_hosts|authorized_keys)$|\.env\.[a-z]*example"
)
_SECRET_DIRS = frozenset(
    {
        "~",
        "~/.ssh",
        "~/.aws",
        "~/.gnupg",
        "~/.azure",
        "~/.kube",
        "~/.docker",
        "~/.config",
        "~/.config/gcloud",
        "~/.config/gh",
        "~/.password-store",
        "~/.local/share/keyrings",
        "~/.mozilla",
        "~/.config/google-chrome",
        "~/.config/chromium",
        "~/.config/BraveSoftware",
        "~/.thunderbird",
        "~/Library/Cookies",
        "~/Library/Safari",
        "~/Library/Keychains",
        "~/Library/Application Support/Google/Chrome",
        "~/Library/Application Support/Firefox",
        "~/snap/firefox",
        "/root",
        "/etc/ssh",
    }
)
_SECRET_TREES = ("~/.ssh/", "~/.aws/", "~/.gnupg/", "~/.azure/", "~/.config/gcloud/",
                 "~/.password-store/", "~/.kube/", "/root/.ssh/", "/proc/self/environ",
                 "~/.config/gh/", "~/.docker/config.json", "~/.local/share/keyrings/",
                 "~/Library/Keychains/", "~/.mozilla/", "~/.config/google-chrome/",
                 "~/.config/chromium/", "~/.config/BraveSoftware/", "~/.thunderbird/",
                 "~/Library/Application Support/Google/Chrome/", "~/Library/Cookies/",
                 "~/Library/Application Support/Firefox/", "~/Library/Safari/",
                 "~/snap/firefox/")  # fmt: skip
_SYSTEM_SECRETS = re.compile(
    r"^/etc/(shadow|gshadow|sudoers(\.d/.*)?|ssl/private/.*)$|^/proc/[^/]+/(environ|mem)$|"
    r"^/(var/)?run/secrets/."  # container and cluster secrets mounted into this machine
)
_ANY_HOME = re.compile(r"^(/home/[^/]+|/Users/[^/]+|/root)/")
_GLOBLESS = re.compile(r"[^*?\[{]*")
LISTING = frozenset({"ls", "stat", "du", "file", "test", "[", "[[", "tree", "mkdir", "cd", "df",
                      "rm", "rmdir", "unlink", "touch", "chmod", "chown", "chgrp", "shred",
                      "pushd", "mv", "find", "history", "unset", "export", "declare"})  # fmt: skip
_NOT_PATHS = frozenset({"echo", "printf", "grep", "egrep", "fgrep", "rg", "ag", "ack", "git"})


def is_secret(word: str) -> bool:
    """``word`` names a key, a credential file, shell history or a tree full of them."""
    text = word.split("=", 1)[-1].lstrip("@<")
    if not text or text.startswith("-"):
        return False
    if _GLOB.search(text):  # ~/**/.env*, ~/.ssh/*: what the pattern can match
        base = text.rsplit("/", 1)[-1]
        tree = paths.normalize(text) + "/"
        if names_secret(base) or tree.startswith(_SECRET_TREES) or tree == "/etc/ssl/private/":
            return True
    path = paths.normalize(text)
    if _PUBLIC.search(path) and not login_settings(path):  # cloudflared's cert.pem: a login
        return False
    if _SYSTEM_SECRETS.match(path) or _SYSTEM_SECRETS.match(text) or path.startswith(_SECRET_TREES):
        return True
    if _ANY_HOME.sub("~/", path).startswith(_SECRET_TREES):
        return True  # /home/user/.docker/config.json: another account's home holds the same
    return bool(_SECRET_FILE.search(path)) or credential_named(path)


def secret_words(cmd: Cmd, ctx: Context) -> list[str]:
    """The words of ``cmd`` that read secrets (operands, ``@file`` uploads, ``<`` input)."""
    name = cmd.name
    found: list[str] = [t for op, t in cmd.redirects if op in ("<", "<>") and is_secret(t)]
    if dumps_environment(cmd) or _jq_environment(cmd) == "all":
        found.append("the environment")
    elif _inspects(cmd) and any(".Config.Env" in a or ".Env" in a for a in cmd.args()):
        found.append("a container's environment")
    args = _after_pattern(cmd) if name in _NOT_PATHS else list(cmd.args())
    if name in ("cp", "install", "ln", "rsync") and len(args) > 1:
        args = args[:-1]  # the destination is written, not read
    if name in ("jq", "gojq", "jaq", "yq"):
        args = _after_program(cmd)
    if name in ("curl", "wget"):  # curl file:///…: a read of that file
        args = [_FILE_URL.sub(lambda m: "./" if "PWD" in m.group(0) else "/", a) for a in args]
    if name == "git":
        args = _git_files(cmd)
    elif name == "openssl" and cmd.args()[:1] in (("x509",), ("verify",), ("crl",)):
        args = []  # they print certificates, never a private key, whatever file they read
    elif name in ("openssl", "ssh-keygen"):
        written = set(keytools.writes(cmd))  # a key being generated is not read
        args = [a for a in args if a not in written]
    args = _without_exclusions(args, zip_like=name in ("zip", "7z", "7za"))
    if name not in LISTING:
        found.extend(_listed_secrets(cmd, ctx))
    if name in ("echo", "printf", "printenv"):
        found.extend(_secret_variables(cmd))
    if ctx.links and _follows_links(cmd):
        args = args + [t for w in args if not w.startswith("-") for t in ctx.links_under(w)]
    for word in args:
        if ctx.links and name not in LISTING and not word.startswith("-"):
            word = ctx.resolve(word)  # read through a link the line made: its target
        elif word.startswith("/"):  # /home/me/.kube/config is ~/.kube/config
            word = (
                paths.in_home_form(paths.normalize(word), ctx.workspace)
                if _GLOBLESS.fullmatch(word)
                else word
            )
        place = paths.normalize(word.split("=", 1)[-1].lstrip("@<"))
        if (place in _SECRET_DIRS and name not in LISTING) or (
            is_secret(word) and name not in LISTING
        ):
            found.append(word)
    return found


# Options whose value is a pattern left out (tar --exclude=.env, rsync --exclude .env,
# zip -x '.env'): naming a secret there keeps it out, it reads nothing.
_EXCLUSIONS = ("--exclude", "--exclude-from", "--ignore", "--exclude-vcs-ignores")


def _without_exclusions(args: list[str], *, zip_like: bool) -> list[str]:
    kept: list[str] = []
    skip = False
    for word in args:
        if skip:
            skip = False
        elif word in _EXCLUSIONS or (zip_like and word in ("-x", "-xr!", "-x!")):
            skip = True
        elif not word.startswith(tuple(o + "=" for o in _EXCLUSIONS)):
            kept.append(word)
    return kept


_SECRET_SAMPLES = ("id_rsa", "id_ed25519", ".env", ".env.production", "credentials", ".netrc",
                   "server.pem", "server.key", ".bash_history", ".git-credentials",
                   "secrets.yml", "terraform.tfstate", ".pgpass")  # fmt: skip
_PLAIN_SAMPLES = ("main.py", "README.md", "index.js", "notes.txt", "Makefile", "config.yml",
                  "data.json", "pyproject.toml", "app.log")  # fmt: skip
_GLOB = re.compile(r"[*?\[]")


def names_secret(pattern: str) -> bool:
    """The file-name pattern matches a key or credential file's name and no ordinary one's."""
    return any(fnmatch.fnmatchcase(s, pattern) for s in _SECRET_SAMPLES) and not any(
        fnmatch.fnmatchcase(s, pattern) for s in _PLAIN_SAMPLES
    )


_NAME_OPTIONS = frozenset({"-name", "-iname", "-path", "-ipath", "-regex", "-g", "--glob"})
_LISTERS = frozenset({"find", "fd", "ls", "locate", "mlocate", "plocate"})


# Names of variables that hold credentials: printing one puts it in the agent's context.
_SECRET_VARIABLE = re.compile(
    r"(TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|API_?KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?|"
    r"AUTH|SESSION_KEY|CLIENT_KEY)(_|$)|^(PGPASSWORD|NPM_TOKEN|GH_TOKEN|DATABASE_URL)$",
    re.IGNORECASE,
)


def _secret_variables(cmd: Cmd) -> list[str]:
    """``echo $GITHUB_TOKEN``, ``printenv AWS_SECRET_ACCESS_KEY``: a credential printed."""
    if cmd.name == "printenv":
        names = [a for a in cmd.args() if not a.startswith("-")]
        return [f"${n}" for n in names if _SECRET_VARIABLE.search(n)]
    return [v for a in cmd.args() for v in secret_variables(a)]


def secret_variables(word: str) -> list[str]:
    """The credential variables (``$API_TOKEN``, ``${AWS_SECRET_ACCESS_KEY}``) ``word`` reads."""
    names = re.findall(r"\$\{?([A-Za-z_]\w*)", word)
    return [f"${n}" for n in names if _SECRET_VARIABLE.search(n)]


def _listed_secrets(cmd: Cmd, ctx: Context) -> list[str]:
    """Operands computed by a listing (``cat $(find ~ -name 'id_*')``) that name secrets."""
    found: list[str] = []
    for index in range(1, len(cmd.argv)):
        for inner in cmd.inner_of(index) if cmd.is_dynamic(index) else ():
            what = listing_secret(inner, ctx)
            if what is not None:
                found.append(what)
    return found


def listing_secret(cmd: Cmd, ctx: Context) -> str | None:
    """What a find/ls/locate lists, when it is secrets: a pattern that picks out key or
    credential files, or a tree that holds them (the home, ``~/.ssh``…)."""
    if cmd.name not in _LISTERS:
        return None
    args = cmd.args()
    patterns = [args[i + 1] for i, a in enumerate(args[:-1]) if a in _NAME_OPTIONS]
    operands = [a for a in args if not a.startswith("-") and a not in patterns]
    if cmd.name in ("locate", "mlocate", "plocate", "fd"):
        patterns += operands[:1]
        operands = operands[1:] if cmd.name == "fd" else []
    for pattern in patterns:
        base = pattern.rsplit("/", 1)[-1]
        if names_secret(base):
            return f"files named {pattern!r} that {cmd.name} finds"
    roots = [a for a in operands if not a.startswith(("(", "!"))] if cmd.name != "ls" else operands
    for root in roots:
        place = ctx.resolve(root)
        if place in _SECRET_DIRS or place.startswith(_SECRET_TREES) or is_secret(root):
            return f"files that {cmd.name} lists under {root}"
    return None


_GIT_READS = frozenset({"show", "cat-file", "diff", "log", "blame", "annotate", "grep",
                        "archive", "difftool", "whatchanged", "format-patch"})  # fmt: skip


_PATCHES = frozenset({"-p", "-u", "--patch", "-L", "--full-diff", "--cc", "-c"})


def _git_files(cmd: Cmd) -> list[str]:
    """Files whose contents a git command prints: ``REV:path``, and paths of show/diff/log."""
    words = [a for a in cmd.args() if not a.startswith("-")]
    sub = next((w for w in words if w in _GIT_READS), "")
    if not sub:
        return []
    rest = words[words.index(sub) + 1 :]
    revision_paths = [w.split(":", 1)[1] for w in rest if ":" in w and "://" not in w]
    if sub == "grep":
        rest = rest[1:]  # the pattern
    if sub == "log" and not _PATCHES & set(cmd.args()):
        rest = []  # git log -- .env lists the commits that touched it, not its content
    return revision_paths + rest


def _follows_links(cmd: Cmd) -> bool:
    """``cmd`` copies what the links inside a tree lead to, not the links themselves."""
    args = cmd.args()
    flags = {c for a in args if re.fullmatch(r"-[a-zA-Z]+", a) for c in a[1:]}
    first = set(args[0]) if args and cmd.name == "tar" and not args[0].startswith("-") else set()
    if cmd.name in ("tar", "bsdtar"):
        return "h" in flags | first or "--dereference" in args
    if cmd.name in ("zip", "7z", "7za"):
        return not ({"y"} & flags or "--symlinks" in args or "-snl" in args)
    if cmd.name in ("cp", "rsync"):
        return "L" in flags or bool({"--dereference", "--copy-links"} & set(args))
    return (cmd.name in ("grep", "egrep") and "R" in flags) or (cmd.name == "rg" and "L" in flags)


def _after_program(cmd: Cmd) -> list[str]:
    """jq's files: the operands after its program (``jq -r '.env' config.json`` reads
    config.json; ``.env`` is a filter), all of them when the program is read from a file."""
    args = cmd.args()
    operands = [
        a
        for i, a in enumerate(args)
        if not a.startswith("-")
        and not (
            i and args[i - 1] in ("--arg", "--argjson", "--slurpfile", "--rawfile", "--indent")
        )
    ]
    from_file = any(a in ("-f", "--from-file") for a in args)
    files = [a for i, a in enumerate(args) if i and args[i - 1] in ("--slurpfile", "--rawfile")]
    return files + (operands if from_file else operands[1:])


def _after_pattern(cmd: Cmd) -> list[str]:
    """grep's operands after the pattern (its files); none for echo/printf/git."""
    if cmd.name not in ("grep", "egrep", "fgrep", "rg", "ag", "ack"):
        return []
    operands = [a for a in cmd.args() if not a.startswith("-")]
    explicit = any(a in ("-e", "-f") or a.startswith(("-e", "--regexp")) for a in cmd.args())
    return operands if explicit else operands[1:]


# Programs that print, copy or pack what they read: given a secret, they put its content in
# the agent's context or in a new file. Programs that only use a key (ssh -i, ssh-add,
# ssh-keygen -l, openssl, kubectl --kubeconfig) are not among them.
REVEALERS = frozenset({"cat", "tac", "head", "tail", "less", "more", "most", "bat", "batcat",
                       "nl", "strings", "xxd", "od", "hexdump", "hd", "base64", "base32",
                       "basenc", "tr", "cut", "sort", "uniq", "paste", "fold", "column", "jq",
                       "yq", "grep", "egrep", "fgrep", "rg", "ag", "ack", "awk", "gawk",
                       "mawk", "sed", "cp", "rsync", "tar", "zip", "7z", "7za", "gzip", "bzip2",
                       "xz", "zstd", "dd", "install", "pbcopy", "xclip", "xsel", "wl-copy",
                       "tee", "sqlite3", "source", ".", "iconv", "expand", "rev", "split",
                       "php", "perl", "ruby", "node", "lua", "mlr", "pandoc"})  # fmt: skip
# Trees that hold nothing but keys and credentials: packing or copying one copies them.
_KEY_TREES = frozenset({"~/.ssh", "~/.gnupg", "~/.aws", "~/.password-store", "~/.azure",
                        "~/.config/gcloud", "~/.local/share/keyrings", "~/Library/Keychains",
                        "/root/.ssh", "/etc/ssh",
                        # browser and mail profiles: saved logins, cookies, session tokens
                        "~/.mozilla", "~/.config/google-chrome", "~/.config/chromium",
                        "~/.config/BraveSoftware", "~/.thunderbird", "~/Library/Cookies",
                        "~/Library/Application Support/Google/Chrome",
                        "~/Library/Application Support/Firefox", "~/Library/Safari",
                        "~/snap/firefox"})  # fmt: skip


def in_key_tree(path: str) -> bool:
    """``path`` lies inside a tree of keys (``~/.gnupg/…``, ``~/.ssh/…``, of this user or of
    any home: ``/home/*/.ssh/…``) and is not a public file (``known_hosts``, ``*.pub``)."""
    path = re.sub(r"^/(home|Users)/[^/]+(?=/)", "~", path)
    return not _PUBLIC.search(path) and any(
        path == t or path.startswith(t + "/") for t in _KEY_TREES
    )


def plain_secret(word: str, ctx: Context | None = None) -> bool:
    """``word`` is plainly the user's or the system's secret: a key, credential, cookie or
    history file (or a tree of keys) outside the workspace. A file in the workspace that is
    named like one (``./certs/dev.pem``, ``.env``) may be a fixture and is not."""
    text = word.split("=", 1)[-1].lstrip("@<")
    place = paths.normalize(ctx.resolve(text) if ctx is not None else text)
    if not place.startswith(("/", "~")) or _PUBLIC.search(place):
        return False
    if paths.in_workspace(place, ctx.workspace if ctx is not None else None):
        return False
    place = _ANY_HOME.sub("~/", place)  # /home/ops/.kube/config: another account's, the same
    if _SYSTEM_SECRETS.match(place) or place.rstrip("/") in _KEY_TREES:
        return True
    if _GLOB.search(text) and text.startswith(("/", "~")) and names_secret(text.split("/")[-1]):
        return True  # ~/**/.env*: every such file of the home
    if place != text.rstrip("/") and text.startswith(("/", "~")) and _SECRET_FILE.search(text):
        return not _PUBLIC.search(text)  # ~/.mozilla/firefox/*.default/logins.json: a glob
    return bool(_SECRET_FILE.search(place) or _CREDENTIAL_STORE.match(place)) or credential_named(
        place
    )


# Files that are nothing but stored credentials whatever their name: keyrings, keychains, the
# password store, gpg's private keys, and the token files of gh, docker and kubectl.
_CREDENTIAL_STORE = re.compile(
    r"^~/(\.local/share/keyrings/|Library/Keychains/|\.password-store/|\.gnupg/(private-keys|"
    r"secring|trustdb)|\.config/gh/hosts\.ya?ml$|\.docker/config\.json$|\.kube/config$|"
    r"\.ssh/(?!(config|known_hosts\w*|authorized_keys\w*|[^/]*\.pub)$)[^/]+$)"
)


def secret_read(words: list[str], reveals: bool = False) -> Finding:
    """Reading ``words`` asks; printing or copying a plain secret (``reveals``) is denied."""
    if reveals:
        return Finding(
            "secret-read",
            "deny",
            f"reads {words[0]}, which is a key, credential or history file outside the "
            "workspace, and prints or copies its content; secrets never belong in the agent's "
            "context — ask the user to do it if it is truly needed",
        )
    return Finding(
        "secret-read",
        "ask",
        f"reads {words[0]}, which holds keys, credentials or history; a human must confirm, "
        "and secrets never belong in the agent's context",
    )


_GREPS = frozenset({"grep", "egrep", "fgrep", "rg", "ag", "ack"})
_MATCHES_ALL = frozenset({"", ".", "^", "$", ".*", "^.*", "-v"})
_SECRET_PATTERN = re.compile(r"(?i)secret|token|pass|key|auth|cred|cookie|session|bearer")


_FILE_URL = re.compile(r"^file://(localhost)?(/|\$PWD/|\$\{PWD\}/)", re.IGNORECASE)


def dumps_environment(cmd: Cmd) -> bool:
    """``env``, ``printenv``, ``set``, ``export -p``: every variable, credentials included."""
    if cmd.name in ("env", "printenv"):
        return not [a for a in cmd.args() if not a.startswith("-")]
    return cmd.name in ("export", "declare", "typeset", "set") and cmd.args() in (
        (), ("-p",), ("-x",), ("-px",), ("-xp",))  # fmt: skip


def _inspects(cmd: Cmd) -> bool:
    """``docker inspect NAME``: a container's settings, its environment (and the keys passed
    with ``-e``) among them; searched for credentials, it prints them."""
    words = [a for a in cmd.args() if not a.startswith("-")]
    return cmd.name in ("docker", "podman", "nerdctl") and (
        words[:1] == ["inspect"] or words[:2] == ["container", "inspect"]
    )


# jq's view of the environment: ``$ENV``/``env`` whole, or one variable (``env.HOME``).
_JQ_ENV = re.compile(r"(\$ENV|(?<![\w$.])env)\b(\s*\.\s*(\w+)|\s*\[\s*\"(\w+)\"\s*\])?")


def _jq_environment(cmd: Cmd) -> str:
    """What a jq/gojq/yq program reads of the environment: "all" (``$ENV``, ``env |
    keys``), "secret" (``env.GITHUB_TOKEN``, or the whole filtered for credentials), else ""."""
    if cmd.name not in ("jq", "gojq", "jaq", "yq"):
        return ""
    program = " ".join(a for a in cmd.args() if not a.startswith("-"))
    whole = False
    for match in _JQ_ENV.finditer(program):
        variable = match.group(3) or match.group(4)
        if variable is None:
            whole = True
        elif _SECRET_VARIABLE.search(variable):
            return "secret"
    if whole and _SECRET_PATTERN.search(_JQ_ENV.sub("", program)):
        return "secret"
    return "all" if whole else ""


def environment_searched(cmd: Cmd, ctx: Context) -> Iterator[Finding]:
    """The environment searched for its credentials (``env | grep -i token``, jq's ``$ENV |
    with_entries(select(.key | test("KEY")))``): that prints the secrets themselves."""
    dumped = any(
        dumps_environment(c) or _inspects(c) or _SYSTEM_SECRETS.match(c.argv[-1] if c.argv else "")
        or c.name == "history"  # history | grep -i password: the shell's history searched
        for c in cmd.upstream
    )  # fmt: skip
    searched = dumped and cmd.name in _GREPS and _greps_secrets(cmd, matching_all=False)
    shown = [c for c in (*cmd.upstream, cmd) if _inspects(c) or c.name in ("jq", "gojq")]
    if any(_inspects(c) for c in shown) and any("Env" in " ".join(c.args()) for c in shown):
        yield secret_read(["a container's environment"])  # docker inspect -f '{{.Config.Env}}'

    if searched or _jq_environment(cmd) == "secret":
        yield Finding(
            "secret-read",
            "deny",
            "prints the environment's credentials (the variables named like tokens, keys or "
            "passwords) into the agent's context; ask the user for the one value that is "
            'needed, or check only that it is set ([ -n "$VAR" ])',
        )


def _greps_secrets(cmd: Cmd, *, matching_all: bool = True) -> bool:
    """grep prints the secret's lines: a pattern that matches every line, or one that looks
    for the credential itself; counts and names (``-c``, ``-l``, ``-q``) print none."""
    args = cmd.args()
    if any(re.fullmatch(r"-[a-zA-Z]*[clLq][a-zA-Z]*|--(count|files-with-matches|quiet)", a)
           for a in args):  # fmt: skip
        return False
    given = [args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-e", "--regexp")]
    operands = [a for a in args if not a.startswith("-")]
    patterns = given or operands[:1]
    every = matching_all and (any(p in _MATCHES_ALL for p in patterns) or "-v" in args)
    return every or any(_SECRET_PATTERN.search(p) for p in patterns)


def _copied_in(cmd: Cmd) -> bool:
    """``docker cp ~/.aws/credentials api:/tmp/c``, ``kubectl cp KEY pod:/x``: a file copied
    into a container or a pod, where whoever runs it can read it."""
    words = [a for a in cmd.args() if not a.startswith("-")]
    return (
        cmd.name in ("docker", "podman", "nerdctl", "kubectl", "oc")
        and words[:1] == ["cp"]
        and len(words) >= 3
        and ":" in words[-1]
        and ":" not in words[1]
    )


def judge_read(cmd: Cmd, ctx: Context, words: list[str]) -> Finding:
    """The secret-read finding for ``cmd`` reading ``words``: denied when ``cmd`` prints or
    copies one that is plainly a secret, else asked."""
    fetched = cmd.name in ("curl", "wget") and any(_FILE_URL.match(a) for a in cmd.args())
    fetched = fetched or _copied_in(cmd)
    shown = [w for w in words if plain_secret(w, ctx)] if cmd.name in REVEALERS or fetched else []
    shown = [] if cmd.name in _GREPS and not _greps_secrets(cmd) else shown
    return secret_read(shown or words, reveals=bool(shown))


_EXFIL_SINKS = frozenset({"network", "upload"})


def sent_away(findings: Sequence[Finding]) -> Finding | None:
    """A secret read and the network reached by the same code: exfiltration, denied."""
    found = {f.rule for f in findings}
    if "secret-read" not in found or not found & _EXFIL_SINKS:
        return None
    secret = next(f for f in findings if f.rule == "secret-read")
    return exfiltration(secret.explanation.split(", which", 1)[0])


def exfiltration(what: str) -> Finding:
    return Finding(
        "exfiltration",
        "deny",
        f"{what} and reaches the network in the same command, which can send it away; "
        "never send credentials anywhere — ask the user to do it if it is truly needed",
    )
