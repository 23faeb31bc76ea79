"""Recall: older pieces of the archived trajectory brought back by the current need.

The history is archived whole (the session log keeps every message); a window keeps only the
last turns. Per call, :class:`Recall` ranks the *archived* pieces against the current need:
the query (the last user message, or a probe's question) and the task state (the current
task and this turn's calls so far). A piece is a run of one message's units
(:func:`pieces_of`): a tool result's records (a JSON or YAML document's leaf objects with
their key paths, a log's lines, a table's rows, a note under its heading), or two
neighbouring sentences of a user or assistant message. Ranking fuses BM25 and
all-MiniLM-L6-v2 cosines (``workset.retrieval``) with a weighted sum of min–max normalised
scores, then applies the evidence priors of :mod:`workset.history.evidence` (a piece holding
the kind of value a question asks for, or an identifier it names, goes up; an earlier
question that only restates the need goes down). The best ``k`` pieces (``question_k`` for
a question that asks for no kind of value the priors know, ``request_k`` for a request: "Pull
the manifest" is served by this turn's own results) are quoted back, in history order, in
one pinned block — after the trajectory, or with ``at="task"`` just before the current user
message — within ``share`` of the history's window and, with ``archive_share``, that share
of what the archived messages take (never less than one short excerpt):

* a message or tool result small enough (``whole_tokens``) is quoted whole;
* a larger one is quoted as the chosen runs of its units, runs that touch joined, with a
  reference — ``[seq 41 · tool get_ticket {"ticket_id": "T-1093"} · lines 12-18
  of 40]`` — and the block's header says how to read the rest (call the tool again with the
  same arguments);
* sentences the fact ledger already pins are not quoted again.

Tool output stays untrusted data: the quoted text goes inside ``<external_content>`` with
imitated tags neutralised. Nothing in the trajectory is moved or split, so units stay whole
and the stable prefix is never touched; the block replaces last call's block, after the
trajectory, so the cached trajectory before it is reused. Placed before the current user
message instead (``at="task"``), a changed block also costs the prefill of the task and of
the turn's calls after it.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from workset.context.trust import wrap_untrusted
from workset.history.base import PinnedAt, PolicyContext
from workset.history.draft import CHARS_PER_TOKEN_ESTIMATE, Draft, text_tokens
from workset.history.pieces import Piece, join_units, pieces_of, units_of
from workset.messages import AssistantMessage, Message, ToolMessage, UserMessage

if TYPE_CHECKING:
    from workset.retrieval import TextEmbedder

RECALL_HEADER = (
    "Recalled from earlier (exact quotes; call a quoted tool again with the same arguments "
    "for the rest):"
)
_EMBEDDER: list[TextEmbedder] = []  # loaded once per process, shared by every session
_VECTORS: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()  # (model, text) -> vector
_VECTORS_KEPT = 50_000


def shared_embedder() -> TextEmbedder:
    """The local MiniLM embedder, loaded once per process."""
    if not _EMBEDDER:
        from workset.retrieval import Embedder

        _EMBEDDER.append(Embedder.load())
    return _EMBEDDER[0]


def embed_cached(embedder: TextEmbedder, texts: Sequence[str]) -> np.ndarray:
    """Rows for ``texts``; each text is embedded once per process (sessions and replays of
    one transcript share their pieces)."""
    missing = list(dict.fromkeys(t for t in texts if (embedder.name, t) not in _VECTORS))
    if missing:
        for text, row in zip(missing, embedder.embed(missing), strict=True):
            _VECTORS[(embedder.name, text)] = np.asarray(row, dtype=np.float32)
        while len(_VECTORS) > _VECTORS_KEPT:
            _VECTORS.popitem(last=False)
    return np.stack([_VECTORS[(embedder.name, t)] for t in texts])


class Recall:
    """A layer that quotes the archived pieces that best match the current need."""

    def __init__(
        self,
        *,
        share: float = 0.15,
        k: int = 8,
        bm25_weight: float = 0.4,
        task_weight: float = 0.5,
        whole_tokens: int = 250,
        lines: int = 8,
        min_cosine: float = 0.15,
        min_relative: float = 0.0,
        at: PinnedAt = "end",
        dense: bool = True,
        embedder: TextEmbedder | None = None,
        superseded: Callable[[], Mapping[int, str]] | None = None,
        covered: Callable[[], Mapping[int, Sequence[str]]] | None = None,
        answer_weight: float = 0.0,
        echo_weight: float = 1.0,
        archive_share: float | None = None,
        request_k: int | None = None,
        question_k: int | None = None,
    ) -> None:
        if not 0.0 < share < 1.0:
            raise ValueError(f"share must be between 0 and 1, got {share}")
        if archive_share is not None and not isinstance(archive_share, int | float):
            raise ValueError(
                f"archive_share must be a number (0 for no limit), got {archive_share!r}"
            )
        if at not in ("system", "end", "task"):
            raise ValueError(f"at must be 'system', 'end' or 'task', got {at!r}")
        self.share = share
        self.k = k
        self.bm25_weight = bm25_weight
        self.task_weight = task_weight
        self.whole_tokens = whole_tokens
        self.lines = lines
        self.min_cosine = min_cosine
        self.min_relative = min_relative
        self.at = at
        self.dense = dense
        self.superseded = superseded
        self.covered = covered
        self.answer_weight = answer_weight
        self.archive_share = archive_share
        self.echo_weight = echo_weight
        self.request_k = k if request_k is None else request_k
        self.question_k = k if question_k is None else question_k
        self._embedder = embedder
        self._pieces: dict[int, list[Piece]] = {}  # by seq, computed once
        self._texts: dict[int, str] = {}  # by seq: what a quote of the message is cut from
        self.last: tuple[Piece, ...] = ()  # what the last view recalled (for tests, manifests)

    async def apply(self, draft: Draft, context: PolicyContext) -> Draft:
        kept = {s for b in draft.blocks for s in b.seqs if s is not None}
        pinned = self.covered() if self.covered is not None else {}
        archived = [
            p
            for seq, ps in self._archive(draft).items()
            if seq not in kept
            for p in ps
            if not _said_in(p, pinned.get(seq, ()))
        ]
        need, task = _need(draft, context)
        room = self._room(archived, context)
        if not archived or not (need or task) or room <= REFERENCE_TOKENS:
            self.last = ()  # nothing to recall, or no room to quote anything
            return draft
        scores = self._scores(archived, need, task)
        from workset.history.evidence import asks_for_value, is_question

        if asks_for_value(need):
            k = self.k
        else:
            k = self.question_k if is_question(need) else self.request_k
        chosen = self._choose(archived, scores, draft.history, context, room, k, pinned)
        self.last = tuple(p for q in chosen for p in (q.runs or (q.piece,)))
        if not chosen:
            return draft
        notes = self.superseded() if self.superseded is not None else {}
        block = render(chosen, notes)
        return replace(draft, pinned=(*draft.pinned, block), pinned_at=self.at)

    def _archive(self, draft: Draft) -> dict[int, list[Piece]]:
        calls: dict[str, tuple[str, str]] = {}
        turn = 0
        for seq, message in enumerate(draft.history):
            turn += isinstance(message, UserMessage)
            if isinstance(message, AssistantMessage):
                calls.update((c.id, (c.name, c.arguments)) for c in message.tool_calls)
            if seq not in self._pieces:
                self._pieces[seq] = pieces_of(message, seq, turn, lines=self.lines, calls=calls)
                self._texts[seq] = "\n".join(units_of(message))
        return self._pieces

    def _scores(self, pieces: list[Piece], need: str, task: str) -> np.ndarray:
        """``score(need) + task_weight · score(task)``, each a BM25–cosine fusion."""
        from workset.retrieval import BM25Ranker, fuse_weighted

        texts = [_searchable(p) for p in pieces]
        lexical = BM25Ranker(texts)
        embedder = self._load_embedder()
        vectors = self._embed(pieces, texts, embedder) if embedder is not None else None
        total = np.zeros(len(pieces), dtype=np.float32)
        for query, weight in ((need, 1.0), (task, self.task_weight)):
            if not query.strip() or weight <= 0:
                continue
            bm25 = lexical.scores(query)
            if embedder is None or vectors is None:
                total += weight * fuse_weighted([bm25], [1.0])
                continue
            cosines = vectors @ embed_cached(embedder, [query])[0]
            fused = fuse_weighted([bm25, cosines], [self.bm25_weight, 1 - self.bm25_weight])
            fused[cosines < self.min_cosine] = 0.0
            total += weight * fused
        if self.answer_weight or self.echo_weight != 1.0:
            from workset.history.evidence import evidence_weights

            priors = evidence_weights(
                [_evidence_text(p) for p in pieces],
                [p.who for p in pieces],
                need,
                answer=self.answer_weight,
                echo=self.echo_weight,
            )
            total *= np.asarray(priors, dtype=np.float32)
        return total

    def _embed(self, pieces: list[Piece], texts: list[str], embedder: TextEmbedder) -> np.ndarray:
        return embed_cached(embedder, texts)

    def _load_embedder(self) -> TextEmbedder | None:
        if not self.dense:
            return None
        if self._embedder is None:
            self._embedder = shared_embedder()
        return self._embedder

    def _choose(
        self,
        pieces: list[Piece],
        scores: np.ndarray,
        history: Sequence[Message],
        context: PolicyContext,
        room: int,
        k: int,
        pinned: Mapping[int, Sequence[str]] | None = None,
    ) -> list[Quote]:
        """The best pieces that fit ``share`` of the window, as quotes in history order.

        Pieces of one message are quoted together: what a chosen piece adds to the units
        already chosen costs its own tokens only, and touching runs become one excerpt.
        A user or assistant sentence the ledger pins (``pinned``, by seq) is not quoted
        again: a piece adds only its other sentences, or nothing."""
        budget = room
        best = float(scores.max()) if len(scores) else 0.0
        floor = max(0.0, self.min_relative * best)
        order = [int(i) for i in np.argsort(-scores, kind="stable") if scores[i] > floor]
        taken: dict[int, set[int]] = {}  # seq -> unit indexes (from 0) quoted
        whole: set[int] = set()
        first: dict[int, Piece] = {}  # seq -> the first piece chosen of it (for its reference)
        chosen: dict[int, list[Piece]] = {}  # seq -> its pieces chosen (for their key paths)
        count = 0
        for index in order:
            if count == k:
                break
            piece = pieces[index]
            if piece.seq in whole:
                continue
            message = history[piece.seq]
            units = units_of(message)
            have = taken.get(piece.seq, set())
            if self._whole(message, context):
                new = set(range(len(units))) - have
            else:
                new = set(range(piece.first_line - 1, piece.last_line)) - have
            if piece.who != "tool" and pinned and piece.seq in pinned:
                new = {i for i in new if not _said_in_text(units[i], pinned[piece.seq])}
            if not new:
                continue
            cost = text_tokens(join_units(message, [units[i] for i in sorted(new)]), context)
            cost += 0 if piece.seq in taken else REFERENCE_TOKENS
            if cost > budget:
                continue
            taken.setdefault(piece.seq, set()).update(new)
            first.setdefault(piece.seq, piece)
            chosen.setdefault(piece.seq, []).append(piece)
            if len(taken[piece.seq]) == len(units):
                whole.add(piece.seq)
            budget -= cost
            count += 1
        quotes: list[Quote] = []
        for seq in sorted(taken):
            message = history[seq]
            units = units_of(message)
            runs: list[Piece] = []
            for lo, hi in _runs(sorted(taken[seq])):
                inside = [p for p in chosen[seq] if lo < p.last_line and p.first_line <= hi + 1]
                runs.append(
                    replace(
                        first[seq],
                        text=join_units(message, units[lo : hi + 1]),
                        first_line=lo + 1,
                        last_line=hi + 1,
                        total_lines=len(units),
                        path=_common_path([p.path for p in inside]),
                    )
                )
            if len(runs) == 1:
                quotes.append(Quote(runs[0], runs[0].text, whole=seq in whole))
                continue
            # the runs of one message: one excerpt, one reference, gaps marked
            gap = "\n…\n" if isinstance(message, ToolMessage) else " … "
            text = gap.join(r.text for r in runs)
            piece = replace(runs[0], text=text, last_line=runs[-1].last_line, path="")
            quotes.append(Quote(piece, text, whole=False, runs=tuple(runs)))
        return quotes

    def _room(self, archived: Sequence[Piece], context: PolicyContext) -> int:
        """Tokens the quotes may take: ``share`` of the window, and with ``archive_share``
        no more than that share of what the archived messages take (recall never costs much
        more than a fraction of what it stands in for), but always :data:`MIN_ROOM`."""
        room = int(self.share * context.window)
        if self.archive_share:  # None or 0: no limit by the archive's size
            seqs = {p.seq: p for p in archived}  # a message's pieces overlap: count it once
            chars = sum(len(self._texts.get(seq, "")) for seq in seqs)
            archived_tokens = chars // CHARS_PER_TOKEN_ESTIMATE
            room = min(room, max(MIN_ROOM, int(self.archive_share * archived_tokens)))
        return room - text_tokens(RECALL_HEADER, context)

    def _whole(self, message: Message, context: PolicyContext) -> bool:
        """A message small enough to quote whole rather than cut."""
        text = join_units(message, units_of(message))
        return text_tokens(text, context) <= self.whole_tokens


def _runs(indexes: Sequence[int]) -> list[tuple[int, int]]:
    """Sorted unit indexes as (first, last) runs of neighbours."""
    runs: list[tuple[int, int]] = []
    for index in indexes:
        if runs and runs[-1][1] + 1 == index:
            runs[-1] = (runs[-1][0], index)
        else:
            runs.append((index, index))
    return runs


REFERENCE_TOKENS = 40  # a reference line and the untrusted-data wrapper, roughly
MIN_ROOM = 160  # the room ``archive_share`` always leaves: one short excerpt and its reference


@dataclass(frozen=True, slots=True)
class Quote:
    """What is quoted for a chosen piece: a run of its message's units, or all of them."""

    piece: Piece
    text: str
    whole: bool
    # several runs of one message quoted as one excerpt: each run, with its lines and path
    runs: tuple[Piece, ...] = ()


