"""Vouching for the admin and media tools of everyday development: queries of a service on this
machine (``ldapsearch -H ldap://localhost``, ``kafka-topics --describe --bootstrap-server
localhost:9092``), a mail server's settings printed (``postconf -n``), ``ffmpeg``/``ffprobe``
on files, a WebAssembly module run in its sandbox (``wasmtime run --dir=. app.wasm``), and code
generators writing into the workspace.

Each returns None when the call is shown to read only, or to write only inside the workspace,
else why it asks: a service on another host (the same reason ``curl`` asks), an option that
changes it, a capture device (the screen, a camera, a microphone) or a network address as an
input or output, an output file outside the workspace.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from workset.safety.rules.base import (
    Cmd,
    Context,
    Finding,
    option_values,
    parse_flags,
    unknown_program,
)
from workset.safety.rules.confinement import inside, outside
from workset.safety.rules.loopback import LOCAL_URL


def _local_directory(url: str) -> bool:
    """An LDAP address of this machine: a loopback host, or the local socket (``ldapi://``)."""
    return bool(LOCAL_URL.match(url)) or url.lower().startswith("ldapi://")


def _ldap_query(cmd: Cmd, ctx: Context) -> Finding | None:
    """``ldapsearch``/``ldapwhoami``/``ldapcompare`` against a directory on this machine
    (``-H ldap://localhost:3389``); without ``-H`` the address comes from ``ldap.conf``."""
    args = cmd.args()
    hosts = option_values(args, ("-H",)) + [a[2:] for a in args if a.startswith("-H") and a[2:]]
    hosts += [f"ldap://{h}" for h in option_values(args, ("-h",))]
    if not hosts:
        return unknown_program(cmd.name, " (the directory it asks is set outside the command)")
    far = next((h for h in hosts for u in h.split() if not _local_directory(u)), None)
    if far is not None:
        return unknown_program(cmd.name, f" (it queries {far}, another host)")
    return None


# Kafka's admin scripts: the options that change a cluster, and those that only read it.
_KAFKA_CHANGES = frozenset({"--create", "--delete", "--alter", "--reset-offsets", "--execute",
                            "--delete-offsets", "--add-config", "--delete-config",
                            "--add", "--remove", "--generate"})  # fmt: skip
_KAFKA_READS = frozenset({"--list", "--describe", "--version", "--help"})
_KAFKA_SERVER = ("--bootstrap-server", "--zookeeper", "--broker-list")


def _kafka_admin(cmd: Cmd, ctx: Context) -> Finding | None:
    """``kafka-topics --describe --bootstrap-server localhost:9092``: a cluster on this machine
    described; a change, or any call to another host, asks."""
    args = cmd.args()
    options = {a.split("=", 1)[0] for a in args}
    if options & _KAFKA_CHANGES or not options & _KAFKA_READS:
        return unknown_program(cmd.name, " (it changes the cluster's topics or settings)")
    servers = option_values(args, _KAFKA_SERVER)
    far = [s for s in servers for host in s.split(",") if not LOCAL_URL.match(host)]
    if not servers or far:
        where = far[0] if far else "a cluster named outside the command"
        return unknown_program(cmd.name, f" (it asks {where}, another host)")
    return None


def _postconf(cmd: Cmd, ctx: Context) -> Finding | None:
    """``postconf -n``, ``postconf myhostname``: Postfix's settings printed; ``-e``, ``-X``
    and ``-#`` edit ``main.cf``."""
    flags, _ = parse_flags(cmd.args())
    if flags & {"e", "X", "#"}:
        return unknown_program("postconf -e", " (it edits the mail server's settings)")
    return None


# ffmpeg's options that take no value; every other option takes the next word.
_FFMPEG_FLAGS = frozenset({"-y", "-n", "-hide_banner", "-nostdin", "-stats", "-nostats", "-vn",
                           "-an", "-sn", "-dn", "-shortest", "-re", "-copyts", "-benchmark",
                           "-report", "-ignore_unknown", "-show_format", "-show_streams",
                           "-show_entries_all", "-show_frames", "-show_packets",
                           "-show_chapters", "-show_error", "-show_programs", "-pretty",
                           "-count_frames", "-count_packets", "-h", "-version"})  # fmt: skip
# Capture devices: the screen, cameras, microphones and the frame buffer.
_DEVICES = frozenset({"x11grab", "v4l2", "video4linux2", "alsa", "pulse", "avfoundation",
                      "gdigrab", "dshow", "fbdev", "kmsgrab", "openal", "jack", "oss",
                      "sndio", "decklink", "lavfi-device"})  # fmt: skip
_URL = re.compile(r"^[a-z][a-z0-9+.-]*:(//|[^/\\])", re.IGNORECASE)


def _ffmpeg(cmd: Cmd, ctx: Context) -> Finding | None:
    """``ffmpeg -i in.mov -vf scale=1280:-2 out.mp4``, ``ffprobe -show_streams a.wav``: media
    files converted or read, the outputs inside the workspace. An address (``udp://``,
    ``rtmp://``, ``http://``) in or out, a capture device (``-f x11grab``) or an output
    outside asks."""
    args = cmd.args()
    outputs: list[str] = []
    index = 0
    while index < len(args):
        word = args[index]
        value = args[index + 1] if index + 1 < len(args) else ""
        if word.startswith("-") and word not in _FFMPEG_FLAGS and word != "-":
            if word == "-f" and value in _DEVICES:
                return unknown_program(cmd.name, f" (it records from the device {value})")
            if word == "-i" and _URL.match(value) and not value.startswith("file:"):
                return unknown_program(cmd.name, f" (it reads {value} over the network)")
            index += 2
            continue
        if not word.startswith("-"):
            outputs.append(word)
        index += 1
    for word in outputs:
        if _URL.match(word) and not word.startswith("file:"):
            return unknown_program(cmd.name, f" (it sends to {word})")
        if cmd.name == "ffmpeg" and not inside(word.removeprefix("file:"), ctx):
            return outside(word, cmd.name)
    return None


# WebAssembly runtimes: what the module may reach is what the command grants it.
_WASM_DIRS = ("--dir", "--mapdir")
_WASM_NETWORK = re.compile(r"inherit-network|tcplisten|allow-ip-name-lookup|^--net$|^--enable-net",
                           re.IGNORECASE)  # fmt: skip
_WASM_VALUED = frozenset({"--dir", "--mapdir", "--env", "-S", "-W", "-O", "-D", "--invoke",
                          "--fuel", "--preload", "--volume", "--env-file"})  # fmt: skip


def _wasm_run(cmd: Cmd, ctx: Context) -> Finding | None:
    """``wasmtime run --dir=. target/app.wasm -- ARGS``: a module of the workspace in the
    runtime's sandbox, given folders of the workspace only and no network. A folder outside
    (``--dir=/``), network access or a module from elsewhere asks."""
    args = list(cmd.args())
    if args[:1] == ["run"]:
        args = args[1:]
    index = 0
    while index < len(args) and args[index].startswith("-") and args[index] != "--":
        option, _, attached = args[index].partition("=")
        value = attached or (args[index + 1] if index + 1 < len(args) else "")
        if _WASM_NETWORK.search(args[index]) or _WASM_NETWORK.search(value):
            return unknown_program(cmd.name, " (it gives the module the network)")
        if option in _WASM_DIRS:
            host = value.split("::")[-1] if option == "--mapdir" else value.split("::")[0]
            if not inside(host, ctx):
                return unknown_program(cmd.name, f" (it gives the module {host})")
        index += 1 if attached or option not in _WASM_VALUED else 2
    module = args[index] if index < len(args) and args[index] != "--" else ""
    if not module or _URL.match(module) or not inside(module, ctx):
        return unknown_program(cmd.name, f" (it runs {module or 'a module'} from outside)")
    return None


# Code generators: what they write is where their output option points.
_GENERATOR_SUBCOMMANDS = frozenset({"generate", "validate", "list", "version", "help",
                                    "config-help", "meta"})  # fmt: skip
_GENERATOR_OUTPUTS = ("-o", "--output", "--output-dir", "--out")


def _generator(cmd: Cmd, ctx: Context) -> Finding | None:
    """``openapi-generator-cli generate -i spec.yaml -g python -o gen/``: code generated into
    the workspace. An output folder outside it (an installed package's folder, the home) asks:
    the generated code lands where other programs load it."""
    args = cmd.args()
    sub = next((a for a in args if not a.startswith("-")), "")
    if sub not in _GENERATOR_SUBCOMMANDS:
        return unknown_program(f"{cmd.name} {sub}".strip(), " (its subcommand is not one known)")
    outputs = option_values(args, _GENERATOR_OUTPUTS)
    far = next((o for o in outputs if not inside(o, ctx)), None)
    return None if far is None else outside(far, cmd.name)


VOUCHERS: dict[str, Callable[[Cmd, Context], Finding | None]] = {
    **{n: _ldap_query for n in ("ldapsearch", "ldapwhoami", "ldapcompare")},
    **{
        f"kafka-{n}{s}": _kafka_admin
        for n in ("topics", "consumer-groups", "configs")
        for s in ("", ".sh")
    },
    "postconf": _postconf,
    **{n: _ffmpeg for n in ("ffmpeg", "ffprobe")},
    **{n: _wasm_run for n in ("wasmtime", "wasmer")},
    **{
        n: _generator
        for n in (
            "openapi-generator-cli",
            "openapi-generator",
            "swagger-codegen",
            "swagger-codegen-cli",
        )
    },
}
