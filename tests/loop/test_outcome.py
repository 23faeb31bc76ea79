from __future__ import annotations

import json
import re
from pathlib import Path

from workset.loop.outcome import EXIT_CODES, _facts, classify
from workset.loop.settings import (
    ANSWER_SYSTEM_PROMPT,
    DEFAULT_SYSTEM_PROMPT,
    EXAMPLE_SYSTEM_PROMPT,
    EXCERPTS_SYSTEM_PROMPT,
    EXEC_SYSTEM_PROMPT,
    default_prompt,
)
from workset.messages import AssistantMessage, Message, ToolCall, ToolMessage, UserMessage

TASKS = Path(__file__).parents[2] / "benchmarks" / "tasks"


def run(task: str, *steps: tuple[str, str, str, bool], answer: str) -> list[Message]:
    """A recorded run: the task, one call and result per step, then the final answer."""
    history: list[Message] = [UserMessage(task)]
    for n, (name, arguments, result, is_error) in enumerate(steps):
        call = ToolCall(f"c{n}", name, arguments)
        history.append(AssistantMessage(None, (call,)))
        history.append(ToolMessage(call.id, result, name, is_error=is_error))
    history.append(AssistantMessage(answer))
    return history


def test_an_answer_whose_facts_a_tool_result_shows_is_answered() -> None:
    history = run(
        "Which port does the server listen on?",
        ("read_file", '{"path": "service.toml"}', "1| [server]\n2| port = 8471", False),
        answer="The server listens on port 8471 (service.toml).",
    )
    verdict = classify(history)
    assert verdict.outcome == "answered" and "8471" in verdict.supported


def test_the_old_one_shot_example_answered_from_an_error_is_unverified() -> None:
    history = run(
        "Which file defines the class Agent, and what does its run method return?",
        ("read_file", '{"path": "setup.cfg"}', "Error: no such file: 'setup.cfg'", True),
        answer="The run method of the Agent class returns the version of setup.cfg.",
    )
    verdict = classify(history)
    assert verdict.outcome == "answered_unverified"
    assert "setup.cfg" in verdict.unsupported  # an error's text is never support


def test_a_file_a_tool_said_does_not_exist_is_no_answer_even_when_the_evidence_names_it() -> None:
    """The workspace was this repository: the evidence quoted a test fixture that tells the
    setup.cfg story, the read of setup.cfg failed, and the 0.5B answered "setup.cfg"."""
    history = run(
        "Which file defines the class Agent, and what does its run method return?",
        ("read_file", '{"path": "setup.cfg"}', "Error: no such file: 'setup.cfg'", True),
        answer="setup.cfg",
    )
    excerpt = "--- tests/loop/test_outcome.py, lines 35-43\n  37| read_file setup.cfg version 1.4.2"
    verdict = classify(history, evidence=[excerpt])
    assert verdict.outcome == "answered_unverified"
    assert "does not exist" in verdict.reason and verdict.unsupported == ("setup.cfg",)
    created = run(
        "Which config file did you write?",
        ("read_file", '{"path": "setup.cfg"}', "Error: no such file: 'setup.cfg'", True),
        ("write_file", '{"path": "setup.cfg"}', "wrote setup.cfg", False),
        answer="I wrote setup.cfg.",
    )
    assert classify(created).outcome == "answered"  # it exists once a call on it succeeded


def test_a_value_that_contradicts_what_was_read_is_unverified() -> None:
    history = run(
        "Which port?",
        ("read_file", '{"path": "service.toml"}', "port = 8471\nworkers = 4", False),
        answer="It listens on port 4.",
    )
    verdict = classify(history)
    assert verdict.outcome == "answered_unverified"
    assert "port = 8471" in verdict.reason


