from __future__ import annotations

import json

from workset.context.items import ContextItem
from workset.loop.calls import CallInterpreter
from workset.loop.steering import NextTurn
from workset.messages import AssistantMessage, ToolCall, ToolMessage, UserMessage

NAMES = ("grep", "read_file")


def test_text_calls_are_parsed_and_given_ids_unique_in_the_session() -> None:
    earlier = AssistantMessage(None, (ToolCall("call_0", "grep", '{"pattern": "a"}'),))
    interpreter = CallInterpreter(NAMES, history=[earlier])
    native = AssistantMessage(None, (ToolCall("call_0", "read_file", '{"path": "x"}'),))
    decided = interpreter.interpret(native, 1, tools_offered=True)
    assert [c.id for c in decided.message.tool_calls] == ["call_0~2"]
    text = AssistantMessage('{"name": "grep", "arguments": {"pattern": "b"}}')
    parsed = interpreter.interpret(text, 2, tools_offered=True).message
    assert parsed.content is None and parsed.tool_calls[0].name == "grep"


def test_a_malformed_text_call_is_rejected_with_a_valid_example() -> None:
    decided = CallInterpreter(NAMES).interpret(
        AssistantMessage('```json\n{"name": "grep", "arguments": {"pattern": \n```'),
        1,
        tools_offered=True,
    )
    [bad] = decided.message.tool_calls
    assert (bad.name, bad.arguments) == ("grep", "{}")  # the name it wrote, not run
    assert '{"name": "<tool name>", "arguments": {...}}' in decided.rejected[bad.id]


def test_a_repeated_call_is_not_run_again_and_marks_the_run_stuck() -> None:
    interpreter = CallInterpreter(NAMES)
    first = AssistantMessage(None, (ToolCall("a", "grep", '{"pattern": "x", "page": 1}'),))
    assert not interpreter.interpret(first, 1, tools_offered=True).stuck
    again = AssistantMessage(
        None,
        (
            ToolCall("b", "grep", '{"page": 1, "pattern": "x"}'),
            ToolCall("c", "grep", '{"pattern": "y"}'),
        ),
    )
    decided = interpreter.interpret(again, 2, tools_offered=True)
    assert decided.stuck
    assert "already called grep" in decided.rejected["b"] and "c" not in decided.rejected


def test_calls_beyond_the_per_message_cap_are_not_run() -> None:
    many = tuple(ToolCall(f"id{i}", "grep", f'{{"pattern": "p{i}"}}') for i in range(5))
    decided = CallInterpreter(NAMES, max_calls=3).interpret(
        AssistantMessage(None, many), 1, tools_offered=True
    )
    assert sorted(decided.rejected) == ["id3", "id4"]


def test_without_tools_offered_text_is_an_answer_and_native_calls_are_refused() -> None:
    interpreter = CallInterpreter(NAMES)
    text = AssistantMessage('{"name": "grep", "arguments": {"pattern": "b"}}')
    assert interpreter.interpret(text, 1, tools_offered=False).message == text
    native = AssistantMessage(None, (ToolCall("n", "grep", "{}"),))
    assert (
        "no tools are offered"
        in interpreter.interpret(native, 2, tools_offered=False).rejected["n"]
    )


def test_constrained_answers_become_plain_text() -> None:
    decided = CallInterpreter(NAMES, constrained=True).interpret(
        AssistantMessage('{"answer": "8471"}'), 1, tools_offered=True
    )
    assert decided.message == AssistantMessage("8471") and not decided.message.tool_calls


def test_a_message_with_many_malformed_calls_gets_one_error_not_one_per_call() -> None:
    broken = "\n".join('<tool_call>{"name": "grep", "arguments": {"pattern": </tool_call>'
                       for _ in range(18))  # fmt: skip
    decided = CallInterpreter(NAMES).interpret(AssistantMessage(broken), 1, tools_offered=True)
    [bad] = decided.message.tool_calls
    assert bad.name == "invalid_tool_call" and bad.arguments == "{}"  # nothing to copy
    assert "17 more calls in it had the same problem" in decided.rejected[bad.id]
    assert (decided.message.content or "").startswith("<tool_call>")  # what it wrote, cut


