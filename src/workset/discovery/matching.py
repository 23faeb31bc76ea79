"""From the scores of one search to its candidates (:class:`~workset.discovery.results.Match`).

With embeddings each match carries the :class:`~workset.discovery.decision.Evidence` the
"not found" decision reads (cosines, margin, shared words, the act a need commands and
whether the tool offers it); without, only the score and the words shared with the need.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from workset.discovery.decision import OUTBOUND, Evidence, names_act
from workset.discovery.entries import Entry
from workset.discovery.restate import capability
from workset.discovery.results import Match
from workset.discovery.rewrite import action_word
from workset.discovery.scoring import Scored
from workset.retrieval.ranking import tokenize


def ranked_matches(
    query: str,
    scored: Scored,
    k: int,
    entries: Sequence[Entry],
    words: Sequence[frozenset[str]],
    server_of: np.ndarray[Any, Any],
) -> list[Match]:
    """The best ``k`` tools by ``scored.ranked``, best first, with their evidence.

    ``words`` are each tool's lexical words and ``server_of`` its server, both in entry order.
    """
    need_words = set(tokenize(query))
    action = action_word(query)
    acts = [a for a in (action, *map(action_word, scored.others)) if a in OUTBOUND]
    restated_words = [set(tokenize(capability(o))) for o in scored.others]
    restated_best = float(scored.restated.max()) if scored.restated is not None else 0.0
    order = [int(i) for i in np.argsort(-scored.ranked, kind="stable")[:k]]
    server_order = list(np.argsort(-scored.server_scores, kind="stable"))
    out = []
    for position, i in enumerate(order):
        entry = entries[i]
        shared = sorted(need_words & words[i])
        evidence = None
        if scored.dense is not None:
            assert scored.whole is not None and scored.examples is not None
            assert scored.server_cosines is not None
            runner_up = order[position + 1] if position + 1 < len(order) else None
            server = int(server_of[i])
            evidence = Evidence(
                cosine=float(scored.dense[i]),
                document_cosine=float(scored.whole[i]),
                example_cosine=float(scored.examples[i]),
                margin=float(scored.dense[i] - scored.dense[runner_up])
                if runner_up is not None
                else 0.0,
                lexical=len(shared) / len(need_words) if need_words else 0.0,
                server_cosine=float(scored.server_cosines[server]),
                server_rank=server_order.index(server),
                shared_words=tuple(shared),
                has_examples=bool(entry.examples),
                action_covered=action is None or action in words[i],
                action=action or "",
                restated=bool(scored.others),
                restated_cosine=restated_best,
                restated_lexical=max(
                    (len(w & words[i]) / len(w) for w in restated_words if w),
                    default=0.0,
                ),
                unoffered=next((a for a in acts if not names_act(words[i], a)), ""),
            )
        out.append(
            Match(
                entry.server,
                entry.spec.name,
                float(scored.ranked[i]),
                _why(shared, evidence),
                entry.spec,
                evidence,
            )
        )
    return out


def _why(shared: Sequence[str], evidence: Evidence | None) -> str:
    reasons = [f"shares words: {', '.join(shared[:6])}" if shared else "no shared words"]
    if evidence is not None:
        reasons.append(f"meaning similarity {evidence.cosine:.2f}")
    return "; ".join(reasons)
