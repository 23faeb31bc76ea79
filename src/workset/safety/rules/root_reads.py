"""What ``sudo`` may run without asking: a read, by root's standards.

``sudo`` asks (:mod:`~workset.safety.rules.wrappers`) because root may change anything. A
command that only prints what it finds changes nothing, whoever runs it, so under ``sudo``
(alone, ``-n``, ``-H`` or ``-u USER``) it runs when it is one of these reads:

- a plain reader with no option that writes or runs a program (``cat``, ``tail``, ``du``,
  ``ls``, ``grep``, ``stat``, ``df``, ``lsblk``…; not ``find``, ``awk`` or a pager, which can
  start programs);
- a system inspector's read verb (``systemctl status``, ``journalctl -u nginx``, ``apt list
  --upgradable``, ``dpkg -l``);
- a configuration test or account read of :mod:`~workset.safety.rules.admin_reads`
  (``nginx -t``, ``sshd -T``, ``visudo -c``, ``chage -l``, ``crontab -l``, ``fail2ban-regex``);
- a database client given one plain statement that reads (``mysql -e 'SHOW PROCESSLIST'``,
  ``psql -tAc 'SHOW listen_addresses'``): ``SHOW``/``SELECT``/``DESCRIBE``/``EXPLAIN`` with
  no ``INTO`` and calling only functions that compute (``count``, ``pg_size_pretty``), never
  ones that act on the server or read its files (``pg_read_file``, ``pg_terminate_backend``).

Every rule still judges the command sudo runs (``sudo cat /etc/shadow`` is a secret read,
``sudo cat ~/.ssh/id_ed25519`` too); words only known at run time, root's own home and other
processes' ``/proc`` files keep it asking.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from workset.safety.rules import net_reads
from workset.safety.rules.admin_reads import admin_read
from workset.safety.rules.base import Cmd
from workset.safety.rules.confinement import subcommand
from workset.safety.rules.databases import sql_code
from workset.safety.rules.known_lists import SUBCOMMANDS
from workset.safety.rules.system import simulated

# Readers whose every option reads (``tree -o``, ``file -C``, ``dmesg -c`` are left out below).
_READERS = frozenset({
    "cat", "head", "tail", "ls", "wc", "grep", "egrep", "fgrep", "zgrep", "zcat", "bzcat",
    "xzcat", "tac", "stat", "file", "du", "df", "tree", "md5sum", "sha1sum", "sha256sum",
    "sha512sum", "cksum", "b2sum", "lsattr", "namei", "diff", "cmp", "realpath", "readlink",
    "ps", "pstree", "dmesg", "last", "w", "who", "free", "uptime", "lsblk", "findmnt", "id",
    "groups", "getent", "uname", "nproc", "lscpu", "vmstat", "iostat", "sestatus", "getenforce",
})  # fmt: skip
_WRITING_OPTIONS = {"tree": ("-o",), "file": ("-C", "--compile"),
                    "dmesg": ("-c", "--read-clear", "-C", "--clear", "-n", "--console-level",
                              "-D", "--console-off", "-E", "--console-on")}  # fmt: skip
_INSPECTORS = ("systemctl", "apt", "apt-cache", "dpkg", "rpm", "snap",
               "systemd-analyze", "loginctl", "timedatectl")  # fmt: skip
_JOURNAL_CHANGES = ("--vacuum", "--rotate", "--flush", "--sync", "--relinquish-var",
                    "--smart-relinquish-var", "--setup-keys", "--update-catalog",
                    "--cursor-file")  # fmt: skip
_SECRET_WORDS = re.compile(r"pass|secret|token|api.?key|credential|private|auth", re.I)
# Readers that print what a file holds (the others print names, sizes, sums or counts).
_CONTENT = frozenset({"cat", "head", "tail", "grep", "egrep", "fgrep", "zgrep", "zcat", "bzcat",
                      "xzcat", "tac", "diff"})  # fmt: skip
# Where root keeps what anyone may read: logs, configuration, the kernel's views, the system's
# own files. Elsewhere (``/var/lib``, ``/srv``, other homes) a file root alone can read is
# root's for a reason: a database's files, a service's state.
_OPEN_AREAS = ("/var/log/", "/etc/", "/proc/", "/sys/", "/usr/")
# Configuration that holds keys or passwords even there (VPN and Wi-Fi keys, a client's
# password file, TLS keys, Kerberos keytabs, SASL and CHAP secrets).
_KEPT = re.compile(
    r"wireguard|system-connections|secret|passw|shadow|credential|token|keytab|debian\.cnf|"
    r"sasl|chap-|ipsec|openvpn|private|letsencrypt/(live|archive)|htpasswd|netrc|"
    r"\.(key|pem|p12|pfx|jks|kdbx)$",
    re.I,
)
# Root's home and the files of other processes: what sudo would read there is not the system's.
_PRIVATE = re.compile(r"^(/root(/|$)|/proc/(\d+|self|thread-self)/|~root(/|$))")


def sudo_reads(options: Sequence[str], inner: Cmd) -> bool:
    """``options`` (sudo's own) only pick whose rights, and ``inner`` only reads."""
    index = 0
    while index < len(options):
        word = options[index]
        if word in ("-u", "--user") and index + 1 < len(options):
            index += 2
            continue
        if word not in ("-n", "-H", "--non-interactive", "--set-home") and not re.fullmatch(
            r"-u\w[\w.-]*|--user=\w[\w.-]*", word
        ):
            return False
        index += 1
    return root_read(inner)


def root_read(cmd: Cmd) -> bool:
    """``cmd`` only prints what it reads, whatever its rights (the module's list)."""
    if not cmd.argv or any(cmd.dynamic) or any(cmd.inner) or any(cmd.process):
        return False
    args = cmd.args()
    if any(_PRIVATE.match(a) for a in args):
        return False
    name = cmd.name
    if name in _READERS:
        writing = _WRITING_OPTIONS.get(name, ())
        files = [a for a in args if a.startswith(("/", "~", "."))]
        if (
            "grep" in name
            and any(_SECRET_WORDS.search(a) for a in args)
            and not all(a.startswith("/var/log/") for a in files)
        ):
            return False  # sudo grep -r password /etc: the credentials root can read, printed
        if name in _CONTENT and not all(_open_file(f) for f in files if not f.startswith(".")):
            return False  # sudo cat /etc/wireguard/wg0.conf: a key root keeps from others
        return not any(a.split("=", 1)[0] in writing for a in args)
    if name == "journalctl":
        return not any(a.startswith(_JOURNAL_CHANGES) for a in args)
    if name in _INSPECTORS:
        sub = subcommand(cmd)[0]
        if name == "systemctl" and sub == "--version":
            return True
        return sub in SUBCOMMANDS.get(name, frozenset())
    if name in ("mysql", "mariadb", "psql"):
        return _database_read(cmd)
    if name in ("pg_dump", "mysqldump", "mariadb-dump"):
        return _one_database(cmd)
    if name in ("borg", "restic"):
        words = [a for a in args if not a.startswith("-") and not a.startswith(("/", "b2:", "s3:"))]
        return bool(words) and words[0] in _BACKUP_LISTS
    if name == "openssl":  # openssl x509 -in cert.pem -noout -enddate
        return (
            args[:1] == ("x509",)
            and "-noout" in args
            and not {"-out", "-signkey", "-CAkey", "-req", "-x509toreq"} & set(args)
        )
    if name == "postconf":
        return not any(a.startswith("-") and a not in ("-n", "-d", "-h") for a in args) and not any(
            "=" in a for a in args
        )
    return simulated(cmd) or admin_read(cmd) or net_reads.root_read(cmd)


def _open_file(path: str) -> bool:
    """``path`` is where root keeps what anyone may read, and not a key or password file."""
    return path.startswith(_OPEN_AREAS) and not _KEPT.search(path)


_BACKUP_LISTS = frozenset({"list", "snapshots", "check", "info", "stats", "ls", "diff", "find"})


def _one_database(cmd: Cmd) -> bool:
    """``pg_dump app > backups/app.sql``, ``pg_dump -Fc app -f backups/app.dump``: one named
    database copied into the workspace (every database, with the accounts' password hashes,
    is not: ``pg_dumpall``, ``mysqldump --all-databases``)."""
    args = cmd.args()
    if {"-A", "--all-databases", "--system=all", "--system=users"} & set(args):
        return False
    outputs = [args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-f", "--file", "-r")]
    outputs += [a.split("=", 1)[1] for a in args if a.startswith(("--file=", "--result-file="))]
    return all(not o.startswith(("/", "~", "-")) and ".." not in o for o in outputs)


# Client options that write a file, run a program or read statements from elsewhere.
_CLIENT_OUTSIDE = ("-f", "--file", "-o", "--output", "-L", "--log-file", "--tee", "--pager",
                   "--init-command", "--execute-file", "-i", "--include", "-T")  # fmt: skip
_READ_STATEMENT = re.compile(r"^\s*(SHOW|SELECT|DESCRIBE|DESC|EXPLAIN(?!\s+ANALY[SZ]E))\b", re.I)
_META_READS = re.compile(r"^\s*\\(l|du|dt|dn|dx|dp|conninfo|d)\+?(\s+[\w.]+)?\s*$")
_CALL = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
# Where a server keeps its accounts' password hashes, and columns that hold secrets.
_CREDENTIALS = r"mysql\.user\b|pg_shadow|pg_authid|authentication_string|passw|secret|token"
# Functions that only compute a value from their arguments or the session.
_PURE = frozenset({
    "count", "sum", "avg", "min", "max", "version", "now", "current_user", "current_database",
    "database", "user", "pg_size_pretty", "pg_database_size", "pg_relation_size",
    "pg_total_relation_size", "pg_table_size", "pg_indexes_size", "pg_is_in_recovery",
    "pg_last_xact_replay_timestamp", "pg_postmaster_start_time", "coalesce", "round", "length",
    "lower", "upper", "date_trunc", "to_char", "age", "extract", "sys", "concat", "in",
})  # fmt: skip


def _database_read(cmd: Cmd) -> bool:
    """One plain statement that reads, given on the command line (the module's list)."""
    args = cmd.args()
    if any(a.split("=", 1)[0] in _CLIENT_OUTSIDE for a in args) or cmd.redirects:
        return False
    code = sql_code(cmd)
    if code is None:
        return cmd.name == "psql" and bool({"-l", "--list"} & set(args))
    statements = [s for s in code.split(";") if s.strip()]
    if not statements or re.search(r"\bINTO\b|" + _CREDENTIALS, code, re.I):
        return False
    for statement in statements:
        if _META_READS.match(statement):
            continue
        if "\\" in statement or not _READ_STATEMENT.match(statement):
            return False
        if any(c.lower() not in _PURE for c in _CALL.findall(statement)):
            return False
    return True
