import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workset.models.toolcalls import parse_tool_calls, second_call_began, through_first_call

KNOWN = ("read_file", "list_dir", "grep")


def _calls(content: str) -> list[tuple[str, dict[str, Any]]]:
    parsed = parse_tool_calls(content, KNOWN)
    return [(c.name, json.loads(c.arguments)) for c in parsed.calls]


READ_A = ("read_file", {"path": "a.py"})

# (what the 0.5B model wrote, the calls expected, the text left over)
CASES: list[tuple[str, list[tuple[str, dict[str, Any]]], str]] = [
    ('{"name": "read_file", "arguments": {"path": "a.py"}}', [READ_A], ""),
    (
        'I will read the file.\n```json\n{\n  "name": "read_file",\n  "arguments": {\n'
        '    "path": "a.py"\n  }\n}\n```\nThen I will answer.',
        [READ_A],
        "I will read the file.\n\nThen I will answer.",
    ),
    ('```\n{"name": "read_file", "arguments": {"path": "a.py"}}\n```', [READ_A], ""),
    (
        '{"name": "read_file", "arguments": {"path": "a.py"}}\n'
        '{"name": "grep", "arguments": {"pattern": "def main"}}',
        [READ_A, ("grep", {"pattern": "def main"})],
        "",
    ),
    (
        '<tool_call>\n{"name": "list_dir", "arguments": {"path": "src"}}\n</tool_call>\n'
        '<tool_call>\n{"name": "read_file", "arguments": {"path": "a.py"}}\n</tool_call>',
        [("list_dir", {"path": "src"}), READ_A],
        "",
    ),
    (
        '<tool_call>\n```json\n{"name": "read_file", "arguments": {"path": "a.py"}}\n```\n'
        "</tool_call>",
        [READ_A],
        "",
    ),
    (
        '[{"name": "read_file", "arguments": {"path": "a.py"}}, '
        '{"name": "list_dir", "arguments": {}}]',
        [READ_A, ("list_dir", {})],
        "",
    ),
    ('{"name": "read_file", "arguments": "{\\"path\\": \\"a.py\\"}"}', [READ_A], ""),
    ('{"name": "read_file", "parameters": {"path": "a.py"}}', [READ_A], ""),
    ('{"function": {"name": "read_file", "arguments": {"path": "a.py"}}}', [READ_A], ""),
    (
        '{"tool_calls": [{"id": "x", "type": "function", "function": '
        '{"name": "read_file", "arguments": "{\\"path\\": \\"a.py\\"}"}}]}',
        [READ_A],
        "",
    ),
    ('{"name": "list_dir"}', [("list_dir", {})], ""),
    (
        '{"name": "grep", "arguments": {"pattern": "say \\"hi\\" {"}}',
        [("grep", {"pattern": 'say "hi" {'})],
        "",
    ),
    (
        '{"name": "read_file", "arguments": {"path": "docs/café-ñandú-日本.md"}}',
        [("read_file", {"path": "docs/café-ñandú-日本.md"})],
        "",
    ),
    ('{"name": "search_logs", "arguments": {"q": "x"}}', [("search_logs", {"q": "x"})], ""),
    (
        "The answer is 42. Use {braces} in f-strings.",
        [],
        "The answer is 42. Use {braces} in f-strings.",
    ),
    (
        'Set it in config: {"name": "my-app", "version": "1.2", "port": 8080}.',
        [],
        'Set it in config: {"name": "my-app", "version": "1.2", "port": 8080}.',
    ),
    ('The user is {"name": "Ada"}.', [], 'The user is {"name": "Ada"}.'),
    (
        '```json\n{"type": "object", "name": "Config", "parameters": {}}\n```',
        [],
        '```json\n{"type": "object", "name": "Config", "parameters": {}}\n```',
    ),
    (
        '```python\nprint({"name": "read_file", "arguments": {}})\n```',
        [],
        '```python\nprint({"name": "read_file", "arguments": {}})\n```',
    ),
    ("See [1] and [the docs].", [], "See [1] and [the docs]."),
    (
        'Format with {x} first, then: {"name": "read_file", "arguments": {"path": "a.py"}}',
        [READ_A],
        "Format with {x} first, then:",
    ),
]


@pytest.mark.parametrize(("content", "expected", "text"), CASES)
def test_small_model_outputs_parse_to_the_expected_calls(
    content: str, expected: list[tuple[str, dict[str, Any]]], text: str
) -> None:
    parsed = parse_tool_calls(content, KNOWN)
    assert _calls(content) == expected
    assert parsed.errors == ()
    assert parsed.text == text


