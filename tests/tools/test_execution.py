"""write_file, edit_file and the lint feedback they carry."""

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

from workset.errors import ToolError
from workset.messages import ToolCall, ToolMessage
from workset.tools.execution import execution_tools
from workset.tools.lint import LintIssue, format_issues, lint_file
from workset.tools.registry import ToolRegistry
from workset.tools.workspace import Workspace


def _call(root: Path, name: str, **arguments: Any) -> ToolMessage:
    registry = ToolRegistry(execution_tools(Workspace(root)))
    return anyio.run(registry.execute, ToolCall("c1", name, json.dumps(arguments)))


def _ok(root: Path, name: str, **arguments: Any) -> str:
    result = _call(root, name, **arguments)
    assert not result.is_error, result.content
    return result.content


def _error(root: Path, name: str, **arguments: Any) -> str:
    result = _call(root, name, **arguments)
    assert result.is_error, result.content
    return result.content


# --- the tools as a set ------------------------------------------------------------------------


def test_execution_tools_are_documented_and_not_read_only(tmp_path: Path) -> None:
    tools = {t.name: t for t in execution_tools(Workspace(tmp_path))}
    assert list(tools) == ["write_file", "edit_file", "undo_edit", "shell", "run_python"]
    for item in tools.values():
        assert not item.read_only
        for part in ("Use when", "Do not use when", "Output:", "Examples:"):
            assert part in item.spec.description, (item.name, part)
        assert 1 <= len(item.examples) <= 5
    assert tools["write_file"].idempotent and tools["write_file"].risk == "medium"
    assert not tools["edit_file"].idempotent and tools["edit_file"].risk == "medium"
    assert tools["shell"].risk == "high" and not tools["shell"].idempotent
    assert tools["run_python"].risk == "high"


# --- write_file -------------------------------------------------------------------------------


def test_write_file_creates_parents_and_writes_the_exact_bytes(tmp_path: Path) -> None:
    content = "first\r\nsecond\ttab “quoted”\n"
    result = _ok(tmp_path, "write_file", path="notes/deep/a.txt", content=content)
    data = (tmp_path / "notes" / "deep" / "a.txt").read_bytes()
    assert data == content.encode("utf-8")
    assert result.startswith(f"created notes/deep/a.txt: wrote {len(data)} bytes")


