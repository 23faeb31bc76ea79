"""Manifests are stored as deltas against an earlier call of the session, and every call's
manifest is rebuilt exactly: in order, out of order, after reopening the store, across the
whole chains a long session makes. Each test runs on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import random

from workset.context.manifest import (
    BudgetNumbers,
    IncludedItem,
    Manifest,
    OmittedItem,
    PrefixInfo,
)
from workset.events import ModelCalled
from workset.log.manifest_delta import KEYFRAME_EVERY
from workset.messages import AssistantMessage
from workset.models.base import Usage
from workset.stores import open_store


def growing_manifests(sid: str, calls: int, seed: int = 7) -> list[Manifest]:
    """A session's manifests as a window policy makes them: new messages at the end, the
    oldest dropped now and then, a status item last, budgets and prefix numbers moving."""
    rng = random.Random(seed)
    first, last = 0, 3
    manifests = []
    for n in range(calls):
        last += rng.randint(1, 3)
        if rng.random() < 0.2:
            first += rng.randint(1, 4)
        trajectory = [
            IncludedItem(f"seq:{i}", "trajectory", "log", 3 + i % 7, 2 + k, "trajectory", seq=i)
            for k, i in enumerate(range(first, last))
        ]
        head = [
            IncludedItem("system", "instruction", "system_prompt", 40, 0, "system"),
            IncludedItem("tools", "tool", "tool_definitions", 90, 1, "tools"),
        ]
        status = IncludedItem(f"suffix:{n}", "status", "suffix:status", 12, 2 + len(trajectory),
                              "status", why=f"call {n}")  # fmt: skip
        omitted = tuple(
            OmittedItem(f"seq:{i}", "trajectory", "log", 4, "policy", seq=i) for i in range(first)
        )
        manifests.append(
            Manifest(
                f"{sid}-c{n}",
                sid,
                last,
                500 + 3 * n,
                "exact",
                BudgetNumbers(8192, 512, 64, 130, 7486, 300 + n),
                {"system": 40, "tools": 90, "trajectory": 300 + n, "status": 12},
                PrefixInfo("h", 130, 120 + n, 480 + n, server_cached_tokens=n or None),
                included=(*head, *trajectory, status),
                omitted=omitted,
                history_policy="window",
                notes={"call": str(n)} if n % 5 == 0 else {},
            )
        )
    return manifests


def called(sid: str, manifest: Manifest, n: int) -> ModelCalled:
    message = AssistantMessage(f"step {n}")
    return ModelCalled("run1", sid, n, manifest, message, Usage(500, 5), float(n))


def test_every_manifest_is_rebuilt_exactly_after_reopening(backend_url: str) -> None:
    calls = KEYFRAME_EVERY + 5
    with open_store(backend_url) as stores:
        sid = stores.log.create_session(title="t", workspace="", model="m")
        written = growing_manifests(sid, calls)
        seqs = [stores.log.append(called(sid, m, n)) for n, m in enumerate(written)]

    with open_store(backend_url) as stores:  # nothing remembered: every chain read cold
        order = list(range(calls))
        random.Random(3).shuffle(order)
        for n in order:
            event = stores.log.record(seqs[n]).event
            assert isinstance(event, ModelCalled) and event.manifest == written[n]
    with open_store(backend_url) as stores:
        assert [m for _, m in stores.log.manifests(sid)] == written


def test_manifests_of_a_long_session_take_a_fraction_of_their_full_size(
    backend_url: str,
) -> None:
    from workset.log.codec import event_to_payload

    with open_store(backend_url) as stores:
        sid = stores.log.create_session(title="t", workspace="", model="m")
        written = growing_manifests(sid, 60)
        for n, manifest in enumerate(written):
            stores.log.append(called(sid, manifest, n))
        full = sum(
            len(json.dumps(event_to_payload(called(sid, m, n)), separators=(",", ":")))
            for n, m in enumerate(written)
        )
        if stores.url.backend == "sqlite":
            import sqlite3

            assert stores.url.path is not None
            with sqlite3.connect(stores.url.path) as db:
                kept = db.execute("SELECT sum(length(payload)) FROM events").fetchone()[0]
        else:
            import psycopg

            with psycopg.connect(stores.url.dsn) as conn:
                row = conn.execute("SELECT sum(length(payload)) FROM events").fetchone()
                assert row is not None
                kept = row[0]
        assert kept < full / 3


def test_interleaved_sessions_each_keep_their_own_chain(backend_url: str) -> None:
    with open_store(backend_url) as stores:
        a = stores.log.create_session(title="a", workspace="", model="m")
        b = stores.log.create_session(title="b", workspace="", model="m")
        ma, mb = growing_manifests(a, 12, seed=1), growing_manifests(b, 12, seed=2)
        for n in range(12):
            stores.log.append(called(a, ma[n], n))
            stores.log.append(called(b, mb[n], n))
    with open_store(backend_url) as stores:
        assert [m for _, m in stores.log.manifests(b)] == mb
        assert [m for _, m in stores.log.manifests(a)] == ma
