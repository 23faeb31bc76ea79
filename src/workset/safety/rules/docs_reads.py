"""The tools of a documentation day that only read, or write only into the workspace.

- Prose and link checkers: ``vale docs/`` and ``vale ls-config`` read the project's text
  (``vale sync``, which downloads style packages, asks); ``lychee docs/`` and
  ``linkchecker http://localhost:8000/`` fetch the pages the docs link to and report, to the
  terminal or to a report file in the workspace.
- Translation catalogues: ``xgettext``, ``msgfmt``, ``msgmerge`` and the other gettext
  tools, ``pybabel`` and ``sphinx-intl`` read sources and catalogues and write catalogues,
  each into the workspace.
- ``asciidoctor`` renders the project's documents into the workspace, with extensions that
  are the project's own files or a known renderer of diagrams, PDF or maths.
- ``git cliff`` writes the changelog from the history into the workspace (its postprocessors
  are the project's own config, as a Makefile is); a config from elsewhere asks.
- Hosted services, read: ``crowdin config lint``, ``crowdin status``; ``lokalise2 … file
  download`` of the translations into the workspace and the lists of its projects, files and
  keys; ``algolia indices list``, ``search``, ``settings get`` and the browse verbs (never
  ``apikeys``, which prints keys).

Anything else these tools are asked to do asks, as an unknown program does.
"""

from __future__ import annotations

from workset.safety.rules.base import (
    Cmd,
    Context,
    Finding,
    Voucher,
    option_values,
    parse_flags,
    unknown_program,
)
from workset.safety.rules.confinement import inside, outside


def _verbs(cmd: Cmd, valued: frozenset[str] = frozenset()) -> list[str]:
    """The words that are not options (nor an option's value)."""
    words: list[str] = []
    skip = False
    for word in cmd.args():
        if skip:
            skip = False
        elif word.startswith("-"):
            skip = word in valued
        else:
            words.append(word)
    return words


def _writes_inside(cmd: Cmd, ctx: Context, options: tuple[str, ...]) -> Finding | None:
    """None when every value of ``options`` (a file or folder written) is in the workspace."""
    for index, word in enumerate(cmd.argv):
        joined = "=" in word and word.split("=", 1)[0] in options  # --output=$DIR
        if (word in options and cmd.is_dynamic(index + 1)) or (joined and cmd.is_dynamic(index)):
            return unknown_program(cmd.name, " (a path it uses is only known at run time)")
    for target in option_values(cmd.args(), options):
        if target != "-" and not inside(target, ctx):
            return outside(target, cmd.name)
    return None


def vale(cmd: Cmd, ctx: Context) -> Finding | None:
    if "sync" in _verbs(cmd, frozenset({"--config", "--glob", "--minAlertLevel", "--output"})):
        return unknown_program("vale sync", " (it downloads style packages)")
    return _writes_inside(cmd, ctx, ())


def lychee(cmd: Cmd, ctx: Context) -> Finding | None:
    return _writes_inside(cmd, ctx, ("-o", "--output"))


def linkchecker(cmd: Cmd, ctx: Context) -> Finding | None:
    flags, _ = parse_flags(cmd.args())
    if flags & {"F", "--file-output", "--cookiefile", "--config", "f"}:
        return unknown_program("linkchecker", " (with a report file or a config of its own)")
    return _writes_inside(cmd, ctx, ())


_GETTEXT_OUT = ("-o", "--output", "--output-file", "-p", "--output-dir")


def gettext(cmd: Cmd, ctx: Context) -> Finding | None:
    """``msgfmt --check -o x.mo x.po``; ``msgmerge -U`` rewrites the catalogues it is given."""
    found = _writes_inside(cmd, ctx, _GETTEXT_OUT)
    flags, operands = parse_flags(cmd.args())
    if found is None and flags & {"U", "--update"}:
        for _, word in operands:
            if not inside(word, ctx):
                return outside(word, cmd.name)
    return found


def pybabel(cmd: Cmd, ctx: Context) -> Finding | None:
    verbs = _verbs(cmd, frozenset({"-F", "-k", "-o", "-d", "-i", "-l", "-D", "--mapping",
                                   "--keyword", "--output-file", "--output-dir", "--input-file",
                                   "--locale", "--domain", "--directory"}))  # fmt: skip
    if verbs[:1] not in (["extract"], ["update"], ["compile"], ["init"]):
        return unknown_program(f"pybabel {' '.join(verbs[:1])}".strip())
    return _writes_inside(cmd, ctx, ("-o", "--output-file", "-d", "--output-dir", "--directory"))