def test_write_file_says_when_it_replaced_a_file(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("old content")
    result = _ok(tmp_path, "write_file", path="a.txt", content="new")
    assert result.startswith("replaced a.txt: wrote 3 bytes (was 11 bytes)")
    assert (tmp_path / "a.txt").read_text() == "new"


def test_write_file_reports_a_real_ruff_error(tmp_path: Path) -> None:
    result = _ok(tmp_path, "write_file", path="app.py", content="def f():\n    return x\n")
    assert "lint: 1 issue" in result
    assert "line 2, column 12: F821 Undefined name `x`" in result


def test_write_file_reports_a_python_syntax_error_with_its_line(tmp_path: Path) -> None:
    result = _ok(tmp_path, "write_file", path="bad.py", content="x = 1\ndef f(:\n    pass\n")
    assert "lint: 1 issue" in result
    assert "line 2, column 7: syntax" in result


def test_write_file_says_lint_is_clean_for_good_python(tmp_path: Path) -> None:
    result = _ok(tmp_path, "write_file", path="ok.py", content="print('hi')\n")
    assert result.endswith("lint: clean")


def test_write_file_reports_json_and_toml_errors_with_positions(tmp_path: Path) -> None:
    bad_json = _ok(tmp_path, "write_file", path="c.json", content='{\n  "a": 1,\n  "b": }\n')
    assert "line 3, column 8: json Expecting value" in bad_json
    bad_toml = _ok(tmp_path, "write_file", path="c.toml", content="a = 1\nb = \n")
    assert "line 2, column 5: toml Invalid value" in bad_toml
    good = _ok(tmp_path, "write_file", path="d.toml", content="a = 1\n")
    assert good.endswith("lint: clean")


def test_write_file_does_not_lint_other_file_types(tmp_path: Path) -> None:
    result = _ok(tmp_path, "write_file", path="notes.md", content="def f(:\n")
    assert result.endswith("lint: clean")


@pytest.mark.parametrize("path", ["../outside.txt", "/etc/workset-test.txt", "a/../../x.txt"])
def test_write_file_refuses_paths_outside_the_workspace(tmp_path: Path, path: str) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    text = _error(root, "write_file", path=path, content="x")
    assert "outside the workspace" in text
    assert not (tmp_path / "outside.txt").exists()
    assert not (tmp_path / "x.txt").exists()


def test_write_file_refuses_a_directory(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    text = _error(tmp_path, "write_file", path="src", content="x")
    assert "src is a directory" in text
    assert "'src/new_file.py'" in text


# --- edit_file --------------------------------------------------------------------------------


def test_edit_file_replaces_exactly_and_keeps_curly_quotes_and_crlf(tmp_path: Path) -> None:
    original = "alpha\r\nsay “hello”\tnow\r\nit’s done\r\nomega\r\n".encode()
    (tmp_path / "doc.txt").write_bytes(original)
    result = _ok(tmp_path, "edit_file", path="doc.txt", old="say “hello”", new="say ‘bye’")
    expected = "alpha\r\nsay ‘bye’\tnow\r\nit’s done\r\nomega\r\n".encode()
    assert (tmp_path / "doc.txt").read_bytes() == expected
    assert result.startswith("edited doc.txt: 1 replacement; changed line 2 (the file now has")


def test_edit_file_reports_the_changed_line_range_and_lint(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text("a = 1\nb = 2\nc = 3\n")
    result = _ok(tmp_path, "edit_file", path="m.py", old="b = 2\n", new="b = 2\nimport os\ne = 4\n")
    assert "changed lines 2-4 (the file now has 5 lines)" in result
    assert "F401 `os` imported but unused" in result


def test_edit_file_without_a_match_shows_the_nearest_candidates(tmp_path: Path) -> None:
    lines = [f"value_{i} = compute({i})" for i in range(1, 40)]
    lines[20] = "total = compute_total(items, tax=0.2)"
    (tmp_path / "calc.py").write_text("\n".join(lines) + "\n")
    text = _error(
        tmp_path, "edit_file", path="calc.py", old="total = compute_total(items, tax=0.21)", new="t"
    )
    assert "old was not found in calc.py" in text
    assert "- line 21 (" in text
    assert "21| total = compute_total(items, tax=0.2)" in text
    assert (tmp_path / "calc.py").read_text() == "\n".join(lines) + "\n"


def test_edit_file_says_when_only_the_line_endings_differ(tmp_path: Path) -> None:
    (tmp_path / "w.txt").write_bytes(b"one\r\ntwo\r\n")
    text = _error(tmp_path, "edit_file", path="w.txt", old="one\ntwo", new="x")
    assert "CRLF line endings" in text


def test_edit_file_with_several_matches_needs_replace_all(tmp_path: Path) -> None:
    (tmp_path / "r.txt").write_text("x = 1\ny = 2\nx = 1\nz\nx = 1\n")
    text = _error(tmp_path, "edit_file", path="r.txt", old="x = 1", new="x = 9")
    assert "old occurs 3 times in r.txt, at lines 1, 3, 5" in text
    assert "replace_all=true" in text
    result = _ok(tmp_path, "edit_file", path="r.txt", old="x = 1", new="x = 9", replace_all=True)
    assert result.startswith("edited r.txt: 3 replacements; changed lines 1-5")
    assert (tmp_path / "r.txt").read_text() == "x = 9\ny = 2\nx = 9\nz\nx = 9\n"


def test_edit_file_refuses_empty_or_identical_text(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("abc")
    assert "old is empty" in _error(tmp_path, "edit_file", path="a.txt", old="", new="x")
    same = _error(tmp_path, "edit_file", path="a.txt", old="b", new="b")
    assert "identical" in same and "write new as the text should read after the change" in same


def test_edit_file_refuses_a_placeholder_copied_as_new(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 2\n")
    slot = "<that line as it must read>"
    text = _error(tmp_path, "edit_file", path="a.py", old="x = 2", new=slot)
    assert "new is a placeholder" in text
    assert (tmp_path / "a.py").read_text() == "x = 2\n"
    (tmp_path / "a.html").write_text("<i>x</i>\n")
    _ok(tmp_path, "edit_file", path="a.html", old="<i>", new="<b>")  # a tag is text


def test_edit_file_indents_new_as_old_when_new_has_no_indentation(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("def f(d):\n    d['x'] += 2\n    return d\n")
    result = _ok(tmp_path, "edit_file", path="a.py", old="    d['x'] += 2", new="d['x'] += 1")
    assert "(new was indented as old is)" in result
    assert (tmp_path / "a.py").read_text() == "def f(d):\n    d['x'] += 1\n    return d\n"
    _ok(tmp_path, "edit_file", path="a.py", old="    return d", new="    return dict(d)")
    assert (tmp_path / "a.py").read_text().endswith("\n    return dict(d)\n")


def test_edit_file_refuses_an_edit_that_breaks_valid_syntax_and_keeps_the_file(
    tmp_path: Path,
) -> None:
    source = "def f(d):\n    d['x'] += 2\n    return d\n"
    (tmp_path / "a.py").write_text(source)
    text = _error(tmp_path, "edit_file", path="a.py", old="def f(d):", new="def f(d): f(d) + 1")
    assert "the edit was not applied: it would break the syntax of a.py (line 2" in text
    assert (tmp_path / "a.py").read_text() == source
    (tmp_path / "c.json").write_text('{"a": 1}\n')
    assert "break the syntax of c.json" in _error(
        tmp_path, "edit_file", path="c.json", old='"a": 1', new='"a": 1,'
    )
    (tmp_path / "b.py").write_text("def g(:\n    pass\n")  # already broken: edits go through
    _ok(tmp_path, "edit_file", path="b.py", old="    pass", new="    return 1")


_OPS = (
    "def increment(field):\n"
    '    """\n'
    "    Increment a field by 1.\n"
    '    """\n'
    "    def transform(doc):\n"
    "        doc[field] += 2\n"
    "\n"
    "    return transform\n"
    "\n"
    "\n"
    "def decrement(field):\n"
    "    def transform(doc):\n"
    "        doc[field] -= 1\n"
    "\n"
    "    return transform\n"
)


def test_edit_file_replaces_the_lines_after_old_that_new_rewrites(tmp_path: Path) -> None:
    """old is the def line, new the whole function rewritten (the docstring joined onto one
    line, as the 1.5B wrote it): the old body is replaced, not left under the new one."""
    (tmp_path / "ops.py").write_text(_OPS)
    new = (
        "1| def increment(field):\n"
        '2|     """Increment a field by 1.\n'
        '3|     """\n'
        "4|     def transform(doc):\n"
        "5|         doc[field] += 1\n"
        "6| \n"
        "7|     return transform"
    )
    result = _ok(tmp_path, "edit_file", path="ops.py", old="1| def increment(field):", new=new)
    assert "new also rewrote the 7 lines after old" in result
    text = (tmp_path / "ops.py").read_text()
    assert text.count("def transform") == 2 and "+= 2" not in text
    assert text.startswith('def increment(field):\n    """Increment a field by 1.\n    """\n')
    assert text.endswith("    return transform\n\n\n" + _OPS[_OPS.index("def decrement") :])
    namespace: dict[str, Any] = {}
    exec(compile(text, "ops.py", "exec"), namespace)
    doc = {"n": 1}
    namespace["increment"]("n")(doc)
    assert doc == {"n": 2}


def test_edit_file_keeps_the_lines_after_old_when_new_inserts_after_it(tmp_path: Path) -> None:
    (tmp_path / "ops.py").write_text(_OPS)
    new = "def increment(field):\n    # counts visits\n    # (one per call)"
    result = _ok(tmp_path, "edit_file", path="ops.py", old="def increment(field):", new=new)
    assert "rewrote" not in result
    assert (tmp_path / "ops.py").read_text() == _OPS.replace("def increment(field):", new)
    # one line of new that repeats a line after old is not a rewrite of those lines
    (tmp_path / "v.py").write_text("x = 1\ny = 2\nz = 3\n")
    result = _ok(tmp_path, "edit_file", path="v.py", old="x = 1", new="x = 1\ny = 2")
    assert "rewrote" not in result
    assert (tmp_path / "v.py").read_text() == "x = 1\ny = 2\ny = 2\nz = 3\n"


def test_write_file_refuses_to_break_a_valid_file_and_takes_off_copied_prefixes(
    tmp_path: Path,
) -> None:
    (tmp_path / "ops.py").write_text(_OPS)
    text = _error(tmp_path, "write_file", path="ops.py", content="71|         doc[field] -= 1")
    assert "the write was not applied: it would break the syntax of ops.py" in text
    assert (tmp_path / "ops.py").read_text() == _OPS
    numbered = "".join(f"{n:>5}| {line}\n" for n, line in enumerate(_OPS.splitlines(), 1))
    result = _ok(tmp_path, "write_file", path="ops.py", content=numbered.replace("+= 2", "+= 1"))
    assert "line-number prefixes copied from read_file were left out" in result
    assert (tmp_path / "ops.py").read_text() == _OPS.replace("+= 2", "+= 1")
    # a new file is written as given, and so is a file that was broken already
    assert "created" in _ok(tmp_path, "write_file", path="draft.py", content="def f(:\n")
    _ok(tmp_path, "write_file", path="draft.py", content="def g(:\n")
    registry = ToolRegistry(execution_tools(Workspace(tmp_path), keep_syntax=False))
    call = ToolCall("c1", "write_file", json.dumps({"path": "ops.py", "content": "x = (\n"}))
    assert not anyio.run(registry.execute, call).is_error


def test_edit_file_reports_only_the_lint_issues_its_edit_caused(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("import os\nx = 2\n")  # F401: os unused, before the edit
    result = _ok(tmp_path, "edit_file", path="a.py", old="x = 2", new="x = 1")
    assert "lint: clean (" in result and "the file had before this edit not shown)" in result
    result = _ok(tmp_path, "edit_file", path="a.py", old="x = 1", new="import sys\nx = 1")
    assert "`sys` imported but unused" in result and "`os`" not in result


def test_edit_file_takes_the_place_of_a_repeated_line_from_its_number(tmp_path: Path) -> None:
    source = "def add(d):\n    d += n\n\ndef sub(d):\n    d += n\n"
    (tmp_path / "a.py").write_text(source)
    result = _ok(tmp_path, "edit_file", path="a.py", old="5|     d += n", new="d -= n")
    assert "(of the 2 places it occurs, line 5)" in result
    assert (tmp_path / "a.py").read_text() == "def add(d):\n    d += n\n\ndef sub(d):\n    d -= n\n"
    assert "occurs 2 times" in _error(tmp_path, "edit_file", path="a.py", old="    d", new="x")


def test_edit_file_refuses_paths_outside_the_workspace(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    (tmp_path / "secret.txt").write_text("token")
    text = _error(root, "edit_file", path="../secret.txt", old="token", new="leaked")
    assert "outside the workspace" in text
    assert (tmp_path / "secret.txt").read_text() == "token"


def test_edit_file_names_a_missing_file_and_suggests_close_names(tmp_path: Path) -> None:
    (tmp_path / "config.py").write_text("x = 1\n")
    text = _error(tmp_path, "edit_file", path="confg.py", old="x", new="y")
    assert "no such file: 'confg.py'" in text
    assert "config.py" in text


# --- lint directly ----------------------------------------------------------------------------


def test_syntax_warnings_are_reported_as_issues(tmp_path: Path) -> None:
    file = tmp_path / "w.py"
    file.write_text('import re\npattern = re.compile("\\d+")\n')
    issues = lint_file(file)
    warned = [i for i in issues if i.code in ("SyntaxWarning", "DeprecationWarning")]
    assert [(i.line, "invalid escape sequence" in i.message) for i in warned] == [(2, True)]


def test_format_issues_shows_a_skipped_lint_and_caps_the_list() -> None:
    skipped = [LintIssue(0, 0, "lint-skipped", "ruff is not installed")]
    assert format_issues(skipped) == "lint skipped: ruff is not installed\nother checks: clean"
    many = [LintIssue(i, 1, "F821", "Undefined name `x`") for i in range(1, 26)]
    text = format_issues(many)
    assert text.startswith("lint: 25 issues")
    assert text.endswith("… and 5 more")


def test_lint_without_ruff_says_it_was_skipped_and_still_checks_syntax(tmp_path: Path) -> None:
    (tmp_path / "bad.py").write_text("def f(:\n")
    script = (
        "import sys\n"
        "sys.modules['ruff'] = None  # as if the ruff package were not installed\n"
        "from pathlib import Path\n"
        "from workset.tools.lint import format_issues, lint_file\n"
        "print(format_issues(lint_file(Path(sys.argv[1]))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "bad.py")],
        env={**os.environ, "PATH": str(tmp_path)},
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.startswith("lint skipped: ruff is not installed (pip install ruff)")
    assert "line 1, column 7: syntax" in done.stdout


def test_edit_file_takes_off_a_line_number_gutter_copied_from_read_file(tmp_path: Path) -> None:
    (tmp_path / "ops.py").write_text("def inc(doc):\n    doc['n'] += 2\n    return doc\n")
    result = _ok(
        tmp_path, "edit_file", path="ops.py", old="   2|     doc['n'] += 2",
        new="   2|     doc['n'] += 1",
    )  # fmt: skip
    assert (tmp_path / "ops.py").read_text() == "def inc(doc):\n    doc['n'] += 1\n    return doc\n"
    assert "line-number prefixes copied from read_file were left out" in result


def test_edit_file_without_a_match_offers_the_call_with_old_copied_from_the_file(
    tmp_path: Path,
) -> None:
    (tmp_path / "ops.py").write_text("def sub(doc, n):\n    doc['n'] += n\n")
    text = _error(tmp_path, "edit_file", path="ops.py", old="doc['n'] += n ", new="doc['n'] -= n")
    offered = json.loads(text[text.index('{"name": "edit_file"') :].splitlines()[0])
    assert offered["arguments"] == {
        "path": "ops.py",
        "old": "    doc['n'] += n",
        "new": "    doc['n'] -= n",
    }  # fmt: skip  (new indented as the passage is)
    assert (tmp_path / "ops.py").read_text() == "def sub(doc, n):\n    doc['n'] += n\n"


def test_edit_file_offers_no_call_when_no_passage_is_close(tmp_path: Path) -> None:
    (tmp_path / "ops.py").write_text("def sub(doc, n):\n    doc['n'] -= n\n")
    text = _error(tmp_path, "edit_file", path="ops.py", old="class Storage:", new="x")
    assert '{"name": "edit_file"' not in text


def test_write_file_refuses_to_drop_most_definitions_of_a_module(tmp_path: Path) -> None:
    """Asked to add double(), the 1.5B wrote double() alone as the whole operations.py."""
    source = "def delete(f):\n    pass\n\n\ndef add(f, n):\n    pass\n\n\nclass Op:\n    pass\n"
    (tmp_path / "ops.py").write_text(source)
    alone = "def double(f):\n    pass\n"
    text = _error(tmp_path, "write_file", path="ops.py", content=alone)
    assert "drop 3 of its 3 top-level definitions (delete, add, Op)" in text
    assert "use edit_file" in text and (tmp_path / "ops.py").read_text() == source
    # a rewrite that keeps most of them, a new file, and non-Python files are written
    kept = source.replace("class Op:\n    pass\n", alone)
    assert "replaced" in _ok(tmp_path, "write_file", path="ops.py", content=kept)
    _ok(tmp_path, "write_file", path="other.py", content=alone)
    (tmp_path / "notes.txt").write_text("def a\ndef b\n")
    _ok(tmp_path, "write_file", path="notes.txt", content="x\n")


def test_edit_file_refuses_an_edit_that_changes_nothing_once_normalised(tmp_path: Path) -> None:
    """The 0.5B wrote back the line it picked with other indentation: nothing would change,
    and the result used to say "changed line 2"."""
    source = "class T:\n    name = '_defualt'\n"
    (tmp_path / "a.py").write_text(source)
    text = _error(tmp_path, "edit_file", path="a.py", old="    name = '_defualt'",
                  new="  name = '_defualt'")  # fmt: skip
    assert "changes nothing in the code" in text and "a.py would not change" in text
    assert (tmp_path / "a.py").read_text() == source
    # the 0.5B's "fix": one more space inside the line, the same tokens
    text = _error(tmp_path, "edit_file", path="a.py", old="    name = '_defualt'",
                  new="    name  =  '_defualt'")  # fmt: skip
    assert "only the spacing of the code" in text and (tmp_path / "a.py").read_text() == source
    (tmp_path / "n.txt").write_text("a b\n")  # spacing is a change outside Python
    _ok(tmp_path, "edit_file", path="n.txt", old="a b", new="a  b")
    assert "changed line 2" in _ok(
        tmp_path, "edit_file", path="a.py", old="    name = '_defualt'", new="name = '_default'"
    )


def test_edit_file_refuses_a_second_definition_of_a_name(tmp_path: Path) -> None:
    """Asked to fix subtract, the 0.5B rewrote ``def add(`` as ``def subtract(``."""
    source = (
        "def add(d, n):\n    d['x'] += n\n\n\n"
        "def subtract(d, n):\n    d['x'] += n\n\n\n"
        "class C:\n    def m(self):\n        return 1\n"
    )
    (tmp_path / "ops.py").write_text(source)
    text = _error(tmp_path, "edit_file", path="ops.py", old="def add(d, n):",
                  new="def subtract(d, n):")  # fmt: skip
    assert "would define `subtract` twice (lines 1 and 5)" in text
    assert "        return 1" in source and (tmp_path / "ops.py").read_text() == source
    method = _error(tmp_path, "edit_file", path="ops.py", old="        return 1",
                    new="        return 1\n\n    def m(self):\n        return 2")  # fmt: skip
    assert "define `m` twice" in method
    # The 0.5B put a second ``transform`` into ``set`` above the first (a copied body).
    (tmp_path / "c.py").write_text(
        "def set(f, v):\n    def transform(d):\n        d[f] = None\n\n    return transform\n"
    )
    nested = _error(tmp_path, "edit_file", path="c.py", old="def set(f, v):",
                    new="def set(f, v):\n    def transform(d):\n        d[f] = v\n")  # fmt: skip
    assert "define `transform` twice" in nested
    # A name defined twice before the edit does not block edits elsewhere; overloads pass.
    (tmp_path / "b.py").write_text(
        "from typing import overload\n\n\n@overload\ndef f(x: int) -> int: ...\n\n\n"
        "def f(x):\n    return x\n\n\ndef g():\n    return 1\n"
    )
    _ok(tmp_path, "edit_file", path="b.py", old="    return 1", new="    return 2")
    _ok(tmp_path, "edit_file", path="b.py", old="def g():\n    return 2",
        new="@overload\ndef g(x: str) -> str: ...\n\n\ndef g():\n    return 2")  # fmt: skip
    _ok(tmp_path, "edit_file", path="ops.py", old="    d['x'] += n\n\n\nclass",
        new="    d['x'] -= n\n\n\nclass")  # fmt: skip


def test_edit_file_leaves_out_a_number_column_written_after_a_copied_gutter(
    tmp_path: Path,
) -> None:
    """The 1.5B wrote ``new`` as ``"41|      4  doc[field] -= n"`` three times: a column of
    its own after the gutter it copied; the line it meant is ``doc[field] -= n``."""
    (tmp_path / "ops.py").write_text("def f(doc, field, n):\n    doc[field] += n\n")
    text = _ok(tmp_path, "edit_file", path="ops.py", old="2|     doc[field] += n",
               new="2|      4  doc[field] -= n")  # fmt: skip
    assert "a number column before new's text was left out" in text
    assert (tmp_path / "ops.py").read_text() == "def f(doc, field, n):\n    doc[field] -= n\n"
    # A line that starts with a number keeps it (a list of values, a version row).
    (tmp_path / "v.py").write_text("V = [\n    1,  2,\n]\n")
    _ok(tmp_path, "edit_file", path="v.py", old="2|     1,  2,", new="2|     1  ,  3,")
    assert (tmp_path / "v.py").read_text() == "V = [\n    1  ,  3,\n]\n"


def test_edit_file_refuses_an_edit_that_leaves_a_name_undefined(tmp_path: Path) -> None:
    """The 0.5B replaced ``next_id = self._next_id + 1`` with the line below it: ``next_id``
    was no longer assigned. The edit is undone; one that defines what it uses applies."""
    source = "def next_id(self):\n    nid = self.n + 1\n    self.n = nid\n    return nid\n"
    (tmp_path / "t.py").write_text(source)
    text = _error(tmp_path, "edit_file", path="t.py", old="    nid = self.n + 1",
                  new="    self.n = nid")  # fmt: skip
    assert "leave `nid` undefined in t.py" in text and (tmp_path / "t.py").read_text() == source
    _ok(tmp_path, "edit_file", path="t.py", old="    nid = self.n + 1", new="    nid = self.n")
    (tmp_path / "old.py").write_text("print(missing)\n")  # undefined before: not the edit's
    _ok(tmp_path, "edit_file", path="old.py", old="print(missing)", new="print(missing, 1)")


def test_edit_file_writes_a_copied_first_line_of_new_as_old_is(tmp_path: Path) -> None:
    """The 0.5B copied old two spaces short as new's first line, the following lines right,
    with the bug fixed further down: the edit applies as the lines say."""
    source = (
        "def put(self, key, value):\n"
        "    if key in self.cache:\n"
        "        self.cache[key] = value\n"
        "    else:\n"
        "        self.cache[key] = value\n"
        "        if self.length >= self.capacity:\n"
        "            self.cache.popitem()\n"
    )
    (tmp_path / "c.py").write_text(source)
    new = (
        "3|       self.cache[key] = value\n"
        "4|     else:\n"
        "5|         self.cache[key] = value\n"
        "6|         if self.length > self.capacity:"
    )
    result = _ok(tmp_path, "edit_file", path="c.py", old="3|         self.cache[key] = value",
                 new=new)  # fmt: skip
    assert "first line, old copied, was indented as old is" in result
    assert (tmp_path / "c.py").read_text() == source.replace(">=", ">")


def test_edit_file_refuses_a_copy_of_a_module_function_inside_a_function(tmp_path: Path) -> None:
    """The 0.5B replaced ``del doc[field]`` with the whole of ``def delete``: a second delete
    inside delete's own transform. Refused; a nested helper of another name is fine."""
    source = "def delete(f):\n    def transform(doc):\n        del doc[f]\n\n    return transform\n"
    (tmp_path / "ops.py").write_text(source)
    copy = "def delete(f):\n    def transform(doc):\n        del doc[f]\n    return transform"
    text = _error(tmp_path, "edit_file", path="ops.py", old="        del doc[f]", new=copy)
    assert "would define `delete` twice" in text and (tmp_path / "ops.py").read_text() == source
    helper = "def gone(doc):\n    return f in doc\nif gone(doc):\n    del doc[f]"
    _ok(tmp_path, "edit_file", path="ops.py", old="        del doc[f]", new=helper)


def test_undo_edit_puts_back_each_file_as_it_was_newest_edit_first(tmp_path: Path) -> None:
    tools = {t.name: t for t in execution_tools(Workspace(tmp_path))}
    (tmp_path / "a.py").write_text("x = 1\n")
    tools["edit_file"].handler(path="a.py", old="x = 1", new="x = 2")
    tools["write_file"].handler(path="new.py", content="y = 1\n")
    tools["edit_file"].handler(path="a.py", old="x = 2", new="x = 3")
    undo = tools["undo_edit"].handler
    assert "a.py has its content from before" in undo(path="a.py")
    assert (tmp_path / "a.py").read_text() == "x = 2\n"
    assert "new.py was created by the edit and is deleted" in undo()
    assert not (tmp_path / "new.py").exists()
    undo()
    assert (tmp_path / "a.py").read_text() == "x = 1\n"
    with pytest.raises(ToolError, match="no edit to undo"):
        undo()
    with pytest.raises(ToolError, match=r"no edit of a\.py to undo"):
        undo(path="a.py")
