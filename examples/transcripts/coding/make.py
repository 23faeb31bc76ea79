"""Generate the coding fixture: a 30-turn session adding retries to a small HTTP client.

File reads, edits with diffs, pytest runs that fail and then pass, a type check, a lint, a
commit and a push that waits for approval. Two facts are planted and appear nowhere else:
at turn 2 the oldest Python the package must support (3.9) and at turn 13 the tracking issue
(BILL-2093). The other probes are seed 001's compression probes: the current goal and next
action, the files changed, a rejected decision and why, the source of a claim, the pending
approval.

    python examples/transcripts/coding/make.py   # rewrites the three files beside it
"""

# ruff: noqa: E501 (tool outputs are tables and logs, kept as they would print)
from __future__ import annotations

import difflib
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from build import TranscriptBuilder, check_planted, tool, write_fixture  # noqa: E402

SEED = 1001
PYTHON = "3.9"
ISSUE = "BILL-2093"
PYTHON_TURN = 2
ISSUE_TURN = 13

TOOLS = [
    tool(
        "list_dir",
        "List a directory of the repository, recursively to a depth, with file sizes.",
        {
            "path": {"type": "string", "description": "Directory relative to the repo root."},
            "depth": {"type": "integer", "description": "How deep to recurse (default 2)."},
        },
        ["path"],
    ),
    tool(
        "read_file",
        "Read a text file of the repository with line numbers. Use start/end to read part of "
        "a long file.",
        {
            "path": {"type": "string", "description": "File relative to the repo root."},
            "start": {"type": "integer", "description": "First line (1-based)."},
            "end": {"type": "integer", "description": "Last line, inclusive."},
        },
        ["path"],
    ),
    tool(
        "grep",
        "Search file contents with a regular expression. Returns path:line: text matches.",
        {
            "pattern": {"type": "string", "description": "Python regular expression."},
            "path": {"type": "string", "description": "Directory to search (default .)."},
            "glob": {"type": "string", "description": "Only files matching, e.g. *.py."},
        },
        ["pattern"],
    ),
    tool(
        "write_file",
        "Create or overwrite a file with the given content. Returns the number of lines.",
        {
            "path": {"type": "string", "description": "File relative to the repo root."},
            "content": {"type": "string", "description": "The whole new content."},
        },
        ["path", "content"],
    ),
    tool(
        "edit_file",
        "Replace one exact occurrence of old_text with new_text in a file. Returns the "
        "unified diff of the change. Fails when old_text is missing or not unique.",
        {
            "path": {"type": "string", "description": "File relative to the repo root."},
            "old_text": {"type": "string", "description": "Exact text to replace."},
            "new_text": {"type": "string", "description": "Replacement text."},
        },
        ["path", "old_text", "new_text"],
    ),
    tool(
        "run_tests",
        "Run pytest and return its output. Narrow with a path or -k expression.",
        {
            "path": {"type": "string", "description": "Test file or directory (default tests)."},
            "k": {"type": "string", "description": "pytest -k expression."},
        },
        [],
    ),
    tool(
        "run_command",
        "Run a shell command in the repository (git, mypy, ruff...) and return exit code and "
        "output. Commands that write to remotes need approval.",
        {"command": {"type": "string", "description": "The command line."}},
        ["command"],
    ),
    tool(
        "git_diff",
        "Show the working tree diff against HEAD, optionally for some paths only.",
        {"paths": {"type": "array", "items": {"type": "string"}, "description": "Paths."}},
        [],
    ),
    tool(
        "request_approval",
        "Ask a named person to approve an action the agent may not take alone (pushing, "
        "publishing, production changes). Returns the approval id and its state.",
        {
            "action": {"type": "string", "description": "What will be done once approved."},
            "approver": {"type": "string", "description": "Who must approve."},
            "reason": {"type": "string", "description": "Why the action is needed."},
        },
        ["action", "approver"],
    ),
]

