"""Document converters: ``pandoc`` reading and writing the project's documents.

``pandoc README.md -o out/readme.html`` reads workspace files and writes one: it runs. Its
filters are programs (``--filter PROG``, ``--lua-filter FILE``): the project's own (a path in
the workspace) run like its scripts, others ask. An output or media folder outside the
workspace, or an input fetched from a URL, asks too.
"""

from __future__ import annotations

from workset.safety import paths
from workset.safety.rules.base import Cmd, Context, Finding, unknown_program
from workset.safety.rules.confinement import inside, outside

_WRITES = ("-o", "--output", "--extract-media")
_CODE = ("-F", "--filter", "-L", "--lua-filter")
_VALUED = frozenset({*_WRITES, *_CODE, "-f", "--from", "-r", "--read", "-t", "--to", "-w",
                     "--write", "-M", "--metadata", "-V", "--variable", "--template",
                     "--data-dir", "--resource-path", "-H", "--include-in-header", "-B",
                     "--include-before-body", "-A", "--include-after-body", "--css", "-c",
                     "--reference-doc", "--bibliography", "--csl", "--pdf-engine",
                     "--metadata-file", "--defaults", "-d", "--toc-depth",
                     "--shift-heading-level-by", "--columns"})  # fmt: skip


def _values(args: tuple[str, ...], options: tuple[str, ...]) -> list[str]:
    found = [args[i + 1] for i, a in enumerate(args[:-1]) if a in options]
    return found + [a.split("=", 1)[1] for a in args if a.split("=", 1)[0] in options and "=" in a]


def pandoc(cmd: Cmd, ctx: Context) -> Finding | None:
    args = cmd.args()
    if any(cmd.dynamic):
        return unknown_program("pandoc", " (a path only known at run time)")
    if "--pdf-engine" in args or any(a.startswith("--pdf-engine=") for a in args):
        return unknown_program("pandoc --pdf-engine", " (it runs the engine it is given)")
    for program in _values(args, _CODE):
        if "/" not in program or not paths.in_workspace(ctx.resolve(program), ctx.workspace):
            return unknown_program(f"pandoc --filter {program}", " (a filter is a program)")
    for target in _values(args, _WRITES):
        if not inside(target, ctx):
            return outside(target, "pandoc")
    inputs = [a for i, a in enumerate(args) if not a.startswith("-")
              and not (i and args[i - 1] in _VALUED)]  # fmt: skip
    if any("://" in a for a in inputs):
        return unknown_program("pandoc", " (it fetches its input from the network)")
    return None


VOUCHERS = {"pandoc": pandoc}
