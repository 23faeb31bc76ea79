"""The code names a question asks about."""

from __future__ import annotations

import pytest

from workset.evidence.symbols import asked_names


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
    ],
)
def test_code_names_are_read_from_the_question_and_file_names_and_words_are_not(
    question: str, names: list[str]
) -> None:
    assert asked_names(question) == names