def render(chosen: Sequence[Quote], superseded: Mapping[int, str] | None = None) -> str:
    """The pinned block: each quote with its reference, tool text wrapped as untrusted data.

    ``superseded`` maps the seq of a message the fact ledger marks revised or rejected to a
    note ("superseded at seq 90"), shown with the quote so an old value never reads as current.
    """
    notes = superseded or {}
    parts = [RECALL_HEADER]
    for quote in chosen:
        piece = quote.piece
        note = f" · {notes[piece.seq]}" if piece.seq in notes else ""
        if piece.who != "tool":
            part = "" if quote.whole else " · excerpt"
            parts.append(f"[seq {piece.seq} · {piece.who}{part}{note}]\n{quote.text}")
            continue
        call = f"tool {piece.tool} {_short(piece.arguments)}"
        if quote.whole:
            where = "whole result"
        elif quote.runs:
            spans = ", ".join(_span(r.first_line, r.last_line, r.path) for r in quote.runs)
            where = f"lines {spans} of {piece.total_lines}"
        elif piece.first_line == piece.last_line:
            where = f"line {piece.first_line} of {piece.total_lines}"
        else:
            where = f"lines {piece.first_line}-{piece.last_line} of {piece.total_lines}"
        at = f" · at {piece.path}" if piece.path and not quote.whole else ""
        columns = f" · columns: {piece.columns}" if piece.columns and piece.first_line > 1 else ""
        reference = f"[seq {piece.seq} · {call} · {where}{at}{columns}{note}]"
        wrapped = wrap_untrusted(quote.text, source=f"tool:{piece.tool}")
        parts.append(f"{reference}\n{wrapped}")
    return "\n\n".join(parts)