def sphinx_intl(cmd: Cmd, ctx: Context) -> Finding | None:
    verbs = _verbs(cmd, frozenset({"-p", "-d", "-l", "-c", "--pot-dir", "--locale-dir",
                                   "--language", "--config", "-t", "--tag"}))  # fmt: skip
    if verbs[:1] not in (["update"], ["build"], ["stat"], ["update-txconfig-resources"]):
        return unknown_program(f"sphinx-intl {' '.join(verbs[:1])}".strip())
    return _writes_inside(cmd, ctx, ("-d", "--locale-dir", "-p", "--pot-dir"))


# Extensions asciidoctor may require by name: local renderers (never kroki, which uploads).
_ASCIIDOCTOR_EXTENSIONS = frozenset({"asciidoctor-diagram", "asciidoctor-pdf",
                                     "asciidoctor-mathematical", "asciidoctor-epub3",
                                     "rouge"})  # fmt: skip


def asciidoctor(cmd: Cmd, ctx: Context) -> Finding | None:
    for name in option_values(cmd.args(), ("-r", "--require")):
        if name not in _ASCIIDOCTOR_EXTENSIONS and not ("/" in name and inside(name, ctx)):
            return unknown_program(f"asciidoctor -r {name}", " (an extension is a program)")
    return _writes_inside(cmd, ctx, ("-D", "--destination-dir", "-o", "--out-file",
                                     "-B", "--base-dir"))  # fmt: skip


def git_cliff(cmd: Cmd, ctx: Context) -> Finding | None:
    """``git cliff -o CHANGELOG.md``, ``git cliff --bump --context``."""
    configs = option_values(cmd.args(), ("-c", "--config"))
    for config in configs:
        if not inside(config, ctx):
            return unknown_program("git cliff --config", " (its config runs commands)")
    for config in configs or ["cliff.toml", "pyproject.toml", "Cargo.toml"]:
        if ctx.wrote(config):
            why = " (the line changed its config, which runs commands)"
            return unknown_program("git cliff", why)
    dynamic = _writes_inside(cmd, ctx, ("-c", "--config"))
    if dynamic is not None:
        return dynamic
    return _writes_inside(cmd, ctx, ("-o", "--output", "-p", "--prepend"))


def crowdin(cmd: Cmd, ctx: Context) -> Finding | None:
    verbs = _verbs(cmd, frozenset({"-c", "--config", "-b", "--branch", "-l", "--language"}))
    if verbs[:2] in (["config", "lint"], ["config", "sources"], ["config", "translations"]):
        return None
    if verbs[:1] == ["status"] or verbs[:1] == ["list"]:
        return None  # how far the translations are, which files and languages there are
    return unknown_program(f"crowdin {' '.join(verbs[:2])}".strip())


_LOKALISE_VALUED = frozenset({"--token", "--project-id", "--format", "--directory-prefix",
                              "--unzip-to", "--dest", "--config", "--filter-langs",
                              "--include-tags", "--bundle-structure"})  # fmt: skip


def lokalise2(cmd: Cmd, ctx: Context) -> Finding | None:
    verbs = _verbs(cmd, _LOKALISE_VALUED)
    if verbs[:2] == ["file", "download"]:
        for target in option_values(cmd.args(), ("--unzip-to", "--dest")):
            if not inside(target, ctx):
                return outside(target, "lokalise2 file download")
        return None
    if (
        len(verbs) == 2
        and verbs[0] in ("project", "file", "key", "language")
        and verbs[1]
        in (
            "list",
            "retrieve",
        )
    ):
        return None
    return unknown_program(f"lokalise2 {' '.join(verbs[:2])}".strip())


_ALGOLIA_READS = frozenset({("indices", "list"), ("settings", "get"), ("rules", "browse"),
                            ("synonyms", "browse"), ("objects", "browse"),
                            ("indices", "analyze")})  # fmt: skip


def algolia(cmd: Cmd, ctx: Context) -> Finding | None:
    verbs = _verbs(cmd, frozenset({"--output", "-o", "--query", "--hitsPerPage", "--profile",
                                   "-p", "--application-id", "--api-key"}))  # fmt: skip
    if verbs[:1] == ["search"] or tuple(verbs[:2]) in _ALGOLIA_READS:
        return None
    return unknown_program(f"algolia {' '.join(verbs[:2])}".strip(), " (only its reads are known)")


VOUCHERS: dict[str, Voucher] = {
    "vale": vale,
    "lychee": lychee,
    "linkchecker": linkchecker,
    **{
        n: gettext
        for n in (
            "xgettext",
            "msgfmt",
            "msgmerge",
            "msgcat",
            "msginit",
            "msgunfmt",
            "msguniq",
            "msgattrib",
            "msgcomm",
            "msgconv",
        )
    },
    "pybabel": pybabel,
    "sphinx-intl": sphinx_intl,
    "asciidoctor": asciidoctor,
    "git-cliff": git_cliff,
    "crowdin": crowdin,
    "lokalise2": lokalise2,
    "algolia": algolia,
}