def test_a_key_word_far_from_the_answers_number_is_no_contradiction() -> None:
    history = run(
        "What is the default capacity of the query cache?",
        ("read_file", '{"path": "t.py"}', "table = 36\ncache_capacity = 10", False),
        answer="The default capacity of a table's query cache is 10.",
    )
    assert classify(history).outcome == "answered"
    said = run(
        "Which port?",
        ("read_file", '{"path": "service.toml"}', "port = 8471\n# was 8080 until May", False),
        answer="The port is set to 8080.",
    )
    assert "port = 8471" in classify(said).reason


def test_an_answer_given_without_reading_anything_is_unverified() -> None:
    verdict = classify([UserMessage("What is in service.toml?"), AssistantMessage("Settings.")])
    assert verdict.outcome == "answered_unverified"


def test_workspace_evidence_counts_as_support() -> None:
    history = [UserMessage("Default table name?"), AssistantMessage("It is `_default`.")]
    excerpt = "--- tinydb/database.py, lines 72-85\n  80|     default_table_name = '_default'"
    assert classify(history, evidence=[excerpt]).outcome == "answered"
    assert classify(history).outcome == "answered_unverified"


def test_a_claim_that_tests_pass_needs_a_passing_test_run() -> None:
    edit = ("edit_file", '{"path": "calc.py"}', "edited calc.py: replaced 1 line", False)
    claim = "I fixed calc.py and the tests pass."
    never_ran = classify(run("fix calc.py, run the tests", edit, answer=claim))
    assert never_ran.outcome == "answered_unverified" and "no test run" in never_ran.reason
    failing = ("shell", '{"command": "pytest -q"}', "exit code 1\n1 failed, 1 passed", False)
    failed = classify(run("fix calc.py, run the tests", edit, failing, answer=claim))
    assert failed.outcome == "answered_unverified" and "exit code 1" in failed.reason
    passing = ("shell", '{"command": "pytest -q"}', "exit code 0\n2 passed in 0.1s", False)
    fixed = classify(run("fix it", failing, edit, passing, answer=claim))
    assert fixed.outcome == "answered", fixed.reason
    # passing after the change but never seen failing: nothing shows the tests check it
    unseen = classify(run("fix it", edit, passing, answer=claim))
    assert unseen.outcome == "answered_unverified"
    assert "no test run before it failed" in unseen.reason


def test_a_code_change_no_passing_test_run_followed_is_unverified() -> None:
    edit = ("edit_file", '{"path": "ops.py", "old": "a", "new": "b"}', "edited ops.py", False)
    said = "I fixed the increment function in ops.py."
    verdict = classify(run("fix increment in ops.py", edit, answer=said))
    assert verdict.outcome == "answered_unverified"
    assert "no test run after the last change passed" in verdict.reason
    passing = ("shell", '{"command": "pytest -q"}', "exit code 0\n2 passed in 0.1s", False)
    failing = ("shell", '{"command": "pytest -q"}', "exit code 1\n1 failed", False)
    assert classify(run("fix it", edit, failing, answer=said)).outcome == "answered_unverified"
    assert classify(run("fix it", passing, edit, answer=said)).outcome == "answered_unverified"
    assert classify(run("fix it", failing, edit, passing, answer=said)).outcome == "answered"
    assert classify(run("fix it", edit, passing, answer=said)).outcome == "answered_unverified"
    doc = ("edit_file", '{"path": "README.md"}', "edited README.md", False)
    assert classify(run("fix the README typo", doc, answer="I fixed README.md.")).outcome == (
        "answered"
    )


def test_a_claim_of_an_edit_needs_a_successful_write() -> None:
    read = ("read_file", '{"path": "calc.py"}', "1| def add(a, b):", False)
    verdict = classify(run("fix calc.py", read, answer="I fixed the bug in calc.py."))
    assert verdict.outcome == "answered_unverified" and "no write succeeded" in verdict.reason


