"""A model reads the best candidates and says which one does what was asked, or that none does.

Cosines cannot tell a near miss from a match: "buy 10 shares of NVIDIA" lands on a stock-price
tool that reads prices and cannot trade. A chat model can: shown the need and the top
candidates (name and one line each, numbered), it answers with the number of the tool that
does it, or 0 when none can. One call per search, its answer constrained to those numbers
(llama.cpp grammar), so even a small model answers in a few tokens. :func:`judged` turns the
answer into the search's result: the chosen tool first, or "not found" with the candidates as
suggestions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from workset.discovery.index import Match, SearchResult
from workset.discovery.lines import answer_object
from workset.errors import ModelError
from workset.messages import SystemMessage, UserMessage
from workset.models.base import Model, ModelRequest

PROMPT_VERSION = 1
SYSTEM = (
    "You check whether a software tool can do what a person asks. You see the request and "
    "numbered tools, each with what it does. Answer with a JSON object whose tool is the "
    "number of the tool that can do it, or 0 if none of them can. A tool about the right "
    "subject that cannot do the action asked does not count: a tool that reads stock prices "
    "cannot buy shares, a tool that searches flights cannot book one."
)
_DESCRIPTION_CHARS = 160


def judge_request(need: str, candidates: Sequence[Match]) -> ModelRequest:
    """The request that asks which of ``candidates`` (best first) serves ``need``, if any."""
    lines = [f"Request: {' '.join(need.split())}", "Tools:"]
    for number, match in enumerate(candidates, start=1):
        lines.append(f"{number}. {match.tool}: {_one_line(match.spec.description)}")
    schema = {
        "type": "object",
        "properties": {"tool": {"type": "integer", "enum": list(range(len(candidates) + 1))}},
        "required": ["tool"],
        "additionalProperties": False,
    }
    return ModelRequest(
        (SystemMessage(SYSTEM), UserMessage("\n".join(lines))),
        max_tokens=12,
        temperature=0.0,
        json_schema=schema,
    )


def parse_choice(content: str, candidates: int) -> int:
    """The number a model chose (0: none); a ModelError when it is not one of the choices."""
    value = answer_object(content).get("tool")
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= candidates:
        raise ModelError(f"the model did not choose a listed tool: {content[:120]!r}")
    return value


async def choose(model: Model, need: str, candidates: Sequence[Match]) -> int:
    """Which of ``candidates`` serves ``need``: its number from 1, or 0 for none (one call)."""
    response = await model.complete(judge_request(need, candidates))
    return parse_choice(response.message.content or "", len(candidates))


def judged(result: SearchResult, candidates: Sequence[Match], choice: int) -> SearchResult:
    """``result`` as the model judged ``candidates``: its choice first, or "not found"."""
    if choice == 0:
        return replace(result, matches=(), suggestions=tuple(candidates[:3]))
    chosen = candidates[choice - 1]
    rest = [m for m in candidates if m is not chosen]
    k = max(len(result.matches), 1)
    return replace(result, matches=(chosen, *rest)[:k], suggestions=())


def _one_line(text: str) -> str:
    flat = " ".join(text.split())
    first = flat.split(". ")[0]
    return first if len(first) <= _DESCRIPTION_CHARS else first[: _DESCRIPTION_CHARS - 1] + "…"
