"""A game and graphics developer's tools: engines run on the project (Godot, Blender, Unity,
Unreal's build script), asset converters (shader compilers, texture and symbol tools,
ImageMagick) and the harms among them.

An engine run headless on the project in the workspace (``godot --headless --path . --import``,
``blender -b -P tools/export.py``, ``Unity -batchmode -projectPath .``) is a project tool, as
``make`` is: it runs the project's own scripts. A converter (``glslc``, ``toktx``, ``magick``)
runs without asking when every file it names is in the workspace. Blender code given inline
(``--python-expr``) is analysed as the Python it is; turning on the auto-running of scripts
that ``.blend`` files carry, or opening a file from elsewhere with it on, is denied, and so
is ``mogrify`` resizing images outside the workspace in place, which loses the originals.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

from workset.safety import paths
from workset.safety.rules.base import (
    Cmd,
    Context,
    Finding,
    Handler,
    Nested,
    Result,
    Voucher,
    deny_finding,
    unknown_program,
)
from workset.safety.rules.confinement import inside, outside

_CODER = re.compile(r"^(https?|ftp|url|msl|mvg|ephemeral|pipe|fd|show|win|x|vid):",
                    re.IGNORECASE)  # fmt: skip
_FORMAT = re.compile(r"^[A-Za-z0-9]{2,8}:(?!//)")  # png:out.png, jpg:-


def _far(
    cmd: Cmd, ctx: Context, words: list[tuple[int, str]], code: frozenset[int] = frozenset()
) -> Finding | None:
    """The finding for the first of ``words`` (with their index) that names a place outside
    the workspace, or only known at run time; the words at ``code`` (scripts and projects the
    tool runs) must be in the workspace itself, not in a scratch folder."""
    for index, word in words:
        if cmd.is_dynamic(index):
            return Finding("dynamic-path", "ask", f"{cmd.name} is given {word!r}, a path only "
                           "known when the line runs; a human must confirm, or name it "
                           "literally")  # fmt: skip
        if index in code and not paths.in_workspace(ctx.resolve(word), ctx.workspace):
            return Finding("script-outside", "ask", f"{cmd.name} runs {word}, outside the "
                           "workspace; a human must confirm, or copy it into the workspace "
                           "and read it first")  # fmt: skip
        if not inside(word, ctx):
            return outside(word, cmd.name)
    return None


def _words(cmd: Cmd, start: int = 1) -> list[tuple[int, str]]:
    """Every word from ``start`` with its index, an option's glued value (``-o=x``,
    ``--output=x``) as the value, so that each place the tool is given can be checked."""
    found: list[tuple[int, str]] = []
    for index in range(start, len(cmd.argv)):
        word = cmd.argv[index]
        if word.startswith("-") and "=" in word:
            word = word.split("=", 1)[1]
        elif word.startswith("-"):
            continue
        found.append((index, word))
    return found


def converter(cmd: Cmd, ctx: Context) -> Finding | None:
    """``glslc -O a.frag -o build/a.spv``, ``toktx out.ktx2 in.png``, ``naga a.wgsl b.metal``,
    ``dump_syms game.x86_64``: files here made from files here."""
    return _far(cmd, ctx, _words(cmd))


_SOX_DEVICES = re.compile(r"^(alsa|pulseaudio|coreaudio|waveaudio|oss|sndio|ao|null)$")


def sox(cmd: Cmd, ctx: Context) -> Finding | None:
    """``sox in.wav -r 44100 build/out.wav``: sound files here made from files here; the
    sound card (``-d``, ``-t alsa``), which records the microphone or plays aloud, asks."""
    args = cmd.args()
    if (
        "-d" in args
        or "--default-device" in args
        or any(a in ("-t", "--type") and _SOX_DEVICES.match(b) for a, b in itertools.pairwise(args))
    ):
        return unknown_program("sox -d", " (it records from or plays to the sound card)")
    return converter(cmd, ctx)


def imagemagick(cmd: Cmd, ctx: Context) -> Finding | None:
    """``magick in.png -resize 50% out.png``, ``identify a.png``: images here made from images
    here. A coder that reaches the network or runs a script (``url:``, ``msl:``) asks."""
    words: list[tuple[int, str]] = []
    for index, word in _words(cmd):
        if _CODER.match(word):
            return unknown_program(cmd.name, f" (it reads {word.split(':')[0]}:, which fetches "
                                   "or runs what it names)")  # fmt: skip
        words.append((index, _FORMAT.sub("", word).removeprefix("@")))
    return _far(cmd, ctx, words)


def mogrify_harms(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``mogrify -resize 50% ~/Pictures/*.png`` rewrites each image in place; without
    ``-path`` or ``-format`` (new files beside them) the originals are gone."""
    args = cmd.args()[1:] if cmd.name == "magick" else cmd.args()
    if cmd.name == "magick" and cmd.argv[1:2] != ("mogrify",):
        return
    if {"-path", "-format", "+path", "+format"} & set(args):
        return
    far = next((w for w in args if w.startswith(("/", "~")) and not inside(w, ctx)), None)
    if far is not None:
        yield deny_finding("in-place-outside", f"mogrify rewrites {far!r} in place, outside "
                           "the workspace, and the original images are lost",
                           "write the results elsewhere with -path DIR, or work on copies "
                           "inside the workspace")  # fmt: skip