MALFORMED: list[tuple[str, str]] = [
    ('```json\n{"name": "read_file", "arguments": {"path": "a.py"\n```', "cut off"),
    ('<tool_call>\n{"name": "read_file", "arguments": {"path": "a', "cut off"),
    ('{"name": "read_file", "arguments": {"path": "a.py"}', "cut off"),
    ('{"name": "read_file", "arguments": {"path": "a.py" "x"}} done', "Expecting ','"),
    ('{"name": 3, "arguments": {}}', '"name" must be a non-empty string'),
    ('{"name": "read_file", "arguments": [1, 2]}', '"arguments" of "read_file" must be an object'),
    ('{"name": "read_file", "arguments": "{\\"path\\": "}', '"arguments" string of "read_file"'),
    ('{"function": "read_file"}', '"function" must be an object'),
    ("{'name': 'read_file', 'arguments': {'path': 'a.py'}}", "enclosed in double quotes"),
    ("<tool_call>\nread_file(path='a.py')\n</tool_call>", "JSON inside <tool_call> is invalid"),
    ('<tool_call>{"path": "a.py"}</tool_call>', "is not a tool call"),
]


@pytest.mark.parametrize(("content", "problem"), MALFORMED)
def test_malformed_attempts_give_an_error_with_a_valid_example(content: str, problem: str) -> None:
    parsed = parse_tool_calls(content, KNOWN)
    assert parsed.calls == ()
    assert len(parsed.errors) == 1
    assert problem in parsed.errors[0]
    assert 'e.g. {"name": "grep", "arguments": {}}' in parsed.errors[0]


def test_malformed_call_is_removed_from_the_text_but_prose_stays() -> None:
    parsed = parse_tool_calls('Reading now.\n{"name": 3, "arguments": {}}\nBye.', KNOWN)
    assert parsed.text == "Reading now.\n\nBye."


def test_a_good_call_and_a_broken_one_are_both_reported() -> None:
    content = (
        '<tool_call>{"name": "list_dir", "arguments": {}}</tool_call>\n'
        '<tool_call>{"name": "read_file", "arguments": {"path": </tool_call>'
    )
    parsed = parse_tool_calls(content, KNOWN)
    assert [c.name for c in parsed.calls] == ["list_dir"]
    assert len(parsed.errors) == 1


def test_call_ids_are_deterministic_and_unique_within_a_message() -> None:
    content = CASES[3][0]
    first = parse_tool_calls(content, KNOWN)
    again = parse_tool_calls(content, KNOWN)
    assert first == again
    ids = [c.id for c in first.calls]
    assert len(set(ids)) == 2
    assert all(i.startswith("call_") for i in ids)
    other = parse_tool_calls(content + "\n", KNOWN)
    assert [c.id for c in other.calls] != ids


def test_arguments_are_kept_faithfully_without_coercion() -> None:
    content = '{"name": "read_file", "arguments": {"path": "ñ.py", "limit": "3", "x": 1.50}}'
    (call,) = parse_tool_calls(content, KNOWN).calls
    assert call.arguments == '{"path": "ñ.py", "limit": "3", "x": 1.5}'


# --- property: every accepted wrapping round-trips ------------------------------------------

_json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)
_arguments = st.dictionaries(st.text(), _json_values, max_size=5)
_names = st.from_regex(r"[a-z][a-z0-9_]{0,20}", fullmatch=True)


def _call_json(name: str, arguments: dict[str, Any], **dump: Any) -> str:
    return json.dumps({"name": name, "arguments": arguments}, **dump)


WRAPPINGS: dict[str, Callable[[str, dict[str, Any]], str]] = {
    "bare": lambda n, a: _call_json(n, a),
    "bare, unicode, indented": lambda n, a: _call_json(n, a, ensure_ascii=False, indent=2),
    "after prose": lambda n, a: "Let me check that.\n" + _call_json(n, a),
    "fenced": lambda n, a: f"```json\n{_call_json(n, a, ensure_ascii=False)}\n```",
    "tags": lambda n, a: f"<tool_call>\n{_call_json(n, a, ensure_ascii=False)}\n</tool_call>",
    "list": lambda n, a: json.dumps([{"name": n, "arguments": a}]),
    "string arguments": lambda n, a: json.dumps({"name": n, "arguments": json.dumps(a)}),
    "parameters": lambda n, a: json.dumps({"name": n, "parameters": a}),
    "function wrapper": lambda n, a: json.dumps({"function": {"name": n, "arguments": a}}),
}


