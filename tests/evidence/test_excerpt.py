from __future__ import annotations

import json

from workset.evidence.excerpt import excerpt_block
from workset.evidence.ingest import Chunk
from workset.loop.definitions import excerpt_blocks
from workset.loop.edit_blocks import evidence_blocks, numbered_lines

# A toolz-like function: a summary, prose, doctest examples, then the one line that answers
# "which function does assoc_in call?".
ASSOC_IN = '''def assoc_in(d, keys, value, factory=dict):
    """ Return a new dict with new, potentially nested, key value pair

    Keys are looked up in order and missing levels are made with factory.

    >>> purchase = {'name': 'Alice',
    ...             'order': {'items': ['Apple', 'Orange']}}
    >>> assoc_in(purchase, ['order', 'costs'], [0.25, 1.00])
    {'name': 'Alice',
     'order': {'costs': [0.25, 1.0], 'items': ['Apple', 'Orange']}}
    """
    return update_in(d, keys, lambda x: value, value, factory)'''


def chunk(text: str, start: int = 230, heading: tuple[str, ...] = ("def assoc_in",)) -> Chunk:
    end = start + text.count("\n")
    return Chunk(f"dicttoolz.py@v#L{start}-{end}", "dicttoolz.py", "v", start, end, heading,
                 text, "0" * 64)  # fmt: skip


def numbers(block: str) -> list[int]:
    return sorted(numbered_lines([("dicttoolz.py", block)])["dicttoolz.py"].lines)


def test_a_chunk_that_fits_is_shown_whole_with_no_gap() -> None:
    block = excerpt_block(chunk(ASSOC_IN), 1000)
    assert block.splitlines()[0] == "--- dicttoolz.py, lines 230-241 (def assoc_in)"
    assert numbers(block) == list(range(230, 242))
    assert "not shown" not in block


def test_a_definition_gives_up_its_doctests_before_its_code() -> None:
    """Cut from the end alone, the budget showed the signature and the examples and hid the
    return line; now the examples go and the prose and the code stay."""
    block = excerpt_block(chunk(ASSOC_IN), 80, code_first=True)
    assert "return update_in(d, keys" in block
    assert "Keys are looked up in order" in block and ">>>" not in block
    assert "[lines 235-239 not shown: docstring]" in block
    assert numbers(block) == [230, 231, 232, 233, 234, 240, 241]


def test_then_the_rest_of_its_docstring_after_the_summary_line() -> None:
    block = excerpt_block(chunk(ASSOC_IN), 60, code_first=True)
    assert "Return a new dict" in block and "return update_in" in block
    assert "Keys are looked up" not in block
    assert "[lines 232-239 not shown: docstring]" in block
    assert numbers(block) == [230, 231, 240, 241]


def test_then_its_last_lines_with_the_read_that_shows_them() -> None:
    block = excerpt_block(chunk(ASSOC_IN), 40, code_first=True)
    assert block.splitlines()[-1] == (
        "[lines 241-241 not shown: read_file "
        + json.dumps({"path": "dicttoolz.py", "offset": 241})
        + "]"
    )
    assert numbers(block) == [230, 231, 240]


def test_text_that_is_not_a_definition_is_cut_at_its_end() -> None:
    prose = "\n".join(f"Paragraph line {n} of the guide, plain words only." for n in range(20))
    block = excerpt_block(chunk(prose, start=1, heading=("Guide",)), 60)
    shown = numbers(block)
    assert shown == list(range(1, len(shown) + 1)) and len(shown) < 20
    assert block.endswith(f'offset": {len(shown) + 1}}}]')


def test_a_decorated_definition_with_a_long_signature_and_a_one_line_docstring() -> None:
    one_line = (
        "@cached\n@other(\n    x=1)\nasync def fetch(\n    url,\n    timeout=5,\n):  # the call\n"
        '    """Fetch url."""\n' + "\n".join(f"    step_{n}(url)" for n in range(30))
    )
    block = excerpt_block(chunk(one_line, start=1, heading=("def fetch",)), 80, code_first=True)
    assert "not shown: docstring" not in block  # nothing to give up: cut at the end
    assert "Fetch url." in block and "read_file" in block
    class_doc = (
        '@dataclass\nclass Store(\n    Base,\n):\n    r"""A store.\n\n'
        + "\n".join(f"    Detail {n} of the store." for n in range(30))
        + '\n    """\n\n    size: int = 3\n'
    )
    block = excerpt_block(chunk(class_doc, start=1, heading=("class Store",)), 60, code_first=True)
    assert "size: int = 3" in block and "A store." in block and "Detail 29" not in block


def test_an_excerpt_with_a_gap_is_never_taken_as_a_whole_function_to_edit() -> None:
    """A guided edit rewrites a function from what was shown of it: a docstring left out
    would be written back as missing."""
    whole = "\n".join(excerpt_block(chunk(ASSOC_IN), 1000).split("\n"))
    cut = excerpt_block(chunk(ASSOC_IN), 80, code_first=True)
    assert evidence_blocks(excerpt_blocks(whole))
    assert not evidence_blocks(excerpt_blocks(cut))


def test_without_code_first_a_definition_is_cut_at_its_end_like_any_text() -> None:
    block = excerpt_block(chunk(ASSOC_IN), 80)
    assert "not shown: docstring" not in block and ">>> purchase" in block
    assert "return update_in" not in block and block.endswith('offset": 236}]')
