from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workset.context.items import Scope
from workset.errors import UsageError
from workset.evidence import (
    Access,
    Chunk,
    Document,
    EvidenceIndex,
    RetrievalConfig,
    chunk_document,
)
from workset.retrieval import TextEmbedder

TEXTS = {
    "db.md": "# Database\n\nWhen the connection pool is exhausted, restart the worker and raise "
    "max_connections in postgresql.conf.\n\n## Backups\n\nBackups run nightly at 02:00 UTC and "
    "are kept for 30 days in the cold storage bucket.",
    "deploy.md": "# Deploys\n\nDeploys go out with `make release`; roll back with `make "
    "rollback VERSION=<tag>`.\n\n## Freeze\n\nNo deploys on Fridays after 15:00.",
    "billing.md": "# Billing\n\nInvoices are issued on the first day of the month. Refunds "
    "need approval from finance within 14 days.",
    "oncall.md": "# On-call\n\nThe on-call engineer is paged through the incident channel; "
    "escalate to the team lead after 30 minutes without acknowledgement.",
    "vpn.md": "# VPN\n\nConnect to the office VPN with the WireGuard profile from the IT portal.",
}


def corpus() -> list[Chunk]:
    docs = [Document(name, text, "v1", format="markdown") for name, text in TEXTS.items()]
    return [chunk for doc in docs for chunk in chunk_document(doc)]


@pytest.fixture(scope="module")
def index(embedder: TextEmbedder) -> EvidenceIndex:
    return EvidenceIndex.build(corpus(), embedder)


def restricted(
    index: EvidenceIndex, rules: dict[int, tuple[Scope, frozenset[str]]]
) -> EvidenceIndex:
    """The same chunks and vectors, with scopes and permissions assigned per chunk."""
    chunks = [
        replace(c, scope=rules[i][0], permissions=rules[i][1]) if i in rules else c
        for i, c in enumerate(index.chunks)
    ]
    return EvidenceIndex(chunks, index.vectors, index.embedder, index.config)


def test_a_related_question_finds_the_section_that_answers_it(index: EvidenceIndex) -> None:
    found = index.search("how long are backups retained?", Access())
    assert found[0].doc_id == "db.md"
    assert found[0].heading == ("Database", "Backups")
    assert found[0].span == (5, 7)
    assert 0 < len(found) <= 4
    assert [e.rank for e in found] == list(range(1, len(found) + 1))
    assert found[0].fused == max(e.fused for e in found)
    assert found[0].dense > 0.3 and found[0].bm25 > 0


def test_an_unrelated_question_finds_nothing(index: EvidenceIndex) -> None:
    assert index.search("what is a good recipe for lemon cake?", Access()) == []


def test_k_limits_the_results(index: EvidenceIndex) -> None:
    assert len(index.search("deploys and backups", Access(), k=1)) == 1


def test_a_chunk_of_another_tenant_is_never_returned(index: EvidenceIndex) -> None:
    db_chunks = {
        i: (Scope(tenant="globex"), frozenset[str]())
        for i, c in enumerate(index.chunks)
        if c.doc_id == "db.md"
    }
    guarded = restricted(index, db_chunks)
    query = "how long are backups retained?"
    assert all(e.doc_id != "db.md" for e in guarded.search(query, Access(Scope(tenant="acme"))))
    assert guarded.search(query, Access(Scope(tenant="globex")))[0].doc_id == "db.md"


def test_a_permission_restricted_chunk_needs_one_of_its_groups(index: EvidenceIndex) -> None:
    rules = {
        i: (Scope(), frozenset({"finance", "admin"}))
        for i, c in enumerate(index.chunks)
        if c.doc_id == "billing.md"
    }
    guarded = restricted(index, rules)
    query = "who approves refunds?"
    assert all(e.doc_id != "billing.md" for e in guarded.search(query, Access()))
    allowed = guarded.search(query, Access(permissions=frozenset({"finance"})))
    assert allowed[0].doc_id == "billing.md"


_SCOPES = st.sampled_from([Scope(), Scope("acme"), Scope("globex"), Scope("acme", "ana")])
_GROUPS = st.frozensets(st.sampled_from(["ops", "finance", "admin"]), max_size=2)
_QUERIES = st.sampled_from(
    ["restart the worker", "refund approval", "roll back a deploy", "VPN profile", "paging"]
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    rules=st.dictionaries(st.integers(0, 7), st.tuples(_SCOPES, _GROUPS)),
    caller=st.tuples(_SCOPES, _GROUPS),
    query=_QUERIES,
)
def test_results_are_exactly_those_of_an_index_holding_only_the_visible_chunks(
    index: EvidenceIndex,
    rules: dict[int, tuple[Scope, frozenset[str]]],
    caller: tuple[Scope, frozenset[str]],
    query: str,
) -> None:
    guarded = restricted(index, rules)
    access = Access(*caller)
    found = guarded.search(query, access, k=20)
    assert all(access.allows(e.chunk) for e in found)
    # Hidden chunks are not scored at all: neither BM25 statistics nor the score
    # normalisation see them, so the results equal those of an index without them.
    visible = [i for i, c in enumerate(guarded.chunks) if access.allows(c)]
    if not visible:
        assert found == []
        return
    assert guarded.vectors is not None
    alone = EvidenceIndex(
        [guarded.chunks[i] for i in visible], guarded.vectors[visible], guarded.embedder
    )
    expected = alone.search(query, Access(caller[0], caller[1]), k=20)
    assert [(e.chunk.chunk_id, e.bm25, e.fused) for e in found] == [
        (e.chunk.chunk_id, e.bm25, e.fused) for e in expected
    ]


def test_without_an_embedder_the_index_is_lexical_and_finds_nothing_without_shared_words() -> None:
    index = EvidenceIndex.build(corpus(), None)
    found = index.search("restart worker pool", Access())
    assert found[0].doc_id == "db.md" and found[0].dense == 0.0
    assert index.search("lemon cake recipe", Access()) == []


def test_a_single_visible_chunk_that_matches_is_fully_relevant(index: EvidenceIndex) -> None:
    only_vpn = {
        i: (Scope("other"), frozenset[str]())
        for i, c in enumerate(index.chunks)
        if c.doc_id != "vpn.md"
    }
    found = restricted(index, only_vpn).search("how do I connect to the VPN?", Access())
    assert [(e.doc_id, e.fused) for e in found] == [("vpn.md", 1.0)]


def test_an_empty_query_or_index_is_refused(index: EvidenceIndex) -> None:
    with pytest.raises(UsageError, match="query is empty"):
        index.search("  ", Access())
    with pytest.raises(UsageError, match="no chunks"):
        EvidenceIndex.build([], None)
    with pytest.raises(UsageError, match="k <= candidates"):
        RetrievalConfig(k=30, candidates=20)
