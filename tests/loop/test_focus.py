"""The lines of a read that share words with the task, quoted in the next turn."""

from __future__ import annotations

from workset.loop.calls import CallInterpreter
from workset.loop.focus import focus_notice
from workset.messages import AssistantMessage, ToolCall, ToolMessage, UserMessage

TASK = "What is the name of the default table in TinyDB?"
DATABASE = "\n".join(
    [
        "   17| class TinyDB(TableBase):",
        '   18|     """The main class of TinyDB: it gives access to every table."""',
        "   26|     instances accessible using their table name.",
        "   42|     - ``default_table_name`` defines the name of the default table, and",
        "   60|     #: The class that will be used to create table instances",
        "   61|     table_class = Table",
        "   80|     default_table_name = '_default'",
        "   81|     storage = None",
    ]
)


def _read(content: str, *, error: bool = False) -> ToolMessage:
    wrapped = f"<external_content>\n{content}\n</external_content>"
    return ToolMessage("r1", wrapped, "read_file", is_error=error)


def test_the_line_that_defines_the_asked_name_is_quoted_before_prose_about_it() -> None:
    notice = focus_notice(TASK, [_read(DATABASE)])
    assert notice is not None
    quoted = notice.splitlines()[1:-1]
    assert "80| default_table_name = '_default'" in quoted
    assert len(quoted) == 3  # the best three, in file order
    assert quoted == sorted(quoted, key=lambda line: int(line.split("|")[0]))
    assert "61| table_class = Table" not in quoted  # one word shared (table) is not enough
    assert "reply now" in notice and "make another call" in notice


def test_nothing_is_quoted_from_errors_other_tools_or_lines_sharing_one_word() -> None:
    assert focus_notice(TASK, [_read(DATABASE, error=True)]) is None
    grep = ToolMessage("g1", "   80| default_table_name = '_default'", "grep")
    assert focus_notice(TASK, [grep]) is None
    assert focus_notice(TASK, [_read("    3| storage = None\n    4| table_class = Table")]) is None
    assert focus_notice("Which version?", [_read(DATABASE)]) is None  # too few words to match


def test_after_a_read_the_next_turn_quotes_its_lines_and_the_switch_turns_it_off() -> None:
    call = ToolCall("r1", "read_file", '{"path": "tinydb/database.py"}')
    for focus, quoted in ((True, True), (False, False)):
        interpreter = CallInterpreter(
            ("read_file", "grep"), history=[UserMessage(TASK)], focus=focus
        )
        interpreter.interpret(AssistantMessage(None, (call,)), 1, tools_offered=True)
        turn = interpreter.next_turn([_read(DATABASE)])
        assert any("default_table_name = '_default'" in n for n in turn.notices) is quoted
        assert turn.offer_tools  # the model may still call a tool
