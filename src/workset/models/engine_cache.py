"""What a serving engine says it took from its prefix cache, next to what workset predicted.

Two sources, both optional:

- the response's ``usage.prompt_tokens_details.cached_tokens`` (vLLM with
  ``--enable-prompt-tokens-details``, SGLang with ``--enable-cache-report``, hosted OpenAI),
  read by :mod:`workset.models.chat_stream` into ``Usage.cached_prompt_tokens``;
- vLLM's Prometheus counters ``vllm:prefix_cache_queries`` and ``vllm:prefix_cache_hits``
  (tokens looked up in and found in the prefix cache) on its ``/metrics`` address, read before
  and after a call by :class:`PrefixCacheCounters`; the difference is that call's, as long as
  nothing else ran on the server meanwhile, and lands in ``Usage.engine_prefix_queries`` and
  ``Usage.engine_prefix_hits``.

vLLM caches whole KV blocks (16 tokens by default, ``--block-size``), so it reports at most
the predicted reuse rounded down to a block: :func:`compare_prefix` does that rounding before
comparing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

import httpx

from workset.models.base import Usage

QUERIES = "vllm:prefix_cache_queries"
HITS = "vllm:prefix_cache_hits"
DEFAULT_BLOCK = 16

_SAMPLE = re.compile(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+([-+0-9.eEinfNa]+)")


@dataclass(frozen=True, slots=True)
class Counters:
    queries: float
    hits: float


def parse_prefix_counters(text: str) -> Counters | None:
    """The prefix-cache counters in a Prometheus text page (summed over label sets), or None
    when the page has neither (not vLLM, or a version without them)."""
    totals = {QUERIES: 0.0, HITS: 0.0}
    seen = False
    for line in text.splitlines():
        match = _SAMPLE.match(line)
        if match is None:
            continue
        name = match.group(1).removesuffix("_total")
        if name in totals:
            totals[name] += float(match.group(3))
            seen = True
    return Counters(totals[QUERIES], totals[HITS]) if seen else None


class PrefixCacheCounters:
    """Reads vLLM's prefix-cache counters from ``metrics_url`` (e.g. http://host:8000/metrics)."""

    def __init__(self, metrics_url: str) -> None:
        self.url = metrics_url

    async def read(self, client: httpx.AsyncClient) -> Counters | None:
        """The counters now; None when the page cannot be read or has none of them."""
        try:
            response = await client.get(self.url, timeout=5.0)
        except httpx.HTTPError:
            return None
        if response.status_code != 200:
            return None
        return parse_prefix_counters(response.text)


def with_engine_counts(usage: Usage, before: Counters | None, after: Counters | None) -> Usage:
    """``usage`` with the counters' difference over one call (unchanged without both)."""
    if before is None or after is None or after.queries < before.queries:
        return usage  # no counters, or the server restarted in between
    from dataclasses import replace

    return replace(
        usage,
        engine_prefix_queries=round(after.queries - before.queries),
        engine_prefix_hits=round(after.hits - before.hits),
    )


@dataclass(frozen=True, slots=True)
class PrefixComparison:
    """One call's prefix reuse: workset's prediction and what the engine reported."""

    predicted: int  # tokens shared with the previous request (the manifest's reused_tokens)
    predicted_in_blocks: int  # rounded down to whole cache blocks, as vLLM counts
    reported: int | None  # the engine's cached tokens (usage details, else the counters)

    @property
    def agrees(self) -> bool | None:
        """True when the engine reused what the layout predicted (to the block)."""
        if self.reported is None:
            return None
        return self.reported >= self.predicted_in_blocks


class _Prefix(Protocol):
    @property
    def reused_tokens(self) -> int: ...


class _Manifested(Protocol):
    """A call's manifest (:class:`workset.context.manifest.Manifest`): its prefix reuse."""

    @property
    def prefix(self) -> _Prefix: ...


def compare_prefix(
    manifest: _Manifested, usage: Usage, block: int = DEFAULT_BLOCK
) -> PrefixComparison:
    predicted = manifest.prefix.reused_tokens
    reported = usage.cached_prompt_tokens
    if reported is None:
        reported = usage.engine_prefix_hits
    return PrefixComparison(predicted, predicted // block * block, reported)
