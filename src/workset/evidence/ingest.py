"""Documents and their chunks: split at sections and paragraphs, never at a fixed size.

A :class:`Document` is one versioned text with its provenance and access rules. Chunking
follows the document's own structure:

- markdown: one chunk per section (a heading and its body, up to the next heading); the
  headings above a chunk travel with it as :attr:`Chunk.heading`. A section longer than
  ``max_tokens`` is split between paragraphs, never inside a fenced code block.
- plain text: paragraphs (blank-line separated) merged up to ``target_tokens``; a paragraph
  over ``max_tokens`` is split between lines.
- Python: one chunk per top-level ``def``/``class`` (decorators and the comments just above
  included) and one per run of module-level statements between them; a class over
  ``max_tokens`` is split method by method (heading ``("class C", "def m")``); other code:
  blank-line blocks merged like plain text.

Every chunk is a whole range of lines: ``"\\n".join(lines[start - 1 : end]) == chunk.text``,
so its span can be quoted and read again from the source. Sizes are "token-ish": characters
divided by four, close enough to pick boundaries without a tokenizer.
"""

from __future__ import annotations

import ast
import hashlib
import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Literal, TypeAlias

from workset.context.items import Scope
from workset.errors import UsageError

DocFormat: TypeAlias = Literal["markdown", "text", "python", "code"]
Span: TypeAlias = tuple[int, int]  # first and last line, 1-based, inclusive

_SUFFIX_FORMAT: dict[str, DocFormat] = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".txt": "text",
    ".rst": "text",
    ".py": "python",
}
_CODE_SUFFIXES = frozenset(
    {".c", ".h", ".cc", ".cpp", ".hpp", ".go", ".rs", ".java", ".js", ".mjs", ".ts", ".tsx"}
    | {".rb", ".sh", ".toml", ".yaml", ".yml", ".json"}
)
_ATX = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def approx_tokens(text: str) -> int:
    """A token-ish size: characters divided by four (at least 1 for non-empty text)."""
    return (len(text) + 3) // 4


@dataclass(frozen=True, slots=True)
class Document:
    """One versioned text with its provenance and access rules.

    ``permissions`` lists the groups that may read it; empty means anyone in ``scope``.
    ``source`` is where it came from (a path or URI), used for authority and read-more hints.
    """

    doc_id: str
    text: str
    version: str = ""
    source: str = ""
    scope: Scope = field(default_factory=Scope)
    permissions: frozenset[str] = frozenset()
    effective_date: date | None = None
    format: DocFormat = "text"


@dataclass(frozen=True, slots=True)
class Chunk:
    """A whole range of lines of one document version, with what is needed to cite it."""

    chunk_id: str  # "<doc_id>@<version>#L<start>-<end>": stable while the document is
    doc_id: str
    version: str
    start_line: int
    end_line: int
    heading: tuple[str, ...]  # enclosing headings, outermost first; ("def f",) for code
    text: str
    sha256: str
    source: str = ""
    scope: Scope = field(default_factory=Scope)
    permissions: frozenset[str] = frozenset()
    effective_date: date | None = None

    @property
    def lines(self) -> str:
        """The span as text, ``"480-510"``."""
        return f"{self.start_line}-{self.end_line}"

    def indexed_text(self) -> str:
        """What retrieval sees: the heading path, then the text."""
        return " > ".join(self.heading) + "\n" + self.text if self.heading else self.text


@dataclass(frozen=True, slots=True)
class ChunkConfig:
    """Sizes in token-ish units (:func:`approx_tokens`)."""

    target_tokens: int = 200  # paragraphs are merged up to this size
    max_tokens: int = 400  # a section or block larger than this is split

    def __post_init__(self) -> None:
        if not 0 < self.target_tokens <= self.max_tokens:
            raise UsageError(
                f"chunk sizes need 0 < target_tokens <= max_tokens, got {self.target_tokens} "
                f"and {self.max_tokens}; pass e.g. ChunkConfig(target_tokens=200, max_tokens=400)"
            )


