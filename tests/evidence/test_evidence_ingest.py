from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workset.context.items import Scope
from workset.errors import UsageError
from workset.evidence import ChunkConfig, Document, chunk_document, load_documents

BENCH_DOCS = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "retrieval" / "docs"

RUNBOOK = """# Runbook

Intro paragraph.

## Database

### Timeouts

When the pool is exhausted, restart the worker.

```sh
# not a heading: a shell comment inside a fence
systemctl restart worker
```

### Backups

Nightly at 02:00.

## Empty section
## Contact

Page the on-call engineer.
"""


def spans_quote_the_source(document: Document, config: ChunkConfig | None = None) -> None:
    lines = document.text.splitlines()
    previous_end = 0
    for chunk in chunk_document(document, config):
        assert chunk.text == "\n".join(lines[chunk.start_line - 1 : chunk.end_line])
        assert previous_end < chunk.start_line <= chunk.end_line <= len(lines)
        assert chunk.text.strip()
        previous_end = chunk.end_line


def test_markdown_chunks_are_sections_that_carry_their_heading_path() -> None:
    doc = Document("runbook.md", RUNBOOK, version="v3", format="markdown")
    chunks = chunk_document(doc)
    assert [(c.heading, c.lines) for c in chunks] == [
        (("Runbook",), "1-3"),
        (("Runbook", "Database", "Timeouts"), "7-14"),
        (("Runbook", "Database", "Backups"), "16-18"),
        (("Runbook", "Contact"), "21-23"),
    ]
    assert chunks[1].chunk_id == "runbook.md@v3#L7-14"
    assert "systemctl restart worker" in chunks[1].text  # the fence stayed in its section


def test_a_long_section_is_split_between_paragraphs_and_every_piece_keeps_its_heading() -> None:
    paragraphs = "\n\n".join(f"Paragraph {i} " + "word " * 60 for i in range(8))
    doc = Document("long.md", f"# Top\n\n## Long\n\n{paragraphs}\n", format="markdown")
    chunks = chunk_document(doc, ChunkConfig(target_tokens=100, max_tokens=200))
    assert len(chunks) > 2
    assert all(c.heading == ("Top", "Long") for c in chunks)
    assert all(c.text.split()[0] in {"##", "Paragraph"} for c in chunks)  # never mid-paragraph
    spans_quote_the_source(doc, ChunkConfig(target_tokens=100, max_tokens=200))


def test_setext_headings_count_as_sections() -> None:
    doc = Document(
        "s.md", "Title\n=====\n\nBody one.\n\nPart\n----\n\nBody two.\n", format="markdown"
    )
    assert [c.heading for c in chunk_document(doc)] == [("Title",), ("Title", "Part")]


def test_plain_text_paragraphs_merge_up_to_the_target_and_long_ones_split_between_lines() -> None:
    short = "\n\n".join(["alpha beta"] * 5)
    long_paragraph = "\n".join(f"line {i} " + "x" * 70 for i in range(40))
    doc = Document("notes.txt", f"{short}\n\n{long_paragraph}\n")
    chunks = chunk_document(doc, ChunkConfig(target_tokens=150, max_tokens=300))
    assert chunks[0].lines == "1-9"  # the five short paragraphs merged
    assert len(chunks) > 3
    spans_quote_the_source(doc, ChunkConfig(target_tokens=150, max_tokens=300))


def test_python_chunks_are_top_level_definitions_with_their_decorators_and_comments() -> None:
    source = (
        "import os\n\nLIMIT = 3\n\n\n# Helper for the API.\n@cache\ndef fetch(url):\n"
        "    return url\n\n\nclass Client:\n    def get(self):\n        return 1\n\n\n"
        "if __name__ == '__main__':\n    fetch('x')\n"
    )
    doc = Document("client.py", source, format="python")
    chunks = chunk_document(doc)
    assert [(c.heading, c.lines) for c in chunks] == [
        ((), "1-3"),
        (("def fetch",), "6-9"),
        (("class Client",), "12-14"),
        ((), "17-18"),
    ]
    assert chunks[1].text.startswith("# Helper for the API.\n@cache")


def test_python_that_does_not_parse_is_chunked_by_blank_line_blocks() -> None:
    doc = Document("broken.py", "def f(:\n    pass\n\nx = 1\n", format="python")
    assert [c.lines for c in chunk_document(doc)] == ["1-4"]


def test_chunk_ids_are_stable_and_change_with_the_version() -> None:
    doc = Document("runbook.md", RUNBOOK, version="v3", format="markdown")
    again = chunk_document(doc)
    assert [c.chunk_id for c in chunk_document(doc)] == [c.chunk_id for c in again]
    newer = chunk_document(Document("runbook.md", RUNBOOK, version="v4", format="markdown"))
    assert {c.chunk_id for c in newer}.isdisjoint(c.chunk_id for c in again)
    assert [c.sha256 for c in newer] == [c.sha256 for c in again]


def test_spans_of_real_documents_quote_their_lines() -> None:
    for document in load_documents(BENCH_DOCS).documents:
        spans_quote_the_source(document)


def test_a_folder_loads_with_relative_ids_content_versions_and_skipped_files(
    tmp_path: Path,
) -> None:
    (tmp_path / "guides").mkdir()
    (tmp_path / "guides" / "setup.md").write_text("# Setup\n\nRun it.\n")
    (tmp_path / "notes.txt").write_text("plain\n")
    (tmp_path / "tool.py").write_text("def f():\n    pass\n")
    (tmp_path / "image.bin").write_bytes(b"\x89PNG\x00\x00")
    (tmp_path / "latin1.txt").write_bytes("caf\xe9".encode("latin-1"))
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "secret.md").write_text("# no\n")
    loaded = load_documents(tmp_path, scope=Scope(tenant="acme"), permissions=frozenset({"ops"}))
    by_id = {d.doc_id: d for d in loaded.documents}
    assert sorted(by_id) == ["guides/setup.md", "notes.txt", "tool.py"]
    assert [d.format for d in loaded.documents] == ["markdown", "text", "python"]
    assert by_id["notes.txt"].version.startswith("sha256:")
    assert all(d.scope.tenant == "acme" and d.permissions == {"ops"} for d in loaded.documents)
    assert sorted(s.path.name for s in loaded.skipped) == ["image.bin", "latin1.txt"]
    chunk = chunk_document(by_id["guides/setup.md"])[0]
    assert (chunk.scope, chunk.permissions) == (Scope(tenant="acme"), frozenset({"ops"}))


def test_loading_a_missing_path_says_what_to_pass(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="does not exist"):
        load_documents(tmp_path / "nope")


def test_chunk_sizes_must_be_ordered() -> None:
    with pytest.raises(UsageError, match="target_tokens <= max_tokens"):
        ChunkConfig(target_tokens=500, max_tokens=100)


_LINE = st.one_of(
    st.just(""),
    st.just("```"),
    st.sampled_from(["# A", "## B", "### C", "Title", "=====", "-----"]),
    st.text(alphabet="abc def\t#`=-", min_size=1, max_size=120),
)


@settings(max_examples=150, deadline=None)
@given(
    lines=st.lists(_LINE, max_size=60),
    doc_format=st.sampled_from(["markdown", "text", "python", "code"]),
    target=st.integers(min_value=5, max_value=60),
)
def test_every_chunk_is_a_whole_increasing_nonblank_range_of_lines(
    lines: list[str], doc_format: str, target: int
) -> None:
    doc = Document("d", "\n".join(lines), format=doc_format)  # type: ignore[arg-type]
    spans_quote_the_source(doc, ChunkConfig(target_tokens=target, max_tokens=target * 2))
