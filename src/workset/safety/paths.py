"""Path words as the command rules see them: normalised, and sorted into kinds of place.

``~`` stands for the user's home (``$HOME`` and ``${HOME}`` are rewritten to it before a path
gets here). A glob is judged by the directory it expands in: ``/*`` is ``/``, ``/usr/l*`` is
``/usr``, ``./*`` is ``.``.
"""

from __future__ import annotations

import posixpath
import re

_GLOB = re.compile(r"[*?\[{]")
# Anything under these is the operating system itself.
_SYSTEM_TREES = frozenset(
    {"bin", "sbin", "lib", "lib32", "lib64", "libx32", "boot", "dev", "proc", "sys", "etc"}
)
# These top-level directories hold other people's or the system's data.
_TOP_LEVEL = frozenset(
    {
        "usr",
        "var",
        "home",
        "root",
        "opt",
        "srv",
        "mnt",
        "media",
        "run",
        "snap",
        "Users",
        "System",
        "Library",
        "Applications",
        "private",
        "nix",
    }
)
# Direct children of these are protected too (/usr/lib, /var/log, /home/alice).
_SECOND_LEVEL = frozenset({"usr", "var", "home", "Users", "System", "Library", "nix"})
# The home's own trees: keys and settings, browser and mail profiles, password stores, and
# the user's documents (the XDG user folders).
_HOME_PROTECTED = frozenset(
    {"~/.ssh", "~/.gnupg", "~/.aws", "~/.kube", "~/.config", "~/.local", "~/.local/share",
     "~/Documents", "~/Desktop", "~/Downloads", "~/Pictures", "~/Music", "~/Videos",
     "~/Movies", "~/Library", "~/Public", "~/Templates", "~/Dropbox", "~/OneDrive",
     "~/.mozilla", "~/.thunderbird", "~/.config/google-chrome", "~/.config/chromium",
     "~/.config/BraveSoftware", "~/.password-store", "~/.local/share/keyrings",
     "~/.azure", "~/.config/gcloud", "~/snap",
     # a Windows profile seen from WSL (/mnt/c/Users/dev is read as ~): its settings trees
     "~/AppData", "~/AppData/Local", "~/AppData/Roaming", "~/AppData/LocalLow",
     "~/AppData/Local/Google/Chrome/User Data", "~/AppData/Local/Microsoft/Edge/User Data",
     "~/AppData/Local/BraveSoftware", "~/AppData/Roaming/Mozilla/Firefox"}
)  # fmt: skip
_WRITE_SYSTEM = frozenset(
    {"etc", "usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32", "boot", "opt", "sys", "proc"}
)
_BLOCK_DEVICE = re.compile(
    r"^/dev/(sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|r?disk\d|md\d|dm-\d|mapper/|"
    r"loop\d|sr\d|mem$|kmem$|port$)"
)
_SENSITIVE = re.compile(
    r"^(/etc/(passwd|shadow|group|gshadow|sudoers|sudoers\.d(/.*)?|ssh/sshd_config(\.d/.*)?|"
    r"pam\.d/.*|security/(access|limits|pam_env)\.conf|hosts|resolv\.conf|nsswitch\.conf|"
    r"ld\.so\.preload|ld\.so\.conf(\.d/.*)?|ca-certificates\.conf|ssl/certs(/.*)?|"
    r"pki/ca-trust/source(/.*)?)|/usr/local/share/ca-certificates(/.*)?|"
    r"(~|/root|/home/[^/]+)/\.ssh/(authorized_keys2?|id_[a-z0-9_]+|config))$"
)
# Files a shell runs as code at start or exit, of every common shell (and the X session).
_STARTUP = re.compile(
    r"^(~|/root|/home/[^/]+)/\.(bashrc|bash_profile|bash_login|bash_logout|bash_aliases|profile|"
    r"zshrc|zprofile|zshenv|zlogin|zlogout|kshrc|mkshrc|cshrc|tcshrc|xprofile|xinitrc|"
    r"xsessionrc|config/fish/config\.fish|config/fish/conf\.d/[^/]+\.fish|"
    r"config/nushell/(config|env)\.nu)$"
)
_HARMLESS_DEVICES = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"})
# A Windows user's profile as WSL mounts it (``/mnt/c/Users/dev``): the user's other home. It
# is matched like a home (its Documents, AppData, .ssh) but never written ``~``: it is not
# the Linux home, and ``/mnt/c/Users/dev/proj`` is not the workspace ``/home/dev/proj``.
WINDOWS_HOME = re.compile(r"(?i)^/mnt/[a-z]/users/(?!(public|default|all users)(/|$))[^/]+(?=/|$)")