def test_a_change_the_task_asks_for_needs_a_successful_write_or_command() -> None:
    task = "Query.any in tinydb/queries.py behaves like Query.all. Fix both cases."
    read = ("read_file", '{"path": "tinydb/queries.py"}', "25| __all__ = ('Query',)", False)
    failed = ("edit_file", '{"path": "tinydb/queries.py"}', "Error: the edit was not applied", True)
    answer = "Query.any in tinydb/queries.py behaves like Query.all: 1 replacement"
    verdict = classify(run(task, read, failed, answer=answer))
    assert verdict.outcome == "answered_unverified" and "asks for a change" in verdict.reason
    for asks in ("Find the bug and fix it.", "Add a keyword parameter missing_ok.", "Set it to 2"):
        assert classify(run(asks, read, answer="25| __all__")).outcome == "answered_unverified"
    question = "Which names does tinydb/queries.py export in __all__?"
    assert "asks for a change" not in classify(run(question, read, answer="Query")).reason


def test_saying_it_could_not_find_out_is_giving_up() -> None:
    history = run(
        "Where is X?",
        ("grep", '{"pattern": "X"}', '{"total_matches": 0}', False),
        answer="I could not find where X is defined.",
    )
    assert classify(history).outcome == "gave_up"


def test_failures_are_failed_and_the_iteration_limit_is_giving_up() -> None:
    assert classify([], failure="ModelTimeout").outcome == "failed"
    assert classify([], failure="MaxIterations").outcome == "gave_up"
    assert classify([], failure="GaveUp").outcome == "gave_up"
    assert classify([UserMessage("task")]).outcome == "gave_up"  # no final answer


def test_every_outcome_has_its_own_exit_code_and_only_answered_is_zero() -> None:
    assert EXIT_CODES["answered"] == 0
    assert len(set(EXIT_CODES.values())) == len(EXIT_CODES)


def test_the_system_prompts_hold_no_fact_an_answer_could_copy() -> None:
    """No file name, number or identifier in the prompts (placeholders only), so none can
    leak into an answer; no file a task asks about is named there either."""
    files = {
        t["file"]
        for name in ("questions.json", "questions_blind.json")
        for t in json.loads((TASKS / name).read_text())
    }
    for prompt in (
        DEFAULT_SYSTEM_PROMPT,
        EXAMPLE_SYSTEM_PROMPT,
        EXCERPTS_SYSTEM_PROMPT,
        ANSWER_SYSTEM_PROMPT,
        EXEC_SYSTEM_PROMPT,
    ):
        syntax = {
            "name",
            "arguments",
            "path",
            "read_file",
            "find_files",
            "edit_file",
            "old",
            "new",
        }  # how a call is written
        facts = [
            f
            for f in _facts(prompt)
            if f not in syntax and not f.isdigit() and "<" not in f and f"<{f}>" not in prompt
        ]
        assert facts == []  # only <placeholders>
        assert not [f for f in files if Path(f).name in prompt]


def test_a_run_that_can_change_files_gets_the_steps_of_a_change_unless_the_prompt_is_its_own() -> (
    None
):
    assert default_prompt(DEFAULT_SYSTEM_PROMPT, execute=True) == EXEC_SYSTEM_PROMPT
    assert "edit_file" in EXEC_SYSTEM_PROMPT
    assert default_prompt(DEFAULT_SYSTEM_PROMPT, execute=False) == DEFAULT_SYSTEM_PROMPT
    assert default_prompt("Answer in French.", execute=True) == "Answer in French."


def test_no_answer_fixture_repeats_text_from_the_system_prompt() -> None:
    """The scripted answers the tests feed the agent never quote the prompt: an answer that
    did would be a leak the tests could not tell from a real one."""
    sentences = [s.strip() for s in re.split(r"[.\n]", DEFAULT_SYSTEM_PROMPT) if len(s) > 25]
    fixtures = Path(__file__).parents[1]
    for path in fixtures.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for sentence in sentences:
            assert sentence not in text or path.name == "test_outcome.py", (path, sentence)


def test_naming_a_tool_is_not_an_answer_supported_by_its_result() -> None:
    history = run(
        "Which file defines the class Agent?",
        ("read_file", '{"path": "a.py"}', '<external_content source="tool:read_file">x', False),
        answer="read_file",
    )
    assert classify(history).outcome == "answered_unverified"