PROBES = f"""\
# Planted facts (six phrasings each) and seed 001's compression probes (three each).
- id: python_floor
  planted_turn: {PYTHON_TURN}
  question:
    - "What is the oldest Python version this package must still support?"
    - "Which Python version is the compatibility floor for the invoicer package?"
    - "Before using newer syntax: what minimum Python version do we have to stay compatible with?"
    - "State the minimum supported Python version for this code."
    - "Which Python release must the retry helper keep working on?"
    - "Remind me of the Python version constraint I gave you at the start."
  expected: "{PYTHON}"
  distractors: ["3.12", "3.12.2"]
- id: tracking_issue
  planted_turn: {ISSUE_TURN}
  question:
    - "Which issue tracks this work?"
    - "What issue id goes in the pull request title?"
    - "Give the tracker ticket for the retry change."
    - "Which BILL ticket is this change for?"
    - "When we open the PR, which issue do we reference?"
    - "What is the tracking issue for the retry work?"
  expected: "{ISSUE}"
  distractors: ["BILL-1187", "BILL-1920", "APR-318"]
- id: goal_and_next_action
  planted_turn: 1
  question:
    - "What is the current goal of this session, and what is the next action?"
    - "Summarize where we are: what are we building and what do we do next?"
    - "What's the task, and what is the first thing to do when we resume?"
  expected_regex: "(?is)(?=.*retr)(?=.*changelog)"
- id: files_changed
  planted_turn: 10
  question:
    - "Which files did we create or change in this session?"
    - "List the files modified so far."
    - "What files does the commit touch?"
  expected_regex: "(?s)(?=.*\\\\bretry\\\\.py)(?=.*\\\\bclient\\\\.py)(?=.*test_retry\\\\.py)"
- id: rejected_decision
  planted_turn: 8
  question:
    - "Which approach did we reject, and why?"
    - "Why didn't we use a retry library?"
    - "What design decision was turned down earlier, and for what reason?"
  expected_regex: "(?is)tenacity.*(dependenc|vendor)|(dependenc|vendor).*tenacity"
- id: claim_source
  planted_turn: 4
  question:
    - "Where does the claim that Retry-After is given in seconds come from?"
    - "Which source says the API answers 429 with a Retry-After header?"
    - "What document backs our handling of Retry-After?"
  expected_regex: "invoices-api\\\\.md"
- id: pending_approval
  planted_turn: 24
  question:
    - "What approval are we still waiting for?"
    - "Is anything blocked on someone's approval? Who and what?"
    - "What is pending before the branch can be pushed?"
  expected_regex: "(?i)priya"
"""

CLIENT = '''\
"""HTTP client for the invoices API."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

import httpx

from invoicer.errors import InvoiceNotFound, InvoicesUnavailable
from invoicer.models import Invoice

DEFAULT_TIMEOUT = 10.0


@dataclass
class InvoiceClient:
    base_url: str
    token: str
    timeout: float = DEFAULT_TIMEOUT
    transport: Optional[httpx.BaseTransport] = None

    def _http(self) -> httpx.Client:
        return httpx.Client(
            base_url=self.base_url,
            headers={"Authorization": f"Bearer {self.token}"},
            timeout=self.timeout,
            transport=self.transport,
        )

    def fetch_invoice(self, invoice_id: str) -> Invoice:
        with self._http() as http:
            response = http.get(f"/v2/invoices/{invoice_id}")
        if response.status_code == 404:
            raise InvoiceNotFound(invoice_id)
        if response.status_code in (429, 503):
            raise InvoicesUnavailable(response.status_code, response.text)
        response.raise_for_status()
        return Invoice.from_json(response.json())

    def list_invoices(self, customer_id: str, limit: int = 50) -> list[Invoice]:
        params: dict[str, Any] = {"customer": customer_id, "limit": limit}
        with self._http() as http:
            response = http.get("/v2/invoices", params=params)
        response.raise_for_status()
        return [Invoice.from_json(item) for item in response.json()["data"]]
'''

VENDOR_DOC = """\
# Invoices API v2: limits and errors (vendor documentation, mirrored 2026-02-11)

## Rate limits
Each token may make 20 requests per second, burst 40. Past the limit the API answers
`429 Too Many Requests` with a `Retry-After` header giving the number of **seconds** to wait
(an integer, 1 to 30). Clients should wait at least that long; retrying sooner extends the
penalty window.

## Maintenance
During maintenance windows the API answers `503 Service Unavailable`. A `Retry-After` header
is sent when the end of the window is known, as an HTTP date.

## Idempotency
GET requests are always safe to retry. POST /v2/invoices needs an `Idempotency-Key` header.

## Errors
404 unknown invoice id; 401 bad token; 422 validation (body lists the fields).
"""

TEST_CLIENT = """\
import httpx
import pytest

from invoicer.client import InvoiceClient
from invoicer.errors import InvoiceNotFound, InvoicesUnavailable

INVOICE = {"id": "inv_1", "customer": "cus_9", "amount_cents": 1250, "currency": "EUR"}


def client_for(handler):
    return InvoiceClient("https://api.test", "tok", transport=httpx.MockTransport(handler))


def test_fetch_invoice_returns_the_invoice():
    client = client_for(lambda request: httpx.Response(200, json=INVOICE))
    assert client.fetch_invoice("inv_1").amount_cents == 1250


def test_fetch_invoice_raises_not_found_on_404():
    client = client_for(lambda request: httpx.Response(404))
    with pytest.raises(InvoiceNotFound):
        client.fetch_invoice("inv_x")


def test_fetch_invoice_raises_on_503():
    client = client_for(lambda request: httpx.Response(503, text="maintenance"))
    with pytest.raises(InvoicesUnavailable):
        client.fetch_invoice("inv_1")
"""

