from workset.loop.grounding import WINDOW, grounded

TASK = "What is the default capacity of a table's query cache?"
TABLE = "\n".join(
    [
        "class Table:",
        "    #: The default capacity of the query cache",
        "    default_query_cache_capacity = 10",
        *["    pass"] * (WINDOW + 2),
        "    retries = 3",
    ]
)


def test_a_fact_read_next_to_the_question_words_is_grounded() -> None:
    assert grounded(TASK, ["10"], [TABLE], []) == ("10",)


def test_a_fact_read_only_far_from_the_question_words_is_not() -> None:
    assert grounded(TASK, ["3"], [TABLE], []) == ()
    assert grounded(TASK, ["10", "3"], [TABLE], []) == ("10",)


def test_a_file_is_grounded_when_its_text_holds_a_question_word() -> None:
    files = [("tinydb/table.py", TABLE), ("tinydb/utils.py", "def freeze(obj): ...")]
    asked = "Which file defines the default query cache capacity?"
    assert grounded(asked, ["tinydb/table.py"], [], files) == ("tinydb/table.py",)
    assert grounded(asked, ["utils.py"], ["listing: utils.py"], files) == ()


def test_what_the_run_did_itself_is_grounded() -> None:
    asked = "Which config file did you change for the proxy?"
    assert grounded(asked, ["setup.cfg"], ["wrote 2 lines"], [], ['{"path": "setup.cfg"}'])


def test_a_question_with_too_few_distinctive_words_is_not_judged() -> None:
    assert grounded("Which port?", ["8471"], ["nothing near"], []) is None
