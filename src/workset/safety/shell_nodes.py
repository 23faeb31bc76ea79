"""The shapes of tree-sitter bash nodes the walker acts on, for :mod:`workset.safety.shell_walker`.

Which node types are statements, which hold statements (:data:`CONTAINERS`) and which are
redirections; a loop that never ends (:func:`endless`: ``while :`` with no ``break``); a
pipeline whose last stage is a plain command (:func:`last_stage_command`); a resolved word
written back for bash to read again (:func:`requoted`); and a descriptor opened on a
connection (:data:`OPENED_SOCKET`: ``exec 7<>/dev/tcp/host/port``).
"""

from __future__ import annotations

import re
from typing import Any

from workset.safety.shell_text import Word, node_text

CONTAINERS = frozenset({"program", "list", "subshell", "compound_statement", "do_group",
                        "if_statement", "elif_clause", "else_clause", "while_statement",
                        "until_statement", "case_statement", "case_item", "negated_command",
                        "c_style_for_statement", "ERROR"})  # fmt: skip
STATEMENTS = CONTAINERS | {"command", "redirected_statement", "pipeline", "for_statement",
                            "function_definition", "variable_assignment",
                            "variable_assignments", "declaration_command", "unset_command",
                            "test_command"}  # fmt: skip
REDIRECTS = frozenset({"file_redirect", "heredoc_redirect", "herestring_redirect"})


_ALWAYS = {"while": (":", "true", "[ 1 ]", "[ true ]", "((1))"), "until": ("false",)}


# A descriptor above 2 opened on a connection (exec 7<>/dev/tcp/host/port).
OPENED_SOCKET = re.compile(
    r"(?<![\w&])([3-9]|[1-9]\d+)\s*(?:<>|>>|>|<)\s*(/dev/(?:tcp|udp)/[^\s;|&)<>]+)"
)


def endless(node: Any) -> bool:
    """A ``while :``/``while true``/``while sleep N``/``until false`` loop with no
    ``break``/``exit`` in it."""
    keyword = node.children[0].type if node.children else ""
    if node.type not in ("while_statement", "until_statement") or keyword not in _ALWAYS:
        return False
    condition = " ".join(node_text(c) for c in node.children_by_field_name("condition"))
    condition = condition.strip().rstrip(";").strip()
    if condition not in _ALWAYS[keyword] and not (
        keyword == "while" and re.fullmatch(r"sleep\s+[\d.]+[smhd]?", condition)
    ):
        return False  # "while sleep 30" never ends either
    return not re.search(r"(^|[\s;&|(])(break|exit|return)\b", node_text(node))


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def requoted(word: Word) -> str:
    """A resolved word written back for bash to read again (an alias's arguments): the home
    stays the home, and a value only known at run time stays unknown."""
    if word.dynamic:
        return '"${RUN_TIME_VALUE}"'
    if not word.literal_tilde and (word.text == "~" or word.text.startswith("~/")):
        return "~/" + _quote(word.text[2:]) if word.text[2:] else "~"
    return _quote(word.text)


def last_stage_command(node: Any) -> bool:
    """``node`` is a pipeline whose last stage is a plain command."""
    if node.type != "pipeline":
        return False
    stages = [c for c in node.children if c.type in STATEMENTS]
    return bool(stages) and stages[-1].type == "command"
