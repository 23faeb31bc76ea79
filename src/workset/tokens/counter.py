"""The part counter: a chat format plus a tokenizer plus a cache of counts by content.

Counts are keyed by the part text. Rendered parts come from the format's own cache as the same
string objects, whose hashes Python keeps, so re-counting an unchanged history costs one dict
lookup per message; only new or changed parts reach the tokenizer.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence

from workset.messages import Message, ToolSpec
from workset.tokens.base import ChatFormat, CountedPart, RequestCount, Tokenizer


class PartCounter:
    """Counts requests part by part, caching each part's count by its text."""

    def __init__(self, chat_format: ChatFormat, tokenizer: Tokenizer, *, cache_size: int = 200_000):
        self.chat_format = chat_format
        self.tokenizer = tokenizer
        self._cache: OrderedDict[str, int] = OrderedDict()
        self._cache_size = cache_size
        self.tokenized_chars = 0  # how much text reached the tokenizer: for tests and benchmarks

    @property
    def method(self) -> str:
        label = "exact" if self.tokenizer.exact else "estimate"
        return f"{label}:{self.tokenizer.name}+{self.chat_format.name}"

    def count_text(self, text: str) -> int:
        cached = self._cache.get(text)
        if cached is not None:
            return cached
        count = self.tokenizer.count(text)
        self.tokenized_chars += len(text)
        self._cache[text] = count
        if len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return count

    def tokenize(self, text: str) -> list[int]:
        return self.tokenizer.tokenize(text)

    def count_request(
        self, system: str | None, tools: Sequence[ToolSpec], messages: Sequence[Message]
    ) -> RequestCount:
        parts = self.chat_format.render(system, tools, messages)
        counted = tuple(CountedPart(p, self.count_text(p.text)) for p in parts)
        return RequestCount(counted, self.method, self.tokenizer.exact)


def common_prefix_tokens(
    previous: RequestCount,
    current: RequestCount,
    counter: PartCounter,
    *,
    start: int = 0,
    start_tokens: int = 0,
) -> int:
    """How many leading tokens of ``current`` equal those of ``previous``.

    Whole equal parts are summed from cached counts; the first differing pair is tokenized to
    find where inside it the two requests diverge. A caller that knows the first ``start``
    parts are shared (holding ``start_tokens`` tokens) skips comparing them.
    """
    total = start_tokens
    for old, new in zip(previous.parts[start:], current.parts[start:], strict=False):
        if old.part.text is new.part.text or old.part.text == new.part.text:
            total += new.tokens
            continue
        a, b = counter.tokenize(old.part.text), counter.tokenize(new.part.text)
        same = 0
        for x, y in zip(a, b, strict=False):
            if x != y:
                break
            same += 1
        return total + same
    return total
