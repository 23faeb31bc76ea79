"""Every memory backend keeps the same rules: records with provenance come back as stored,
search finds a subject's records by word and never another tenant's, untrusted provenance is
quarantined until a person releases it, a model's words are never a user fact, a delete is
real. Each test runs on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest

from workset.errors import UsageError
from workset.memory import MemoryRecord, load_memory
from workset.stores import MemoryBackend, Stores


@pytest.fixture
def memory(stores: Stores) -> MemoryBackend:
    return stores.memory()


def add(memory: MemoryBackend, text: str, **fields: Any) -> MemoryRecord:
    values: dict[str, Any] = {
        "subject": "ana", "tenant": "acme", "purpose": "*", "source": "user_stated",
        "provenance": "session:s1/seq:4", **fields,
    }  # fmt: skip
    return memory.add(text=text, **values)


def test_both_backends_satisfy_the_memory_protocol(memory: MemoryBackend) -> None:
    assert isinstance(memory, MemoryBackend)


def test_records_come_back_as_stored_and_in_order(memory: MemoryBackend) -> None:
    first = add(memory, "Ana prefers tickets filed under employee 4417", created_at=10.0)
    second = add(memory, "Ana works from Lisbon", created_at=20.0, expires_at=99.0, pinned=True)
    assert memory.records("acme", "ana") == [first, second]
    assert memory.get(second.memory_id) == second
    assert memory.find_pinned("acme", "ana", "Ana works from Lisbon") == second
    assert memory.records("acme", "bob") == []


def test_search_finds_words_of_one_subject_and_never_another_tenants(
    memory: MemoryBackend,
) -> None:
    lisbon = add(memory, "Ana works from the Lisbon office")
    add(memory, "Ana likes short answers")
    add(memory, "Lisbon office is closed on Fridays", tenant="other")
    found = memory.search("which office? Lisbon", "acme", "ana")
    assert found == [lisbon]
    assert memory.search("...", "acme", "ana") == []
    with pytest.raises(UsageError, match="at least 1"):
        memory.search("x", "acme", "ana", limit=0)


def test_untrusted_content_is_quarantined_until_a_person_releases_it(
    memory: MemoryBackend,
) -> None:
    fetched = add(memory, "The VPN password rotates monthly", source="system_record",
                  provenance="tool:fetch_url")  # fmt: skip
    assert fetched.status == "quarantined"
    assert memory.quarantined("acme") == [fetched]
    facts, _ = load_memory(memory.records("acme", "ana"), "ana", "acme", "*", memory.now())
    assert fetched not in facts
    released = memory.release(fetched.memory_id, approved_by="it-admin")
    assert released.status == "active" and "approved_by:it-admin" in released.provenance
    assert memory.quarantined() == []


def test_a_models_words_are_never_stored_as_a_user_fact(memory: MemoryBackend) -> None:
    with pytest.raises(UsageError, match="model_inferred"):
        add(memory, "Ana is probably a manager", provenance="model:qwen")
    hypothesis = add(memory, "Ana is probably a manager", source="model_inferred",
                     provenance="model:qwen")  # fmt: skip
    assert hypothesis.source == "model_inferred"


def test_a_deleted_memory_is_gone_from_reads_and_search(memory: MemoryBackend) -> None:
    kept = add(memory, "Ana uses vim")
    gone = add(memory, "Ana's badge number is 99121")
    assert memory.delete(gone.memory_id)
    assert not memory.delete(gone.memory_id)
    assert memory.records("acme", "ana") == [kept]
    assert memory.search("badge 99121", "acme", "ana") == []
    with pytest.raises(UsageError, match="no memory with id"):
        memory.quarantine(gone.memory_id)
