"""Which paths are secrets: keys, credential files, shell history and the trees that hold them.

:func:`is_secret` is any such name, wherever it is (reading one asks); :func:`plain_secret` is
one that is plainly the user's or the system's, outside the workspace (printing or copying one
is denied), and :func:`in_key_tree` a path inside a tree of nothing but keys. A file-name
pattern that picks out secrets (:func:`names_secret`) and a listing that finds them
(:func:`listing_secret`: ``find ~ -name 'id_*'``, ``ls ~/.ssh``) are judged by the same lists.
The rules that use them are :mod:`~workset.safety.rules.secrets`.
"""

from __future__ import annotations

import fnmatch
import re

from workset.safety import paths
from workset.safety.rules.base import Cmd, Context
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
    r"User Data/Local State|"  # Chromium's key that encrypts its saved logins and cookies
    r"cookies\.sqlite|Web Data|"
    # editors keep their signed-in accounts' tokens in one SQLite file per install
    r"(Code|Code - Insiders|Cursor|VSCodium|Windsurf)/User/globalStorage/state\.vscdb(\.backup)?|"
    # the credential stores of other common tools: cloud, build, registry and wallet clients
    r"\.s3cfg|\.boto|rclone\.conf|\.m2/settings(-security)?\.xml|\.gradle/gradle\.properties|"
    r"\.config/hub|\.config/op/config|\.config/doctl/config\.yaml|\.oci/config|"
    r"\.config/hcloud/cli\.toml|\.fly/config\.yml|\.dockercfg|\.composer/auth\.json|"
    r"\.gem/credentials|\.config/configstore/[^/]*\.json|wallet\.dat|\.electrum/wallets/[^/]+|"
    r"\.ethereum/keystore/[^/]+|\.config/Bitwarden[^/]*/data\.json|\.authinfo(\.gpg)?|"
    r"[^/]*\.tfstate(\.backup)?"
    r")$"
)
# The browser profiles of a Windows user, in a profile read like a home (paths.WINDOWS_HOME).
WINDOWS_BROWSERS = ("~/AppData/Local/Google/Chrome/User Data",
                    "~/AppData/Local/Microsoft/Edge/User Data", "~/AppData/Local/BraveSoftware",
                    "~/AppData/Roaming/Mozilla/Firefox")  # fmt: skip
_PUBLIC = re.compile(
    r"\.(pub|pem\.pub)$|(^|/)([^/]*(cert|chain|crt|bundle)[^/]*|([^/]*[-_.])?ca)\.pem$|(^|/)(known_hosts|authorized_keys)$|\.env\.[a-z]*example"
)
SECRET_DIRS = frozenset(
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
        *WINDOWS_BROWSERS,
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
                 "~/snap/firefox/", *(f"{t}/" for t in WINDOWS_BROWSERS))  # fmt: skip
SYSTEM_SECRETS = re.compile(
    r"^/etc/(shadow|gshadow|sudoers(\.d/.*)?|ssl/private/.*)$|^/proc/[^/]+/(environ|mem)$|"
    # a VPN's private key, saved Wi-Fi passwords, the maintenance account of a MySQL server,
    # Kerberos service keys
    r"^/etc/(wireguard/.+|NetworkManager/system-connections/.+|mysql/debian\.cnf)$|"
    r"^/.*\.keytab$|"
    r"^/(var/)?run/secrets/."  # container and cluster secrets mounted into this machine
)
# Another account's home, or a Windows profile as WSL mounts it (paths.WINDOWS_HOME).
_ANY_HOME = re.compile(r"^(/home/[^/]+|/Users/[^/]+|/root|(?i:/mnt/[a-z]/users/[^/]+))/")


def as_home(path: str) -> str:
    """``path`` in another account's home (or a Windows profile) written as in this one's:
    ``/home/ann/.ssh`` holds what ``~/.ssh`` does."""
    return _ANY_HOME.sub("~/", path)


