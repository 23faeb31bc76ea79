"""A server administrator's reads and configuration tests, known by their options.

- Accounts and logins shown: ``lastlog``, ``lastb``, ``faillog -a``, ``chage -l deploy``;
  ACLs shown (``getfacl``); swap listed (``swapon --show``).
- A daemon's configuration parsed and checked, nothing started or reloaded: ``sshd -t``/``-T``
  (the effective settings printed), ``nginx -t``/``-T``, ``apachectl configtest``/``-S``,
  ``visudo -c`` (``-cf sudoers/deploy``), ``haproxy -c -f``, ``named-checkconf``,
  ``php-fpm8.2 -t``, ``logrotate -d`` (a debug run changes nothing), ``fail2ban-regex LOG
  FILTER`` (a filter tried on a log, nobody banned).
- Certificates listed: ``certbot certificates``, ``acme.sh --list``; disks and their health
  (``fdisk -l``, ``blkid``, ``smartctl -H``), packages (``dnf check-update``, ``apt-mark
  showhold``), the mail queue (``mailq``, ``postqueue -p``, ``doveconf -n``), a cron table
  (``crontab -u www-data -l``), the jobs a cron folder would run (``run-parts --test``).
- A note of literal text to a mailbox of this machine (``echo done | mail -s ok root``):
  :func:`local_mail`; a tool run from its own install folder in the home
  (``~/.acme.sh/acme.sh``, ``~/.cargo/bin/cargo``) is judged by its name: :func:`home_tool`.

The same programs with any other option (``nginx -s reload``, ``sshd -D``, ``chage -M 90``,
``lastlog --clear``, ``swapon -a``, ``certbot renew``) ask as unknown. These are reads by
root's standards too: :mod:`~workset.safety.rules.root_reads` lets ``sudo`` run them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from workset.safety.rules.base import Cmd, Context, Finding, Voucher, unknown_program

# Tools that install themselves into a folder of their own in the home, and are run from there
# by the path their documentation gives (``~/.acme.sh/acme.sh --list``): the same file the
# PATH finds, judged by its name. A file the line itself wrote there is judged as written.
_HOME_TOOLS = re.compile(r"^~/(\.acme\.sh/(?P<acme>acme\.sh)|\.cargo/bin/(?P<cargo>[\w-]+)|"
                         r"\.bun/bin/(?P<bun>bunx?)|\.deno/bin/(?P<deno>deno))$")  # fmt: skip


def home_tool(place: str, ctx: Context) -> str | None:
    """The tool's name when ``place`` is its own install folder's copy (``~/.cargo/bin/cargo``)."""
    match = _HOME_TOOLS.match(place)
    if match is None or ctx.wrote(place):
        return None
    return next(g for g in match.groupdict().values() if g is not None)


def _letters(args: Sequence[str], valued: str) -> tuple[set[str], list[str]] | None:
    """The short option letters of ``args`` and the values they take (``-cf FILE``: ``{c,
    f}``, ``[FILE]``), or None when a long option or an operand is among them."""
    letters: set[str] = set()
    values: list[str] = []
    index = 0
    while index < len(args):
        word = args[index]
        if not re.fullmatch(r"-[A-Za-z]+", word):
            return None
        letters |= set(word[1:])
        needs = [c for c in word[1:] if c in valued]
        for _ in needs:
            index += 1
            if index >= len(args):
                return None
            values.append(args[index])
        index += 1
    return letters, values


def _shaped(cmd: Cmd, allowed: str, valued: str, needed: str, what: str) -> Finding | None:
    """Only ``allowed`` short options (``valued`` ones take a value), at least one of
    ``needed``: the read; anything else asks, named ``what``."""
    found = _letters(cmd.args(), valued)
    if (
        found is not None
        and not any(cmd.dynamic)
        and found[0] <= set(allowed)
        and found[0] & set(needed)
    ):
        return None
    return unknown_program(what)


def _sshd(cmd: Cmd, ctx: Context) -> Finding | None:
    """``sshd -t``, ``sshd -T -C user=deploy``: the settings checked or printed (not ``-E``,
    which appends to a log, nor ``-D``/``-d``, which serve)."""
    return _shaped(cmd, "tTGqfCh", "fCh", "tTG", "sshd")


def _nginx(cmd: Cmd, ctx: Context) -> Finding | None:
    """``nginx -t``, ``nginx -T -c conf/nginx.conf``: the configuration parsed and printed."""
    return _shaped(cmd, "tTqcvV", "c", "tTvV", "nginx")


def _visudo(cmd: Cmd, ctx: Context) -> Finding | None:
    """``visudo -c``, ``visudo -cf sudoers/deploy``: the sudoers syntax checked, not edited."""
    return _shaped(cmd, "cfqsOPh", "f", "c", "visudo")


def visudo_check(cmd: Cmd) -> bool:
    return cmd.name == "visudo" and _visudo(cmd, Context()) is None


def _named_check(cmd: Cmd, ctx: Context) -> Finding | None:
    return None if not any(cmd.dynamic) else unknown_program(cmd.name)


def _php_fpm(cmd: Cmd, ctx: Context) -> Finding | None:
    return _shaped(cmd, "tTcyv", "cy", "tTv", cmd.name)


def _haproxy(cmd: Cmd, ctx: Context) -> Finding | None:
    return _shaped(cmd, "cfqV", "f", "c", "haproxy")


_APACHE_READS = frozenset({"configtest", "-t", "-S", "-M", "-V", "-v", "-l", "-L", "-D",
                           "DUMP_VHOSTS", "DUMP_MODULES", "DUMP_RUN_CFG", "DUMP_INCLUDES",
                           "-f"})  # fmt: skip


def _apache(cmd: Cmd, ctx: Context) -> Finding | None:
    """``apachectl configtest``, ``apache2ctl -S``, ``httpd -t -D DUMP_VHOSTS``."""
    args = cmd.args()
    files = {i + 1 for i, a in enumerate(args[:-1]) if a == "-f"}
    tests = {"configtest", "-t", "-S", "-M", "-V", "-v", "-l", "-L"}
    known = all(a in _APACHE_READS or i in files for i, a in enumerate(args))
    if args and known and not any(cmd.dynamic) and set(args) & tests:
        return None
    return unknown_program(cmd.name, " (only its configuration tests are known)")


def _logrotate(cmd: Cmd, ctx: Context) -> Finding | None:
    """``logrotate -d /etc/logrotate.conf``: a debug run, which rotates nothing."""
    args = cmd.args()
    if ("-d" in args or "--debug" in args) and not {"-m", "--mail", "-l", "--log"} & set(args):
        return None  # (nor is its state file updated: -s STATE is only read)
    return unknown_program("logrotate", " (only its debug run -d is known to change nothing)")


def _chage(cmd: Cmd, ctx: Context) -> Finding | None:
    """``chage -l deploy``: an account's password ageing shown."""
    args = [a for a in cmd.args() if a not in ("-l", "--list")]
    if len(args) < len(cmd.args()) and len(args) <= 1 and not any(cmd.dynamic):
        return None
    return unknown_program("chage", " (it sets when passwords expire)")


