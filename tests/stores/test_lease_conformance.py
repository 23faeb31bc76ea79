"""Leases on every backend: one holder at a time, taken over only once expired, renewed in
one step, released at once; what has expired is what a dead holder left."""

from __future__ import annotations

import threading

from workset.stores import LeaseStore, Stores, open_store


def test_only_one_holder_at_a_time_until_the_lease_expires(stores: Stores) -> None:
    leases: LeaseStore = stores.leases
    assert isinstance(leases, LeaseStore)
    assert leases.acquire("session:s1", "a", 10.0, now=100.0)
    assert leases.acquire("session:s1", "a", 10.0, now=101.0)  # its own: extended
    assert not leases.acquire("session:s1", "b", 10.0, now=105.0)
    assert leases.holder("session:s1", now=105.0) == "a"
    assert leases.expired(now=105.0) == []

    assert leases.expired(now=112.0, prefix="session:") == ["session:s1"]  # a died
    assert leases.acquire("session:s1", "b", 10.0, now=112.0)
    assert leases.holder("session:s1", now=112.0) == "b"
    assert leases.renew(["session:s1"], "a", 10.0, now=113.0) == frozenset()  # a lost it


def test_renewal_extends_only_the_holders_leases_and_release_frees_them(stores: Stores) -> None:
    leases = stores.leases
    for name in ("x", "y"):
        assert leases.acquire(name, "a", 5.0, now=0.0)
    assert leases.acquire("z", "b", 5.0, now=0.0)
    assert leases.renew(["x", "y", "z"], "a", 5.0, now=4.0) == frozenset({"x", "y"})
    assert leases.expired(now=6.0) == ["z"]
    leases.release("x", "a")
    leases.release("y", "b")  # not b's: nothing happens
    assert leases.holder("x", now=6.0) is None and leases.holder("y", now=6.0) == "a"
    assert leases.acquire("x", "c", 5.0, now=6.0)


def test_workers_racing_for_a_free_lease_get_it_exactly_once(backend_url: str) -> None:
    winners: list[str] = []

    def race(name: str) -> None:
        with open_store(backend_url) as mine:
            if mine.leases.acquire("session:hot", name, 30.0, now=1.0):
                winners.append(name)

    threads = [threading.Thread(target=race, args=(f"w{n}",)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(winners) == 1
