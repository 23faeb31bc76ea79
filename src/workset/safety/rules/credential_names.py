"""Credentials kept by tools in the home's hidden folders, recognised by name or by the tool.

A command-line client that logs in keeps its token where the user's settings live: a hidden
folder of the home (``~/.codex/auth.json``, ``~/.huggingface/token``), XDG's config and data
folders, macOS's ``Library``, or a system folder (``/etc/kubernetes/admin.conf``). Two ways
to know such a file without listing every client:

- **its name says so**: a word of its name (split at ``.``, ``-``, ``_``) is one credentials
  are named with (``auth``, ``token``, ``credentials``, ``secret``, ``password``, ``pass``,
  ``key``/``keys``, ``cookie``, ``session``, ``keyring``, ``wallet``…), in a hidden or
  settings folder outside the workspace. A file in the workspace named ``auth.py`` or
  ``tokens.md`` is the project's source, not a credential, and is not matched;
- **the tool is known to keep its login in its settings file** although the name says nothing
  (``~/.terraformrc``, ``~/.databrickscfg``, ngrok's ``ngrok.yml``, Copilot's ``hosts.json``,
  a CI runner's ``config.toml``): :data:`_LOGIN_SETTINGS`.

History kept by pagers and editors (``~/.lesshst``, ``~/.viminfo``) is history, like the
shells'. Each is a secret to :func:`~workset.safety.rules.secrets.is_secret` and a plain
secret to :func:`~workset.safety.rules.secrets.plain_secret`, so printing one is denied.
"""

from __future__ import annotations

import re

# Where tools keep settings and logins: a hidden folder or file of the home (any account's),
# macOS's application folders, and the system's settings and state.
_SETTINGS_PLACE = re.compile(
    r"^((~|/root|/home/[^/]+|/Users/[^/]+)/(\.[^/]+(/.+)?|Library/(Application Support|"
    r"Preferences|Containers|Group Containers)/.+)|/etc/.+|/var/lib/.+|/opt/[^/]+/.+)$"
)
_CREDENTIAL_WORD = re.compile(
    r"^(o?auth\w*|x?authority|tokens?|\w*tokens?|credentials?|creds?|secrets?|passwords?|"
    r"passwd|pass|passphrase|api[-_]?keys?|apikeys?|keys?|privkey|sessions?|cookies?|"
    r"keyrings?|keychains?|keystores?|wallets?)$",
    re.IGNORECASE,
)
# Settings files that hold a login although their names do not say so.
_LOGIN_SETTINGS = re.compile(
    r"(^|/)(\.terraformrc|terraform\.rc|\.databrickscfg|\.sentryclirc|\.wakatime\.cfg|"
    r"\.snowsql/config|\.dbt/profiles\.ya?ml|\.kaggle/kaggle\.json|\.?ngrok2?/ngrok\.ya?ml|"
    r"\.jfrog/jfrog-cli\.conf|\.circleci/cli\.ya?ml|\.travis/config\.ya?ml|"
    r"glab-cli/config\.ya?ml|\.config/linode-cli|\.op/config|\.config/tailscale(/.*)?|"
    r"\.?cloudflared/cert\.pem|github-copilot/(hosts|apps)\.json|\.claude\.json|"
    r"\.bundle/config|NuGet/NuGet\.Config|pip/pip\.(conf|ini)|\.pip/pip\.conf|\.yarnrc\.yml|"
    r"\.netlify/config\.json|\.?wrangler/config/[^/]+\.toml|\.config/heroku/.+|"
    r"\.lesshst|\.viminfo|\.local/share/nvim/shada/.+|"
    r"kubernetes/(admin|super-admin|controller-manager|scheduler|kubelet)\.conf|"
    r"gitlab-runner/config\.toml|docker/containers/[^/]+/config\.v2\.json|"
    r"\.git-credential-cache/.+|\.config/rclone/.+|\.config/hub|\.hgrc|\.subversion/auth/.+)$"
)


# The account lists every user may read (the hashes are in /etc/shadow).
_PUBLIC_ACCOUNTS = frozenset({"/etc/passwd", "/etc/group", "/etc/passwd-", "/etc/group-"})


def login_settings(path: str) -> bool:
    """``path`` is a settings file known to hold its tool's login (whatever its name says)."""
    return bool(_SETTINGS_PLACE.match(path) and _LOGIN_SETTINGS.search(path))


def credential_named(path: str) -> bool:
    """``path`` (normalised, the home written ``~``) is a file where a tool keeps a login."""
    if not _SETTINGS_PLACE.match(path) or path in _PUBLIC_ACCOUNTS:
        return False
    if _LOGIN_SETTINGS.search(path):
        return True
    name = path.rsplit("/", 1)[-1]
    return any(_CREDENTIAL_WORD.match(word) for word in re.split(r"[._\-\s]+", name) if word)
