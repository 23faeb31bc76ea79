"""Whole definitions offered as old in a guided edit, when every line of them was seen."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import jsonschema
import pytest

from workset.context.items import ContextItem
from workset.loop.calls import MAX_CHOICES, CallInterpreter
from workset.loop.definitions import seen_texts
from workset.loop.edit_blocks import (
    MAX_BLOCK_LINES,
    candidate_blocks,
    evidence_blocks,
    named_blocks,
    numbered_lines,
)
from workset.messages import AssistantMessage, ToolCall, ToolMessage, ToolSpec, UserMessage
from workset.tools.execution import execution_tools
from workset.tools.registry import ToolRegistry
from workset.tools.workspace import Workspace

SOURCE = '''from typing import Callable


def increment(field: str) -> Callable:
    """Increment a given field in the document by 1."""
    def transform(doc):
        doc[field] += 2

    return transform


def decrement(
    field: str,
) -> Callable:
    def transform(doc):
        doc[field] -= 1

    return transform
'''
EDIT = ToolSpec(
    "edit_file",
    "Replace an exact snippet.",
    {
        "type": "object",
        "properties": {"path": {"type": "string"}, "old": {"type": "string"},
                       "new": {"type": "string"}},
        "required": ["path", "old", "new"],
    },
)  # fmt: skip
READ = ToolSpec(
    "read_file",
    "Read a file.",
    {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
)


def _numbered(text: str, first: int = 1, last: int | None = None) -> str:
    lines = text.split("\n")[first - 1 : last]
    shown = "\n".join(f"{first + i:>4}| {line}" for i, line in enumerate(lines))
    return shown + ("\nShowing lines 1-19 of 19 total. (end of file)" if last is None else "")


def test_a_named_function_seen_whole_is_offered_with_its_numbers_and_blank_lines() -> None:
    [block] = named_blocks("increment adds 2; fix it", [("ops.py", _numbered(SOURCE))])["ops.py"]
    assert block.split("\n") == [
        "4| def increment(field: str) -> Callable:",
        '5|     """Increment a given field in the document by 1."""',
        "6|     def transform(doc):",
        "7|         doc[field] += 2",
        "8|",
        "9|     return transform",
    ]


def test_a_signature_closed_at_the_def_indentation_and_the_last_function_of_a_file() -> None:
    blocks = named_blocks("make decrement subtract 2", [("ops.py", _numbered(SOURCE))])
    [block] = blocks["ops.py"]
    assert block.startswith("12| def decrement(\n13|     field: str,\n14| ) -> Callable:")
    assert block.endswith("18|     return transform")  # the read said where the file ends


def test_no_block_when_a_line_of_it_or_its_end_was_not_seen() -> None:
    cut = _numbered(SOURCE, 1, 7)  # the read stopped inside increment
    assert named_blocks("fix increment", [("ops.py", cut)]) == {}
    nested = _numbered(SOURCE, 12, 16)  # the read stopped after the nested function's line
    assert named_blocks("fix decrement", [("ops.py", nested)]) == {}
    gap = _numbered(SOURCE, 1, 5) + "\n" + _numbered(SOURCE, 7, 11)  # line 6 unseen
    assert named_blocks("fix increment", [("ops.py", gap)]) == {}
    assert named_blocks("fix the transform", [("ops.py", _numbered(SOURCE))]) != {}  # nested
    long = "def big():\n" + "\n".join(f"    x{n} = {n}" for n in range(MAX_BLOCK_LINES)) + "\n"
    assert named_blocks("fix big", [("big.py", _numbered(long + "y = 1\n", 1, 44))]) == {}


def test_a_return_at_the_body_indentation_ends_an_excerpt_cut_after_it() -> None:
    tail = _numbered(SOURCE, 12, 18)  # decrement's lines, not where the file ends
    [block] = named_blocks("fix decrement", [("ops.py", tail)])["ops.py"]
    assert block.endswith("18|     return transform")
    inner = _numbered(SOURCE, 4, 7) + "\n   8| \n   9|         return doc"  # deeper return
    assert named_blocks("fix increment", [("ops.py", inner)]) == {}


def test_numbered_lines_keeps_blank_lines_and_where_the_file_ends() -> None:
    seen = numbered_lines([("ops.py", _numbered(SOURCE))])["ops.py"]
    assert seen.lines[8] == "" and seen.lines[4].startswith("def increment")
    assert seen.end == 20  # the 18 lines, the empty one after the last newline, then the end


def test_the_guided_schema_offers_the_block_and_edit_file_applies_it(tmp_path: Path) -> None:
    (tmp_path / "ops.py").write_text(SOURCE)
    interpreter = CallInterpreter(
        ("read_file", "edit_file"),
        history=[UserMessage("increment in ops.py should take a step parameter (default 1)")],
        guided_edits=True,
        answer_with_grammar=True,
    )
    call = {"name": "read_file", "arguments": {"path": "ops.py"}}
    decided = interpreter.interpret(AssistantMessage(json.dumps(call)), 1, tools_offered=True)
    [read] = decided.message.tool_calls
    interpreter.next_turn([ToolMessage(read.id, _numbered(SOURCE), name="read_file")])
    schema = interpreter.request_schema([], [READ, EDIT])
    assert schema is not None
    [block] = named_blocks("increment", [("ops.py", _numbered(SOURCE))])["ops.py"]
    new = (
        "def increment(field: str, step: int = 1) -> Callable:\n"
        "    def transform(doc):\n"
        "        doc[field] += step\n\n"
        "    return transform"
    )
    chosen = {"name": "edit_file", "arguments": {"path": "ops.py", "old": block}}
    jsonschema.validate(chosen, schema)  # the function is chosen; its code comes next
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**chosen, "arguments": {**chosen["arguments"], "new": new}}, schema)
    result = _edit(tmp_path, {"path": "ops.py", "old": block, "new": new})
    assert not result.is_error, result.content
    namespace: dict = {}
    exec((tmp_path / "ops.py").read_text(), namespace)
    doc = {"n": 1}
    namespace["increment"]("n", step=5)(doc)
    assert doc == {"n": 6}


def test_a_block_replaced_by_one_line_is_refused_and_the_file_kept(tmp_path: Path) -> None:
    (tmp_path / "ops.py").write_text(SOURCE)
    [block] = named_blocks("increment", [("ops.py", _numbered(SOURCE))])["ops.py"]
    arguments = {"path": "ops.py", "old": block, "new": "        doc[field] += 1"}
    result = _edit(tmp_path, arguments)
    assert result.is_error and "lose the definition of `increment`" in result.content
    assert (tmp_path / "ops.py").read_text() == SOURCE
    deleted = _edit(tmp_path, {**arguments, "new": ""})
    assert not deleted.is_error, deleted.content  # deleting a definition takes an empty new
    assert "def increment" not in (tmp_path / "ops.py").read_text()


def _edit(root: Path, arguments: dict[str, str]) -> ToolMessage:
    registry = ToolRegistry(execution_tools(Workspace(root)))
    return anyio.run(registry.execute, ToolCall("c1", "edit_file", json.dumps(arguments)))


def _excerpts(*blocks: tuple[str, str, int, int]) -> str:
    """Workspace evidence as the first request carries it: (file, heading, first, last)."""
    out = ["Workspace excerpts for the question above, found by search:"]
    for path, heading, first, last in blocks:
        out.append(f"--- {path}, lines {first}-{last} ({heading})")
        out.append(_numbered(SOURCE, first, last))
    return "\n".join(out)


def test_an_excerpt_that_shows_a_function_whole_is_a_block_one_cut_short_is_not() -> None:
    whole = _excerpts(("ops.py", "def increment", 4, 9), ("ops.py", "def decrement", 12, 18))
    blocks = evidence_blocks(seen_texts([], {}, [whole]))
    assert [b.split("\n")[0] for b in blocks["ops.py"]] == [
        "4| def increment(field: str) -> Callable:",
        "12| def decrement(",
    ]
    assert blocks["ops.py"][0].endswith("9|     return transform")
    marker = '[lines 9-9 not shown: read_file {"path": "ops.py", "offset": 9}]'
    cut = whole.replace("   9|     return transform", marker)
    assert [b.split("\n")[0] for b in evidence_blocks(seen_texts([], {}, [cut]))["ops.py"]] == [
        "12| def decrement("
    ]
    classes = _excerpts(("ops.py", "class Ops", 4, 9))  # not headed by a def: no block
    assert evidence_blocks(seen_texts([], {}, [classes])) == {}


def test_candidates_put_named_functions_first_and_keep_to_the_files_the_task_names() -> None:
    text = _excerpts(
        ("tests/test_ops.py", "def increment", 4, 9),
        ("ops.py", "def increment", 4, 9),
        ("ops.py", "def decrement", 12, 18),
    )
    seen = seen_texts([], {}, [text])
    found = candidate_blocks("decrement subtracts 1 instead of 2", seen)
    heads = [b.split("\n")[0] for b in found["ops.py"]]
    assert heads == ["12| def decrement(", "4| def increment(field: str) -> Callable:"]
    assert "tests/test_ops.py" not in found  # a test file only when the task names it
    assert list(candidate_blocks("in other.py the step is wrong", seen)) == ["ops.py"]
    assert candidate_blocks("in ops.py the step is wrong", seen).keys() == {"ops.py"}
    assert "tests/test_ops.py" in candidate_blocks("tests/test_ops.py is broken", seen)


def test_a_change_whose_functions_the_evidence_shows_whole_first_chooses_one(
    tmp_path: Path,
) -> None:
    """The first decisions of a run asked for a fix, given evidence that shows functions
    whole, are held to the choice of one of them (at most MAX_CHOICES times); a question gets
    the ordinary options."""
    evidence = _excerpts(("ops.py", "def increment", 4, 9), ("ops.py", "def decrement", 12, 18))
    task = "a field goes up by 2 instead of 1; fix it"
    interpreter = CallInterpreter(
        ("read_file", "edit_file"), history=[UserMessage(task)], guided_edits=True
    )
    interpreter.observe_items([_evidence_item(evidence)])
    for _ in range(MAX_CHOICES):
        schema = interpreter.request_schema([], [READ, EDIT])
        assert schema is not None
        [option] = schema["anyOf"]
        assert option["properties"]["arguments"]["properties"]["old"]["enum"][0].startswith(
            "4| def increment"
        )
        assert "new" not in option["properties"]["arguments"]["properties"]
    schema = interpreter.request_schema([], [READ, EDIT])
    assert schema is not None and len(schema["anyOf"]) > 1  # then every option again
    question = CallInterpreter(
        ("read_file", "edit_file"),
        history=[UserMessage("What does increment add?")],
        guided_edits=True,
    )
    question.observe_items([_evidence_item(evidence)])
    schema = question.request_schema([], [READ, EDIT])
    assert schema is not None and len(schema["anyOf"]) > 1


def _evidence_item(text: str) -> ContextItem:
    return ContextItem(
        item_id="evidence:workspace:x", kind="evidence", text=text, source="evidence:ops.py"
    )