def result(call_id: str, content: str, *, error: bool = False, name: str = "grep") -> ToolMessage:
    return ToolMessage(call_id, content, name, is_error=error)


def test_a_search_that_found_nothing_asks_for_a_different_call_not_an_answer() -> None:
    task = UserMessage("Which file defines the class LRUCache?")
    interpreter = CallInterpreter(("grep", "read_file", "list_dir"), history=[task])
    interpreter.interpret(
        AssistantMessage(None, (ToolCall("a", "grep", '{"pattern": "LRU_Cache"}'),)),
        1,
        tools_offered=True,
    )
    turn = interpreter.next_turn(
        [result("a", '{"total_matches": 0}')], evidence_files=["tinydb/utils.py"]
    )
    assert turn.offer_tools and not turn.stop
    [notice] = turn.notices
    assert "found nothing" in notice and "not an answer" in notice
    # a whole call to copy, naming the file the evidence points to
    assert '{"name": "read_file", "arguments": {"path": "tinydb/utils.py"}}' in notice


def test_a_repeat_after_only_errors_does_not_force_an_answer_and_fruitless_turns_stop() -> None:
    task = UserMessage("Which files under src/workset/safety mention bubblewrap?")
    interpreter = CallInterpreter(("grep", "read_file"), history=[task])
    call = ToolCall("a", "read_file", '{"path": "src/workset/safety/bubblewrap"}')
    turns = []
    for n in range(3):
        decided = interpreter.interpret(AssistantMessage(None, (call,)), n + 1, tools_offered=True)
        done = [result(c.id, "Error: no such file", error=True) for c in decided.message.tool_calls]
        turns.append(interpreter.next_turn(done))
    assert all(t.offer_tools for t in turns[:2])  # never "answer now" from error text
    again = interpreter.interpret(AssistantMessage(None, (call,)), 4, tools_offered=True)
    [why] = again.rejected.values()
    assert "it failed or found nothing" in why and "Use that result" not in why
    assert '{"name": "grep", "arguments": {"pattern": "bubblewrap"' in turns[0].notices[0]
    assert turns[1].notices[0] != turns[0].notices[0]  # a different suggestion each time
    assert turns[2].stop and "failed or found nothing" in turns[2].stop


def test_a_repeat_after_a_useful_result_asks_for_the_answer_without_tools() -> None:
    interpreter = CallInterpreter(NAMES, history=[UserMessage("Which port?")])
    call = ToolCall("a", "read_file", '{"path": "service.toml"}')
    interpreter.interpret(AssistantMessage(None, (call,)), 1, tools_offered=True)
    assert interpreter.next_turn([result("a", "port = 8471")]) == NextTurn()
    again = interpreter.interpret(AssistantMessage(None, (call,)), 2, tools_offered=True)
    [repeat] = again.message.tool_calls
    turn = interpreter.next_turn([result(repeat.id, "not run again", error=True)])
    assert not turn.offer_tools and "Answer this question now" in turn.notices[0]
    assert "Which port?" in turn.notices[0]