def _span(first: int, last: int, path: str) -> str:
    lines = str(first) if first == last else f"{first}-{last}"
    return f"{lines} at {path}" if path else lines


def _short(arguments: str, limit: int = 80) -> str:
    """A call's arguments for a reference line: whole when short (the call is quoted with the
    assistant's message when it matters)."""
    return arguments if len(arguments) <= limit else arguments[: limit - 1] + "…"


def _said_in(piece: Piece, sentences: Sequence[str]) -> bool:
    """Whether the pinned ledger already quotes (nearly) all of a user or assistant piece."""
    if piece.who == "tool" or not sentences:
        return False
    text = piece.text.strip()
    covered = sum(len(s) for s in sentences if s in text) + sum(
        len(text) for s in sentences if text in s
    )
    return covered >= 0.8 * len(text)


def _said_in_text(sentence: str, pinned: Sequence[str]) -> bool:
    """Whether the ledger quotes ``sentence`` (or a sentence that holds it, or is held)."""
    text = sentence.strip()
    return bool(text) and any(text in s or (len(s) > 20 and s in text) for s in pinned)


def _searchable(piece: Piece) -> str:
    if piece.who == "tool":
        # the call's long arguments are ranked with the assistant's message that made it;
        # a record's key path is ranked as words ("site receiving import permit")
        path = re.sub(r"[\W_\d]+", " ", piece.path).strip()
        return f"{piece.tool} {_short(piece.arguments)}\n{piece.head}\n{path}\n{piece.text}"
    return piece.text