def test_a_number_answered_for_a_key_the_task_names_is_checked_against_its_value() -> None:
    source = (
        "80|     WRITE_CACHE_SIZE = 1000\n"
        "81|     def __init__(self, storage_cls):\n"
        "83|         self._cache_modified_count = 0\n"
        "84|         self.max_retries = 3"
    )
    question = "How many write operations does CachingMiddleware cache before it writes?"
    wrong = run(
        question,
        ("read_file", '{"path": "tinydb/middlewares.py"}', source, False),
        answer="3",
    )
    verdict = classify(wrong)
    assert verdict.outcome == "answered_unverified"
    assert "WRITE_CACHE_SIZE = 1000" in verdict.reason
    right = run(
        question,
        ("read_file", '{"path": "tinydb/middlewares.py"}', source, False),
        answer="It caches 1000 writes (WRITE_CACHE_SIZE).",
    )
    assert classify(right).outcome == "answered"


def test_a_key_that_shares_one_word_with_the_task_does_not_contradict() -> None:
    history = run(
        "How many workers does the service start?",
        ("read_file", '{"path": "service.toml"}', "workers = 4\nmax_cache_size = 200", False),
        answer="It starts 4 workers.",
    )
    assert classify(history).outcome == "answered"
    other = run(
        "What is the cache timeout?",
        ("read_file", '{"path": "service.toml"}', "timeout = 30\nmax_cache_size = 200", False),
        answer="The cache timeout is 30 seconds.",
    )
    assert classify(other).outcome == "answered"
    versions = run(
        "Which Python versions does pyproject.toml list as supported?",
        (
            "read_file",
            '{"path": "pyproject.toml"}',
            'version = 4.9.0\nclassifiers = ["Python :: 3.10", "Python :: 3.11"]',
            False,
        ),
        answer="It lists Python 3.10 and 3.11.",
    )
    assert classify(versions).outcome == "answered"


def test_a_line_number_is_not_support_for_a_number_answered() -> None:
    listing = "    1| import os\n    2| \n    3| from tinydb import TinyDB"
    history = run(
        "How many write operations does CachingMiddleware cache?",
        ("read_file", '{"path": "tests/test_middlewares.py"}', listing, False),
        answer="3",
    )
    verdict = classify(history)
    assert verdict.outcome == "answered_unverified" and "3" in verdict.unsupported


def test_a_number_picked_from_conflicting_values_without_naming_the_key_is_unverified() -> None:
    default = "86|     WRITE_CACHE_SIZE = 1000"
    override = "12|     storage.write_cache_size = 3"
    question = "How many write operations does CachingMiddleware cache?"
    steps = (
        ("read_file", '{"path": "tinydb/middlewares.py"}', default, False),
        ("read_file", '{"path": "tests/test_middlewares.py"}', override, False),
    )
    verdict = classify(run(question, *steps, answer="3"))
    assert verdict.outcome == "answered_unverified" and "does not say which" in verdict.reason
    named = classify(run(question, *steps, answer="WRITE_CACHE_SIZE is 1000 by default."))
    assert named.outcome == "answered"


def test_an_answer_naming_only_the_task_and_the_package_folder_is_unverified() -> None:
    source = "  30|     def write(self, data):\n  31|         serialized = json.dumps(data)"
    history = run(
        "Which function does JSONStorage.write use to serialize the data?",
        ("read_file", '{"path": "tinydb/storages.py"}', f"tinydb\n{source}", False),
        answer="JSONStorage.write uses the `write` function from the `tinydb` module.",
    )
    verdict = classify(history)
    assert verdict.outcome == "answered_unverified" and "only what the task" in verdict.reason
    right = run(
        "Which function does JSONStorage.write use to serialize the data?",
        ("read_file", '{"path": "tinydb/storages.py"}', source, False),
        answer="It calls `json.dumps`.",
    )
    assert classify(right).outcome == "answered"


