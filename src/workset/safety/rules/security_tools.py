"""A security engineer's tools, vouched for in the verbs that only read or stay in the workspace.

- **saved captures read back**: ``tcpdump -r``/``tshark -r`` of a file (no interface, any
  ``-w`` inside the workspace, no ``-z`` command run on rotation), ``capinfos``, and
  ``editcap``/``mergecap``/``reordercap`` writing their output into the workspace;
- **checks that only read**: ``yara`` rules over files, ``in-toto-verify``, ``falco
  --validate``/``--list``, ``oathtool`` (a one-time code computed from the words given);
- **keys and encryption inside the workspace**: ``sops -e`` of a workspace file (the
  ciphertext is safe to print), ``age-keygen -o`` and ``cosign generate-key-pair`` writing
  the new key into the workspace; ``sops -d`` and a key printed to the terminal still ask;
- **local servers and status**: ``vault server -dev`` listening on loopback (in memory,
  gone when it stops), ``bw status``, ``mitmproxy``/``mitmdump`` bound to 127.0.0.1 saving
  flows into the workspace;
- **audits whose reports stay in the workspace**: ``lynis audit system`` given its log and
  report files there, ``prowler`` with read-only options and its output directory there;
- **certificates inspected**: ``cfssl certinfo -cert``, ``step certificate inspect`` of a
  file or of this machine's TLS service.

Anything else these programs do (a secret read, a server on every interface, a change to a
cloud account or the trust store) is not vouched for and asks.
"""

from __future__ import annotations

from workset.safety.rules.attack_targets import place_of
from workset.safety.rules.base import Cmd, Context, Finding, Voucher, option_value, unknown_program
from workset.safety.rules.confinement import inside, outside, subcommand
from workset.safety.rules.known_lists import SUBCOMMANDS


def _written(cmd: Cmd, ctx: Context, *options: str) -> Finding | None:
    """Every file ``cmd`` writes through ``options`` is inside the workspace."""
    args = cmd.args()
    for index, word in enumerate(args[:-1]):
        if word in options and not inside(args[index + 1], ctx):
            return outside(args[index + 1], cmd.name)
    for word in args:
        option, equals, value = word.partition("=")
        if equals and option in options and not inside(value, ctx):
            return outside(value, cmd.name)
    return None


def _capture_read(cmd: Cmd, ctx: Context) -> Finding | None:
    """``tcpdump -nn -r incident.pcap 'port 443'``: a saved capture read, nothing sniffed."""
    args = cmd.args()
    reads = "-r" in args or any(a.startswith("--read-file") for a in args)
    if not reads or {"-i", "--interface", "-z", "-X"} & set(args) or any(cmd.dynamic):
        return unknown_program(cmd.name, " (outside reading a saved capture)")
    return _written(cmd, ctx, "-w")


def _capture_edit(cmd: Cmd, ctx: Context) -> Finding | None:
    """``editcap -A START in.pcap out.pcap``, ``mergecap -w all.pcap a.pcap b.pcap``."""
    if any(cmd.dynamic):
        return unknown_program(cmd.name)
    if cmd.name == "mergecap":
        return _written(cmd, ctx, "-w") if "-w" in cmd.args() else unknown_program(cmd.name)
    operands = [a for a in cmd.args() if not a.startswith("-")]
    if cmd.name == "capinfos":
        return None
    if len(operands) < 2:
        return unknown_program(cmd.name)
    return None if inside(operands[-1], ctx) else outside(operands[-1], cmd.name)


def _reads(cmd: Cmd, ctx: Context) -> Finding | None:
    return None  # yara, in-toto-verify, oathtool: print what they find or compute


def _falco(cmd: Cmd, ctx: Context) -> Finding | None:
    """``falco --validate rules.yaml``, ``falco --list``: rules checked, nothing watched."""
    args = cmd.args()
    if args and args[0] in ("-V", "--validate", "-L", "--list", "--version", "--help", "-h"):
        return None
    return unknown_program(cmd.name, " (beyond checking rules)")


def _sops(cmd: Cmd, ctx: Context) -> Finding | None:
    """``sops -e -i secrets/staging.yaml``: encrypted where it lies, in the workspace."""
    args = cmd.args()
    files = [a for a in args if not a.startswith("-")]
    if not {"-e", "--encrypt"} & set(args) or any(cmd.dynamic) or len(files) != 1:
        return unknown_program(cmd.name, " (decrypting or editing prints secrets)")
    if {"-i", "--in-place"} & set(args) and not inside(files[0], ctx):
        return outside(files[0], cmd.name)
    return _written(cmd, ctx, "--output")


def _new_key(cmd: Cmd, ctx: Context) -> Finding | None:
    """``age-keygen -o tests/fixtures/key.txt``: the private key written in the workspace, not
    printed where the agent reads it."""
    target = option_value(cmd.args(), ("-o", "--output"))
    if target is None:
        return unknown_program(cmd.name, " (it prints the new private key)")
    return None if inside(target, ctx) else outside(target, cmd.name)


def _cosign(cmd: Cmd, ctx: Context) -> Finding | None:
    sub, rest = subcommand(cmd)
    if sub == "generate-key-pair" and not any(a.startswith("--kms") for a in rest):
        prefix = option_value(rest, ("--output-key-prefix",))
        return None if prefix is None or inside(prefix, ctx) else outside(prefix, cmd.name)
    return _listed(cmd, sub)


