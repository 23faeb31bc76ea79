import pytest

from workset.loop.answer_shape import missing, note


@pytest.mark.parametrize(
    ("question", "reply", "lack"),
    [
        ("Which file defines the LRUCache class?", "LRUCache", "file"),
        ("Which test file tests the middlewares?", "The middlewares are tested.", "file"),
        ("How many writes does it cache?", "It caches writes before writing.", "number"),
        ("Which version of TinyDB is this?", "This is TinyDB.", "number"),
        (
            "Which Table method counts the documents that match a query?",
            "The Table method counts the documents that match a query.",
            "name",
        ),
        ("What does Query.exists test?", "Query.exists tests.", "restated"),
        (
            "Which exception do the storage tests expect when the file does not exist?",
            "Using an `access_mode` other than 'r', 'rb', 'r+', 'rb+' can cause data loss",
            "exception",
        ),
        # A folder of the system is not a file of the workspace (the bubblewrap run).
        (
            "Which files under src/workset/safety mention bubblewrap?",
            "bubblewrap: writable sandbox, read-only system directories, private /tmp",
            "file",
        ),
        # Two questions in one: the class question answered with its file alone.
        (
            "Which file defines the class Agent, and what does its run method return?",
            "src/workset/session/agent.py",
            "part",
        ),
        ("How many retries are made and which exception ends them?", "3 retries.", "part"),
        ("Which file defines Agent and what does run return?", "It returns RunResult.", "file"),
    ],
)
def test_a_reply_without_what_the_question_asks_for_is_named(
    question: str, reply: str, lack: str
) -> None:
    assert missing(question, reply) == lack


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        ("Which file defines the LRUCache class?", "tinydb/utils.py defines LRUCache."),
        ("In which module is the function where defined?", "In queries."),
        ("How many writes does it cache?", "1000 writes."),
        ("Which Table method counts the documents that match a query?", "count"),
        ("What does JSONStorage.read return when the file is empty?", "None"),
        ("Which file defines the LRUCache class?", "I could not find the file."),
        ("fix the bug in calc.py so the test passes", "I fixed the bug in calc.py."),
        ("and then?", "answered and then?"),
        ("Which file lists the hosts?", "/etc/hosts"),
        ("Which exception does it raise?", "It raises FileNotFoundError."),
        ("What error message does it print?", "It prints 'bad input'."),
        ("Which folder holds the sandbox?", "src/workset/safety"),
        (
            "Which file defines the class Agent, and what does its run method return?",
            "src/workset/session/agent.py; its run method returns a RunResult.",
        ),
        ("How many retries are made and which exception ends them?", "3, then TimeoutError."),
    ],
)
def test_a_reply_that_says_something_new_or_gives_up_is_an_answer(
    question: str, reply: str
) -> None:
    assert missing(question, reply) is None


def test_a_path_the_question_names_does_not_answer_which_file() -> None:
    asked = "Which file imports tinydb/utils.py?"
    assert missing(asked, "The file that imports tinydb/utils.py.") == "file"
    assert missing(asked, "tinydb/table.py imports it.") is None


def test_the_note_says_what_is_asked_and_repeats_the_question() -> None:
    said = note("file", "Which file defines the LRUCache class?")
    assert "asks for a file" in said and said.endswith("Which file defines the LRUCache class?")


def test_a_tool_name_is_not_an_answer_when_tools_are_ignored() -> None:
    asked = "Which method of CachingMiddleware writes the data to the storage?"
    assert missing(asked, "read_file") is None
    assert missing(asked, "read_file", ignore=("read_file", "grep")) == "name"
    assert missing(asked, "flush", ignore=("read_file", "grep")) is None