def test_an_answer_that_restates_the_asked_name_in_full_is_unverified() -> None:
    docstring = "  40|     Close the database. See :meth:`~tinydb.database.TinyDB.close`."
    history = run(
        "What does TinyDB.close close?",
        ("read_file", '{"path": "tinydb/database.py"}', docstring, False),
        answer="It closes the instance; see `~tinydb.database.TinyDB.close`.",
    )
    assert classify(history).outcome == "answered_unverified"


def test_a_text_value_of_the_key_the_task_asks_about_must_be_in_the_answer() -> None:
    source = "79| class TinyDB(TableBase):\n80|     default_table_name = '_default'"
    question = "What is the name of the default table in TinyDB?"
    read = ("read_file", '{"path": "tinydb/database.py"}', source, False)
    verdict = classify(run(question, read, answer="TinyDB(TableBase)"))
    assert verdict.outcome == "answered_unverified"
    assert "default_table_name = '_default'" in verdict.reason
    assert classify(run(question, read, answer="It is '_default' (TinyDB).")).outcome == "answered"


def test_no_task_check_is_met_by_repeating_the_question() -> None:
    """An answer that only restates the question ("the keyword argument that chooses the
    storage class") must not pass: no ``expect`` regex matches its own question."""
    for name in ("questions", "issue", "questions_blind"):
        for task in json.loads((TASKS / f"{name}.json").read_text()):
            if "expect" in task:
                assert not re.search(task["expect"], task["question"], re.IGNORECASE), task["id"]


TABLE_PY = "1| from .utils import LRUCache\n2|\n3| class Table:\n4|     cache = LRUCache()"
UTILS_EXCERPT = "--- tinydb/utils.py, lines 20-30\n  21| class LRUCache(abc.MutableMapping):"


def test_a_file_that_only_uses_the_asked_class_is_no_answer_to_where_it_is_defined() -> None:
    history = run(
        "Which file defines the LRUCache class?",
        ("read_file", '{"path": "tinydb/table.py"}', TABLE_PY, False),
        answer="tinydb/table.py",
    )
    verdict = classify(history, evidence=[UTILS_EXCERPT])
    assert verdict.outcome == "answered_unverified"
    assert "'LRUCache' in 'tinydb/utils.py'" in verdict.reason


def test_the_file_the_run_saw_the_definition_in_is_answered() -> None:
    hit = '{"path": "tinydb/utils.py", "line": 21, "text": "class LRUCache(abc.MutableMapping):"}'
    grep = '{"total_matches": 1, "hits": [' + hit + "]}"
    history = run(
        "Which file defines the LRUCache class?",
        ("grep", '{"pattern": "class LRUCache"}', grep, False),
        answer="LRUCache is defined in tinydb/utils.py.",
    )
    assert classify(history).outcome == "answered"


def test_where_a_function_is_defined_is_checked_too_and_other_questions_are_not() -> None:
    queries = "--- tinydb/queries.py, lines 500-510\n 501| def where(key: str) -> Query:"
    asked = "In which module is the function where defined?"
    wrong = run(
        asked,
        ("read_file", '{"path": "tinydb/table.py"}', TABLE_PY, False),
        answer="tinydb/table.py",
    )
    assert classify(wrong, evidence=[queries]).outcome == "answered_unverified"
    other = run(
        "Which file imports LRUCache?",
        ("read_file", '{"path": "tinydb/table.py"}', TABLE_PY, False),
        answer="tinydb/table.py",
    )
    assert classify(other, evidence=[UTILS_EXCERPT]).outcome == "answered"


def test_an_answer_that_copies_the_repeat_note_is_no_answer() -> None:
    note = "You already called read_file with these arguments (call c0); its result is repeated"
    history = run(
        "Fix the bug in calc.py so the test passes.",
        ("read_file", '{"path": "calc.py"}', "1| def add(a, b):\n2|     return a - b", False),
        answer=note + " below.\n1| def add(a, b):",
    )
    assert classify(history).outcome == "gave_up"


