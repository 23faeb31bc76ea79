"""A call under the name of a function the run has seen defined runs as the read of that
definition (the 0.5B "calls" the function a question is about: ``diff {"offset": 1}``,
``{"name": "fold", "arguments": {"binop": add}}``)."""

from __future__ import annotations

import json
from pathlib import Path

import anyio

from workset.events import ToolFinished
from workset.loop.calls import CallInterpreter
from workset.loop.code_names import DEFINITION_LINES, definition_span
from workset.messages import AssistantMessage
from workset.session.agent import Agent, AgentConfig
from workset.testing import ScriptedModel, call, current_store
from workset.tools.perception import perception_tools
from workset.tools.registry import ToolRegistry
from workset.tools.workspace import Workspace

NAMES = ("find_files", "grep", "list_dir", "read_file")

EXCERPT = """Workspace excerpts for the question above:
--- toolz/itertoolz.py, lines 925-962 (def diff)
 925| def diff(*seqs, **kwargs):
 926|     \"\"\" Return those items that differ between sequences
 927|
 928|     >>> list(diff([1, 2, 3], [1, 2, 10, 100]))
[lines 929-962 not shown: read_file {"path": "toolz/itertoolz.py", "offset": 929}]
--- toolz/tests/test_itertoolz.py, lines 482-484 (def test_diff)
 482| def test_diff():
 483|     assert raises(TypeError, lambda: list(diff()))
 484|     assert raises(TypeError, lambda: list(diff([1, 2])))
"""


def read_arguments(decided_call: object) -> dict[str, object]:
    return json.loads(decided_call.arguments)  # type: ignore[attr-defined]


def test_a_call_named_after_a_function_the_excerpts_define_reads_that_definition() -> None:
    interpreter = CallInterpreter(NAMES)
    interpreter.evidence = [EXCERPT]
    wrong = AssistantMessage(None, (call("diff", '{"offset": 1, "limit": 200}', "c1"),))
    decided = interpreter.interpret(wrong, 1, tools_offered=True)
    [ran] = decided.message.tool_calls
    assert ran.name == "read_file" and ran.id not in decided.rejected
    # The excerpt stops inside it (its range may end inside a long function): read on.
    expected = {"path": "toolz/itertoolz.py", "offset": 925, "limit": DEFINITION_LINES}
    assert read_arguments(ran) == expected
    assert decided.mapped[ran.id].startswith("the model called 'diff'")
    # The test function that calls it is not its definition.
    other = AssistantMessage(None, (call("test_diff", "{}", "c2"),))
    decided = interpreter.interpret(other, 2, tools_offered=True)
    assert read_arguments(decided.message.tool_calls[0])["offset"] == 482


def test_a_call_written_as_broken_json_under_a_defined_name_reads_the_definition() -> None:
    interpreter = CallInterpreter(NAMES)
    interpreter.evidence = [EXCERPT]
    broken = '{"name": "diff", "arguments": {"seqs": [1, 2], "key": lambda x: x}}'
    decided = interpreter.interpret(AssistantMessage(broken), 1, tools_offered=True)
    [ran] = decided.message.tool_calls
    assert ran.name == "read_file" and not decided.rejected
    assert read_arguments(ran)["offset"] == 925


def test_broken_json_under_a_name_nobody_defined_keeps_that_name_and_its_error() -> None:
    interpreter = CallInterpreter(NAMES)
    broken = '```json\n{"name": "fold", "arguments": {"binop": add, "seq": [1, 2]}}\n```'
    decided = interpreter.interpret(AssistantMessage(broken), 1, tools_offered=True)
    [pseudo] = decided.message.tool_calls
    # Not the harness's invalid_tool_call: the 0.5B copied that name into its next turns.
    assert pseudo.name == "fold" and pseudo.arguments == "{}"
    assert decided.rejected[pseudo.id].startswith("Could not read a tool call")
    # Under a tool's name too (not run), and a bare tool name.
    bad = '{"name": "read_file", "arguments": {"path": calc.py}}'
    again = interpreter.interpret(AssistantMessage(bad), 2, tools_offered=True)
    [pseudo] = again.message.tool_calls
    assert (pseudo.name, pseudo.arguments) == ("read_file", "{}") and pseudo.id in again.rejected
    bare = interpreter.interpret(AssistantMessage("<tool>grep</tool>"), 3, tools_offered=True)
    assert bare.message.tool_calls[0].name == "grep" and bare.rejected


def test_a_tool_name_is_never_read_as_a_definition() -> None:
    interpreter = CallInterpreter(NAMES)
    interpreter.evidence = [
        "--- tools.py, lines 1-2 (def grep)\n 1| def grep(pattern):\n 2|     pass\n"
    ]
    decided = interpreter.interpret(
        AssistantMessage(None, (call("grep", '{"pattern": "x"}', "c1"),)), 1, tools_offered=True
    )
    assert decided.message.tool_calls[0].arguments == '{"pattern": "x"}'


def test_definition_span_ends_at_the_next_definition_and_reads_on_when_the_text_stops() -> None:
    text = "\n".join(
        [
            " 10| class Table:",
            " 11|     def insert(",
            " 12|         self, document",
            " 13|     ):",
            " 14|         return self._insert(document)",
            " 15| ",
            " 16|     def remove(self, cond):",
            " 17|         pass",
            " 18| def after():",
        ]
    )
    seen = [("tinydb/table.py", text)]
    assert definition_span("insert", seen) == ("tinydb/table.py", 11, 15)
    assert definition_span("Table", seen) == ("tinydb/table.py", 10, 17)
    # `after` ends `remove`; `after` itself runs off the text, so the read goes on.
    assert definition_span("remove", seen) == ("tinydb/table.py", 16, 17)
    assert definition_span("after", seen) == ("tinydb/table.py", 18, 18 + DEFINITION_LINES - 1)
    assert definition_span("missing", seen) is None
    assert definition_span("not a name", seen) is None


def test_an_agent_that_calls_a_function_it_read_gets_its_definition(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    body = ["def helper():", "    return 1", ""]
    body += ["def check(values):", "    if len(values) < 2:", "        raise TypeError('two')"]
    body += ["    return values", "", "def last():", "    return 0"]
    (workspace / "calc.py").write_text("\n".join(body) + "\n")
    first = call("read_file", '{"path": "calc.py", "limit": 5}', "r1")
    script = [
        AssistantMessage(None, (first,)),
        '{"name": "check", "arguments": {"values": [1]}}',
        "It raises TypeError, as calc.py shows.",
    ]
    model = ScriptedModel(script, context_window=8192)
    seen: list[object] = []
    agent = Agent(
        model,
        ToolRegistry(perception_tools(Workspace(workspace))),
        current_store(),
        AgentConfig(),
        subscribers=[seen.append],
    )
    result = anyio.run(agent.run, "What does check raise with one value?")
    assert result.answer == "It raises TypeError, as calc.py shows."
    first_run, read_run = (e for e in seen if isinstance(e, ToolFinished))
    assert "raise TypeError" not in first_run.result.content
    assert read_run.call.name == "read_file" and not read_run.result.is_error
    assert json.loads(read_run.call.arguments)["offset"] == 4  # from its own line on
    assert "raise TypeError('two')" in read_run.result.content
    assert "the model called 'check'" in read_run.decision
    # The model's own turn, as it is sent back, shows the call that reads the definition.
    sent = model.requests[2].messages
    turn = [m for m in sent if isinstance(m, AssistantMessage) and m.tool_calls][-1]
    assert turn.tool_calls[0].name == "read_file"
