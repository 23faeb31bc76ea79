"""Rules for secrets: reading keys and credentials, and dumping or searching the environment.

Reading a secret asks (a person should see that the agent wants its SSH key); reading one and
reaching the network in the same line is exfiltration and is denied (see
:func:`workset.safety.commands.analyze_command`). Wiping the record of what ran is
:mod:`~workset.safety.rules.records`.

Which paths are secrets is :mod:`~workset.safety.rules.secret_paths`; the environment's
credentials, and grep patterns that pick them out, are
:mod:`~workset.safety.rules.secret_environment`. This module finds the words a command reads
(operands, ``@file`` uploads, ``<`` input, the files git, jq and grep read) and judges the
reads: asked, denied when a plain secret is printed or copied, and exfiltration when the same
code reaches the network.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from workset.safety import paths
from workset.safety.rules import keytools
from workset.safety.rules.base import Cmd, Context, Finding
from workset.safety.rules.secret_environment import (
    dumps_environment,
    greps_secrets,
    inspects_container,
    jq_environment,
    printed_secret_variables,
    secret_variables,
)
from workset.safety.rules.secret_paths import (
    SECRET_DIRS,
    SYSTEM_SECRETS,
    as_home,
    in_key_tree,
    is_secret,
    listing_secret,
    plain_secret,
)

# Shared with the other families, which reach them as ``secrets.is_secret`` and so on.
__all__ = ["LISTING", "REVEALERS", "environment_searched", "exfiltration", "in_key_tree",
           "is_secret", "judge_read", "listing_secret", "plain_secret", "secret_read",
           "secret_variables", "secret_words", "sent_away"]  # fmt: skip

_GLOBLESS = re.compile(r"[^*?\[{]*")
LISTING = frozenset({"ls", "stat", "du", "file", "test", "[", "[[", "tree", "mkdir", "cd", "df",
                      "rm", "rmdir", "unlink", "touch", "chmod", "chown", "chgrp", "shred",
                      "pushd", "mv", "find", "history", "unset", "export", "declare"})  # fmt: skip
_NOT_PATHS = frozenset({"echo", "printf", "grep", "egrep", "fgrep", "rg", "ag", "ack", "git"})


def secret_words(cmd: Cmd, ctx: Context) -> list[str]:
    """The words of ``cmd`` that read secrets (operands, ``@file`` uploads, ``<`` input)."""
    name = cmd.name
    found: list[str] = [t for op, t in cmd.redirects if op in ("<", "<>") and is_secret(t)]
    if dumps_environment(cmd) or jq_environment(cmd) == "all":
        found.append("the environment")
    elif inspects_container(cmd) and any(".Config.Env" in a or ".Env" in a for a in cmd.args()):
        found.append("a container's environment")
    args = _after_pattern(cmd) if name in _NOT_PATHS else list(cmd.args())
    if name in ("cp", "install", "ln", "rsync") and len(args) > 1:
        args = args[:-1]  # the destination is written, not read
    if name == "tee":
        args = [a for a in args if a.startswith("-")]  # tee keys/wg.key: written, not read
    if name in ("jq", "gojq", "jaq", "yq"):
        args = _after_program(cmd)
    if name in ("curl", "wget", "http", "https"):  # the CA it trusts is a public certificate
        args = [a for i, a in enumerate(args) if a.split("=", 1)[0] not in _TRUST_ANCHORS
                and (i == 0 or args[i - 1] not in _TRUST_ANCHORS)]  # fmt: skip
    if name in ("curl", "wget"):  # curl file:///…: a read of that file
        args = [_FILE_URL.sub(lambda m: "./" if "PWD" in m.group(0) else "/", a) for a in args]
    if name == "git":
        args = _git_files(cmd)
    elif name in ("dscl", "dseditgroup"):
        args = []  # dscl . -read /Users/dev: a directory record, not a file (rules.macos_changes)
    elif _certificates_only(cmd):
        args = []  # they print certificates, never a private key, whatever file they read
    elif name in ("openssl", "ssh-keygen"):
        written = set(keytools.writes(cmd))  # a key being generated is not read
        args = [a for a in args if a not in written]
    args = _without_exclusions(args, zip_like=name in ("zip", "7z", "7za"))
    if name not in LISTING:
        found.extend(_listed_secrets(cmd, ctx))
    if name in ("echo", "printf", "printenv"):
        found.extend(printed_secret_variables(cmd))
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
        if ((place in SECRET_DIRS or as_home(place) in SECRET_DIRS) and name not in LISTING) or (
            is_secret(word) and name not in LISTING
        ):
            found.append(word)
    return found


# Options that name the certificate authorities a client trusts: public certificates.
_TRUST_ANCHORS = frozenset({"--cacert", "--capath", "--ca-certificate", "--ca-directory",
                            "--verify"})  # fmt: skip


def _certificates_only(cmd: Cmd) -> bool:
    """``openssl x509``, ``cfssl certinfo -cert``, ``step certificate inspect``: programs that
    parse a certificate and print its fields, whatever else the file holds."""
    args = cmd.args()
    words = [a for a in args if not a.startswith("-")]
    return (
        (cmd.name == "openssl" and args[:1] in (("x509",), ("verify",), ("crl",)))
        or (cmd.name == "cfssl" and args[:1] == ("certinfo",) and "-cert" in args)
        or (cmd.name == "step" and words[:2] in (["certificate", "inspect"],
                                                 ["certificate", "fingerprint"]))
    )  # fmt: skip


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


def _listed_secrets(cmd: Cmd, ctx: Context) -> list[str]:
    """Operands computed by a listing (``cat $(find ~ -name 'id_*')``) that name secrets."""
    found: list[str] = []
    for index in range(1, len(cmd.argv)):
        for inner in cmd.inner_of(index) if cmd.is_dynamic(index) else ():
            what = listing_secret(inner, ctx)
            if what is not None:
                found.append(what)
    return found


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


_FILE_URL = re.compile(r"^file://(localhost)?(/|\$PWD/|\$\{PWD\}/)", re.IGNORECASE)


def environment_searched(cmd: Cmd, ctx: Context) -> Iterator[Finding]:
    """The environment searched for its credentials (``env | grep -i token``, jq's ``$ENV |
    with_entries(select(.key | test("KEY")))``): that prints the secrets themselves."""
    dumped = any(
        dumps_environment(c) or inspects_container(c)
        or SYSTEM_SECRETS.match(c.argv[-1] if c.argv else "")
        or c.name == "history"  # history | grep -i password: the shell's history searched
        for c in cmd.upstream
    )  # fmt: skip
    searched = dumped and cmd.name in _GREPS and greps_secrets(cmd, matching_all=False)
    shown = [c for c in (*cmd.upstream, cmd) if inspects_container(c) or c.name in ("jq", "gojq")]
    if any(inspects_container(c) for c in shown) and any(
        "Env" in " ".join(c.args()) for c in shown
    ):
        yield secret_read(["a container's environment"])  # docker inspect -f '{{.Config.Env}}'

    if searched or jq_environment(cmd) == "secret":
        yield Finding(
            "secret-read",
            "deny",
            "prints the environment's credentials (the variables named like tokens, keys or "
            "passwords) into the agent's context; ask the user for the one value that is "
            'needed, or check only that it is set ([ -n "$VAR" ])',
        )


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
    shown = [] if cmd.name in _GREPS and not greps_secrets(cmd) else shown
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