def test_a_repeated_search_asks_to_read_the_file_it_found_once_before_the_answer() -> None:
    task = UserMessage("Which port does the server in service.toml listen on?")
    interpreter = CallInterpreter(NAMES, history=[task])
    call = ToolCall("a", "grep", '{"pattern": "service", "ignore_case": true}')
    interpreter.interpret(AssistantMessage(None, (call,)), 1, tools_offered=True)
    hits = (
        '{"total_matches": 2, "hits": [{"path": "NOTES.md", "line": 5, "text": "see service.toml"},'
        ' {"path": "service.toml", "line": 1, "text": "# Settings"}]}'
    )
    assert interpreter.next_turn([result("a", hits)]) == NextTurn()
    for n, expected in ((2, "service.toml"), (3, "NOTES.md")):
        again = interpreter.interpret(AssistantMessage(None, (call,)), n, tools_offered=True)
        [repeat] = again.message.tool_calls
        turn = interpreter.next_turn([result(repeat.id, "not run again", error=True)])
        [notice] = turn.notices
        assert turn.offer_tools and "Read the file before you answer" in notice
        # the file the task names first, then the other file the hits named
        assert f'{{"name": "read_file", "arguments": {{"path": "{expected}"}}}}' in notice
    again = interpreter.interpret(AssistantMessage(None, (call,)), 4, tools_offered=True)
    [repeat] = again.message.tool_calls
    turn = interpreter.next_turn([result(repeat.id, "not run again", error=True)])
    assert not turn.offer_tools and "Answer this question now" in turn.notices[0]


def test_once_a_file_was_read_a_repeat_asks_for_the_answer_not_another_file() -> None:
    task = UserMessage("Which port does the server in service.toml listen on?")
    interpreter = CallInterpreter(NAMES, history=[task])
    grep = ToolCall("a", "grep", '{"pattern": "port"}')
    interpreter.interpret(AssistantMessage(None, (grep,)), 1, tools_offered=True)
    interpreter.next_turn([result("a", '{"hits": [{"path": "NOTES.md", "line": 2, "text": "x"}]}')])
    read = ToolCall("b", "read_file", '{"path": "service.toml"}')
    interpreter.interpret(AssistantMessage(None, (read,)), 2, tools_offered=True)
    assert interpreter.next_turn([result("b", "5| port = 8471", name="read_file")]) == NextTurn()
    again = interpreter.interpret(AssistantMessage(None, (read,)), 3, tools_offered=True)
    [repeat] = again.message.tool_calls
    turn = interpreter.next_turn([result(repeat.id, "not run again", error=True)])
    assert not turn.offer_tools and "Answer this question now" in turn.notices[0]


def test_a_reply_that_only_names_a_tool_in_tags_is_a_call_attempt_not_an_answer() -> None:
    interpreter = CallInterpreter(("find_files", "grep"))
    decided = interpreter.interpret(
        AssistantMessage("<function-name>find_files</function-name>"), 1, tools_offered=True
    )
    [bad] = decided.message.tool_calls
    assert bad.name == "find_files" and "'find_files' was named" in decided.rejected[bad.id]
    plain = interpreter.interpret(AssistantMessage("It is find_files."), 2, tools_offered=True)
    assert plain.message.content == "It is find_files." and not plain.message.tool_calls


def test_a_transcript_style_call_line_without_arguments_is_a_call_attempt() -> None:
    interpreter = CallInterpreter(("archive_email", "grep"))
    said = "Tool: archive_email Assistant: Archived the advertisement."  # the 1.5B, email agent
    decided = interpreter.interpret(AssistantMessage(said), 1, tools_offered=True)
    [bad] = decided.message.tool_calls
    assert bad.name == "archive_email" and "'archive_email' was named" in decided.rejected[bad.id]
    echoed = "Tool: draft saved Assistant: Draft saved."  # names no tool: stays the answer
    plain = interpreter.interpret(AssistantMessage(echoed), 2, tools_offered=True)
    assert plain.message.content == echoed and not plain.message.tool_calls


def test_identical_calls_in_one_message_are_kept_once() -> None:
    same = tuple(ToolCall(f"id{i}", "grep", '{"pattern": "x"}') for i in range(20))
    decided = CallInterpreter(NAMES).interpret(
        AssistantMessage(None, (*same, ToolCall("other", "grep", '{"pattern": "y"}'))),
        1,
        tools_offered=True,
    )
    assert [c.id for c in decided.message.tool_calls] == ["id0", "other"]
    assert decided.rejected == {}


