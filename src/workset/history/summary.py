"""Summaries written by a model: prompts, the anchored sections, checks and the breaker.

The anchored iterative summary has fixed sections (:data:`SECTIONS`) that every update must
fill: the previous summary plus the new span go in, a whole new summary comes out. A summary
missing a section, or empty, is a failure, like a model error. Prompts are context-aware: they
carry the current query and what has been accumulated so far; the citation variant asks for a
``[seq N]`` reference after every fact and rejects bullets without one.

:class:`CircuitBreaker` counts consecutive failures; once open, the layer that owns it stops
calling the model and says so in the view's notices.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass

from workset.errors import ModelError, UsageError
from workset.history.base import PolicyContext
from workset.history.draft import Block, message_text
from workset.messages import Message, SystemMessage, ToolMessage, UserMessage
from workset.models.base import Model, ModelRequest, Usage

SECTIONS = (
    "Session intent",
    "Decisions and root cause",
    "Files and artifacts changed",
    "Test status",
    "Open questions",
    "Next steps",
)
MAX_SPAN_MESSAGE_CHARS = 2_000
_CITATION = re.compile(r"\[(?:seq|turn)s? \d+")

ANCHORED_INSTRUCTIONS = (
    "You maintain the running summary of an agent session so the work can continue without "
    "the old messages. Write the whole updated summary in Markdown with exactly these "
    "sections, in this order, each as a '## ' heading:\n"
    + "\n".join(f"## {s}" for s in SECTIONS)
    + "\nUnder each heading write at most three short '- ' bullets; write '- none' when "
    "there is nothing. "
    "Merge the previous summary with the new messages: keep every fact that still holds, "
    "update what changed, drop nothing the user asked for. Copy identifiers, numbers, paths, "
    "names and standing instructions exactly. Under 'Files and artifacts changed' name each "
    "file and what changed in it."
)
CITATION_RULE = (
    " End every bullet with the reference of the message it comes from, as [seq N] (the "
    "number shown before that message)."
)


def anchored_prompt(
    previous: str | None,
    span: Sequence[Block],
    *,
    query: str,
    accumulated: str = "",
    cite: bool = False,
) -> tuple[Message, ...]:
    """The messages that ask for an updated anchored summary of ``span``."""
    parts = [f"Previous summary:\n{previous or '(none yet)'}"]
    if query:
        parts.append(f"Current query: {query}")
    if accumulated:
        parts.append(f"Current context:\n{accumulated}")
    parts.append(f"New messages:\n{render_span(span)}")
    parts.append("Write the updated summary now.")
    system = ANCHORED_INSTRUCTIONS + (CITATION_RULE if cite else "")
    return (SystemMessage(system), UserMessage("\n\n".join(parts)))


def render_span(blocks: Sequence[Block]) -> str:
    """The span as plain text, each message labelled with its seq and turn."""
    lines = []
    for block in blocks:
        for message, seq in zip(block.messages, block.seqs, strict=True):
            label = f"[seq {seq}, turn {block.turn}]" if seq is not None else "[earlier summary]"
            text = message_text(message)
            if len(text) > MAX_SPAN_MESSAGE_CHARS:
                half = MAX_SPAN_MESSAGE_CHARS // 2
                cut = len(text) - 2 * half
                text = f"{text[:half]}\n[... {cut:,} chars not shown ...]\n{text[-half:]}"
            name = f" {message.name}" if isinstance(message, ToolMessage) and message.name else ""
            lines.append(f"{label} {message.role}{name}: {text}")
    return "\n".join(lines)


def check_anchored(text: str, *, cite: bool = False) -> str | None:
    """What is wrong with an anchored summary, or None when it is well formed."""
    if not text.strip():
        return "the summary is empty"
    headings = [h.strip().lower() for h in re.findall(r"^#+\s*(.+?)\s*#*$", text, re.M)]
    missing = [s for s in SECTIONS if s.lower() not in headings]
    if missing:
        return f"the summary lacks the sections {missing}"
    if cite:
        bullets = [b for b in re.findall(r"^\s*[-*] (.+)$", text, re.M) if b.strip() != "none"]
        bare = [b for b in bullets if not _CITATION.search(b)]
        if bare:
            return f"{len(bare)} bullets have no [seq N] reference, e.g. {bare[0][:80]!r}"
    return None


def summary_id(text: str) -> str:
    return "summary:" + hashlib.sha256(text.encode()).hexdigest()[:12]


@dataclass(frozen=True, slots=True)
class Answer:
    """One summarizer call: the text (None when it failed), what it cost, what went wrong."""

    text: str | None
    usage: Usage
    error: str = ""


async def ask(
    context: PolicyContext,
    messages: Sequence[Message],
    *,
    max_tokens: int,
    purpose: str,
) -> Answer:
    """Ask the context's summarizer; a model error becomes a failed answer, not a crash."""
    model = require_summarizer(context, purpose)
    request = ModelRequest(messages=tuple(messages), max_tokens=max_tokens, temperature=0.0)
    try:
        response = await model.complete(request)
    except ModelError as error:
        return Answer(None, Usage(0, 0), f"model error: {error}")
    return Answer((response.message.content or "").strip(), response.usage)


def require_summarizer(context: PolicyContext, purpose: str) -> Model:
    if context.summarizer is None:
        raise UsageError(
            f"{purpose} needs a model to write with: set PolicyContext.summarizer "
            "(the run's model works, or a smaller one)"
        )
    return context.summarizer


@dataclass
class CircuitBreaker:
    """Open after ``limit`` consecutive failures; a success closes the count again."""

    what: str
    limit: int = 3
    failures: int = 0
    last_error: str = ""

    @property
    def open(self) -> bool:
        return self.failures >= self.limit

    def record(self, error: str | None) -> None:
        if error is None:
            self.failures = 0
            self.last_error = ""
        else:
            self.failures += 1
            self.last_error = error

    def notice(self) -> str:
        return (
            f"{self.what} stopped after {self.failures} consecutive failures (last: "
            f"{self.last_error}); the history is sent without it. Use a policy that does not "
            "summarise, a more capable summarizer, or start a new session."
        )
