"""A character-count estimate: the fallback tokenizer when no real one is available.

Use it only when the backend's tokenizer is unknown (an arbitrary OpenAI-compatible server).
Its counts are labelled inexact (``exact`` is False, the name starts with ``estimate:``), so
budgets built on them carry that label into the manifest. ``tokenize`` returns pseudo-ids,
one per chunk of text, so that comparing two prompts' leading tokens still works.
"""

from __future__ import annotations

import math

from workset.errors import UsageError


class EstimateTokenizer:
    """Estimates ``ceil(len(text) / chars_per_token)`` tokens. A fallback, never exact."""

    def __init__(self, chars_per_token: float = 4.0) -> None:
        if not chars_per_token >= 1.0:  # also rejects NaN
            raise UsageError(
                f"chars_per_token must be at least 1, got {chars_per_token!r}; "
                "4 suits English prose and code, 1 to 2 suits CJK text"
            )
        self.chars_per_token = float(chars_per_token)

    @property
    def name(self) -> str:
        return f"estimate:chars/{self.chars_per_token:g}"

    @property
    def exact(self) -> bool:
        return False

    def count(self, text: str) -> int:
        return math.ceil(len(text) / self.chars_per_token)

    def tokenize(self, text: str) -> list[int]:
        """One pseudo-id per chunk: the chunk's UTF-8 bytes read as an integer.

        Equal chunks get equal ids and different chunks different ids, so two texts share a
        leading run of ids exactly as long as they share leading chunks. The list has
        :meth:`count` entries.
        """
        cpt = self.chars_per_token
        ids: list[int] = []
        for i in range(self.count(text)):
            chunk = text[math.floor(i * cpt) : math.floor((i + 1) * cpt)]
            ids.append(int.from_bytes(b"\x01" + chunk.encode("utf-8"), "big"))
        return ids