def test_an_answer_made_of_the_harness_notes_words_is_unverified() -> None:
    read = "404| def update(\nShowing lines 404-463 of 831 total. To continue, call read_file"
    question = "When Table.update is given doc_ids that are not in the table, what happens?"
    step = ("read_file", '{"path": "tinydb/table.py", "offset": 404}', read, False)
    copied = (
        "When Table.update is given doc_ids that are not in the table, no tool is called. "
        "The result is repeated below. To continue, call read_file with offset=464."
    )
    verdict = classify(run(question, step, answer=copied))
    assert verdict.outcome == "answered_unverified" and "harness's words" in verdict.reason
    # Words of the question that a note also uses do not count: "update" is no note.
    fine = run(question, step, answer="Table.update skips them, as tinydb/table.py shows.")
    assert "harness's words" not in classify(fine).reason


def test_an_answer_without_the_file_the_question_asks_for_is_unverified() -> None:
    history = run(
        "Which file defines the LRUCache class?",
        ("read_file", '{"path": "tinydb/utils.py"}', "39| class LRUCache(dict):", False),
        answer="LRUCache",
    )
    verdict = classify(history)
    assert verdict.outcome == "answered_unverified" and "names none" in verdict.reason
    named = run(
        "Which file defines the LRUCache class?",
        ("read_file", '{"path": "tinydb/utils.py"}', "39| class LRUCache(dict):", False),
        answer="tinydb/utils.py defines it.",
    )
    assert classify(named).outcome == "answered"


def test_a_name_read_only_away_from_what_is_asked_is_unverified() -> None:
    """A look-alike: the run read the answer's name, but in another file's unrelated lines."""
    table = '1| class Table:\n2|     def truncate(self):\n3|         """Remove all documents."""\n'
    utils = "".join(f"{n}| # helpers\n" for n in range(1, 9)) + "9| def freeze(obj):\n"
    history = run(
        "Which Table method removes all documents?",
        ("read_file", '{"path": "tinydb/table.py"}', table, False),
        ("read_file", '{"path": "tinydb/utils.py"}', utils, False),
        answer="The method is `freeze`.",
    )
    verdict = classify(history)
    assert verdict.outcome == "answered_unverified" and "nowhere near" in verdict.reason
    right = [*history[:-1], AssistantMessage("The method is `truncate`.")]
    assert classify(right).outcome == "answered"


def test_words_read_somewhere_answer_a_description_but_not_a_value() -> None:
    read = (
        "read_file",
        '{"path": "tinydb/storages.py"}',
        "1| def read(self):\n2|     # The JSON contents of the file; empty file: return None\n",
        False,
    )
    value = run(
        "What does JSONStorage.read return when the database file is empty?",
        read,
        answer="The JSON contents of the file are empty.",
    )
    verdict = classify(value)
    assert verdict.outcome == "answered_unverified" and "names none" in verdict.reason
    described = run("What does JSONStorage.read do?", read, answer="It loads the JSON contents.")
    assert classify(described).outcome == "answered"
    literal = run(
        "What does JSONStorage.read return when the database file is empty?", read, answer="None"
    )
    assert classify(literal).outcome == "answered"  # None is a value the run read


def test_a_base_class_the_run_did_not_read_as_a_base_is_unverified() -> None:
    middlewares = "30| class CachingMiddleware(Middleware):\n31|     WRITE_CACHE_SIZE = 1000\n"
    usage = "5| db = TinyDB('db.json', storage=CachingMiddleware(MemoryStorage))\n"
    asked = "Which class does CachingMiddleware directly inherit from?"
    history = run(
        asked,
        ("read_file", '{"path": "tinydb/middlewares.py"}', middlewares, False),
        ("read_file", '{"path": "README.md"}', usage, False),
        answer="CachingMiddleware inherits from `MemoryStorage`.",
    )
    verdict = classify(history)
    assert verdict.outcome == "answered_unverified" and "none of its bases" in verdict.reason
    right = [*history[:-1], AssistantMessage("It inherits from `Middleware`.")]
    assert classify(right).outcome == "answered"
    unread = run(asked, ("read_file", '{"path": "README.md"}', usage, False), answer="`Middleware`")
    assert "never read the line" in classify(unread).reason


