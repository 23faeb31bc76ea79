"""When the current turn alone does not fit: its oldest long tool results, shortened.

The current task and everything after it are required (units whole), so a turn that read
three large files could outgrow the window and end the run with a budget error. Before that
error, the request shortens the turn's tool results oldest first — each to its opening lines
and a note saying how long it was and how to get the rest — until the turn fits. The session
log keeps every result whole; only this request's copy is shortened, and the manifest says
which calls were. Pure: the same history and room give the same request.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from workset.messages import Message, ToolMessage

# What a shortened result keeps: its opening, this many characters at most.
PREVIEW_CHARS = 600
# Results shorter than this many tokens are never shortened: too little to win back.
MIN_TOKENS = 400


def shortened_result(result: ToolMessage, tokens: int) -> ToolMessage:
    """``result`` cut to its opening lines, with a note on what was left out."""
    opening = result.content[:PREVIEW_CHARS]
    if "\n" in opening and len(result.content) > PREVIEW_CHARS:
        opening = opening.rsplit("\n", 1)[0]
    note = (
        f"\n[… shortened to fit the context window: the whole result was about {tokens} "
        "tokens. Call the tool again for the part you need (for read_file, a narrower "
        "offset and limit).]"
    )
    return replace(result, content=opening + note)


def next_to_shorten(
    history: Sequence[Message], start: int, tokens: Sequence[int], done: set[int]
) -> int | None:
    """The oldest tool result from ``start`` on that is long enough and not yet shortened
    (``tokens``: each message's count)."""
    for index in range(start, len(history)):
        message = history[index]
        if isinstance(message, ToolMessage) and index not in done and tokens[index] >= MIN_TOKENS:
            return index
    return None


def with_shortened(notes: Mapping[str, str], shortened: Sequence[str]) -> dict[str, str]:
    """The manifest's notes, with which tool results (``"call id (tokens)"``) were shortened."""
    if not shortened:
        return dict(notes)
    return {
        **notes,
        "budget": "the current turn did not fit: shortened the tool results of "
        f"{', '.join(shortened)}; the session log keeps them whole",
    }