def normalize(word: str) -> str:
    """The place ``word`` names: collapsed slashes, ``.``/``..`` resolved, globs cut off."""
    text = word.strip()
    if text.startswith("~") and text != "~" and not text.startswith("~/"):
        user, _, rest = text[1:].partition("/")
        text = ("/root" if user == "root" else f"/home/{user}") + ("/" + rest if rest else "")
    parts = text.split("/")
    for index, part in enumerate(parts):
        if _GLOB.search(part):
            parts = parts[:index]
            break
    text = "/".join(parts)
    if word.strip().startswith("/") and not text:
        return "/"
    if not text:
        return "."
    if text.startswith("~"):
        rest = posixpath.normpath("/" + text[1:].lstrip("/"))
        return "~" if rest == "/" else "~" + rest
    path = posixpath.normpath(text)
    if path.startswith("/"):
        path = "/" + path.lstrip("/")
    elif path.startswith("~"):  # "./~" is a file named ~ here, not the home
        path = "./" + path
    return path


def is_protected(path: str) -> bool:
    """A place no agent should delete, move away or open to everyone, recursively."""
    path = WINDOWS_HOME.sub("~", path)  # a Windows profile's Documents, AppData: like ~'s
    if path in ("/", "~") or path in _HOME_PROTECTED:
        return True
    if not path.startswith("/"):
        return False
    parts = path.strip("/").split("/")
    if parts[0] in _SYSTEM_TREES:
        return True
    if len(parts) == 1:
        return parts[0] in _TOP_LEVEL
    return len(parts) == 2 and parts[0] in _SECOND_LEVEL


# A visible folder at the top of the home holds the user's own data or their other projects
# (``~/src``, ``~/work``, ``~/projects``); a scratch folder there does not.
_USER_FOLDER = re.compile(r"^~/[^./][^/]*$")
_HOME_SCRATCH = frozenset({"~/tmp", "~/temp", "~/scratch", "~/Trash"})


def is_user_folder(path: str, workspace: str | None = None) -> bool:
    """A folder at the top of a home that holds its user's data: deleting it whole, or
    emptying it, destroys work beyond the workspace. Another account's home
    (``/home/dev/notes``, ``/Users/ann/Documents``) counts like this one's."""
    account = _OTHER_HOME.match(path)
    if account is not None and account.group(1) != home_of(workspace):
        path = "~" + path[account.end() :]
    return path in _HOME_PROTECTED or (bool(_USER_FOLDER.match(path)) and path not in _HOME_SCRATCH)


_OTHER_HOME = re.compile(r"^(/home/[^/]+|/Users/[^/]+|/root|(?i:/mnt/[a-z]/users/[^/]+))(?=/)")


def is_system(path: str) -> bool:
    """A file of the operating system: writing there needs a human's yes."""
    return path.startswith("/") and path.strip("/").split("/")[0] in _WRITE_SYSTEM


def is_block_device(path: str) -> bool:
    return bool(_BLOCK_DEVICE.match(path))


def is_sensitive(path: str) -> bool:
    """Account and key files: writing them takes over the machine or locks people out."""
    return bool(_SENSITIVE.match(path))


def is_startup_file(path: str) -> bool:
    """Shell startup files: whatever is written there runs in every future shell."""
    return bool(_STARTUP.match(path))


# The settings of coding agents, this one included: what they may run without asking.
_AGENT_SETTINGS = re.compile(
    r"^~/\.config/workset(/|$)|^~/\.(workset|claude|codex|gemini|cursor)(/|$)|"
    r"(^|/)\.claude/settings(\.local)?\.json$|(^|/)\.gemini/settings\.json$|"
    r"(^|/)\.codex/config\.toml$|(^|/)\.aider\.conf\.ya?ml$|"
    # MCP clients' global server lists: a server added there runs with the user's rights
    r"^~/\.config/Claude/|^~/Library/Application Support/Claude/|^~/\.continue/|"
    r"^~/\.config/(goose|opencode|zed|crush)/|^~/\.codeium/windsurf/mcp_config\.json$|"
    r"^~/\.(aws/amazonq|kiro)/|^~/\.vscode/mcp\.json$|^~/\.config/Code/User/mcp\.json$"
)