def chunk_document(document: Document, config: ChunkConfig | None = None) -> list[Chunk]:
    """The document's chunks in line order; blank and heading-only stretches make none."""
    cfg = config or ChunkConfig()
    lines = document.text.splitlines()
    if document.format == "markdown":
        pieces = list(_markdown(lines, cfg))
    elif document.format == "python":
        pieces = list(_python(document.text, lines, cfg))
    else:
        pieces = [((), span) for span in _pack(lines, _blocks(lines, 1, len(lines)), cfg)]
    return [_make_chunk(document, lines, heading, span) for heading, span in pieces]


def _make_chunk(
    document: Document, lines: list[str], heading: tuple[str, ...], span: Span
) -> Chunk:
    start, end = span
    text = "\n".join(lines[start - 1 : end])
    return Chunk(
        chunk_id=f"{document.doc_id}@{document.version}#L{start}-{end}",
        doc_id=document.doc_id,
        version=document.version,
        start_line=start,
        end_line=end,
        heading=heading,
        text=text,
        sha256=hashlib.sha256(text.encode()).hexdigest(),
        source=document.source,
        scope=document.scope,
        permissions=document.permissions,
        effective_date=document.effective_date,
    )


# -- markdown -----------------------------------------------------------------------------


def _markdown(lines: list[str], cfg: ChunkConfig) -> Iterator[tuple[tuple[str, ...], Span]]:
    """Sections (heading line included) split into paragraph groups when too long."""
    headings = _headings(lines)
    starts = sorted(headings)
    bounds = [1, *starts, len(lines) + 1] if not starts or starts[0] != 1 else [*starts]
    if bounds[-1] != len(lines) + 1:
        bounds.append(len(lines) + 1)
    path: list[tuple[int, str]] = []  # (level, title) of the enclosing headings
    for begin, stop in itertools.pairwise(bounds):
        body_from = begin
        if begin in headings:
            level, title, width = headings[begin]
            path = [(lv, t) for lv, t in path if lv < level] + [(level, title)]
            body_from = begin + width
        if not any(line.strip() for line in lines[body_from - 1 : stop - 1]):
            continue  # a heading with nothing under it before the next heading
        heading = tuple(t for _, t in path)
        section = _trim(lines, (begin, stop - 1))
        if _size(lines, section) <= cfg.max_tokens:
            yield heading, section
            continue
        for span in _pack(lines, _blocks(lines, *section, fenced=True), cfg):
            yield heading, span


def _headings(lines: list[str]) -> dict[int, tuple[int, str, int]]:
    """Line number → (level, title, lines it takes) for ATX and setext headings."""
    found: dict[int, tuple[int, str, int]] = {}
    fenced = ""
    for number, line in enumerate(lines, start=1):
        fence = _FENCE.match(line)
        if fence:
            marker = fence.group(1)
            if not fenced:
                fenced = marker[0] * 3
            elif marker.startswith(fenced):
                fenced = ""
            continue
        if fenced:
            continue
        atx = _ATX.match(line)
        if atx and atx.group(2):
            found[number] = (len(atx.group(1)), atx.group(2).strip(), 1)
        elif _is_setext(lines, number, found):
            title = lines[number - 2].strip()
            found[number - 1] = (1 if line.strip()[0] == "=" else 2, title, 2)
    return found


def _is_setext(lines: list[str], number: int, found: dict[int, tuple[int, str, int]]) -> bool:
    """An underline of ``=`` or ``-`` below a single line of paragraph text."""
    if number < 2 or not _SETEXT.match(lines[number - 1]):
        return False
    above = lines[number - 2]
    before = lines[number - 3] if number >= 3 else ""
    return (
        bool(above.strip())
        and not before.strip()
        and number - 1 not in found
        and not _ATX.match(above)
        and not above.lstrip().startswith(("-", "*", ">", "|", "`"))
    )