def _vault(cmd: Cmd, ctx: Context) -> Finding | None:
    """``vault server -dev``: an in-memory server on loopback, gone when it stops."""
    sub, rest = subcommand(cmd)
    if sub == "server" and "-dev" in rest and not any(a.startswith("-config") for a in rest):
        given = [a.split("=", 1)[1] for a in rest if a.startswith("-dev-listen-address=")]
        address = (given or [option_value(rest, ("-dev-listen-address",)) or "127.0.0.1:8200"])[0]
        if place_of(address) == "loopback":
            return None
    return _listed(cmd, sub)


def _listed(cmd: Cmd, sub: str) -> Finding | None:
    if sub in SUBCOMMANDS.get(cmd.name, frozenset()):
        return None
    return unknown_program(f"{cmd.name} {sub}".strip(), " (its subcommand is not one known to "
                           "be safe)")  # fmt: skip


def _bitwarden(cmd: Cmd, ctx: Context) -> Finding | None:
    if cmd.args()[:1] in (("status",), ("--version",), ("--help",)) and len(cmd.args()) == 1:
        return None  # locked or not, and as whom: no item
    return unknown_program(cmd.name, " (beyond its status)")


_MITM_SAFE = frozenset({"--listen-host", "--listen-port", "-p", "-w", "--save-stream-file",
                        "-q", "--quiet", "--no-http2", "--ssl-insecure", "-k"})  # fmt: skip


def _mitmproxy(cmd: Cmd, ctx: Context) -> Finding | None:
    """``mitmproxy --listen-host 127.0.0.1 -w flows/x.flow``: only this machine's clients."""
    args = cmd.args()
    host = option_value(args, ("--listen-host",))
    options = [a.split("=", 1)[0] for a in args if a.startswith("-")]
    if host is None or place_of(host) != "loopback" or set(options) - _MITM_SAFE:
        return unknown_program(cmd.name, " (unless bound to 127.0.0.1 with only its usual "
                               "options)")  # fmt: skip
    return _written(cmd, ctx, "-w", "--save-stream-file")


def _lynis(cmd: Cmd, ctx: Context) -> Finding | None:
    """``lynis audit system --logfile reports/l.log --report-file reports/l.dat``."""
    args = cmd.args()
    if args[:1] in (("show",), ("--version",)):
        return None
    log = option_value(args, ("--logfile", "--log-file"))
    report = option_value(args, ("--report-file",))
    if args[:2] != ("audit", "system") or log is None or report is None:
        return unknown_program(cmd.name, " (its log and report go to /var/log unless named)")
    return _written(cmd, ctx, "--logfile", "--log-file", "--report-file")


_PROWLER_READS = frozenset({"--profile", "-p", "--services", "-s", "--checks", "-c",
                            "--output-modes", "-M", "--output-directory", "-o",
                            "--output-filename", "-F", "--region", "-f", "--filter-region",
                            "--severity", "--compliance", "--quiet", "-q", "--no-banner", "-b",
                            "--status", "--list-checks", "--list-services", "--list-compliance",
                            "-z", "--ignore-exit-code-3", "--excluded-checks", "-e",
                            "--excluded-services", "--categories"})  # fmt: skip


def _prowler(cmd: Cmd, ctx: Context) -> Finding | None:
    """A read-only cloud audit (no fixer, nothing sent to Security Hub or a chat)."""
    options = {a.split("=", 1)[0] for a in cmd.args() if a.startswith("-")}
    if options - _PROWLER_READS or any(cmd.dynamic):
        return unknown_program(cmd.name, " (beyond a read-only audit)")
    return _written(cmd, ctx, "-o", "--output-directory")


def _cfssl(cmd: Cmd, ctx: Context) -> Finding | None:
    args = cmd.args()
    if args[:1] == ("certinfo",) and "-cert" in args and not any(cmd.dynamic):
        return None  # prints the certificate's fields
    return unknown_program(f"cfssl {' '.join(args[:1])}".strip())


def _step(cmd: Cmd, ctx: Context) -> Finding | None:
    """``step certificate inspect cert.pem`` or of this machine's TLS service."""
    words = [a for a in cmd.args() if not a.startswith("-")]
    if (
        words[:2] in (["certificate", "inspect"], ["certificate", "fingerprint"])
        and len(words) == 3
    ):
        target = words[2]
        if "://" not in target or place_of(target) == "loopback":
            return None
    return unknown_program(" ".join(["step", *words[:2]]))


VOUCHERS: dict[str, Voucher] = {
    **{n: _capture_read for n in ("tcpdump", "tshark")},
    **{n: _capture_edit for n in ("editcap", "mergecap", "reordercap", "capinfos")},
    **{n: _reads for n in ("yara", "in-toto-verify", "oathtool")},
    "falco": _falco,
    "sops": _sops,
    "age-keygen": _new_key,
    "cosign": _cosign,
    "vault": _vault,
    "bw": _bitwarden,
    **{n: _mitmproxy for n in ("mitmproxy", "mitmdump")},
    "lynis": _lynis,
    "prowler": _prowler,
    "cfssl": _cfssl,
    "step": _step,
}
