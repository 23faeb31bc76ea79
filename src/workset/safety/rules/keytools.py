"""Key and certificate tools: ``ssh-keygen``, ``openssl`` and ``gpg``.

Their reads (a fingerprint, a certificate's text, a list of keys) run without asking, except
that reading a private key is a secret read (:mod:`~workset.safety.rules.secrets` sees its
path) and exporting secret keys is denied. What they write must stay in the workspace: a key
pair generated with ``-f``/``-out`` inside it is the project's test fixture, one written to
``~/.ssh`` (the default) or anywhere else asks. ``gpg`` asks for everything that changes the
keyring or uses a secret key.
"""

from __future__ import annotations

import re

from workset.safety.rules.base import Cmd, Finding

# ssh-keygen options that only read or print.
_SSH_READS = frozenset({"-l", "-F", "-y", "-e", "-Q", "-D", "-B", "-L"})
_SSH_VERIFY = frozenset({"verify", "check-novalidate", "find-principals", "match-principals"})
_OPENSSL_OUTPUTS = ("-out", "-keyout", "-signkey-out")
_GPG_READS = frozenset(
    {
        "--list-keys",
        "-k",
        "--list-public-keys",
        "--list-secret-keys",
        "-K",
        "--fingerprint",
        "--verify",
        "--list-packets",
        "--list-sigs",
        "--check-sigs",
        "--show-keys",
        "--list-config",
        "--version",
        "--print-md",
        "--dearmor",
        "--enarmor",
        "--export",
        "--armor",
        "-a",
    }
)  # fmt: skip  (--export: public keys only)


# What changes the keyring, uses a secret key or talks to a key server.
_GPG_ACTS = frozenset({"--import", "--recv-keys", "--send-keys", "--refresh-keys", "--gen-key",
                       "--full-generate-key", "--generate-key", "--quick-generate-key",
                       "--quick-add-key", "--delete-keys", "--delete-secret-keys",
                       "--delete-secret-and-public-keys", "--edit-key", "--sign-key",
                       "--lsign-key", "--decrypt", "--sign", "--clearsign", "--detach-sign",
                       "--encrypt", "--symmetric", "--gen-revoke",
                       "--import-ownertrust"})  # fmt: skip
_GPG_SHORT_ACT = re.compile(r"-[a-zA-Z]*[desc][a-zA-Z]*")


def writes(cmd: Cmd) -> list[str]:
    """The files ``ssh-keygen``/``openssl`` would write (none when they only read)."""
    if cmd.name == "ssh-keygen":
        return _ssh_keygen_writes(cmd)
    args = cmd.args()
    return [args[i + 1] for i, a in enumerate(args[:-1]) if a in _OPENSSL_OUTPUTS]


def write_outside(cmd: Cmd, target: str) -> Finding:
    return Finding(
        "key-write-outside",
        "ask",
        f"{cmd.name} writes {target!r}, outside the workspace (where keys belong to the user); "
        "a human must confirm, or write the key inside the workspace",
    )


def _ssh_keygen_writes(cmd: Cmd) -> list[str]:
    """The files ssh-keygen writes: the key named by ``-f`` (and its .pub), else ~/.ssh."""
    args = cmd.args()
    key = next((args[i + 1] for i, a in enumerate(args[:-1]) if a == "-f"), None)
    bundled = next((a[2:] for a in args if a.startswith("-f") and len(a) > 2), None)
    key = key or bundled
    flags = {a for a in args if a.startswith("-")}
    if flags & _SSH_READS or any(a.startswith("-l") for a in args):
        return []
    if "-Y" in args and any(a in _SSH_VERIFY for a in args):
        return []
    if "-A" in flags:
        return ["/etc/ssh"]
    if "-R" in flags:
        return [key or "~/.ssh/known_hosts"]
    if "-s" in flags:  # signs public keys: writes a -cert.pub next to each
        valued = ("-s", "-I", "-n", "-V", "-z", "-O")
        return [
            a
            for i, a in enumerate(args)
            if not a.startswith("-") and (i == 0 or args[i - 1] not in valued)
        ]
    return [key or "~/.ssh/id_KEY"]


def gpg(cmd: Cmd) -> Finding | None:
    """None when gpg only lists or verifies; else why it asks."""
    args = cmd.args()
    if any(a.startswith("--export-secret") for a in args):
        return Finding(
            "secret-read",
            "deny",
            "gpg --export-secret-keys writes out private keys; secrets never belong in the "
            "agent's context or the workspace — ask the user to export keys if it is needed",
        )
    acts = [a for a in args if a.split("=", 1)[0] in _GPG_ACTS or _GPG_SHORT_ACT.fullmatch(a)]
    written = [args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-o", "--output")]
    written += [a.split("=", 1)[1] for a in args if a.startswith("--output=")]
    away = [w for w in written if w.startswith(("/", "~")) or ".." in w]  # (not -o ./pub.asc)
    if set(args) & _GPG_READS and not acts and not away:
        return None
    return Finding(
        "gpg-keyring",
        "ask",
        f"{cmd.name} {' '.join(args[:2])} changes the keyring or uses a secret key; a human "
        "must confirm",
    )