# A project's own files that configure a coding agent: its tools and servers (workset.toml,
# .mcp.json), its rules and commands, tasks an editor runs on opening the folder. Editing one
# is ordinary work when the user asks for it, and a way for an agent to widen its own reach
# when it does not: asked, never silent. (Its artifacts folder is workset's own output.)
_PROJECT_AGENT_CONFIG = re.compile(
    r"(^|/)workset\.toml$|(^|/)\.workset/(?!artifacts(/|$))|(^|/)\.mcp\.json$|"
    r"(^|/)\.(claude|cursor|continue|codex|gemini|roo|kiro|amazonq|windsurf)/|"
    r"(^|/)\.(cursorrules|clinerules|windsurfrules)$|(^|/)\.vscode/(mcp|tasks)\.json$"
)


def is_project_agent_config(path: str) -> bool:
    """A file of the project that configures a coding agent or what its editor runs."""
    return bool(_PROJECT_AGENT_CONFIG.search(path))


def is_agent_settings(path: str) -> bool:
    """A settings file of a coding agent: an agent that writes it changes its own leash."""
    return bool(_AGENT_SETTINGS.search(path))


def join(cwd: str | None, word: str) -> str:
    """``word`` as seen from ``cwd`` (None: the workspace), normalised."""
    path = normalize(word)
    if cwd is None or path.startswith(("/", "~")):
        return path
    return normalize(cwd.rstrip("/") + "/" + path)


def is_harmless_device(path: str) -> bool:
    return path in _HARMLESS_DEVICES or path.startswith("/dev/fd/")


# What the X's of a ``mktemp`` template become: a fresh name only this line made.
FRESH = "\ue001"
OWN_TEMP = f"/tmp/tmp.{FRESH}"  # what ``$(mktemp)`` stands for
# Where a ``cd`` to a directory only known at run time leads: not the workspace, not protected.
UNKNOWN_DIR = "/(a directory known only at run time)"
_FRESH = re.compile(f"^/(var/)?tmp/[^/]*{FRESH}[^/]*(/|$)")


def is_own_temp(path: str) -> bool:
    """A fresh name ``mktemp`` made under ``/tmp`` in this line (a literal ``/tmp/x.XXX``
    written by hand is not one)."""
    return bool(_FRESH.match(path))


def home_of(workspace: str | None) -> str | None:
    """The home the workspace lies in (``/home/NAME``, ``/Users/NAME``, ``/root``), if any."""
    if not workspace:
        return None
    match = re.match(r"^(/home/[^/]+|/Users/[^/]+|/root)(/|$)", normalize(workspace))
    return match.group(1) if match else None


def in_home_form(path: str, workspace: str | None) -> str:
    """``path`` with the workspace's home written as ``~`` when it lies outside the workspace
    (``/home/me/proj/../.config`` is ``~/.config``), and a ``~`` path that lies inside the
    workspace written absolute, so every rule sees one spelling of each place. A workspace
    that is the home itself gets no such exception: its keys and settings stay ``~/…``."""
    home = home_of(workspace)
    if home is None:
        return path
    below = normalize(workspace or "") != home  # a workspace that is the home keeps ~ its own
    if path == "~" or path.startswith("~/"):
        absolute = home + path[1:]
        return absolute if below and in_workspace(absolute, workspace) else path
    if (path == home or path.startswith(home + "/")) and not (
        below and in_workspace(path, workspace)
    ):
        return "~" + path[len(home) :]
    return path


def is_scratch(path: str) -> bool:
    return path in ("/tmp", "/var/tmp") or path.startswith(("/tmp/", "/var/tmp/"))


def in_workspace(path: str, workspace: str | None) -> bool:
    if path.startswith("./"):
        return True
    if not path.startswith(("/", "~")):
        return path != ".." and not path.startswith("../")
    if workspace is None:
        return False
    root = normalize(workspace)
    return path == root or path.startswith(root.rstrip("/") + "/")


def workspace_relative(value: str, workspace: str | None) -> str:
    """``value`` (a path or a ``:``-separated list) with the workspace's own absolute prefix
    written relative (``$PWD/build/lib`` expands to ``/home/dev/proj/build/lib``, read as
    ``./build/lib``), so rules that trust the project's own folders see them as such."""
    if not workspace:
        return value
    root = workspace.rstrip("/")
    parts = value.split(":")
    out = ["." + p[len(root) :] if p == root or p.startswith(root + "/") else p for p in parts]
    return ":".join(out)