def _logins(cmd: Cmd, ctx: Context) -> Finding | None:
    """``lastlog``, ``lastlog -u deploy``, ``lastb -n 20``, ``faillog -a``: who logged in (or
    failed to); ``--clear``/``--set``/``-r``/``-l``/``-m`` change the records."""
    changes = {"lastlog": ("-C", "--clear", "-S", "--set"),
               "faillog": ("-r", "--reset", "-l", "--lock-secs", "-m", "--maximum", "-L")
               }.get(cmd.name, ())  # fmt: skip
    if any(a.split("=", 1)[0] in changes for a in cmd.args()):
        return unknown_program(cmd.name, " (it changes the login records)")
    return None


def _getfacl(cmd: Cmd, ctx: Context) -> Finding | None:
    return None  # the ACLs of the files named, printed (setfacl is the change)


def _swapon(cmd: Cmd, ctx: Context) -> Finding | None:
    """``swapon --show``, ``swapon -s``: the swap in use listed; anything else turns it on."""
    shows = {"--show", "-s", "--summary"}
    shapes = {"--noheadings", "--bytes", "--raw", "--verbose", "-v", "-h", "--help"}
    args = [a.split("=", 1)[0] for a in cmd.args()]
    if set(args) & shows and set(args) <= shows | shapes:
        return None
    return unknown_program("swapon", " (it turns swap on)")