def ffmpeg_device(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``ffmpeg -i clip.mp4 -f rawvideo /dev/sda``: the output written over a disk."""
    args = cmd.args()
    for index, word in enumerate(args):
        if (index == 0 or args[index - 1] != "-i") and paths.is_block_device(ctx.resolve(word)):
            yield Finding("write-block-device", "deny", f"{cmd.name} writes straight to the "
                          f"device {word}, destroying its filesystem; write to a file in the "
                          "workspace instead")  # fmt: skip
            return


_MAGICK_POLICY = re.compile(r"^/(etc|usr/local/etc|opt/homebrew/etc)/ImageMagick[^/]*/policy\.xml$")


def magick_policy(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """``sed -i '/pattern="PS"/d' /etc/ImageMagick-6/policy.xml``: the coders the system's
    ImageMagick policy switches off (PostScript, ``@file``, MSL: the ways an image runs code or
    reads files) switched back on. Raising a resource limit there only asks."""
    if not any(_MAGICK_POLICY.match(ctx.resolve(w)) for w in cmd.args()):
        return
    if any(re.search(r"pattern=.*/d|rights=\W*none", w) for w in cmd.args()):
        yield deny_finding("magick-policy-opened", f"{cmd.name} removes rules of ImageMagick's "
                           "security policy, so images can again run Ghostscript or read "
                           "files named in them", "convert the file with a tool meant for "
                           "it, or ask an administrator")  # fmt: skip


# Godot's options and files that are code it runs (a project, a pack, a script).
_GODOT_CODE = frozenset({"--path", "--main-pack", "-s", "--script"})
_GODOT_FILES = ("project.godot", ".pck", ".gd", ".tscn", ".scn", ".zip")
_GODOT_ASK = frozenset({"--remote-debug", "--debug-server", "--lsp-port", "--dap-port",
                        "--upload-path", "--remote-fs", "--remote-fs-password"})  # fmt: skip


def godot(cmd: Cmd, ctx: Context) -> Finding | None:
    """``godot --headless --path . --import --quit``, ``godot4 --headless -s addons/gut/gut.gd``:
    the project here imported, checked, tested or exported into the workspace."""
    args = cmd.args()
    asked = next((a for a in args if a.split("=", 1)[0] in _GODOT_ASK), None)
    if asked is not None:
        return unknown_program(f"{cmd.name} {asked}", " (it talks to another machine)")
    words = _words(cmd)
    code = frozenset(i for i, w in words if cmd.argv[i].split("=", 1)[0] in _GODOT_CODE
                     or cmd.argv[i - 1] in _GODOT_CODE or w.endswith(_GODOT_FILES))  # fmt: skip
    kept = [(i, w) for i, w in words if not w.startswith(("res://", "user://"))]
    return _far(cmd, ctx, kept, code)


_BLENDER_PLACES = frozenset({"-P", "--python", "-o", "--render-output", "--python-text",
                             "-l", "--log-file", "--env-system-scripts"})  # fmt: skip
_BLENDER_CODE = ("--python-expr",)
_AUTOEXEC = ("-y", "--enable-autoexec")
# Inline code that changes Blender's own settings or installs an add-on for every later run.
_BLENDER_SETTINGS = re.compile(r"save_userpref|addon_install|addon_enable|preferences\.|"
                               r"script_directories|extension", re.IGNORECASE)  # fmt: skip


def _blender_split(cmd: Cmd) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Blender's own words, and those after ``--`` (the script's arguments)."""
    args = cmd.args()
    if "--" in args:
        cut = args.index("--")
        return args[:cut], args[cut + 1 :]
    return args, ()


def blender(cmd: Cmd, ctx: Context) -> Finding | None:
    """``blender -b art/a.blend -P tools/export.py -- --out build/a.glb``: the project's .blend
    files and scripts run without a window; the script's own arguments are its business.
    Inline code was analysed already; code that changes Blender's settings asks."""
    own, _ = _blender_split(cmd)
    for index, word in enumerate(own[:-1]):
        if word in _BLENDER_CODE and _BLENDER_SETTINGS.search(own[index + 1]):
            return unknown_program("blender --python-expr", " (the code changes Blender's "
                                   "preferences or add-ons, outside the workspace)")  # fmt: skip
    places: list[tuple[int, str]] = []
    code: set[int] = set()
    skip = False
    for index, word in enumerate(own, start=1):
        if skip:
            skip = False
            continue
        if word in _BLENDER_PLACES or word in _BLENDER_CODE:
            if word in _BLENDER_PLACES and index < len(own):
                places.append((index + 1, own[index].removeprefix("//")))
                if word in ("-P", "--python", "--env-system-scripts"):
                    code.add(index + 1)
            skip = True
        elif not word.startswith("-"):
            places.append((index, word))
    return _far(cmd, ctx, places, frozenset(code))


def blender_harms(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """Inline code analysed as Python; auto-run of .blend scripts switched on for good, or a
    file from outside the workspace opened with it on, is denied."""
    own, _ = _blender_split(cmd)
    for index, word in enumerate(own[:-1]):
        if word in _BLENDER_CODE:
            code = own[index + 1]
            if re.search(r"use_scripts_auto_execute\s*=\s*True", code):
                yield _autoexec("turns on, in Blender's preferences, the running of scripts "
                                "that .blend files carry")  # fmt: skip
            yield Nested(code, "python")
    if set(own) & set(_AUTOEXEC):
        blends = [w for w in own if w.endswith(".blend") and not inside(w, ctx)]
        if blends:
            yield _autoexec(f"opens {blends[0]!r}, from outside the workspace, with the scripts "
                            "it carries allowed to run")  # fmt: skip


def _autoexec(what: str) -> Finding:
    return deny_finding("blend-autoexec", f"blender {what}: any .blend file can then run code "
                        "on this machine when opened",
                        "keep auto-run off and read the file's scripts first")  # fmt: skip


# Where game engines are installed: only their own editor or build script, by name.
_ENGINES = re.compile(
    r"^(/opt/unity|/Applications/Unity|~/Unity/Hub/Editor/[^/]+|/opt/unityhub/Editor/[^/]+|"
    r"~/Applications/Unity/Hub/Editor/[^/]+|/Applications/Unity/Hub/Editor/[^/]+)/"
    r"(Editor/Unity|Unity\.app/Contents/MacOS/Unity)$|"
    r"^(~|/opt)/(UnrealEngine|UE_[\d.]+|Epic Games/UE_[\d.]+)/Engine/Build/BatchFiles/"
    r"(Linux/Build\.sh|Mac/Build\.sh|Linux/GenerateProjectFiles\.sh)$"
)
# Unity's options that activate or return a licence, or sign in.
_UNITY_ASK = frozenset({"-username", "-password", "-serial", "-returnlicense",
                        "-manualLicenseFile", "-createManualActivationFile"})  # fmt: skip


def installed_engine(cmd: Cmd) -> bool:
    """The program is a game engine's editor or build script where its installer puts it."""
    return bool(cmd.argv) and bool(_ENGINES.match(cmd.argv[0]))


def engine(cmd: Cmd, ctx: Context) -> Finding | None:
    """``Unity -batchmode -projectPath . -executeMethod Build.Run``, Unreal's ``Build.sh
    Game Linux Development -Project=$PWD/Game.uproject``: the project here built or tested,
    every file named in the workspace (Unity's ``-logFile -`` is the terminal)."""
    args = cmd.args()
    asked = next((a for a in args if a in _UNITY_ASK), None)
    if asked is not None:
        return unknown_program(f"Unity {asked}", " (it signs in or changes the licence)")
    if cmd.name == "Unity":
        project = next((args[i + 1] for i, a in enumerate(args[:-1]) if a == "-projectPath"), None)
        if project is None:
            return unknown_program("Unity", " (without -projectPath it opens whatever project "
                                   "was last used)")  # fmt: skip
        if not paths.in_workspace(ctx.resolve(project), ctx.workspace):
            return outside(project, "Unity")
    elif not any(a.lower().startswith("-project=") for a in args):
        return unknown_program(cmd.argv[0], " (without -Project= it builds the engine's own "
                               "targets)")  # fmt: skip
    return _far(cmd, ctx, [(i, w) for i, w in _words(cmd) if w != "-"])


_CONVERTERS = ("glslc", "glslangValidator", "glslang", "spirv-val", "spirv-dis", "spirv-as",
               "spirv-opt", "spirv-cross", "spirv-link", "spirv-reflect", "spirv-cfg", "naga",
               "dxc", "slangc", "toktx", "ktx", "ktx2check", "ktxinfo", "basisu", "dump_syms",
               "genhtml", "gltf-transform", "gltfpack", "gltf-validator", "cwebp", "dwebp",
               "pngquant", "optipng", "oxipng", "avifenc", "lame", "oggenc", "opusenc",
               "ipfs-car")  # fmt: skip
_MAGICK = ("magick", "convert", "identify", "mogrify", "composite", "montage", "compare")
VOUCHERS: dict[str, Voucher] = {
    **{n: converter for n in _CONVERTERS},
    **{n: imagemagick for n in _MAGICK},
    **{n: godot for n in ("godot", "godot4", "godot3", "Godot", "godot-headless")},
    "blender": blender,
    "sox": sox,
}
HANDLERS: dict[str, Handler] = {
    "blender": blender_harms,
    **{n: mogrify_harms for n in ("mogrify", "magick")},
    "ffmpeg": ffmpeg_device,
    "sed": magick_policy,
}