def _evidence_text(piece: Piece) -> str:
    """What a piece says with what it is read by: a record's key path, a row's columns."""
    return "\n".join(t for t in (piece.path.replace("_", " "), piece.columns, piece.text) if t)


def _common_path(paths: Sequence[str]) -> str:
    """The key path shared by the records of one quoted run ("" when they share none)."""
    parts = [p.split(".") for p in paths if p]
    if not parts or len(parts) < len(paths):
        return ""
    shared: list[str] = []
    for names in zip(*parts, strict=False):
        if len(set(names)) > 1:
            break
        shared.append(names[0])
    return ".".join(shared)


def _need(draft: Draft, context: PolicyContext) -> tuple[str, str]:
    """The query (what is asked now) and the task state (the task, this turn's calls)."""
    tail = [m for b in draft.blocks[draft.tail_start :] for m in b.messages]
    task_parts: list[str] = []
    last_user = next((m.content for m in tail if isinstance(m, UserMessage)), "")
    query = context.query or last_user
    if last_user and last_user != query:
        task_parts.append(last_user)
    for message in tail:
        if isinstance(message, AssistantMessage):
            task_parts.append(message.content or "")
            task_parts.extend(f"{c.name} {c.arguments}" for c in message.tool_calls)
    return query, "\n".join(p for p in task_parts if p)