def test_an_answer_that_is_a_tools_own_header_is_unverified() -> None:
    header = "1 names under '.' match 'tinydb/database.py':\ntinydb/database.py"
    history = run(
        "How many names does the top-level tinydb package export in its __all__?",
        ("find_files", '{"pattern": "tinydb/database.py"}', header, False),
        answer="1 names under '.' match 'tinydb/database.py': tinydb/database.py",
    )
    verdict = classify(history)
    assert verdict.outcome == "answered_unverified" and "a tool wrote" in verdict.reason


def test_how_many_is_judged_by_its_number_and_not_by_the_package_name() -> None:
    """The number must sit near the question's words; the package's own name, on every line
    that imports it, is not one of them."""
    init = "1| from .database import TinyDB\n2| from .queries import Query\n" + "".join(
        f"{n}| # tinydb\n" for n in range(3, 12)
    )
    init += "12| __all__ = ('TinyDB', 'Storage', 'JSONStorage', 'Query', 'where')\n"
    asked = "How many names does the tinydb package export in its __all__?"
    history = run(
        asked, ("read_file", '{"path": "tinydb/__init__.py"}', init, False), answer="It exports 2."
    )
    assert classify(history).outcome == "answered_unverified"
    right = run(
        asked,
        ("read_file", '{"path": "tinydb/__init__.py"}', init + "13| # 5 names\n", False),
        answer="It exports 5 names.",
    )
    assert classify(right).outcome == "answered"


def test_naming_the_runs_own_tool_and_its_parameters_answers_no_which_question() -> None:
    """The 0.5B paged through functoolz.py and answered a "which function" question with
    the tool it had called and the parameter it had paged with; the read's footer ("call
    read_file with offset=…") was near the question's words."""
    footer = "Showing lines 80-139 of 1100 total. To continue, call read_file with offset=140."
    text = "80| def thread_last(val, *forms):\n81|     # splits the sequence of pairs\n" + footer
    history = run(
        "Which function splits a sequence of pairs back into separate sequences?",
        ("read_file", '{"path": "toolz/functoolz.py", "offset": 80, "limit": 60}', text, False),
        answer="It splits a sequence of pairs by using the `read_file` function with the `offset`.",
    )
    assert classify(history).outcome == "answered_unverified"
    named = run(
        "Which function splits a sequence of pairs back into separate sequences?",
        ("read_file", '{"path": "toolz/functoolz.py", "offset": 80, "limit": 60}', text, False),
        answer="`thread_last` splits the sequence of pairs.",
    )
    assert classify(named).outcome == "answered"


FOLD_DOC = (
    "   9| def fold(binop, seq, default=no_default, map=map, chunksize=128, combine=None):\n"
    '  10|     """\n'
    "  11|     Reduce without guarantee of ordered reduction.\n"
    "  12|\n"
    "  13|     Fold chunks up the collection into blocks of size ``chunksize`` and then\n"
    "  14|     feeds each of these to calls to ``reduce``. This work is distributed\n"
    "  15|     with a call to ``map``, gathered back and then refolded to finish the\n"
    "  16|     computation. In this way ``fold`` specifies only how to chunk up data but\n"
    "  17|     leaves the distribution of this work to an externally provided ``map``\n"
    "  18|     function.\n"
    "  19|     The default chunk size is 128.\n"
    "  20|     assert chunksize > 1\n"
)