# -- python -------------------------------------------------------------------------------


def _python(
    text: str, lines: list[str], cfg: ChunkConfig
) -> Iterator[tuple[tuple[str, ...], Span]]:
    """Top-level definitions one by one; module-level statements between them grouped."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        yield from (((), s) for s in _pack(lines, _blocks(lines, 1, len(lines)), cfg))
        return
    cursor = 1  # first line not yet in a chunk
    pending: Span | None = None  # module-level statements waiting to be flushed
    for node in tree.body:
        end = node.end_lineno or node.lineno
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            if pending:
                yield from _split((), _trim(lines, pending), lines, cfg)
                cursor, pending = pending[1] + 1, None
            kind = "class" if isinstance(node, ast.ClassDef) else "def"
            span = _trim(lines, (cursor, end))
            if isinstance(node, ast.ClassDef) and _size(lines, span) > cfg.max_tokens:
                yield from _members(node, span, lines, cfg)
            else:
                yield from _split((f"{kind} {node.name}",), span, lines, cfg)
        else:
            pending = (pending[0] if pending else cursor, end)
            continue
        cursor = end + 1
    if pending or cursor <= len(lines):
        tail = (pending[0] if pending else cursor, len(lines))
        if any(line.strip() for line in lines[tail[0] - 1 : tail[1]]):
            yield from _split((), _trim(lines, tail), lines, cfg)


def _members(
    node: ast.ClassDef, span: Span, lines: list[str], cfg: ChunkConfig
) -> Iterator[tuple[tuple[str, ...], Span]]:
    """A large class method by method (``("class C", "def m")``); the lines before its first
    method, and between methods, under ``("class C",)``."""
    outer = (f"class {node.name}",)
    cursor = span[0]
    for member in node.body:
        if not isinstance(member, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        first = min([member.lineno, *(d.lineno for d in member.decorator_list)])
        first = _comments_above(lines, first, cursor)
        if first > cursor and any(line.strip() for line in lines[cursor - 1 : first - 1]):
            yield from _split(outer, _trim(lines, (cursor, first - 1)), lines, cfg)
        end = member.end_lineno or member.lineno
        yield from _split((*outer, f"def {member.name}"), _trim(lines, (first, end)), lines, cfg)
        cursor = end + 1
    if cursor <= span[1] and any(line.strip() for line in lines[cursor - 1 : span[1]]):
        yield from _split(outer, _trim(lines, (cursor, span[1])), lines, cfg)


def _comments_above(lines: list[str], first: int, floor: int) -> int:
    """``first`` moved up over the comment lines directly above it (not above ``floor``)."""
    while first - 1 >= floor and lines[first - 2].strip().startswith("#"):
        first -= 1
    return first


def _split(
    heading: tuple[str, ...], span: Span, lines: list[str], cfg: ChunkConfig
) -> Iterator[tuple[tuple[str, ...], Span]]:
    """The span whole when it fits ``max_tokens``, else its blank-line blocks packed."""
    if _size(lines, span) <= cfg.max_tokens:
        yield heading, span
        return
    for part in _pack(lines, _blocks(lines, *span), cfg):
        yield heading, part


def _trim(lines: list[str], span: Span) -> Span:
    """The span without blank lines at either end."""
    start, end = span
    while start < end and not lines[start - 1].strip():
        start += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return start, end


# -- paragraphs ---------------------------------------------------------------------------


def _blocks(lines: list[str], start: int, end: int, *, fenced: bool = False) -> list[Span]:
    """Blank-line separated blocks of lines ``start..end``; a fenced code block stays whole."""
    blocks: list[Span] = []
    begin: int | None = None
    fence = ""
    for number in range(start, end + 1):
        line = lines[number - 1]
        if fenced:
            match = _FENCE.match(line)
            if match and not fence:
                fence = match.group(1)[0] * 3
            elif match and match.group(1).startswith(fence):
                fence = ""
        if line.strip() or fence:
            begin = number if begin is None else begin
        elif begin is not None:
            blocks.append((begin, number - 1))
            begin = None
    if begin is not None:
        blocks.append((begin, end))
    return blocks


def _pack(lines: list[str], blocks: list[Span], cfg: ChunkConfig) -> list[Span]:
    """Blocks merged up to the target size; a block over the maximum split between lines."""
    pieces: list[Span] = []
    for block in blocks:
        if _size(lines, block) > cfg.max_tokens:
            pieces.extend(_by_lines(lines, block, cfg.target_tokens))
        else:
            pieces.append(block)
    merged: list[Span] = []
    for piece in pieces:
        if merged and _size(lines, (merged[-1][0], piece[1])) <= cfg.target_tokens:
            merged[-1] = (merged[-1][0], piece[1])
        else:
            merged.append(piece)
    return merged


def _by_lines(lines: list[str], block: Span, target: int) -> list[Span]:
    """Consecutive lines grouped up to ``target``; one over-long line is a piece of its own."""
    out: list[Span] = []
    begin, size = block[0], 0
    for number in range(block[0], block[1] + 1):
        line_size = approx_tokens(lines[number - 1]) + 1
        if size and size + line_size > target:
            out.append((begin, number - 1))
            begin, size = number, 0
        size += line_size
    out.append((begin, block[1]))
    return out


def _size(lines: list[str], span: Span) -> int:
    return approx_tokens("\n".join(lines[span[0] - 1 : span[1]]))


# -- loading ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Skipped:
    """A file :func:`load_documents` did not load, and why."""

    path: Path
    reason: str


@dataclass(frozen=True, slots=True)
class Loaded:
    documents: tuple[Document, ...]
    skipped: tuple[Skipped, ...] = ()


def format_for(path: Path) -> DocFormat:
    """The chunking format a file name implies; unknown suffixes are plain text."""
    suffix = path.suffix.lower()
    if suffix in _CODE_SUFFIXES:
        return "code"
    return _SUFFIX_FORMAT.get(suffix, "text")


def load_documents(
    path: Path | str,
    *,
    scope: Scope | None = None,
    permissions: frozenset[str] = frozenset(),
    version: str | None = None,
    effective_date: date | None = None,
) -> Loaded:
    """Every readable text file at ``path`` (a file, or a folder walked in name order).

    ``doc_id`` is the path relative to the folder (the file name for a single file);
    ``version`` defaults to ``sha256:`` and the first 12 hex digits of the content, so it
    changes exactly when the text does. Hidden files and folders are not visited; binary or
    non-UTF-8 files are reported in :attr:`Loaded.skipped` instead of raising.
    """
    root = Path(path)
    if not root.exists():
        raise UsageError(f"{root} does not exist; pass a file or a folder of documents")
    files = [root] if root.is_file() else sorted(_walk(root))
    base = root.parent if root.is_file() else root
    documents: list[Document] = []
    skipped: list[Skipped] = []
    for file in files:
        data = file.read_bytes()
        if b"\x00" in data[:8192]:
            skipped.append(Skipped(file, "binary file"))
            continue
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            skipped.append(Skipped(file, f"not UTF-8 text ({exc.reason} at byte {exc.start})"))
            continue
        documents.append(
            Document(
                doc_id=file.relative_to(base).as_posix(),
                text=text,
                version=version or "sha256:" + hashlib.sha256(data).hexdigest()[:12],
                source=str(file),
                scope=scope or Scope(),
                permissions=permissions,
                effective_date=effective_date,
                format=format_for(file),
            )
        )
    return Loaded(tuple(documents), tuple(skipped))


def _walk(folder: Path) -> Iterator[Path]:
    for entry in folder.iterdir():
        if entry.name.startswith("."):
            continue
        if entry.is_dir():
            yield from _walk(entry)
        elif entry.is_file():
            yield entry
