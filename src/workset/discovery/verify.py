"""Whether one candidate tool does what a need asks, checked by a model: yes or no.

The index ranks by meaning, and meaning cannot tell a stock-quote tool from "buy 10 shares",
or a whois lookup from "register the domain": both are about the right thing. A chat model
asked about one candidate at a time ("can this tool do the request?") can. Measured on the
LiveMCPBench need set (``benchmarks/discovery_verify.py``, docs/results/discovery.md), a
listwise question ("which of these ten, or none?") was useless on the embedded models: they
never answered "none". One candidate at a time, Qwen2.5-Coder-1.5B says "no" to most near
misses.

One model call per (need, tool), constrained to ``{"answer": "yes"|"no"}``; the request puts
the need before the tool, so calls for the same need share their prompt prefix in the model's
KV cache. :class:`Verdicts` keeps the answers in a JSON-lines file keyed by the model, the
prompt version, the need and the tool's definition, so a changed definition is asked again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from workset.discovery.documents import first_sentence
from workset.discovery.lines import KeptAnswers, answer_object
from workset.discovery.results import Match, Searchable, SearchResult
from workset.errors import ModelError, UsageError
from workset.messages import SystemMessage, ToolSpec, UserMessage
from workset.models.base import Model, ModelRequest

PROMPT_VERSION = 1  # part of every key: changing the prompt asks every pair again
SYSTEM = (
    "You check whether a software tool can do what a person asks. Read the request and the "
    "tool's description. Answer yes only if calling this tool does the thing asked, or gives "
    "the exact information asked. Answer no if the tool only looks up something related, does "
    "a different action (for example it reads prices but the request is to buy, it lists "
    "posts but the request is to write one), or works on a different kind of thing. Answer "
    "with a JSON object."
)
SCHEMA = {
    "type": "object",
    "properties": {"answer": {"enum": ["yes", "no"]}},
    "required": ["answer"],
    "additionalProperties": False,
}
_DESCRIPTION_WORDS = 60


def tool_text(server: str, spec: ToolSpec) -> str:
    """The tool as the model reads it: name, server and the start of its description."""
    words = first_sentence(spec.description, limit=2000).split()
    about = " ".join(words[:_DESCRIPTION_WORDS]) + (
        " ..." if len(words) > _DESCRIPTION_WORDS else ""
    )
    return f"Tool: {spec.name} (server {server})\nDescription: {about}"


def verify_request(need: str, server: str, spec: ToolSpec) -> ModelRequest:
    """The request that asks whether ``spec`` (of ``server``) does what ``need`` asks."""
    request = " ".join(need.split())
    text = f"Request: {request}\n\n{tool_text(server, spec)}\n\nCan this tool do the request?"
    return ModelRequest(
        (SystemMessage(SYSTEM), UserMessage(text)),
        max_tokens=12,
        temperature=0.0,
        json_schema=SCHEMA,
    )


def parse_verdict(content: str) -> bool:
    """True for a "yes"; a ModelError when the answer is not ``{"answer": "yes"|"no"}``."""
    answer = answer_object(content).get("answer")
    if answer not in ("yes", "no"):
        raise ModelError(f"the model answered neither yes nor no: {content[:120]!r}")
    return bool(answer == "yes")


async def verify_tool(model: Model, need: str, server: str, spec: ToolSpec) -> bool:
    """Whether the model says ``spec`` does what ``need`` asks (one model call)."""
    response = await model.complete(verify_request(need, server, spec))
    return parse_verdict(response.message.content or "")


def verdict_key(model: str, need: str, server: str, spec: ToolSpec) -> str:
    definition = json.dumps(spec.to_wire(), sort_keys=True, ensure_ascii=False)
    text = json.dumps(
        [model, PROMPT_VERSION, " ".join(need.split()), server, definition], ensure_ascii=False
    )
    return hashlib.sha256(text.encode()).hexdigest()


_WHAT = "a verdict line"
_HINT = "each line must be JSON with key and verdict; delete the line to ask that pair again"


class Verdicts:
    """Verdicts by (need, tool), kept in a JSON-lines file: each pair asked once per model."""

    def __init__(self, path: Path, model: Model) -> None:
        self.path = path
        self.model = model
        self._kept = KeptAnswers(path, "verdict", what=_WHAT, hint=_HINT)

    def known(self, need: str, server: str, spec: ToolSpec) -> bool | None:
        found = self._kept.get(verdict_key(self.model.info.name, need, server, spec))
        return None if found is None else bool(found)

    async def check(self, need: str, server: str, spec: ToolSpec) -> bool:
        """The verdict on (``need``, tool): from the file, else asked and appended at once."""
        name = self.model.info.name
        verdict = await self._kept.answer(
            verdict_key(name, need, server, spec),
            lambda: verify_tool(self.model, need, server, spec),
            model=name,
            need=need,
            server=server,
            tool=spec.name,
        )
        return bool(verdict)


Verify = Callable[[str, str, ToolSpec], Awaitable[bool]]  # (need, server, tool) -> can it


@dataclass(frozen=True, slots=True)
class Checking:
    """How verdicts change a search (chosen on the need set's tune half; see the module doc).

    ``depth``: how many of the best candidates the model is asked about, best first, stopping
    at the first "yes". ``promote``: that tool goes first. ``veto_below``: "not found" when
    the model says no to every candidate asked and the index's probability that the catalog
    serves the need is below this (0 never vetoes, 1 always does). ``rescue_above``: "found"
    when the index said "not found" but the model says yes to a candidate and the probability
    is at least this (above 1 never rescues).
    """

    depth: int = 3
    promote: bool = True
    # Chosen on the tune half (benchmarks/discovery_verify.py, Qwen2.5-Coder-1.5B): vetoing
    # below 0.2 refuses one more unservable need (15/21) for one answerable (1/152); at 0.4,
    # 15/21 for 7/152; always, 19/21 for 27/152: the model says no to many right tools.
    veto_below: float = 0.2
    rescue_above: float = 2.0  # off: on tune it only turned 3 refused unservable needs found

    def __post_init__(self) -> None:
        if self.depth < 1:
            raise UsageError(f"depth must be at least 1, got {self.depth}")


DEFAULT_CHECKING = Checking()


async def checked_search(
    index: Searchable,
    query: str,
    verify: Verify,
    *,
    k: int = 5,
    also: Sequence[str] = (),
    checking: Checking = DEFAULT_CHECKING,
) -> SearchResult:
    """``index.search``, with a model's verdict on the best candidates (see
    :class:`Checking`). A verdict the model fails to give counts as not asked."""
    result = index.search(query, k=k, also=also)
    candidates = result.matches or result.suggestions
    verdicts: list[tuple[Match, bool]] = []
    for match in candidates[: checking.depth]:
        try:
            verdict = await verify(query, match.server, match.spec)
        except ModelError:
            continue
        verdicts.append((match, verdict))
        if verdict:
            break
    found = verdict_found(result.found, result.confidence, verdicts, checking)
    ranked: Sequence[Match] = candidates
    if found and len(ranked) < k:  # a rescued result: the full ranking, not 3 suggestions
        ranked = index.rank(query, k=k, also=also)
    ranked = promoted(ranked, verdicts, checking)
    said = tuple((m.server, m.tool, v) for m, v in verdicts)
    if found:
        return replace(result, matches=tuple(ranked[:k]), suggestions=(), verdicts=said)
    return replace(result, matches=(), suggestions=tuple(ranked[:3]), verdicts=said)


def verdict_found(
    found: bool, probability: float, verdicts: Sequence[tuple[Match, bool]], checking: Checking
) -> bool:
    """The index's decision (``found`` at ``probability``) after the model's ``verdicts`` on
    the candidates it was asked about: vetoed or rescued as ``checking`` says."""
    yes = any(v for _, v in verdicts)
    if found and not yes and verdicts and probability < checking.veto_below:
        return False
    if not found and yes and probability >= checking.rescue_above:
        return True
    return found


def promoted(
    ranked: Sequence[Match], verdicts: Sequence[tuple[Match, bool]], checking: Checking
) -> list[Match]:
    """``ranked`` with the first tool the model said yes to moved first (if ``checking``
    promotes)."""
    yes = next((m for m, v in verdicts if v), None)
    if not checking.promote or yes is None:
        return list(ranked)
    key = (yes.server, yes.tool)
    return [yes, *(m for m in ranked if (m.server, m.tool) != key)]
