"""What project tools load besides the project: settings, scripts and programs named on the line.

A build or test tool runs the project's code, which is why it runs without asking. Pointed at
code from elsewhere (``gradle -I /tmp/init.gradle``, ``pytest -c /tmp/pytest.ini``, ``just
--justfile /tmp/j``, ``make -C /tmp/x``, ``java -jar /tmp/x.jar``, ``bun run /tmp/x.ts``,
``deno run https://…``, ``protoc --plugin=protoc-gen-x=/tmp/x``) it runs that code instead:
:func:`foreign_input` asks (a settings file of the user's home, ``--config ~/.eslintrc.json``,
is the user's own), and denies when the line itself downloaded it. Two tools
carry whole commands in their options: ``cmake -E`` (``rm``, ``copy``, ``env CMD…``) is judged
as the command it stands for, and ``mvn exec:exec -Dexec.executable=… -Dexec.args=…`` as the
program it runs (:func:`carried`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety import paths
from workset.safety.rules.base import Cmd, Context, Finding, Handler, Nested, Result, option_values
from workset.safety.rules.confinement import inside
from workset.safety.rules.loopback import LOCAL_URL
from workset.safety.rules.network import download_exec
from workset.safety.rules.secret_environment import secret_variables

_CONFIG = ("-c", "--config", "--config-file", "--configFile")
_LOADS: dict[str, tuple[str, ...]] = {
    **{n: ("-C", "--directory", "-f", "--file", "--makefile") for n in ("make", "gmake")},
    "cmake": ("-P", "-C"),
    **{n: ("-I", "--init-script", "-b", "--build-file", "-p", "--project-dir", "-c",
           "--settings-file") for n in ("gradle", "gradlew")},
    "protoc": ("--plugin",),  # --plugin=protoc-gen-NAME=PATH: the program protoc runs
    "mvn": ("-f", "--file", "-s", "--settings", "-gs", "--global-settings"),
    "just": ("-f", "--justfile", "-d", "--working-directory"),
    "task": ("-t", "--taskfile", "-d", "--dir"),
    **{n: (*_CONFIG, "--rootdir", "--confcutdir", "-p") for n in ("pytest", "py.test")},
    "tox": ("-c", "--conf"),
    "nox": ("-f", "--noxfile"),
    "pre-commit": _CONFIG,
    **{n: (*_CONFIG, "-p", "--project", "--require", "-r") for n in (
        "jest", "vitest", "vite", "webpack", "webpack-cli", "rollup", "mocha", "babel",
        "eslint", "tsc", "parcel", "esbuild", "nodemon", "tsup")},
}  # fmt: skip
# Runners whose first operand (after these subcommands) is the program they run.
_RUNS: dict[str, tuple[str, ...]] = {"java": ("-jar", ""), "bun": ("run", ""), "deno": ("run",),
                                     "mix": ("run",), "zig": ("run",), "swift": ("",),
                                     "elixir": ("",), "kotlin": ("",), "groovy": ("",)}  # fmt: skip


def _elsewhere(word: str, ctx: Context) -> bool:
    if "://" in word:
        return True
    if "/" not in word and not word.startswith((".", "~")):
        return False  # a module or task name, or a file of the current folder
    return not paths.in_workspace(ctx.resolve(word), ctx.workspace)


# make variables that name where a build writes, and the targets that delete what they name.
_OUTPUT_VARIABLE = re.compile(r"^(\w*DIR|DEST\w*|PREFIX|O|OUT\w*|BUILD\w*|TARGET\w*|\w*_ROOT)$")
_CLEANS = frozenset({"clean", "distclean", "mrproper", "clobber", "realclean", "maintainer-clean",
                     "cleanall", "clean-all"})  # fmt: skip


def _make_places(cmd: Cmd, ctx: Context) -> Finding | None:
    """``make -C docs clean html BUILDDIR=/home/dev``: a variable of the line points the
    build's output outside the workspace; a clean target then deletes what it names (denied),
    any other target writes there (asked)."""
    for word in cmd.args():
        name, sep, value = word.partition("=")
        if not sep or word.startswith("-") or not _OUTPUT_VARIABLE.match(name) or not value:
            continue
        if not (value.startswith(("/", "~")) or ".." in value) or inside(value, ctx):
            continue
        cleaning = sorted(_CLEANS & set(cmd.args()))
        if cleaning:
            return Finding(
                "make-clean-outside",
                "deny",
                f"make {cleaning[0]} with {name}={value} deletes what {name} names, outside the "
                "workspace; point it at a folder inside the workspace",
            )
        return Finding(
            "outside-workspace",
            "ask",
            f"make writes its output to {value} ({name}), outside the workspace; a human must "
            "confirm, or point it inside the workspace",
        )
    return None


# Bazel's options that send the build's inputs and outputs to a server, and the one that hands
# an environment variable to every action.
_BAZEL_REMOTE = ("--remote_cache", "--remote_executor", "--bes_backend", "--remote_downloader",
                 "--experimental_remote_downloader")  # fmt: skip


def _bazel_remote(cmd: Cmd) -> Finding | None:
    """``bazel build --remote_cache=grpc://HOST``: the actions' outputs (and with an executor,
    the sources) go to HOST; with ``--action_env=AWS_SECRET_ACCESS_KEY`` a credential goes
    along. Another host asks; a credential sent there is denied."""
    args = cmd.args()
    remote = option_values(args, _BAZEL_REMOTE)
    far = next((r for r in remote if not LOCAL_URL.match(r)), None)
    if far is None:
        return None
    handed = [a.split("=", 1)[1] for a in args if a.startswith("--action_env=")]
    secret = next((h for h in handed if secret_variables("$" + h.split("=", 1)[0])), None)
    if secret is not None:
        return Finding(
            "exfiltration",
            "deny",
            f"{cmd.name} hands {secret} to its actions and sends them to {far}: the credential "
            "leaves the machine; never send credentials to a build cache or executor",
        )
    return Finding(
        "network",
        "ask",
        f"{cmd.name} sends the build's actions and outputs to {far}; confirm the host",
    )


def foreign_input(cmd: Cmd, ctx: Context) -> Finding | None:
    """The first setting, script or program from outside the workspace ``cmd`` would load."""
    args = cmd.args()
    options = _LOADS.get(cmd.name, ())
    pairs = [(a, args[i + 1]) for i, a in enumerate(args[:-1]) if a in options]
    pairs += [(a.split("=", 1)[0], a.split("=", 1)[1]) for a in args
              if "=" in a and a.split("=", 1)[0] in options]  # fmt: skip
    # the user's own settings (eslint --config ~/.eslintrc.json) are theirs; scripts are not
    values = [v for o, v in pairs if not (o in _CONFIG and ctx.resolve(v).startswith("~/"))]
    values = [v.rsplit("=", 1)[-1] if cmd.name == "protoc" else v for v in values]
    runs = _RUNS.get(cmd.name)
    if runs is not None:
        words = [a for a in args if not a.startswith("-") or a == "-jar"]
        start = 1 if words[:1] and words[0] in runs else 0
        values += [w for w in words[start : start + 1] if w != "-jar"]
    if _module_build(cmd, ctx):
        values = [v for v in values if not _KERNEL_TREE.match(ctx.resolve(v))]
    far = next((v for v in values if _elsewhere(v, ctx)), None)
    if far is None:
        return None
    if far in ctx.downloaded or ctx.resolve(far) in ctx.downloaded:
        return download_exec(f"{cmd.name} runs {far}, which this line downloaded")
    return Finding(
        "foreign-code",
        "ask",
        f"{cmd.name} loads {far!r}, code or settings from outside the workspace, and runs "
        "what it says; a human must confirm it, or copy it into the workspace and read it first",
    )


# The installed kernel's build tree (its headers and kbuild), which the system's packages own.
_KERNEL_TREE = re.compile(r"^/(usr/)?lib/modules/[^/]+/build/?$|^/usr/src/(linux-headers-|"
                          r"kernels/|linux-)[^/]+/?$")  # fmt: skip
_MODULE_TARGETS = frozenset({"modules", "clean", "help"})


def _module_build(cmd: Cmd, ctx: Context) -> bool:
    """``make -C /lib/modules/$(uname -r)/build M=$PWD modules``: the installed kernel's
    kbuild builds (or cleans) an out-of-tree module of the workspace, writing only under M.
    Installing it (``modules_install``) is not this."""
    if cmd.name not in ("make", "gmake"):
        return False
    assigned = dict(a.split("=", 1) for a in cmd.args() if re.match(r"^(M|KBUILD_EXTMOD)=", a))
    module = assigned.get("M") or assigned.get("KBUILD_EXTMOD")
    targets = {a for a in cmd.args() if not a.startswith("-") and "=" not in a}
    targets -= {v for o, v in zip(cmd.args(), cmd.args()[1:], strict=False) if o in ("-C", "-j")}
    return (
        module is not None
        and paths.in_workspace(ctx.resolve(module), ctx.workspace)
        and targets <= _MODULE_TARGETS
    )


_CMAKE_TWINS = {"rm": ("rm",), "remove": ("rm",), "remove_directory": ("rm", "-r"),
                "copy": ("cp",), "copy_directory": ("cp", "-r"), "copy_if_different": ("cp",),
                "rename": ("mv",), "make_directory": ("mkdir", "-p"), "touch": ("touch",),
                "create_symlink": ("ln", "-s")}  # fmt: skip


def carried(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    args = cmd.args()
    if cmd.name == "cmake" and args[:1] == ("-E",) and len(args) > 1:
        tool, rest = args[1], args[2:]
        if tool in _CMAKE_TWINS:
            yield cmd.shifted(2).with_argv([*_CMAKE_TWINS[tool], *rest])
        elif tool in ("env", "time", "chdir") and rest:
            start = 1 if tool == "chdir" else 0
            program = [a for a in rest[start:] if "=" not in a or a.startswith("-")]
            if program:
                yield Nested(" ".join(_quoted(a) for a in program))
    if cmd.name == "mvn":
        found = {a.partition("=")[0]: a.partition("=")[2] for a in args if a.startswith("-Dexec.")}
        if "-Dexec.executable" in found:
            yield Nested(f"{found['-Dexec.executable']} {found.get('-Dexec.args', '')}")


def _quoted(word: str) -> str:
    return word if word and all(c.isalnum() or c in "-_./=:@%+," for c in word) else (
        "'" + word.replace("'", "'\\''") + "'")  # fmt: skip


def _placed(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    """What ``make`` and ``bazel`` are pointed at on the line (see :func:`_make_places` and
    :func:`_bazel_remote`)."""
    found = _make_places(cmd, ctx) if cmd.name in ("make", "gmake") else _bazel_remote(cmd)
    if found is not None:
        yield found


HANDLERS: dict[str, Handler] = {
    "cmake": carried,
    "mvn": carried,
    **{n: _placed for n in ("make", "gmake", "bazel", "bazelisk")},
}
