from __future__ import annotations

import jsonschema
import pytest

from workset.messages import ToolSpec
from workset.models.constrained import decision_schema, final_answer

READ = ToolSpec(
    "read_file",
    "Read.",
    {
        "type": "object",
        "properties": {"path": {"type": "string"}},
        "required": ["path"],
        "additionalProperties": False,
    },
)


def test_the_decision_schema_admits_exactly_known_calls_and_answers() -> None:
    schema = decision_schema([READ])
    jsonschema.Draft202012Validator.check_schema(schema)
    validate = jsonschema.Draft202012Validator(schema).is_valid
    assert validate({"name": "read_file", "arguments": {"path": "a.txt"}})
    assert validate({"answer": "42"})
    assert not validate({"name": "read_files", "arguments": {"path": "a.txt"}})
    assert not validate({"name": "read_file", "arguments": {"path": 3}})
    assert not validate({"answer": "42", "name": "read_file"})


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('{"answer": "port 8471"}', "port 8471"),
        ('{"name": "read_file", "arguments": {}}', None),
        ("plain prose", None),
        ('{"answer": 3}', None),
        # cut off by the token limit inside the answer: the text written so far
        ('{"answer": "I changed inc. I changed inc. I cha', "I changed inc. I changed inc. I cha"),
        ('{"answer": "say \\"hi\\" \\', 'say "hi" '),
        ('{"answer": "done"} and more', None),
    ],
)
def test_final_answers_are_read_only_from_answer_objects(
    content: str, expected: str | None
) -> None:
    assert final_answer(content) == expected
