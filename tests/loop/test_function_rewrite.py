"""A whole function chosen in a guided edit, then written as code."""

from __future__ import annotations

import json

from workset.loop.rewrite import Rewrite, code_in, reindented, rewrite_of, same_code
from workset.messages import ToolCall

BLOCK = "10|     def get(self, key):\n11|         return self.cache[key]"
REWRITE = Rewrite("tinydb/utils.py", BLOCK, "get")


def test_a_choice_without_new_of_an_offered_function_is_a_rewrite() -> None:
    blocks = {"tinydb/utils.py": [BLOCK]}
    chose = ToolCall("c1", "edit_file", json.dumps({"path": "tinydb/utils.py", "old": BLOCK}))
    assert rewrite_of(chose, blocks) == REWRITE
    with_new = json.dumps({"path": "tinydb/utils.py", "old": BLOCK, "new": "x"})
    assert rewrite_of(ToolCall("c2", "edit_file", with_new), blocks) is None
    other = json.dumps({"path": "tinydb/table.py", "old": BLOCK})
    assert rewrite_of(ToolCall("c3", "edit_file", other), blocks) is None
    assert rewrite_of(ToolCall("c4", "read_file", '{"path": "x"}'), blocks) is None


def test_the_code_of_a_reply_is_its_fenced_block_or_a_bare_definition() -> None:
    assert code_in("Sure:\n```python\ndef get(self, key):\n    pass\n```\nDone.") == (
        "def get(self, key):\n    pass"
    )
    assert code_in("```\ndef get(self):\n    pass") == "def get(self):\n    pass"  # unclosed
    assert code_in("def get(self):\n    pass\n") == "def get(self):\n    pass"
    assert code_in("I changed the function get.") is None


def test_the_reply_becomes_an_edit_of_the_function_indented_as_it_is() -> None:
    reply = (
        "```python\ndef get(self, key, default=None):\n    return self.cache.get(key, default)\n```"
    )
    call = REWRITE.call(reply, "r1")
    assert call is not None and call.name == "edit_file"
    arguments = json.loads(call.arguments)
    assert arguments["old"] == BLOCK and arguments["path"] == "tinydb/utils.py"
    assert arguments["new"] == (
        "    def get(self, key, default=None):\n        return self.cache.get(key, default)"
    )
    numbered = "```\n10|     def get(self, key):\n11|         return None\n```"
    assert json.loads(REWRITE.call(numbered, "r2").arguments)["new"] == (  # type: ignore[union-attr]
        "    def get(self, key):\n        return None"
    )
    assert REWRITE.call("```python\ndef put(self):\n    pass\n```", "r3") is None  # not `get`
    assert REWRITE.call("The function is fine.", "r4") is None


def test_the_instruction_shows_the_function_at_the_margin_and_the_task() -> None:
    text = REWRITE.instruction("get must return None for a missing key")
    assert "```python\ndef get(self, key):\n    return self.cache[key]\n```" in text
    assert "get must return None for a missing key" in text


def test_reindented_keeps_relative_indentation_and_blank_lines() -> None:
    code = "def f():\n    if x:\n\n        y()"
    assert reindented(code, "    ") == "    def f():\n        if x:\n\n            y()"
    assert reindented(code, "") == code


def test_a_rewrite_that_changes_only_docstrings_comments_or_spacing_is_the_same_code() -> None:
    before = 'def le(v, rhs):\n    """v <= rhs, as in le(1, 1)."""\n    return v < rhs\n'
    docs = 'def le(v, rhs):\n    """v >= rhs."""\n    return v<rhs  # compare\n'
    assert same_code(before, docs)
    assert not same_code(before, docs.replace("v<rhs", "v <= rhs"))
    assert not same_code(before, "def le(v, rhs):\n    return (")  # does not parse
    call = REWRITE.call(
        "```python\ndef get(self, key):\n    # same\n    return self.cache[key]\n```", "r"
    )
    assert call is not None and REWRITE.unchanged(call)
    fixed = REWRITE.call("```python\ndef get(self, key):\n    return self.cache.get(key)\n```", "r")
    assert fixed is not None and not REWRITE.unchanged(fixed)


def test_a_reply_that_goes_on_past_the_function_gives_only_the_function() -> None:
    reply = (
        "```python\nclass LRUCache:\n    def get(self, key):\n        return self.cache.get(key)\n"
        "\n    def put(self, key, value):\n        self.cache[key] = value\n```"
    )
    call = REWRITE.call(reply, "r")
    assert call is not None
    assert json.loads(call.arguments)["new"] == (
        "    def get(self, key):\n        return self.cache.get(key)"
    )
    signature = "```python\ndef get(\n    self, key\n):\n    return None\nx = 1\n```"
    assert json.loads(REWRITE.call(signature, "s").arguments)["new"] == (  # type: ignore[union-attr]
        "    def get(\n        self, key\n    ):\n        return None"
    )


def test_a_reply_is_taken_for_another_offered_function_only_when_it_is_one_function() -> None:
    from workset.loop.rewrite import Rewrite, defined_names

    offered = {("ops.py", "check"): "1| def check(k):\n2|     return k"}
    given = Rewrite("ops.py", "7| def inc(d):\n8|     return d", "inc")
    other = given.named("```python\ndef check(k):\n    return max(k, 1)\n```", offered)
    assert (other.name, other.old) == ("check", offered[("ops.py", "check")])
    assert given.named("```python\ndef inc(d):\n    return d\n```", offered) is given
    written_out = "```python\nclass Ops:\n    def check(k):\n        return k\n```"
    assert defined_names(written_out) == [] and given.named(written_out, offered) is given
    assert given.named("```python\ndef unknown():\n    pass\n```", offered) is given
