"""Notebooks executed: ``jupyter nbconvert --execute``, ``jupyter execute``, ``papermill``,
``ipython nb.ipynb`` or ``%run``.

Executing a notebook runs every code cell in it, as ``python script.py`` runs the script. A
notebook of the workspace is the project's own code: it runs (``papermill`` writing its output
notebook into the workspace is vouched for here). One from the network is code fetched and
run unseen, denied like ``curl … | sh``: given as an address, downloaded earlier in the line,
or kept in a downloads folder (``~/Downloads``, ``./downloads/``). Any other notebook outside
the workspace asks, as a script outside it does.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workset.safety import paths
from workset.safety.rules.base import (
    Cmd,
    Context,
    Finding,
    Handler,
    Result,
    Voucher,
    unknown_program,
)
from workset.safety.rules.confinement import inside, outside
from workset.safety.rules.data_tools import verbs
from workset.safety.rules.env_names import PRODUCTION
from workset.safety.rules.network import download_exec

_ADDRESS = re.compile(r"^(https?|ftp|s3|gs|abfss?|az)://", re.IGNORECASE)
# A folder that holds what a browser or a script downloaded.
_DOWNLOADS = re.compile(r"(^|/)(downloads?|Downloads)/")


def from_download(word: str, ctx: Context) -> bool:
    """``word`` is an address, a file the line downloaded, or one kept in a downloads folder."""
    place = ctx.resolve(word)
    return (
        _ADDRESS.match(word) is not None
        or word in ctx.downloaded
        or place in ctx.downloaded
        or any(place.startswith(d.removeprefix("./").rstrip("/") + "/") for d in _folders(ctx))
        or _DOWNLOADS.search(place) is not None
    )


def _folders(ctx: Context) -> list[str]:
    return [d for d in ctx.downloaded if d.strip("./")]


def _executed(cmd: Cmd) -> list[tuple[int, str]]:
    """The notebooks (or scripts) ``cmd`` runs, with their word's index."""
    args = cmd.args()
    words = list(enumerate(args, start=1))
    if cmd.name == "jupyter" and args[:1] == ("nbconvert",):
        if not any(a == "--execute" or a.startswith("--ExecutePreprocessor.enabled=True")
                   for a in args):  # fmt: skip
            return []
        return [(i, a) for i, a in words  # "$NB": a notebook known only at run time
                if a.endswith(".ipynb") or _ADDRESS.match(a) or cmd.is_dynamic(i)]  # fmt: skip
    if cmd.name == "jupyter" and args[:1] in (("execute",), ("run",)):
        return [(i, a) for i, a in words[1:] if not a.startswith("-")]
    if cmd.name == "papermill":
        found = verbs(cmd, ("-p", "--parameters", "-r", "--parameters_raw", "-f",
                            "--parameters_file", "-y", "--parameters_yaml", "-k",
                            "--kernel", "--cwd", "--language", "-b"))  # fmt: skip
        return [(args.index(found[0]) + 1, found[0])] if found else []
    if cmd.name == "ipython":
        runs = [m for a in args for m in re.findall(r"%run\s+(?:-\w+\s+)*([^\s;'\"]+)", a)]
        files = [(i, a) for i, a in words if re.search(r"\.(ipynb|py|ipy)$", a)
                 and not (i > 1 and args[i - 2] in ("-c", "--profile"))]  # fmt: skip
        return files + [(0, r) for r in runs]
    return []


def _where(cmd: Cmd, index: int) -> str:
    return "known only at run time" if index and cmd.is_dynamic(index) else "outside the workspace"


def executed_notebook(cmd: Cmd, ctx: Context) -> Iterator[Result]:
    for index, word in _executed(cmd):
        if from_download(word, ctx):
            yield download_exec(f"{cmd.name} executes {word}, a notebook from a download")
            return
        if (index and cmd.is_dynamic(index)) or not paths.in_workspace(
            ctx.resolve(word), ctx.workspace
        ):
            yield Finding(
                "script-outside",
                "ask",
                f"{cmd.name} executes {word}, code {_where(cmd, index)}; a human must confirm, "
                "or copy it into the workspace and read it first",
            )
            return


def _papermill(cmd: Cmd, ctx: Context) -> Finding | None:
    """``papermill nb.ipynb out/nb.ipynb -p date 2024-01-01``: the project's notebook run on
    its own data, its output notebook written into the workspace (where the notebook comes
    from is judged above). Parameters that point it at a live environment, an address or a
    file outside the workspace, or a notebook the line itself wrote, ask."""
    args = cmd.args()
    found = verbs(cmd, _PAPERMILL_VALUED)
    if len(found) < 2 or ctx.wrote(found[0]):
        return unknown_program("papermill", " (its notebook is not one of the project's)")
    values = [v for i, a in enumerate(args[:-1]) if a in _PAPERMILL_VALUED
              for v in args[i + 1 : i + 3]]  # fmt: skip
    pointed = next((v for v in values if PRODUCTION.search(v) or "://" in v
                    or (v.startswith(("/", "~", "..")) and not inside(v, ctx))), None)  # fmt: skip
    if pointed is not None:
        return unknown_program("papermill", f" (a parameter points it at {pointed!r})")
    output = found[1]
    if _ADDRESS.match(output) or not inside(output, ctx):
        return outside(output, "papermill")
    return None


_PAPERMILL_VALUED = ("-p", "--parameters", "-r", "--parameters_raw", "-f", "--parameters_file",
                     "-y", "--parameters_yaml", "-k", "--kernel", "--cwd", "--language",
                     "-b", "--parameters_base64")  # fmt: skip


VOUCHERS: dict[str, Voucher] = {"papermill": _papermill}
HANDLERS: dict[str, Handler] = {n: executed_notebook for n in ("jupyter", "papermill", "ipython")}