def _fail2ban_regex(cmd: Cmd, ctx: Context) -> Finding | None:
    """``fail2ban-regex LOG FILTER``: a filter tried on a log; nobody is banned."""
    return None if not any(cmd.dynamic) else unknown_program("fail2ban-regex")


def _certbot(cmd: Cmd, ctx: Context) -> Finding | None:
    """``certbot certificates``: the certificates it manages listed (their keys are not)."""
    words = [a for a in cmd.args() if not a.startswith("-")]
    if words[:1] == ["certificates"]:
        return None
    return unknown_program(" ".join(["certbot", *words[:1]]),
                           " (only its listing is known to be a read)")  # fmt: skip


def _acme(cmd: Cmd, ctx: Context) -> Finding | None:
    """``acme.sh --list``: the certificates it manages listed."""
    if set(cmd.args()) <= {"--list", "--listraw", "--version"} and cmd.args():
        return None
    return unknown_program("acme.sh", " (only its listing is known to be a read)")


_MYSQLADMIN_READS = frozenset({"status", "processlist", "variables", "extended-status", "ping",
                               "version"})  # fmt: skip


def _mysqladmin(cmd: Cmd, ctx: Context) -> Finding | None:
    """``mysqladmin status``, ``mysqladmin processlist``: the server's state shown."""
    args = cmd.args()
    valued = ("-h", "--host", "-u", "--user", "-P", "--port", "-S", "--socket")
    words = [a for i, a in enumerate(args) if not a.startswith("-") and args[i - 1 : i] not in
             [(v,) for v in valued]]  # fmt: skip
    if (
        words
        and set(words) <= _MYSQLADMIN_READS
        and not any(a.startswith(("-p", "--password")) for a in cmd.args())
    ):
        return None  # fmt: skip
    return unknown_program(" ".join(["mysqladmin", *words[:1]]), " (it changes the server)")


def table_words(cmd: Cmd) -> list[str]:
    """``crontab``'s words past ``-u USER`` (whose table it is)."""
    args = cmd.args()
    return [a for i, a in enumerate(args) if a != "-u" and args[i - 1 : i] != ("-u",)]


def _crontab(cmd: Cmd, ctx: Context) -> Finding | None:
    """``crontab -l``, ``crontab -u www-data -l``: a table of scheduled jobs listed."""
    if table_words(cmd) == ["-l"] and not any(cmd.dynamic):
        return None
    return unknown_program("crontab", " (only its listing is known to be a read)")


def _disks(cmd: Cmd, ctx: Context) -> Finding | None:
    """``fdisk -l``, ``parted -l``, ``blkid``, ``findmnt``, ``smartctl -H /dev/sda``: disks,
    partitions and their health listed; a partition edited, a cache rewritten (``blkid -g``)
    or a self-test started (``smartctl -t``) asks."""
    args = cmd.args()
    listing = {"fdisk": {"-l", "--list"}, "sfdisk": {"-l", "--list"}, "parted": {"-l", "--list"}}
    if cmd.name in listing:
        if set(args) & listing[cmd.name] and not any(a in ("-s", "mkpart", "rm") for a in args):
            return None
    elif cmd.name == "smartctl":
        if not any(
            a.split("=", 1)[0]
            in ("-s", "--smart", "-t", "--test", "-X", "--abort", "-o", "-S", "--set")
            for a in args
        ):
            return None  # fmt: skip
    elif cmd.name == "blkid":
        if "-g" not in args and "--garbage-collect" not in args:
            return None
    elif cmd.name == "findmnt":
        return None
    return unknown_program(cmd.name, " (it changes a disk or its settings)")


_PACKAGE_READS = frozenset({"list", "info", "search", "check-update", "repolist", "provides",
                            "deplist", "repoquery", "updateinfo", "history", "showhold",
                            "showauto", "showmanual", "showinstall", "showremove",
                            "showpurge"})  # fmt: skip


def _package_reads(cmd: Cmd, ctx: Context) -> Finding | None:
    """``dnf check-update``, ``yum list installed``, ``apt-mark showhold``: packages listed
    (``dnf history undo``, ``apt-mark hold`` are changes)."""
    words = [a for a in cmd.args() if not a.startswith("-")]
    if words[:1] and words[0] in _PACKAGE_READS and not {"undo", "redo", "rollback"} & set(words):
        return None
    return unknown_program(" ".join([cmd.name, *words[:1]]),
                           " (its subcommand is not one known to be safe)")  # fmt: skip