RETRY_V1 = '''\
"""Retry with exponential backoff for transient HTTP answers (429, 503)."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Callable, Optional

import httpx

RETRY_STATUSES = frozenset({429, 503})


@dataclass(frozen=True)
class RetryPolicy:
    max_attempts: int = 4
    base_delay: float = 0.5
    max_delay: float = 8.0
    jitter: float = 0.1

    def delay(self, attempt: int, retry_after: Optional[float] = None) -> float:
        if retry_after is not None:
            return min(retry_after, self.max_delay)
        backoff = min(self.base_delay * 2**attempt, self.max_delay)
        return backoff * (1 + random.uniform(-self.jitter, self.jitter))


def parse_retry_after(value: Optional[str]) -> Optional[float]:
    if value is None:
        return None
    return float(value)


def call_with_retry(send, policy, sleep=time.sleep):
    attempt = 0
    while True:
        response = send()
        if response.status_code not in RETRY_STATUSES or attempt > policy.max_attempts:
            return response
        retry_after = parse_retry_after(response.headers.get("Retry-After"))
        sleep(policy.delay(attempt, retry_after))
        attempt += 1
'''

TEST_RETRY = """\
from datetime import datetime, timedelta, timezone
from email.utils import format_datetime

import httpx

from invoicer.retry import RetryPolicy, call_with_retry, parse_retry_after

NOW = datetime(2026, 3, 2, 12, 0, tzinfo=timezone.utc)


def answers(*statuses, headers=None):
    responses = iter(httpx.Response(s, headers=headers or {}) for s in statuses)
    calls = []

    def send():
        calls.append(1)
        return next(responses)

    return send, calls


def test_retries_a_429_then_returns_the_success():
    send, calls = answers(429, 200)
    slept = []
    assert call_with_retry(send, RetryPolicy(), sleep=slept.append).status_code == 200
    assert len(calls) == 2 and len(slept) == 1


def test_gives_up_after_max_attempts():
    send, calls = answers(*[503] * 10)
    response = call_with_retry(send, RetryPolicy(max_attempts=4), sleep=lambda s: None)
    assert response.status_code == 503
    assert len(calls) == 4


def test_waits_what_retry_after_says_in_seconds():
    send, _ = answers(429, 200, headers={"Retry-After": "3"})
    slept = []
    call_with_retry(send, RetryPolicy(), sleep=slept.append)
    assert slept == [3.0]


def test_retry_after_as_an_http_date_is_seconds_from_now():
    later = format_datetime(NOW + timedelta(seconds=5), usegmt=True)
    assert parse_retry_after(later, now=NOW) == 5.0


def test_backoff_doubles_and_is_capped():
    policy = RetryPolicy(base_delay=1.0, max_delay=4.0, jitter=0.0)
    assert [policy.delay(a) for a in range(4)] == [1.0, 2.0, 4.0, 4.0]
"""


def numbered(text: str, start: int = 1, end: int | None = None) -> str:
    lines = text.splitlines()
    end = len(lines) if end is None else min(end, len(lines))
    return "\n".join(f"{i:>4}  {lines[i - 1]}" for i in range(start, end + 1))


class Repo:
    """The files the session touches, so reads, edits and diffs stay consistent."""

    def __init__(self) -> None:
        self.head = {
            "src/invoicer/client.py": CLIENT,
            "tests/test_client.py": TEST_CLIENT,
            "docs/vendor/invoices-api.md": VENDOR_DOC,
        }
        self.files = dict(self.head)

    def write(self, path: str, content: str) -> str:
        self.files[path] = content
        return f"wrote {path} ({len(content.splitlines())} lines)"

    def edit(self, path: str, old: str, new: str) -> str:
        before = self.files[path]
        if before.count(old) != 1:
            raise SystemExit(f"edit of {path}: old_text found {before.count(old)} times")
        self.files[path] = before.replace(old, new)
        return diff(path, before, self.files[path])

    def diff(self) -> str:
        out = []
        for path in sorted(self.files):
            before = self.head.get(path, "")
            if before != self.files[path]:
                out.append(diff(path, before, self.files[path], new=path not in self.head))
        return "\n".join(out)


def diff(path: str, before: str, after: str, *, new: bool = False) -> str:
    lines = difflib.unified_diff(
        before.splitlines(),
        after.splitlines(),
        "/dev/null" if new else f"a/{path}",
        f"b/{path}",
        n=2,
        lineterm="",
    )
    return "\n".join(lines)


