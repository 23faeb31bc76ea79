"""Evidence retrieval on real documents: recall@k and MRR, BM25 vs dense vs hybrid.

Data: ``benchmarks/data/retrieval``: eight documents copied verbatim from this machine (Node.js
docs from the Debian ``nodejs`` package, the pytest-timeout and python-dotenv READMEs and
``dotenv/main.py``; licences in ``LICENSES.md``) and ``questions.json``: 59 questions written
by hand, each labelled with the document and line range(s) that answer it, plus 12 off-topic and
8 on-topic ("near miss") questions that no document answers.

A retrieved chunk is a hit when it comes from the labelled document and its line span overlaps
a labelled range, so the labels do not depend on the chunk sizes being measured.

Measured in one run:

1. recall@k (share of questions with a hit in the top k, k = 1, 3, 5) and MRR (over the 20
   candidates) for BM25 only, dense only and the weighted hybrid, with no threshold;
2. a sweep of the hybrid's BM25 weight, and of the chunk sizes;
3. the not-found threshold: the share of off-topic and near-miss questions answered "not
   found" and of labelled questions answered with something, at several thresholds.

Run: ``python benchmarks/retrieval.py [--data DIR] [--sweep]``.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from workset.evidence import (
    Access,
    CachedEmbedder,
    Chunk,
    ChunkConfig,
    EvidenceIndex,
    RetrievalConfig,
    chunk_document,
    load_documents,
)
from workset.retrieval import Embedder

DATA = Path(__file__).resolve().parent / "data" / "retrieval"
KS = (1, 3, 5)
OPEN = Access()  # every benchmark document is public


@dataclass(frozen=True)
class Question:
    qid: str
    text: str
    doc: str
    ranges: tuple[tuple[int, int], ...]

    def answered_by(self, chunk: Chunk) -> bool:
        return chunk.doc_id == self.doc and any(
            chunk.start_line <= end and start <= chunk.end_line for start, end in self.ranges
        )


def load_questions(data: Path) -> tuple[list[Question], list[str], list[str]]:
    raw = json.loads((data / "questions.json").read_text())
    questions = [
        Question(q["id"], q["question"], q["doc"], tuple((a, b) for a, b in q["lines"]))
        for q in raw["questions"]
    ]
    return questions, list(raw["unrelated"]), list(raw["near_miss"])


def first_hit(index: EvidenceIndex, question: Question, bm25_weight: float) -> int | None:
    """The 1-based rank of the first chunk that answers, among the candidates; None if none."""
    found = index.search(question.text, OPEN, k=index.config.candidates, bm25_weight=bm25_weight)
    for result in found:
        if question.answered_by(result.chunk):
            return result.rank
    return None


def scores(ranks: Sequence[int | None]) -> dict[str, float]:
    n = len(ranks)
    out = {f"R@{k}": sum(1 for r in ranks if r is not None and r <= k) / n for k in KS}
    out["MRR"] = sum(1.0 / r for r in ranks if r is not None) / n
    return out


def evaluate(
    index: EvidenceIndex, questions: Sequence[Question], weight: float
) -> dict[str, float]:
    return scores([first_hit(index, q, weight) for q in questions])


def row(label: str, result: dict[str, float]) -> str:
    cells = "".join(f"{result[key]:>8.2f}" for key in [*(f"R@{k}" for k in KS), "MRR"])
    return f"{label:<28}{cells}"


def header() -> str:
    return f"{'':<28}" + "".join(f"{key:>8}" for key in [*(f"R@{k}" for k in KS), "MRR"])


def build(data: Path, embedder: CachedEmbedder, chunking: ChunkConfig) -> EvidenceIndex:
    documents = load_documents(data / "docs").documents
    chunks = [c for d in documents for c in chunk_document(d, chunking)]
    # No threshold while measuring ranking: every question gets its 20 candidates.
    ranking_only = RetrievalConfig(threshold=-1.0, min_cosine=-1.0)
    return EvidenceIndex.build(chunks, embedder, ranking_only)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--sweep", action="store_true", help="also sweep weights and sizes")
    args = parser.parse_args()
    questions, unrelated, near_miss = load_questions(args.data)
    embedder = CachedEmbedder(Embedder.load(), size=4096)  # queries repeat across settings
    default = RetrievalConfig()
    started = time.perf_counter()
    index = build(args.data, embedder, ChunkConfig())
    print(
        f"{len(index)} chunks from {len({c.doc_id for c in index.chunks})} documents, "
        f"embedded in {time.perf_counter() - started:.1f}s; {len(questions)} questions\n"
    )
    print(header())
    print(row("BM25 only", evaluate(index, questions, 1.0)))
    print(row("dense only", evaluate(index, questions, 0.0)))
    hybrid = f"hybrid (bm25 {default.bm25_weight})"
    print(row(hybrid, evaluate(index, questions, default.bm25_weight)))
    # The same, through the default thresholds (what a caller gets; a refused query is a miss).
    gated = EvidenceIndex(index.chunks, index.vectors, embedder, default)
    print(row(hybrid + ", gated", evaluate(gated, questions, default.bm25_weight)))

    if args.sweep:
        print("\nHybrid BM25 weight (dense = 1 - weight):")
        print(header())
        for weight in (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7):
            print(row(f"  bm25 {weight}", evaluate(index, questions, weight)))
        print("\nChunk sizes (target/max token-ish), hybrid at the default weight:")
        print(header())
        for target, largest in ((100, 200), (200, 400), (300, 600), (400, 800)):
            sized = build(args.data, embedder, ChunkConfig(target, largest))
            label = f"  {target}/{largest} ({len(sized)} chunks)"
            print(row(label, evaluate(sized, questions, default.bm25_weight)))

    print("\nNot found (best visible cosine below the threshold answers nothing):")
    columns = ("off-topic → none", "near-miss → none", "labelled → some")
    print(f"{'threshold':<12}" + "".join(f"{name:>18}" for name in columns))
    for threshold in (0.25, 0.3, 0.35, 0.4, 0.45, 0.5):
        gated = EvidenceIndex(
            index.chunks, index.vectors, embedder, replace(default, threshold=threshold)
        )
        refused = sum(1 for q in unrelated if not gated.search(q, OPEN)) / len(unrelated)
        missed = sum(1 for q in near_miss if not gated.search(q, OPEN)) / len(near_miss)
        answered = sum(1 for q in questions if gated.search(q.text, OPEN)) / len(questions)
        mark = "  (default)" if threshold == default.threshold else ""
        print(f"{threshold:<12}{refused:>18.2f}{missed:>18.2f}{answered:>18.2f}{mark}")


if __name__ == "__main__":
    main()