def _mail_queue(cmd: Cmd, ctx: Context) -> Finding | None:
    """``mailq``, ``postqueue -p``, ``doveconf -n``: the queue or the settings shown (not
    ``postqueue -f``, which sends, nor ``doveconf -P``, which prints the passwords)."""
    args = set(cmd.args())
    reads = {"mailq": set(), "postqueue": {"-p", "-j"}, "doveconf": {"-n", "-a"},
             "dovecot": {"-n", "-a"}}[cmd.name]  # fmt: skip
    if (args & reads or not reads) and args <= reads | {"-c"} | {a for a in args if "/" in a}:
        return None
    return unknown_program(cmd.name)


def _run_parts(cmd: Cmd, ctx: Context) -> Finding | None:
    """``run-parts --test /etc/cron.daily``: the scripts that would run, listed."""
    if {"--test", "--list"} & set(cmd.args()):
        return None
    return unknown_program("run-parts", " (it runs every script of the folder)")


def _mailbox(cmd: Cmd, ctx: Context) -> Finding | None:
    return None if local_mail(cmd) else unknown_program(cmd.name)


_CHECKS: dict[str, Callable[[Cmd, Context], Finding | None]] = {
    "sshd": _sshd,
    "nginx": _nginx,
    "visudo": _visudo,
    "haproxy": _haproxy,
    "apachectl": _apache,
    "apache2ctl": _apache,
    "httpd": _apache,
    "logrotate": _logrotate,
    "named-checkconf": _named_check,
    "named-checkzone": _named_check,
    "fail2ban-regex": _fail2ban_regex,
    "chage": _chage,
    "lastlog": _logins,
    "lastb": _logins,
    "faillog": _logins,
    "getfacl": _getfacl,
    "swapon": _swapon,
    "certbot": _certbot,
    "acme.sh": _acme,
    "mysqladmin": _mysqladmin,
    "crontab": _crontab,
    "run-parts": _run_parts,
    **dict.fromkeys(("fdisk", "sfdisk", "parted", "smartctl", "blkid", "findmnt"), _disks),
    **dict.fromkeys(("dnf", "yum", "apt-mark"), _package_reads),
    **dict.fromkeys(("mailq", "postqueue", "doveconf", "dovecot"), _mail_queue),
    **dict.fromkeys(("mail", "mailx", "s-nail"), _mailbox),
}
_PHP_FPM = re.compile(r"^php-fpm[\d.]*$")

_LOCAL_BOX = re.compile(r"^[a-z_][\w.-]*(@(localhost|127\.0\.0\.1|\[127\.0\.0\.1\]))?$", re.I)
_MAIL_VALUED = frozenset({"-s", "--subject", "-r", "-c", "-b"})


def local_mail(cmd: Cmd) -> bool:
    """``echo 'backup done' | mail -s 'backup ok' root@localhost``: a note of literal text
    left in a mailbox of this machine; nothing attached, no mail server or program named."""
    args = cmd.args()
    valued = {i + 1 for i, a in enumerate(args[:-1]) if a in _MAIL_VALUED}
    boxes = [a for i, a in enumerate(args) if i not in valued and not a.startswith("-")]
    options = [a for i, a in enumerate(args) if i not in valued and a.startswith("-")]
    fed = [c for c in cmd.upstream if c.name in ("echo", "printf") and not any(c.dynamic)]
    return (
        cmd.name in ("mail", "mailx", "s-nail")
        and bool(boxes)
        and all(_LOCAL_BOX.match(b) for b in boxes)
        and set(options) <= _MAIL_VALUED
        and not any(cmd.dynamic)
        and len(fed) == len(cmd.upstream) == 1
        and not cmd.redirects
        and "~" not in " ".join(fed[0].args())
    )


VOUCHERS: dict[str, Voucher] = {
    **_CHECKS,
    **{f"php-fpm{v}": _php_fpm for v in ("", "7.4", "8.0", "8.1", "8.2", "8.3", "8.4")},
}


def admin_read(cmd: Cmd) -> bool:
    """``cmd`` is one of this module's reads or configuration tests."""
    check = VOUCHERS.get(cmd.name)
    return check is not None and check(cmd, Context()) is None
