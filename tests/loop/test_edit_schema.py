"""Guided edits: edit_file's path and old chosen among the lines the run has seen."""

from __future__ import annotations

import json

import jsonschema
import pytest

from workset.context.items import ContextItem
from workset.loop.calls import CallInterpreter
from workset.loop.edit_schema import MAX_OFFERED, guided_schema, offered_lines, seen_lines
from workset.messages import AssistantMessage, ToolCall, ToolMessage, ToolSpec, UserMessage

EXCERPT = (
    "--- tinydb/operations.py, lines 56-60\n"
    "  56| def increment(field: str) -> Callable[[MutableMapping], None]:\n"
    '  57|     """Increment a given field in the document by 1."""\n'
    "  58|     def transform(doc: MutableMapping):\n"
    "  59|         doc[field] += 2\n"
    "  60| \n"
)
EDIT = ToolSpec(
    "edit_file",
    "Replace an exact snippet.",
    {
        "type": "object",
        "properties": {
            "path": {"type": "string"},
            "old": {"type": "string"},
            "new": {"type": "string"},
            "replace_all": {"type": "boolean"},
        },
        "required": ["path", "old", "new"],
    },
)
READ = ToolSpec(
    "read_file",
    "Read a file.",
    {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
)


def _evidence(text: str) -> ContextItem:
    return ContextItem(
        item_id="evidence:workspace:x", kind="evidence", text=text,
        source="evidence:tinydb/operations.py", trust="untrusted",
    )  # fmt: skip


def _valid(schema: dict, value: object) -> bool:
    try:
        jsonschema.validate(value, schema)
    except jsonschema.ValidationError:
        return False
    return True


def test_seen_lines_are_the_files_own_lines_with_their_numbers_no_blank_or_cut_ones() -> None:
    lines = seen_lines(
        [
            ("tinydb/operations.py", EXCERPT),
            ("tinydb/operations.py", "  59|         doc[field] += 2\n  61| x = 'a very lo…"),
            ("tinydb/table.py", "        return len(self.search(cond)) + 1"),  # a grep hit
        ]
    )
    assert lines["tinydb/operations.py"][-1] == "59|         doc[field] += 2"
    assert lines["tinydb/operations.py"].count("59|         doc[field] += 2") == 1
    assert not any(line.endswith("…") for line in lines["tinydb/operations.py"])
    assert "" not in lines["tinydb/operations.py"]
    assert lines["tinydb/table.py"] == ["        return len(self.search(cond)) + 1"]


def test_the_schema_admits_only_seen_lines_of_the_same_file_as_old() -> None:
    lines = {
        "tinydb/operations.py": ["        doc[field] += 2"],
        "tinydb/table.py": ["        return 1"],
    }
    schema = guided_schema([READ, EDIT], lines)
    right = {
        "name": "edit_file",
        "arguments": {
            "path": "tinydb/operations.py",
            "old": "        doc[field] += 2",
            "new": "        doc[field] += 1",
        },
    }
    assert _valid(schema, right)
    crossed = {**right, "arguments": {**right["arguments"], "path": "tinydb/table.py"}}
    assert not _valid(schema, crossed)
    made_up = {**right, "arguments": {**right["arguments"], "old": "int"}}
    assert not _valid(schema, made_up)
    assert not _valid(schema, {"name": "increment", "arguments": {"field": "int"}})
    assert _valid(schema, {"name": "read_file", "arguments": {"path": "x.py"}})
    assert _valid(schema, {"answer": "done"})


def test_before_any_line_is_seen_edit_file_is_not_an_option() -> None:
    schema = guided_schema([READ, EDIT], {})
    names = [o["properties"].get("name", {}).get("const") for o in schema["anyOf"]]
    assert names == ["read_file", None]


def test_the_lines_offered_are_those_likeliest_to_change() -> None:
    """A statement in the body of the function the task names, holding a number of the task,
    comes before the def line and the docstring; lines sharing nothing are left out."""
    filler = [f"value_{n} = {n}" for n in range(40)]
    lines = {
        "tinydb/operations.py": [
            *filler[:20],
            "def increment(field: str) -> Callable[[MutableMapping], None]:",
            '    """Increment a given field in the document by 1."""',
            "    def transform(doc: MutableMapping):",
            "        doc[field] += 2",
            "    return transform",
            *filler[20:],
        ]
    }
    task = "The increment operation adds 2 to the field instead of 1. Fix it so it adds 1."
    offered = offered_lines(task, lines)["tinydb/operations.py"]
    assert len(offered) <= MAX_OFFERED
    assert "        doc[field] += 2" in offered and "value_7 = 7" not in offered
    typo = {
        "tinydb/database.py": ["    table_class = Table", "    default_table_name = '_defualt'"]
    }
    task = "The default table name is misspelled as '_defualt'. It must be '_default'."
    assert offered_lines(task, typo)["tinydb/database.py"][-1].endswith("'_defualt'")


def test_an_edit_run_is_guided_until_its_first_edit_succeeds() -> None:
    interpreter = CallInterpreter(
        ("read_file", "edit_file"),
        history=[UserMessage("increment adds 2 instead of 1; fix it")],
        guided_edits=True,
        answer_with_grammar=True,
    )
    schema = interpreter.request_schema([_evidence(EXCERPT)], [READ, EDIT])
    assert schema is not None
    first = schema["anyOf"][0]["properties"]["arguments"]["properties"]
    assert first["path"] == {"const": "tinydb/operations.py"}
    assert "59|         doc[field] += 2" in first["old"]["enum"]
    # The output was held to the schema, so {"answer": ...} is read as the answer.
    call = {"name": "read_file", "arguments": {"path": "tinydb/table.py"}}
    decided = interpreter.interpret(AssistantMessage(json.dumps(call)), 1, tools_offered=True)
    [read] = decided.message.tool_calls
    interpreter.next_turn(
        [ToolMessage(read.id, "  10|     def count(self, cond):", name="read_file")]
    )
    second = interpreter.request_schema([], [READ, EDIT])
    assert second is not None
    paths = [o["properties"]["arguments"]["properties"].get("path") for o in second["anyOf"][:2]]
    assert {"const": "tinydb/table.py"} in paths  # the file just read is offered too
    edit = ToolCall("e1", "edit_file", json.dumps({"path": "tinydb/operations.py"}))
    interpreter.interpret(AssistantMessage(None, (edit,)), 2, tools_offered=True)
    done = ToolMessage(
        "e1",
        "edited tinydb/operations.py: 1 replacement; changed line 59 (the file now has 73 "
        "lines) (new was indented as old is)",
        name="edit_file",
    )
    turn = interpreter.next_turn([done])
    assert turn.answer_only  # a task that asks for no test run: the answer, next
    # edit_file's notes are left out: the 0.5B copied them into its answer
    assert (
        "Your edit was made (edited tinydb/operations.py: 1 replacement; changed line 59). "
        in turn.notices[0]
    )


def test_after_the_edit_of_a_task_that_asks_for_tests_any_call_but_an_edit() -> None:
    interpreter = CallInterpreter(
        ("read_file", "edit_file"),
        history=[UserMessage("increment adds 2 instead of 1; fix it and run the tests")],
        guided_edits=True,
    )
    interpreter.request_schema([_evidence(EXCERPT)], [READ, EDIT])
    edit = ToolCall("e1", "edit_file", json.dumps({"path": "tinydb/operations.py"}))
    interpreter.interpret(AssistantMessage(None, (edit,)), 2, tools_offered=True)
    done = ToolMessage("e1", "edited tinydb/operations.py: 1 replacement", name="edit_file")
    assert not interpreter.next_turn([done]).answer_only
    after = interpreter.request_schema([], [READ, EDIT])  # the next decision: no edit
    assert after is not None
    assert [o["properties"].get("name", {}).get("const") for o in after["anyOf"]] == [
        "read_file",
        None,
    ]
    interpreter.interpret(AssistantMessage('{"answer": "done"}'), 3, tools_offered=True)
    interpreter.next_turn([])
    assert interpreter.request_schema([], [READ, EDIT]) is None


def test_a_line_whose_edit_failed_is_no_longer_offered() -> None:
    interpreter = CallInterpreter(
        ("read_file", "edit_file"), history=[UserMessage("fix increment")], guided_edits=True
    )
    interpreter.request_schema([_evidence(EXCERPT)], [READ, EDIT])
    signature = "56| def increment(field: str) -> Callable[[MutableMapping], None]:"
    call = {"path": "tinydb/operations.py", "old": signature, "new": signature + " x"}
    edit = ToolCall("e1", "edit_file", json.dumps(call))
    interpreter.interpret(AssistantMessage(None, (edit,)), 1, tools_offered=True)
    refused = ToolMessage("e1", "Error: the edit was not applied", name="edit_file", is_error=True)
    interpreter.next_turn([refused])
    schema = interpreter.request_schema([], [READ, EDIT])
    assert schema is not None
    offered = schema["anyOf"][0]["properties"]["arguments"]["properties"]["old"]["enum"]
    assert signature not in offered and "59|         doc[field] += 2" in offered


@pytest.mark.parametrize(
    ("names", "guided"), [(("read_file",), True), (("read_file", "edit_file"), False)]
)
def test_runs_that_cannot_edit_or_are_not_guided_get_no_schema(
    names: tuple[str, ...], guided: bool
) -> None:
    interpreter = CallInterpreter(names, history=[UserMessage("fix it")], guided_edits=guided)
    tools = [t for t in (READ, EDIT) if t.name in names]
    assert interpreter.request_schema([_evidence(EXCERPT)], tools) is None


def test_after_the_edit_the_call_that_runs_the_tasks_test_file_is_given() -> None:
    interpreter = CallInterpreter(
        ("read_file", "edit_file", "shell"), history=[UserMessage("fix it")], guided_edits=True
    )
    tests = ContextItem(
        item_id="evidence:workspace:y", kind="evidence", text=EXCERPT,
        source="evidence:tinydb/operations.py,tests/test_operations.py", trust="untrusted",
    )  # fmt: skip
    interpreter.request_schema([tests], [READ, EDIT])
    edit = ToolCall("e1", "edit_file", json.dumps({"path": "tinydb/operations.py"}))
    interpreter.interpret(AssistantMessage(None, (edit,)), 1, tools_offered=True)
    done = ToolMessage("e1", "edited tinydb/operations.py: 1 replacement", name="edit_file")
    [notice] = interpreter.next_turn([done]).notices
    command = "python -m pytest -q tests/test_operations.py"
    assert json.dumps({"name": "shell", "arguments": {"command": command}}) in notice


def test_lines_seen_out_of_order_are_judged_in_the_files_order() -> None:
    """Count is off by one. The evidence showed the class line after the method, and a
    docstring line of another method without its quotes. Judged in the order seen, the class
    docstring's unseen end swallowed the method's code as prose, and the other method's
    docstring line ("Count the total number of documents") was the only one offered."""
    lines = {
        "tinydb/table.py": [
            "686|     def count(self, cond: QueryLike) -> int:",
            '687|         """',
            "688|         Count the documents matching a query.",
            '691|         """',
            "693|         return len(self.search(cond)) + 1",
            "35| class Table:",
            '36|     """',
            "37|     Represents a single TinyDB table.",
            "704|         Count the total number of documents in this table.",
        ]
    }
    task = "Table.count returns one more than the number of matching documents. Fix it."
    offered = offered_lines(task, lines)["tinydb/table.py"]
    assert "693|         return len(self.search(cond)) + 1" in offered
    assert "37|     Represents a single TinyDB table." not in offered


def test_only_lines_near_the_likeliest_are_offered_per_file() -> None:
    """The 0.5B picked the ``def`` line of the function beside the one to fix when both were
    offered; a line far less likely than its file's best is no longer offered (a file read
    later keeps its own best lines: test_an_edit_run_is_guided_until_its_first_edit_succeeds)."""
    lines = {
        "ops.py": [
            "26| def add(field, n):",
            "31|         doc[field] += n",
            "36| def subtract(field, n):",
            "41|         doc[field] += n",
            "43|     return transform",
        ],
    }
    task = "The subtract operation adds n to the field instead of subtracting it. Fix it."
    offered = offered_lines(task, lines)
    assert "41|         doc[field] += n" in offered["ops.py"]
    assert "26| def add(field, n):" not in offered["ops.py"]
    assert "31|         doc[field] += n" not in offered["ops.py"]
