"""A whole function chosen in a guided edit, then written as code."""

from __future__ import annotations

import json

from workset.loop.rewrite import Rewrite, code_in, reindented, rewrite_of
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
