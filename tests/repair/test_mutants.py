"""One-place changes to a function: what is proposed, how the task ranks it, what edit_file gets."""

from __future__ import annotations

import ast

from workset.repair.mutants import Span, mutants, task_terms

CALC = (
    "def add(a, b):\n"
    "    return a + b\n"
    "\n"
    "\n"
    "def average(values):\n"
    "    return sum(values) / (len(values) + 1)\n"
)


def whats(found: list) -> list[str]:
    return [m.what for m in found]


def test_a_comparison_is_tried_as_its_neighbours_and_each_change_parses() -> None:
    source = "def le(value, rhs):\n    return value < rhs\n"
    found = mutants(source, "q.py", [Span("q.py", 1, 2)])
    assert "`<` → `<=`" in whats(found) and "`<` → `>`" in whats(found)
    for m in found:
        ast.parse(m.source)
        assert m.old == "    return value < rhs" and m.new in m.source


def test_the_words_of_the_task_put_their_change_first() -> None:
    source = "def increment(doc, field):\n    doc[field] += 2\n"
    task = "increment adds 2 to the field instead of 1. Fix it so it adds 1."
    [best, *_] = mutants(source, "ops.py", [Span("ops.py", 1, 2)], task)
    assert best.what == "`2` → `1`"
    assert (best.old, best.new) == ("    doc[field] += 2", "    doc[field] += 1")


def test_a_small_number_added_can_be_dropped_and_off_by_one_words_rank_it_first() -> None:
    found = mutants(
        CALC, "calc.py", [Span("calc.py", 5, 6)], "average returns one more than it should"
    )
    assert found[0].what == "`+ 1` dropped"
    assert found[0].new == "    return sum(values) / (len(values))"


def test_only_the_lines_of_the_spans_change() -> None:
    found = mutants(CALC, "calc.py", [Span("calc.py", 1, 2)])
    assert found and all(m.line == 2 for m in found)


def test_a_constant_passed_where_the_parameter_of_that_name_was_meant_ranks_high() -> None:
    source = (
        "def open_store(path, create_dirs=False, mode='r'):\n"
        "    touch(path, create_dirs=False)\n"
        "    return path\n"
    )
    [best, *_] = mutants(source, "s.py", [Span("s.py", 1, 3)])
    assert best.what == "`False` → `create_dirs`"
    assert best.new == "    touch(path, create_dirs=create_dirs)"


def test_a_literal_the_task_quotes_replaces_a_near_miss_in_a_file_the_task_names() -> None:
    source = "class DB:\n    default_table_name = '_defualt'\n    mode = 'r'\n"
    task = "The default table name is misspelled as '_defualt'. It must be '_default'."
    found = mutants(source, "db.py", [Span("db.py", 1, 10**6, literals_only=True)], task)
    assert found[0].new == "    default_table_name = '_default'"
    assert all("'_default'" in m.new or "'_defualt'" in m.new for m in found)  # quoted ones


def test_an_apostrophe_is_not_a_quote() -> None:
    words, quoted = task_terms("It doesn't work and it's slow; make it 'r+'.")
    assert quoted == ("r+",) and "work" in words


def test_method_names_change_only_as_attributes_and_loop_in_is_left_alone() -> None:
    source = (
        "import re\n\n\ndef find(values, regex):\n"
        "    for value in values:\n"
        "        if re.match(regex, value):\n"
        "            return value\n"
    )
    found = whats(mutants(source, "f.py", [Span("f.py", 4, 7)]))
    assert "`match` → `search`" in found
    assert not any(w.startswith("`values`") for w in found)  # a variable, not .values()
    assert "`in` → `not in`" not in found  # "for value in values" is no test


def test_an_old_text_that_repeats_in_the_file_is_widened_until_unique() -> None:
    source = "def a(x):\n    return x + 1\n\n\ndef b(x):\n    return x + 1\n"
    found = [m for m in mutants(source, "m.py", [Span("m.py", 5, 6)]) if m.what == "`+` → `-`"]
    [m] = found
    assert source.count(m.old) == 1 and m.old.startswith("def b(x):")
    assert m.new == "def b(x):\n    return x - 1"


def test_unparsable_source_has_no_changes() -> None:
    assert mutants("def broken(:\n", "b.py", [Span("b.py", 1, 1)]) == []
