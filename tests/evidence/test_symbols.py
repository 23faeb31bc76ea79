"""The code names a question asks about."""

from __future__ import annotations

import pytest

from workset.evidence.ingest import Document, chunk_document
from workset.evidence.symbols import asked_names, defining_chunks


@pytest.mark.parametrize(
    ("question", "names"),
    [
        ("What does TinyDB.drop_tables do?", ["drop_tables", "TinyDB"]),
        ("Which file defines the LRUCache class?", ["LRUCache"]),
        ("Which file defines the Query class?", ["Query"]),
        ("In which module is the function where defined?", ["where"]),
        ("What is the default access_mode of JSONStorage?", ["access_mode", "JSONStorage"]),
        ("What does the increment operation in tinydb/operations.py do?", []),
        ("Which function in tinydb/utils.py makes objects immutable?", []),
        ("Which test file tests the middlewares?", []),
        ("How many names does the package export in its __all__?", ["__all__"]),
        ("Is all of it exported?", []),
        # a method named in lower case by the word "method"
        (
            "Which file defines the class Agent, and what does its run method return?",
            ["Agent", "run"],
        ),
        ("What does the method `purge` of Table do?", ["purge", "Table"]),
        ("Which single private `Table` method do insert and update go through?", ["Table"]),
    ],
)
def test_code_names_are_read_from_the_question_and_file_names_and_words_are_not(
    question: str, names: list[str]
) -> None:
    assert asked_names(question) == names


MODULE = """\"\"\"The package.\"\"\"

from .table import Table

__all__ = ('TinyDB', 'Table', 'where')
__all_names__: tuple = ()


class TinyDB:
    default_table_name = '_default'

    def table(self, name: str = default_table_name):
        if name == default_table_name:
            return name


def where(key):
    return key
"""


def test_a_name_no_class_or_def_defines_is_defined_where_a_line_assigns_it() -> None:
    chunks = chunk_document(Document("pkg/__init__.py", MODULE, format="python"))
    notes = chunk_document(Document("README.md", "# Use\n\n__all__ = ('x',)\n", format="markdown"))
    every = [*notes, *chunks]

    def defined(name: str) -> list[str]:
        return [every[i].text.splitlines()[0] for i in defining_chunks(every, [name])]

    # A module-level assignment, not the markdown that shows one or a look-alike name.
    assert [every[i].doc_id for i in defining_chunks(every, ["__all__"])] == ["pkg/__init__.py"]
    assert any("__all__ = (" in every[i].text for i in defining_chunks(every, ["__all__"]))
    # A class attribute: the class's chunk; a comparison (==) assigns nothing.
    assert defined("default_table_name") == ["class TinyDB:"]
    # A name a def defines is found by its heading, not by the lines that use it.
    assert defined("where") == ["def where(key):"]


def test_an_attribute_and_its_class_asked_together_get_a_chunk_each() -> None:
    body = "\n".join(f"    step_{n} = {n}" for n in range(120))
    text = f"class Key:\n    '''A key.'''\n{body}\n    _default = 'x'\n\n"
    text += "    def check(self):\n        pass\n"
    chunks = chunk_document(Document("pkg/core.py", text, format="python"))
    assert len(chunks) > 2  # the class is split into parts, each headed "class Key"
    picked = defining_chunks(chunks, ["_default", "Key"])
    # The part that assigns the attribute, and the class's own first part: not one of them
    # twice, though both are headed "class Key".
    assert any("_default = 'x'" in chunks[i].text for i in picked)
    assert any(chunks[i].text.startswith("class Key:") for i in picked)


def test_a_method_asked_with_its_class_is_that_class_s_method_not_the_first_of_its_name() -> None:
    body = "".join(f"        step_{n} = task.step({n})\n" for n in range(60))
    runner = f"class Runner:\n    def run(self, task):\n{body}        return 1\n"
    agent = f'class Agent:\n    """An agent."""\n\n    def start(self, task):\n{body}'
    agent += f"\n    def run(self, task) -> RunResult:\n{body}        return RunResult(task)\n"
    chunks = [
        *chunk_document(Document("pkg/runner.py", runner, format="python")),
        *chunk_document(Document("pkg/agent.py", agent, format="python")),
    ]
    names = asked_names("Which file defines the class Agent, and what does its run method return?")
    picked = [(chunks[i].doc_id, chunks[i].heading) for i in defining_chunks(chunks, names)]
    assert ("pkg/agent.py", ("class Agent", "def run")) in picked
    assert all(doc == "pkg/agent.py" for doc, _ in picked)