def test_an_answer_that_copies_a_passage_of_a_result_is_unverified() -> None:
    """Asked what happens with chunksize=1, the 0.5B wrote back the docstring, whose 128 a
    result shows: a copy, not an answer."""
    copy = (
        "Fold chunks up the collection into blocks of size 128 and then feeds each of these "
        "to calls to reduce. This work is distributed with a call to map, gathered back and "
        "then refolded to finish the computation. In this way fold specifies only how to "
        "chunk up data but leaves the distribution of this work to an externally provided "
        "map function."
    )
    step = ("read_file", '{"path": "toolz/sandbox/parallel.py"}', FOLD_DOC, False)
    verdict = classify(
        run("What happens when `fold` is called with chunksize=1?", step, answer=copy)
    )
    assert verdict.outcome == "answered_unverified" and "copies" in verdict.reason
    # an answer in its own words, or a short quote inside one, is judged as before
    own = "It fails: `fold` asserts chunksize > 1 (toolz/sandbox/parallel.py, line 20)."
    verdict = classify(
        run("What happens when `fold` is called with chunksize=1?", step, answer=own)
    )
    assert "copies" not in verdict.reason
    quoted = "An AssertionError: `assert chunksize > 1` in toolz/sandbox/parallel.py."
    verdict = classify(
        run("What happens when `fold` is called with chunksize=1?", step, answer=quoted)
    )
    assert "copies" not in verdict.reason
    # a question that asks for a description may be answered with the docstring
    described = classify(run("What does `fold` do?", step, answer=copy))
    assert "copies" not in described.reason


def test_a_number_only_a_calls_offset_shows_is_not_support() -> None:
    read = (
        "read_file",
        '{"path": "tinydb/table.py", "offset": 137, "limit": 60}',
        "  137|     def insert(self, document: Mapping) -> int:\n"
        "  142|         :returns: the inserted document's ID",
        False,
    )
    question = "What ID does TinyDB give the first document inserted into an empty table?"
    verdict = classify(run(question, read, answer="137"))
    assert verdict.outcome == "answered_unverified" and "137" in verdict.unsupported
    listed = ("read_file", '{"path": "ids.py"}', "   1| FIRST_ID = 137", False)
    assert classify(run(question, listed, answer="137")).outcome == "answered"


STORAGES_PY = (
    "   1| import os\n"
    "  10| def touch(path: str, create_dirs: bool):\n"
    '  11|     """Create a file if it doesn\'t exist yet."""\n'
    "  20| class JSONStorage(Storage):\n"
)


def test_a_file_question_answered_with_a_class_names_no_file() -> None:
    read = ("read_file", '{"path": "tinydb/storages.py"}', STORAGES_PY, False)
    question = "In which module is the helper that creates the database file on disk?"
    verdict = classify(run(question, read, answer="<function-name>JSONStorage</function-name>"))
    assert verdict.outcome == "answered_unverified" and "names none" in verdict.reason
    for right in ("tinydb/storages.py", "It is `touch`, in tinydb/storages.py."):
        assert classify(run(question, read, answer=right)).outcome == "answered", right


def test_a_name_question_answered_with_only_a_file_names_no_name() -> None:
    table = (
        "read_file",
        '{"path": "tinydb/table.py"}',
        "  300|     def _update_table(self, updater):\n  310|     def insert(self, document):",
        False,
    )
    question = "Which single private `Table` method do insert and truncate all go through?"
    answer = "The insert and truncate methods in the tinydb/table.py file are responsible for it."
    verdict = classify(run(question, table, answer=answer))
    assert verdict.outcome == "answered_unverified" and "only a file" in verdict.reason
    right = classify(run(question, table, answer="`_update_table`, in tinydb/table.py."))
    assert right.outcome == "answered"


def test_a_module_question_answered_with_the_modules_bare_name_is_answered() -> None:
    read = (
        "read_file",
        '{"path": "toolz/__init__.py"}',
        "   3| from .itertoolz import sliding_window, partition\n"
        "   4| from .recipes import countby",
        False,
    )
    question = "In which module of the toolz package is `sliding_window` defined?"
    assert classify(run(question, read, answer="In `itertoolz`.")).outcome == "answered"
    verdict = classify(run(question, read, answer="In `partition`."))
    assert verdict.outcome == "answered_unverified" and "names none" in verdict.reason