def test_calls_named_after_the_harness_pseudo_call_are_dropped_beside_a_real_one() -> None:
    copies = tuple(ToolCall(f"m{i}", "invalid_tool_call", f'{{"n": {i}}}') for i in range(37))
    read = ToolCall("r", "read_file", '{"path": "tinydb/table.py"}')
    decided = CallInterpreter(NAMES).interpret(
        AssistantMessage(None, (read, *copies)), 1, tools_offered=True
    )
    assert [c.id for c in decided.message.tool_calls] == ["r"]
    alone = CallInterpreter(NAMES).interpret(AssistantMessage(None, copies), 1, tools_offered=True)
    assert [c.name for c in alone.message.tool_calls] == ["invalid_tool_call"]


def test_a_call_named_after_a_code_symbol_runs_as_the_one_tool_its_arguments_fit() -> None:
    from workset.messages import ToolSpec

    specs = (
        ToolSpec("grep", "", {"properties": {"pattern": {}, "path": {}}, "required": ["pattern"]}),
        ToolSpec("read_file", "", {"properties": {"path": {}, "offset": {}}, "required": ["path"]}),
    )
    interpreter = CallInterpreter(NAMES)
    wrong = AssistantMessage(
        '{"name": "JSONStorage", "arguments": {"path": "tinydb/storages.py", "offset": 94}}'
    )
    decided = interpreter.interpret(wrong, 1, tools_offered=True, specs=specs)
    [mapped] = decided.message.tool_calls
    assert mapped.name == "read_file"
    assert decided.mapped == {
        mapped.id: "the model named it 'JSONStorage'; its arguments fit read_file"
    }
    assert mapped.id not in decided.rejected
    # Arguments that fit no offered tool are left to the registry's unknown-tool error.
    other = AssistantMessage(None, (ToolCall("x", "increment", '{"field": "count"}'),))
    kept = interpreter.interpret(other, 2, tools_offered=True, specs=specs)
    assert kept.message.tool_calls[0].name == "increment" and not kept.mapped


def test_a_repeated_read_is_answered_with_its_first_result_and_a_note() -> None:
    interpreter = CallInterpreter(NAMES)
    read = ToolCall("r1", "read_file", '{"path": "a.py"}')
    interpreter.interpret(AssistantMessage(None, (read,)), 1, tools_offered=True)
    interpreter.next_turn([ToolMessage("r1", "1| x = 1", name="read_file")])
    again = AssistantMessage(None, (ToolCall("r2", "read_file", '{"path": "a.py"}'),))
    decided = interpreter.interpret(again, 2, tools_offered=True)
    assert decided.stuck and "r2" not in decided.rejected
    assert decided.replayed["r2"].endswith("\n1| x = 1")
    assert "Do not call it again: answer from it" in decided.replayed["r2"]


def test_a_read_after_an_edit_runs_again_but_a_repeated_command_does_not() -> None:
    changing = {"edit_file", "shell"}
    interpreter = CallInterpreter(
        ("read_file", "edit_file", "shell"),
        replayable=lambda name: name not in changing,
        read_only=lambda name: name not in changing,
    )
    read = '{"path": "a.py"}'
    interpreter.interpret(
        AssistantMessage(None, (ToolCall("r1", "read_file", read),)), 1, tools_offered=True
    )
    interpreter.next_turn([ToolMessage("r1", "1| x = 1", name="read_file")])
    edit = ToolCall("e1", "edit_file", '{"path": "a.py", "old": "x = 1", "new": "x = 2"}')
    test = ToolCall("s1", "shell", '{"command": "pytest"}')
    interpreter.interpret(AssistantMessage(None, (edit, test)), 2, tools_offered=True)
    interpreter.next_turn(
        [ToolMessage("e1", "edited a.py", name="edit_file"), ToolMessage("s1", "ok", name="shell")]
    )
    after = AssistantMessage(
        None, (ToolCall("r2", "read_file", read), ToolCall("s2", "shell", '{"command": "pytest"}'))
    )
    decided = interpreter.interpret(after, 3, tools_offered=True)
    assert "r2" not in decided.rejected and "r2" not in decided.replayed  # it runs
    assert "already called shell" in decided.rejected["s2"]