def is_secret(word: str) -> bool:
    """``word`` names a key, a credential file, shell history or a tree full of them."""
    word = _substituted(word)
    option = _ASSIGNED.match(word)
    text = (word[option.end() :] if option else word).lstrip("@<")
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
    if SYSTEM_SECRETS.match(path) or SYSTEM_SECRETS.match(text) or path.startswith(_SECRET_TREES):
        return True
    if _ANY_HOME.sub("~/", path).startswith(_SECRET_TREES):
        return True  # /home/user/.docker/config.json: another account's home holds the same
    return bool(_SECRET_FILE.search(path)) or credential_named(path)


# ``--file=PATH``, ``NAME=PATH``: the path is what follows the sign.
_ASSIGNED = re.compile(r"^(-{1,2}[\w.-]+|[A-Za-z_]\w*)=")
_SUBSTITUTION = re.compile(r"\$\([^()]*\)|`[^`]*`")


def _substituted(word: str) -> str:
    """``/proc/$(pgrep -f 'x --a=b' | head -1)/environ`` read as ``/proc/N/environ``: what a
    command substitution prints stands in one place of the path (its own words, a ``=`` or
    a ``/`` among them, are not part of it)."""
    for _ in range(4):
        replaced = _SUBSTITUTION.sub("N", word)
        if replaced == word:
            break
        word = replaced
    return word


_SECRET_SAMPLES = ("id_rsa", "id_ed25519", ".env", ".env.production", "credentials", ".netrc",
                   "server.pem", "server.key", ".bash_history", ".git-credentials",
                   "secrets.yml", "terraform.tfstate", ".pgpass", "logins.json",
                   "key4.db")  # fmt: skip
_PLAIN_SAMPLES = ("main.py", "README.md", "index.js", "notes.txt", "Makefile", "config.yml",
                  "data.json", "pyproject.toml", "app.log", "app.db")  # fmt: skip
_GLOB = re.compile(r"[*?\[]")


def names_secret(pattern: str) -> bool:
    """The file-name pattern matches a key or credential file's name and no ordinary one's."""
    return any(fnmatch.fnmatchcase(s, pattern) for s in _SECRET_SAMPLES) and not any(
        fnmatch.fnmatchcase(s, pattern) for s in _PLAIN_SAMPLES
    )


_NAME_OPTIONS = frozenset({"-name", "-iname", "-path", "-ipath", "-regex", "-g", "--glob"})
_LISTERS = frozenset({"find", "fd", "ls", "locate", "mlocate", "plocate"})


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
        if place in SECRET_DIRS or place.startswith(_SECRET_TREES) or is_secret(root):
            return f"files that {cmd.name} lists under {root}"
    return None


# Trees that hold nothing but keys and credentials: packing or copying one copies them.
_KEY_TREES = frozenset({"~/.ssh", "~/.gnupg", "~/.aws", "~/.password-store", "~/.azure",
                        "~/.config/gcloud", "~/.local/share/keyrings", "~/Library/Keychains",
                        "/root/.ssh", "/etc/ssh",
                        # browser and mail profiles: saved logins, cookies, session tokens
                        "~/.mozilla", "~/.config/google-chrome", "~/.config/chromium",
                        "~/.config/BraveSoftware", "~/.thunderbird", "~/Library/Cookies",
                        "~/Library/Application Support/Google/Chrome",
                        "~/Library/Application Support/Firefox", "~/Library/Safari",
                        "~/snap/firefox", *WINDOWS_BROWSERS})  # fmt: skip


def in_key_tree(path: str) -> bool:
    """``path`` lies inside a tree of keys (``~/.gnupg/…``, ``~/.ssh/…``, of this user or of
    any home: ``/home/*/.ssh/…``) and is not a public file (``known_hosts``, ``*.pub``)."""
    path = _ANY_HOME.sub("~/", path)
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
    if SYSTEM_SECRETS.match(place) or place.rstrip("/") in _KEY_TREES:
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