def edit_call(repo: Repo, path: str, old: str, new: str) -> tuple[str, dict[str, str], str]:
    args = {"path": path, "old_text": old, "new_text": new}
    return ("edit_file", args, repo.edit(path, old, new))


def build() -> TranscriptBuilder:
    b = TranscriptBuilder(SEED, avoid=[PYTHON, ISSUE, "2093"])
    repo = Repo()

    # 1
    b.user(
        "We're adding retries to the invoicer client: fetch_invoice should retry on 429 "
        "and 503 with exponential backoff instead of failing at once. Start by looking "
        "around the repo."
    )
    b.calls(
        (
            "list_dir",
            {"path": ".", "depth": 2},
            """
.
├── pyproject.toml            1.2K
├── README.md                 2.9K
├── CHANGELOG.md              4.1K
├── docs/
│   ├── usage.md              3.3K
│   └── vendor/
│       └── invoices-api.md   1.0K
├── src/invoicer/
│   ├── __init__.py           0.3K
│   ├── client.py             1.6K
│   ├── errors.py             0.6K
│   ├── models.py             1.9K
│   └── webhooks.py           2.4K
└── tests/
    ├── conftest.py           0.2K
    ├── test_client.py        0.8K
    ├── test_models.py        2.2K
    └── test_webhooks.py      2.7K
""",
        )
    )
    b.say(
        "A small package: the client is in src/invoicer/client.py, with errors, models and "
        "webhooks beside it; tests mirror the modules; docs/vendor/invoices-api.md looks "
        "like the vendor's API notes. I'll read the client next."
    )

    # 2: planted fact
    b.user(
        f"One constraint before you write anything: this package must keep working on "
        f"Python {PYTHON}, our oldest customer runtime. So no match statements and no "
        "newer-only syntax or stdlib calls."
    )
    b.say(
        "Understood: I'll keep to syntax and standard-library calls that exist on that "
        "version, with no match statements and Optional[...] in runtime-evaluated types."
    )

    # 3
    b.user("Read the client.")
    b.calls(("read_file", {"path": "src/invoicer/client.py"}, numbered(CLIENT)))
    b.say(
        "fetch_invoice opens a client per call, raises InvoiceNotFound on 404 and "
        "InvoicesUnavailable straight away on 429 or 503. That branch is where retries "
        "go. The transport field lets tests inject httpx.MockTransport."
    )

    # 4: the claim and its source
    b.user("What do the vendor docs say about rate limits and retries?")
    b.calls(("read_file", {"path": "docs/vendor/invoices-api.md"}, numbered(VENDOR_DOC)))
    b.say(
        "From docs/vendor/invoices-api.md: past 20 requests/s the API answers 429 with a "
        "Retry-After header in seconds (1 to 30), and retrying sooner extends the penalty. "
        "During maintenance it answers 503, sometimes with Retry-After as an HTTP date. "
        "GETs are always safe to retry, so fetch_invoice can retry freely."
    )

    # 5
    b.user("How are the tests set up?")
    b.calls(
        ("read_file", {"path": "tests/test_client.py"}, numbered(TEST_CLIENT)),
        (
            "read_file",
            {"path": "tests/conftest.py"},
            '   1  import pytest\n   2\n   3  pytest.register_assert_rewrite("invoicer")',
        ),
    )
    b.say(
        "Tests use httpx.MockTransport with a handler per test, no network. One existing "
        "test, test_fetch_invoice_raises_on_503, expects an immediate raise; it will need "
        "updating once 503 is retried."
    )

    # 6
    b.user("Run the suite first so we have a baseline.")
    b.calls(
        (
            "run_tests",
            {},
            """
============================= test session starts ==============================
platform linux -- Python 3.12.2, pytest-8.1.1, pluggy-1.4.0
rootdir: /home/dev/invoicer
configfile: pyproject.toml
collected 14 items

tests/test_client.py ...                                                 [ 21%]
tests/test_models.py ......                                              [ 64%]
tests/test_webhooks.py .....                                             [100%]

============================== 14 passed in 0.41s ==============================
""",
        )
    )
    b.say("Baseline: 14 passed.")

    # 7
    b.user("How would you implement the retries?")
    b.say(
        "The quickest route is the tenacity library: decorate the request with "
        "@retry(stop=stop_after_attempt(4), wait=wait_exponential(multiplier=0.5, max=8), "
        "retry=retry_if_result(is_transient)) and read Retry-After in a custom wait. It's "
        "well tested and handles jitter."
    )

    # 8: the rejected decision
    b.user(
        "No, we can't add tenacity. This package gets vendored into customers' apps and "
        "we have a strict no-new-runtime-dependencies rule. Write a small helper instead."
    )
    b.say(
        "Fair: a vendored package shouldn't pull in a dependency. I'll write a small "
        "src/invoicer/retry.py: a RetryPolicy (attempts, base delay, cap, jitter), a "
        "Retry-After parser, and call_with_retry(send, policy, sleep) with sleep injectable "
        "so tests don't wait."
    )

    # 9
    b.user("Check whether anything in the code already does backoff.")
    b.calls(
        (
            "grep",
            {"pattern": "retry|backoff|sleep", "path": "src", "glob": "*.py"},
            """
src/invoicer/webhooks.py:58:    # TODO(BILL-1187): retry failed webhook deliveries with backoff
src/invoicer/webhooks.py:61:    delivery.attempts += 1
src/invoicer/errors.py:9:# BILL-1920: keep retry hints (status, body) on the exception
src/invoicer/errors.py:14:class InvoicesUnavailable(InvoiceError):
src/invoicer/errors.py:15:    \"\"\"429 or 503 from the API: retry later.\"\"\"
""",
        )
    )
    b.say(
        "Nothing does backoff yet; webhooks.py only has a TODO for it (BILL-1187). The "
        "helper could serve that later too."
    )

    # 10
    b.user("Go ahead and write the retry helper.")
    b.calls(
        (
            "write_file",
            {"path": "src/invoicer/retry.py", "content": RETRY_V1},
            repo.write("src/invoicer/retry.py", RETRY_V1),
        )
    )
    b.say(
        "Written: RetryPolicy with exponential backoff capped at max_delay and ±10 % "
        "jitter, parse_retry_after, and call_with_retry, which retries 429/503 and sleeps "
        "between attempts."
    )

    # 11
    b.user("Now wire it into fetch_invoice.")
    b.calls(
        edit_call(
            repo,
            "src/invoicer/client.py",
            "        with self._http() as http:\n"
            '            response = http.get(f"/v2/invoices/{invoice_id}")\n'
            "        if response.status_code == 404:",
            "        with self._http() as http:\n"
            "            response = call_with_retry(\n"
            '                lambda: http.get(f"/v2/invoices/{invoice_id}"), self.retry\n'
            "            )\n"
            "        if response.status_code == 404:",
        ),
    )
    b.calls(
        edit_call(
            repo,
            "src/invoicer/client.py",
            "    transport: Optional[httpx.BaseTransport] = None\n",
            "    transport: Optional[httpx.BaseTransport] = None\n"
            "    retry: RetryPolicy = field(default_factory=RetryPolicy)\n",
        ),
        edit_call(
            repo,
            "src/invoicer/client.py",
            "from dataclasses import dataclass\n",
            "from dataclasses import dataclass, field\n",
        ),
        edit_call(
            repo,
            "src/invoicer/client.py",
            "from invoicer.models import Invoice\n",
            "from invoicer.models import Invoice\n"
            "from invoicer.retry import RetryPolicy, call_with_retry\n",
        ),
    )
    b.say(
        "fetch_invoice now sends through call_with_retry with a per-client RetryPolicy "
        "(default 4 attempts). If the last attempt is still 429/503 it raises "
        "InvoicesUnavailable as before."
    )

    # 12
    b.user("Write tests for the helper.")
    b.calls(
        (
            "write_file",
            {"path": "tests/test_retry.py", "content": TEST_RETRY},
            repo.write("tests/test_retry.py", TEST_RETRY),
        )
    )
    b.say(
        "Five tests: retry then success, giving up after max_attempts, honouring "
        "Retry-After in seconds, Retry-After as an HTTP date, and the capped doubling."
    )

    # 13: planted fact
    b.user(
        f"By the way, this work is tracked in {ISSUE}; it goes in the PR title when we get there."
    )
    b.say("Noted, I'll use that issue in the PR title.")

    # 14
    b.user("Run the new tests.")
    b.calls(
        (
            "run_tests",
            {"path": "tests/test_retry.py"},
            """
============================= test session starts ==============================
collected 5 items

tests/test_retry.py .F..F                                                [100%]

=================================== FAILURES ===================================
_______________________ test_gives_up_after_max_attempts _______________________

    def test_gives_up_after_max_attempts():
        send, calls = answers(*[503] * 10)
        response = call_with_retry(send, RetryPolicy(max_attempts=4), sleep=lambda s: None)
        assert response.status_code == 503
>       assert len(calls) == 4
E       assert 6 == 4
E        +  where 6 = len([1, 1, 1, 1, 1, 1])

tests/test_retry.py:31: AssertionError
______________ test_retry_after_as_an_http_date_is_seconds_from_now ______________

    def test_retry_after_as_an_http_date_is_seconds_from_now():
        later = format_datetime(NOW + timedelta(seconds=5), usegmt=True)
>       assert parse_retry_after(later, now=NOW) == 5.0
E       TypeError: parse_retry_after() got an unexpected keyword argument 'now'

tests/test_retry.py:44: TypeError
=========================== short test summary info ============================
FAILED tests/test_retry.py::test_gives_up_after_max_attempts - assert 6 == 4
FAILED tests/test_retry.py::test_retry_after_as_an_http_date_is_seconds_from_now
========================= 2 failed, 3 passed in 0.12s ==========================
""",
        )
    )
    b.say(
        "Two failures. The loop makes 6 calls instead of 4: `attempt > max_attempts` is off "
        "by two. And parse_retry_after doesn't accept HTTP dates (nor a `now` to test "
        "against)."
    )

    # 15
    b.user("Fix both.")
    b.calls(
        edit_call(
            repo,
            "src/invoicer/retry.py",
            "def parse_retry_after(value: Optional[str]) -> Optional[float]:\n"
            "    if value is None:\n"
            "        return None\n"
            "    return float(value)\n",
            "def parse_retry_after(\n"
            "    value: Optional[str], now: Optional[datetime] = None\n"
            ") -> Optional[float]:\n"
            '    """Seconds to wait: Retry-After is either seconds or an HTTP date."""\n'
            "    if value is None:\n"
            "        return None\n"
            "    try:\n"
            "        return max(0.0, float(value))\n"
            "    except ValueError:\n"
            "        pass\n"
            "    when = parsedate_to_datetime(value)\n"
            "    now = now or datetime.now(timezone.utc)\n"
            "    return max(0.0, (when - now).total_seconds())\n",
        ),
        edit_call(
            repo,
            "src/invoicer/retry.py",
            "from dataclasses import dataclass\n",
            "from dataclasses import dataclass\n"
            "from datetime import datetime, timezone\n"
            "from email.utils import parsedate_to_datetime\n",
        ),
        edit_call(
            repo,
            "src/invoicer/retry.py",
            "attempt > policy.max_attempts:",
            "attempt + 1 >= policy.max_attempts:",
        ),
    )
    b.say(
        "parse_retry_after now takes seconds or an HTTP date (with an injectable `now`) and "
        "never returns a negative wait; the loop stops after exactly max_attempts calls. "
        "datetime.now(timezone.utc) rather than utcnow(), which newer Pythons deprecate."
    )

    # 16
    b.user("Rerun them.")
    b.calls(
        (
            "run_tests",
            {"path": "tests/test_retry.py"},
            """
============================= test session starts ==============================
collected 5 items

tests/test_retry.py .....                                                [100%]

============================== 5 passed in 0.09s ===============================
""",
        )
    )
    b.say("All 5 pass.")

    # 17
    b.user("Now the full suite.")
    b.calls(
        (
            "run_tests",
            {},
            """
============================= test session starts ==============================
collected 19 items

tests/test_client.py ..F                                                 [ 15%]
tests/test_models.py ......                                              [ 47%]
tests/test_retry.py .....                                                [ 73%]
tests/test_webhooks.py .....                                             [100%]

=================================== FAILURES ===================================
_______________________ test_fetch_invoice_raises_on_503 _______________________

    def test_fetch_invoice_raises_on_503():
        client = client_for(lambda request: httpx.Response(503, text="maintenance"))
        with pytest.raises(InvoicesUnavailable):
>           client.fetch_invoice("inv_1")

tests/test_client.py:26:
src/invoicer/retry.py:49: in call_with_retry
    sleep(policy.delay(attempt, retry_after))
E   Failed: Timeout >2.0s (pytest-timeout)
=========================== short test summary info ============================
FAILED tests/test_client.py::test_fetch_invoice_raises_on_503 - Failed: Timeout
========================= 1 failed, 18 passed in 2.71s =========================
""",
        )
    )
    b.say(
        "One failure: test_fetch_invoice_raises_on_503 now really sleeps through the "
        "backoff and hits the 2 s test timeout. The client needs a way to inject sleep, "
        "and the test should check that 503 is retried before raising."
    )

    # 18
    b.user("Make sleep injectable on the client and update that test.")
    b.calls(
        edit_call(
            repo,
            "src/invoicer/client.py",
            "    retry: RetryPolicy = field(default_factory=RetryPolicy)\n",
            "    retry: RetryPolicy = field(default_factory=RetryPolicy)\n"
            "    sleep: Callable[[float], None] = time.sleep\n",
        ),
        edit_call(
            repo,
            "src/invoicer/client.py",
            "self.retry\n            )",
            "self.retry, self.sleep\n            )",
        ),
        edit_call(
            repo,
            "src/invoicer/client.py",
            "from typing import Any, Optional\n",
            "import time\nfrom typing import Any, Callable, Optional\n",
        ),
        edit_call(
            repo,
            "tests/test_client.py",
            "def test_fetch_invoice_raises_on_503():\n"
            '    client = client_for(lambda request: httpx.Response(503, text="maintenance"))\n'
            "    with pytest.raises(InvoicesUnavailable):\n"
            '        client.fetch_invoice("inv_1")\n',
            "def test_fetch_invoice_retries_503_then_raises():\n"
            "    seen = []\n"
            "    client = client_for(lambda r: seen.append(r) or httpx.Response(503))\n"
            "    client.sleep = lambda s: None\n"
            "    with pytest.raises(InvoicesUnavailable):\n"
            '        client.fetch_invoice("inv_1")\n'
            "    assert len(seen) == client.retry.max_attempts\n",
        ),
    )
    b.say(
        "The client has a `sleep` field (time.sleep by default) passed to call_with_retry, "
        "and the test, renamed test_fetch_invoice_retries_503_then_raises, checks that all "
        "attempts are made before InvoicesUnavailable."
    )

    # 19
    b.user("Run everything again.")
    b.calls(
        (
            "run_tests",
            {},
            """
============================= test session starts ==============================
collected 19 items

tests/test_client.py ...                                                 [ 15%]
tests/test_models.py ......                                              [ 47%]
tests/test_retry.py .....                                                [ 73%]
tests/test_webhooks.py .....                                             [100%]

============================== 19 passed in 0.46s ==============================
""",
        )
    )
    b.say("19 passed: the 14 original tests plus the 5 new ones.")

    # 20
    b.user("Type-check it.")
    b.calls(
        (
            "run_command",
            {"command": "mypy src/invoicer"},
            """
exit code 1
src/invoicer/retry.py:42: error: Function is missing a type annotation  [no-untyped-def]
src/invoicer/client.py:44: error: Call to untyped function "call_with_retry" in typed context  [no-untyped-call]
Found 2 errors in 2 files (checked 6 source files)
""",
        )
    )
    b.calls(
        edit_call(
            repo,
            "src/invoicer/retry.py",
            "def call_with_retry(send, policy, sleep=time.sleep):\n",
            "def call_with_retry(\n"
            "    send: Callable[[], httpx.Response],\n"
            "    policy: RetryPolicy,\n"
            "    sleep: Callable[[float], None] = time.sleep,\n"
            ") -> httpx.Response:\n"
            '    """Call ``send`` until it answers something other than 429/503."""\n',
        ),
        (
            "run_command",
            {"command": "mypy src/invoicer"},
            "exit code 0\nSuccess: no issues found in 6 source files",
        ),
    )
    b.say("call_with_retry had no annotations; it's typed now and mypy is clean.")

    # 21
    b.user("Lint.")
    b.calls(
        (
            "run_command",
            {"command": "ruff check src tests"},
            """
exit code 1
src/invoicer/client.py:3:1: I001 [*] Import block is un-sorted or un-formatted
Found 1 error.
[*] 1 fixable with the `--fix` option.
""",
        )
    )
    b.say(
        "Only the import order in client.py: `import time` went after the `from` imports "
        "when I added it. ruff can fix that itself."
    )
    b.user("Fine, do that.")  # 22
    client = repo.files["src/invoicer/client.py"]
    fixed = client.replace(
        "from dataclasses import dataclass, field\nimport time\n",
        "import time\nfrom dataclasses import dataclass, field\n",
    )
    assert fixed != client
    b.calls(
        (
            "run_command",
            {"command": "ruff check --fix src/invoicer/client.py && ruff check src tests"},
            "exit code 0\nFound 1 error (1 fixed, 0 remaining).\nAll checks passed!",
        )
    )
    repo.files["src/invoicer/client.py"] = fixed
    b.say("Imports sorted; lint is clean.")

    # 23
    b.user("Commit it on a branch.")
    b.calls(
        (
            "run_command",
            {
                "command": "git switch -c retry-backoff && git add -A && git commit "
                '-m "Retry 429/503 in fetch_invoice with exponential backoff"'
            },
            f"""
exit code 0
Switched to a new branch 'retry-backoff'
[retry-backoff {b.hex_id(7)}] Retry 429/503 in fetch_invoice with exponential backoff
 4 files changed, 112 insertions(+), 6 deletions(-)
 create mode 100644 src/invoicer/retry.py
 create mode 100644 tests/test_retry.py
""",
        )
    )
    b.say("Committed on retry-backoff: 4 files, 112 insertions.")

    # 24: the pending approval
    b.user("Push it.")
    b.calls(
        (
            "run_command",
            {"command": "git push -u origin retry-backoff"},
            """
exit code 1
blocked by policy: pushing to origin (a protected remote) needs approval from a maintainer.
Use request_approval with approver one of: priya.nair, tom.becker
""",
        )
    )
    b.calls(
        (
            "request_approval",
            {
                "action": "git push -u origin retry-backoff",
                "approver": "priya.nair",
                "reason": "retry with backoff for fetch_invoice, tests green",
            },
            "approval APR-318 created: pending (waiting for priya.nair). You will be "
            "notified when it is decided.",
        )
    )
    b.say(
        "Pushing to origin needs a maintainer's approval, so I asked Priya Nair "
        "(APR-318). It's pending; I'll push when it's approved."
    )

    # 25
    b.user("While we wait: show me the full diff.")
    b.calls(("git_diff", {}, repo.diff()))
    b.say(
        "That's everything on the branch: the new retry module and its tests, the client "
        "changes and the updated client test."
    )

    # 26
    b.user("Does the webhook TODO you found earlier want the same helper?")
    b.calls(
        (
            "read_file",
            {"path": "src/invoicer/webhooks.py", "start": 50, "end": 66},
            """
  50  def deliver(delivery: Delivery, http: httpx.Client) -> bool:
  51      response = http.post(
  52          delivery.url,
  53          content=delivery.body,
  54          headers={"X-Invoicer-Signature": sign(delivery.body, delivery.secret)},
  55      )
  56      if response.is_success:
  57          return True
  58      # TODO(BILL-1187): retry failed webhook deliveries with backoff
  59      delivery.last_status = response.status_code
  60      delivery.attempts += 1
  61      return False
  62
  63
  64  def due(deliveries: list[Delivery], now: float) -> list[Delivery]:
  65      return [d for d in deliveries if d.attempts < 5 and d.next_at <= now]
""",
        )
    )
    b.say(
        "Partly. Webhook delivery is a POST to the customer's URL and retries across runs "
        "(attempts and next_at are stored), so it needs a backoff schedule, not an "
        "in-process loop. RetryPolicy.delay could compute next_at, but that's separate "
        "work under its own ticket."
    )

    # 27
    b.user("Agreed, leave it. Add a short note about retries to docs/usage.md.")
    usage_old = "## Errors\n"
    repo.files["docs/usage.md"] = repo.head["docs/usage.md"] = (
        "# Using invoicer\n\n## Errors\nInvoiceNotFound for unknown ids; InvoicesUnavailable "
        "when the API is rate limited or down.\n"
    )
    b.calls(
        edit_call(
            repo,
            "docs/usage.md",
            usage_old,
            "## Retries\nfetch_invoice retries 429 and 503 answers up to 4 times with "
            "exponential backoff (0.5 s doubling, capped at 8 s, ±10 % jitter), and "
            "waits what Retry-After asks when the API sends it. Pass "
            "`retry=RetryPolicy(max_attempts=1)` to turn retries off.\n\n## Errors\n",
        )
    )
    b.calls(
        (
            "run_command",
            {"command": 'git commit -am "Document retries"'},
            f"exit code 0\n[retry-backoff {b.hex_id(7)}] Document retries\n 1 file changed, "
            "6 insertions(+)",
        )
    )
    b.say("Added a Retries section to docs/usage.md and committed it on the branch.")

    # 28
    b.user("Is the approval through yet?")
    b.calls(
        (
            "run_command",
            {"command": "workset approvals show APR-318"},
            "APR-318  git push -u origin retry-backoff  approver=priya.nair  state=pending  "
            "age=14m",
        )
    )
    b.say("Not yet: APR-318 is still pending with Priya after 14 minutes.")

    # 29
    b.user("One more check: run the whole suite one last time.")
    b.calls(
        (
            "run_tests",
            {},
            """
============================= test session starts ==============================
collected 19 items

tests/test_client.py ...                                                 [ 15%]
tests/test_models.py ......                                              [ 47%]
tests/test_retry.py .....                                                [ 73%]
tests/test_webhooks.py .....                                             [100%]

============================== 19 passed in 0.44s ==============================
""",
        )
    )
    b.say("Still 19 passed.")

    # 30
    b.user("Good. Let's stop here for today. First thing tomorrow: the CHANGELOG entry.")
    b.say("Sounds good. Tomorrow starts with the CHANGELOG entry.")
    return b


def main() -> None:
    b = build()
    check_planted(b, ((PYTHON, PYTHON_TURN), (ISSUE, ISSUE_TURN)))
    write_fixture(b, HERE, TOOLS, PROBES)


if __name__ == "__main__":
    main()