def test_a_last_call_cut_off_by_the_token_limit_is_dropped_and_the_whole_calls_run() -> None:
    text = (
        '{"name": "read_file", "arguments": {"path": "tinydb/table.py"}}\n'
        '{"name": "grep", "arguments": {"pattern": "cache"}}\n'
        '{"name": "read_file", "arguments": {"path": "tiny'
    )
    decided = CallInterpreter(NAMES).interpret(AssistantMessage(text), 1, tools_offered=True)
    assert [c.name for c in decided.message.tool_calls] == ["read_file", "grep"]
    assert not decided.rejected and decided.message.content is None


def test_schema_words_copied_into_arguments_are_dropped() -> None:
    from workset.messages import ToolSpec

    specs = (ToolSpec("read_file", "", {"properties": {"path": {}}, "required": ["path"]}),)
    text = '{"name": "read_file", "arguments": {"path": "a.py", "additionalProperties": false}}'
    decided = CallInterpreter(NAMES).interpret(
        AssistantMessage(text), 1, tools_offered=True, specs=specs
    )
    assert decided.message.tool_calls[0].arguments == '{"path": "a.py"}'


def test_a_repeat_in_a_run_that_may_edit_asks_for_the_edit_with_the_line_grep_found() -> None:
    interpreter = CallInterpreter(("grep", "read_file", "edit_file"))
    grep = '{"pattern": "_defualt"}'
    interpreter.interpret(
        AssistantMessage(None, (ToolCall("g1", "grep", grep),)), 1, tools_offered=True
    )
    hit = '{"path": "tinydb/database.py", "line": 80, "text": "    name = \'_defualt\'"}'
    interpreter.next_turn([ToolMessage("g1", f'{{"hits": [\n{hit}\n]}}', name="grep")])
    again = AssistantMessage(None, (ToolCall("g2", "grep", grep),))
    interpreter.interpret(again, 2, tools_offered=True)
    turn = interpreter.next_turn([ToolMessage("g2", "repeated", name="grep")])
    assert turn.offer_tools and not turn.answer_only
    [notice] = turn.notices
    assert "Make the change now with edit_file" in notice
    assert '{"path": "tinydb/database.py", "old": "    name = \'_defualt\'"}' in notice
    # Asked once: the next repeat asks for the answer, as in any run.
    third = AssistantMessage(None, (ToolCall("g3", "grep", grep),))
    interpreter.interpret(third, 3, tools_offered=True)
    assert interpreter.next_turn([ToolMessage("g3", "repeated", name="grep")]).answer_only is False


def test_a_failed_edit_does_not_make_a_repeated_read_new() -> None:
    interpreter = CallInterpreter(
        ("read_file", "edit_file"), read_only=lambda name: name != "edit_file"
    )
    read = '{"path": "a.py"}'
    interpreter.interpret(
        AssistantMessage(None, (ToolCall("r1", "read_file", read),)), 1, tools_offered=True
    )
    interpreter.next_turn([ToolMessage("r1", "1| x = 1", name="read_file")])
    edit = ToolCall("e1", "edit_file", '{"path": "a.py", "old": "x = 1", "new": "x = 1"}')
    interpreter.interpret(AssistantMessage(None, (edit,)), 2, tools_offered=True)
    interpreter.next_turn([ToolMessage("e1", "identical", name="edit_file", is_error=True)])
    again = AssistantMessage(None, (ToolCall("r2", "read_file", read),))
    assert "r2" in interpreter.interpret(again, 3, tools_offered=True).replayed