@pytest.mark.parametrize("wrapping", list(WRAPPINGS))
@settings(max_examples=60, deadline=None)
@given(name=_names, arguments=_arguments)
def test_any_arguments_in_any_accepted_wrapping_parse_back(
    wrapping: str, name: str, arguments: dict[str, Any]
) -> None:
    content = WRAPPINGS[wrapping](name, arguments)
    parsed = parse_tool_calls(content, KNOWN)
    assert parsed.errors == ()
    assert [(c.name, json.loads(c.arguments)) for c in parsed.calls] == [(name, arguments)]


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        # the 1.5B model copied its few-shot transcript's "Tool:" lines (email agent run)
        (
            'Tool: read_file, arguments: {"path": "a.py"} Tool: grep, arguments: {"pattern": "x"}',
            [READ_A, ("grep", {"pattern": "x"})],
        ),
        ('Action: grep\nAction Input: {"pattern": "x"}', [("grep", {"pattern": "x"})]),
        ('read_file({"path": "a.py"})', [READ_A]),
        ('I will use `read_file` {"path": "a.py"}', [READ_A]),
    ],
)
def test_a_known_tool_named_before_its_arguments_is_a_call(
    content: str, expected: list[tuple[str, dict[str, Any]]]
) -> None:
    parsed = parse_tool_calls(content, KNOWN)
    assert _calls(content) == expected and not parsed.errors


@pytest.mark.parametrize(
    "content",
    [
        'The config is {"port": 8080}.',  # no tool named
        'I looked with grep and the answer is {"port": 8080}',  # named, but not as the call
        'Tool: deploy, arguments: {"env": "prod"}',  # not a known tool
    ],
)
def test_an_object_not_named_as_a_known_tools_call_stays_text(content: str) -> None:
    parsed = parse_tool_calls(content, KNOWN)
    assert parsed.calls == () and parsed.errors == ()


@pytest.mark.parametrize(
    ("text", "began"),
    [
        ('{"name": "read_file", "arguments": {"path": "a"}}', False),
        ('{"name": "read_file", "arguments": {"path": "a"}}\n', False),
        ('{"name": "read_file", "arguments": {"path": "a"}}\n{"na', True),
        ('```json\n{"name": "grep", "arguments": {}}\n```\n```json\n{', True),
        ('<tool_call>\n{"name": "grep", "arguments": {}}\n</tool_call>\n<tool_call>\n{', True),
        ('{"name": "read_file", "arguments": {"path": "a}{"}}\n', False),  # braces in a string
        ('{"name": "read_file", "arguments": {"path": "a"}}\nThe file says', False),
        ("The answer is {x}. {y}", False),
        ('{"name": "grep"', False),
        # the 0.5B's bare tool name before each call (seen: 18 calls to the token limit)
        ('read_file\n\n{"name": "read_file", "arguments": {"path": "a"}}\n\n{"name": "re', True),
        ('read_file {"name": "read_file", "arguments": {"path": "a"}}\nread_file {', True),
        ('[{"name": "grep", "arguments": {}},\n {"name": "gr', True),  # an array of calls
        ('[{"name": "grep", "arguments": {}}]', False),
        ("The answer\nThe file says {x}. {y}", False),
    ],
)
def test_a_second_call_is_seen_to_begin_only_after_a_whole_first_one(
    text: str, began: bool
) -> None:
    assert second_call_began(text) is began


def test_a_cut_reply_keeps_its_first_call_with_its_fence_closed() -> None:
    fenced = '```json\n{"name": "grep", "arguments": {}}\n{"na'
    assert through_first_call(fenced) == '```json\n{"name": "grep", "arguments": {}}\n```'
    assert [c.name for c in parse_tool_calls(through_first_call(fenced), KNOWN).calls] == ["grep"]
    bare = '{"name": "grep", "arguments": {}}\n{"na'
    assert through_first_call(bare) == '{"name": "grep", "arguments": {}}'
    listed = '[{"name": "grep", "arguments": {}}, {"na'
    assert through_first_call(listed) == '[{"name": "grep", "arguments": {}}]'
    named = 'grep\n\n{"name": "grep", "arguments": {}}\n\ngrep\n\n{"na'
    assert [c.name for c in parse_tool_calls(through_first_call(named), KNOWN).calls] == ["grep"]


def test_a_call_written_as_tags_is_read_for_a_known_tool_only() -> None:
    tagged = "<name>read_file</name>\n<arguments>\n  <path>a.py</path>\n  <offset>15</offset>\n"
    [found] = parse_tool_calls(tagged, KNOWN).calls
    assert (found.name, json.loads(found.arguments)) == (
        "read_file",
        {"path": "a.py", "offset": 15},
    )
    prose = "The <name>Bob</name> tag holds the user's name."
    assert (
        parse_tool_calls(prose, KNOWN).calls == () and parse_tool_calls(prose, KNOWN).text == prose
    )
