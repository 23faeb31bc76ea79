"""Two indexes of one catalog: a fast one asked first, a stronger one when the first is unsure.

all-MiniLM-L6-v2 embeds a query in about 15 ms here; all-mpnet-base-v2 in about 110 ms, and
it finds the tool of a need that shares no word with it far more often (hard-band Hit@5 on the
tune halves of both need sets 0.72 → 0.82). Most needs do not need it: a need that names its
tool's words is matched as well by the small model, and the small model's own decision says
how sure it is. :class:`CascadeIndex` searches the first index and, when its decision's
probability that the catalog serves the need is below ``escalate_below``, searches the second
and answers with that result (ranking and "not found" both), marked ``escalated``.

``escalate_below`` = 0.6 was chosen on the tune halves of ``benchmarks/data/needs/needs.jsonl``
and ``blind_needs2.jsonl`` (271 needs, every band and the unservable ones): it sends 41 % of
them to the second index, keeps the median search at the first index's cost (22 ms against
133 ms for the second alone, on a loaded 2-core machine) and gets most of the second's gain
(hard Hit@1/@5/@10 0.33/0.72/0.82 → 0.44/0.79/0.85; the second alone 0.51/0.82/0.89), with
"not found" as before (21/42 unservable refused, false "not found" 1/229 → 0/229). Needs that
name their tool escalate less; a stream of everyday needs escalates less than that tune set,
which is weighted towards hard and unservable needs. See docs/results/discovery.md.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from workset.discovery.index import ToolIndex
from workset.discovery.results import Match, SearchConfig, SearchResult
from workset.discovery.scoring import Mode
from workset.errors import UsageError
from workset.messages import ToolSpec
from workset.retrieval.embedder import TextEmbedder

ESCALATE_BELOW = 0.6
_SETTINGS = "cascade.json"


class CascadeIndex:
    """``first`` answers unless its decision is unsure; then ``second`` does (same catalog)."""

    def __init__(
        self, first: ToolIndex, second: ToolIndex, *, escalate_below: float = ESCALATE_BELOW
    ) -> None:
        if not 0.0 <= escalate_below <= 1.0:
            raise UsageError(
                f"escalate_below must be a probability between 0 and 1, got {escalate_below}"
            )
        if first.specs() != second.specs():
            raise UsageError(
                "the two indexes of a cascade must hold the same catalog; build both from the "
                "same servers (CascadeIndex.build does)"
            )
        if not first.has_embeddings:
            raise UsageError(
                "the first index of a cascade needs an embedder: without one it has no decision "
                "to say when it is unsure"
            )
        self.first = first
        self.second = second
        self.escalate_below = escalate_below

    @classmethod
    def build(
        cls,
        servers: Mapping[str, Sequence[ToolSpec]],
        first: TextEmbedder,
        second: TextEmbedder,
        *,
        descriptions: Mapping[str, str] | None = None,
        expansions: Mapping[str, Sequence[str]] | None = None,
        stores: tuple[Path, Path] | None = None,
        config: SearchConfig | None = None,
        escalate_below: float = ESCALATE_BELOW,
    ) -> CascadeIndex:
        """Index ``servers`` with each embedder (see :meth:`ToolIndex.build`); ``stores`` are
        the two vector files, so a rebuild embeds only the texts each has never seen."""
        first_store, second_store = stores if stores is not None else (None, None)
        common: dict[str, Any] = {
            "descriptions": descriptions,
            "expansions": expansions,
            "config": config,
        }
        return cls(
            ToolIndex.build(servers, first, store=first_store, **common),
            ToolIndex.build(servers, second, store=second_store, **common),
            escalate_below=escalate_below,
        )

    def search(self, query: str, k: int = 5, *, also: Sequence[str] = ()) -> SearchResult:
        """:meth:`ToolIndex.search` on the first index, or on the second when the first's
        decision is below ``escalate_below`` (the result is then ``escalated``)."""
        result = self.first.search(query, k=k, also=also)
        if not self._unsure(result):
            return result
        return replace(self.second.search(query, k=k, also=also), escalated=True)

    def rank(
        self, query: str, k: int = 10, mode: Mode = "hierarchical", *, also: Sequence[str] = ()
    ) -> list[Match]:
        """The ranking of the index :meth:`search` would answer from (for benchmarks)."""
        unsure = self._unsure(self.first.search(query, k=min(k, 10), also=also))
        index = self.second if unsure else self.first
        return index.rank(query, k=k, mode=mode, also=also)

    def with_server(self, server: str, specs: Sequence[ToolSpec], **kw: Any) -> CascadeIndex:
        """Both indexes with ``server`` changed (see :meth:`ToolIndex.with_server`)."""
        return CascadeIndex(
            self.first.with_server(server, specs, **kw),
            self.second.with_server(server, specs, **kw),
            escalate_below=self.escalate_below,
        )

    def save(self, folder: Path) -> None:
        """Each index in its own subfolder, and the threshold; see :meth:`load`."""
        self.first.save(folder / "first")
        self.second.save(folder / "second")
        settings = {"escalate_below": self.escalate_below}
        (folder / _SETTINGS).write_text(json.dumps(settings) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, folder: Path, first: TextEmbedder, second: TextEmbedder) -> CascadeIndex:
        """The cascade saved in ``folder``; each embedder must be the one its index was built
        with."""
        path = folder / _SETTINGS
        if not path.is_file():
            raise UsageError(
                f"{folder} holds no saved cascade ({_SETTINGS} is missing); save one with "
                "CascadeIndex.save, or load a single index with ToolIndex.load"
            )
        settings = json.loads(path.read_text(encoding="utf-8"))
        return cls(
            ToolIndex.load(folder / "first", first),
            ToolIndex.load(folder / "second", second),
            escalate_below=float(settings["escalate_below"]),
        )

    def __len__(self) -> int:
        return len(self.first)

    def specs(self) -> tuple[tuple[str, ToolSpec], ...]:
        return self.first.specs()

    def _unsure(self, result: SearchResult) -> bool:
        return result.decision is not None and result.decision.probability < self.escalate_below