def _excerpt_item(text: str) -> ContextItem:
    return ContextItem(
        item_id="evidence:workspace:x", kind="evidence", text=text,
        source="evidence:tinydb/operations.py", trust="untrusted",
    )  # fmt: skip


EXCERPT = (
    "--- tinydb/operations.py, lines 56-63\n"
    "  56| def increment(field: str) -> Callable[[MutableMapping], None]:\n"
    '  57|     """Increment a given field in the document by 1."""\n'
    "  58|     def transform(doc: MutableMapping):\n"
    "  59|         doc[field] += 2\n"
)


def test_a_call_named_after_a_function_the_excerpts_define_is_told_where_it_is() -> None:
    """In an edit run the notice quotes the function's lines and says what edit_file takes,
    with no call of placeholders to copy; in a read-only run the read_file call that shows
    it; once per name."""
    for names, wanted in (
        (("read_file", "edit_file"), 'call edit_file with path "tinydb/operations.py", old one'),
        (("read_file", "grep"), '{"name": "read_file", "arguments": {"path": '
         '"tinydb/operations.py", "offset": 56}}'),
    ):  # fmt: skip
        interpreter = CallInterpreter(names, history=[UserMessage("Fix increment.")])
        interpreter.observe_items([_excerpt_item(EXCERPT)])
        call = ToolCall("c1", "increment", '{"field": "int"}')
        interpreter.interpret(AssistantMessage(None, (call,)), 1, tools_offered=True)
        error = ToolMessage(
            "c1", "Error: unknown tool `increment`", name="increment", is_error=True
        )
        [notice] = interpreter.next_turn([error]).notices
        assert "`increment` is not a tool: it is a function of the code" in notice
        assert "tinydb/operations.py at line 56" in notice
        assert "  59|         doc[field] += 2" in notice
        assert wanted in notice
        assert "<" not in notice.split("def increment")[-1].split("doc[field]")[-1]
        again = ToolCall("c2", "increment", '{"field": "str"}')
        interpreter.interpret(AssistantMessage(None, (again,)), 2, tools_offered=True)
        error = ToolMessage(
            "c2", "Error: unknown tool `increment`", name="increment", is_error=True
        )
        [second] = interpreter.next_turn([error]).notices
        assert "is not a tool: it is a function" not in second  # asked once


def test_an_unknown_tool_the_excerpts_do_not_define_gets_the_usual_different_call() -> None:
    interpreter = CallInterpreter(("read_file", "edit_file"), history=[UserMessage("Fix it.")])
    interpreter.observe_items([_excerpt_item(EXCERPT)])
    call = ToolCall("c1", "decrement", "{}")
    interpreter.interpret(AssistantMessage(None, (call,)), 1, tools_offered=True)
    error = ToolMessage("c1", "Error: unknown tool `decrement`", name="decrement", is_error=True)
    [notice] = interpreter.next_turn([error]).notices
    assert "is not a tool: it is" not in notice and "Make a different call" in notice


def test_after_three_parts_of_one_file_the_answer_turn_quotes_matching_excerpt_lines() -> None:
    task = "What does increment add to a field of the document?"
    interpreter = CallInterpreter(NAMES, history=[UserMessage(task)])
    interpreter.observe_items([_excerpt_item(EXCERPT)])
    turns = []
    for n in range(3):
        arguments = json.dumps({"path": "README.md", "offset": 1 + 10 * n})
        call = ToolCall(f"r{n}", "read_file", arguments)
        interpreter.interpret(AssistantMessage(None, (call,)), n + 1, tools_offered=True)
        page = f"{1 + 10 * n}| TinyDB is a tiny database."
        turns.append(interpreter.next_turn([ToolMessage(f"r{n}", page, name="read_file")]))
    assert turns[0] == turns[1] == NextTurn()
    focus, ask = turns[2].notices
    assert turns[2].answer_only or not turns[2].offer_tools
    assert 'tinydb/operations.py:57| """Increment a given field in the document by 1' in focus
    assert "Answer this question now" in ask and task in ask
