"""Writers racing on PostgreSQL: optimistic locking, dedupe, and no deadlocks under load."""

import threading
import time
from collections.abc import Callable

import pytest
from django.db import connection, transaction

from apps.access.api_keys import create_api_key
from apps.audit.verification import walk_chain
from apps.memory.models import MemoryItem, MemoryVersion
from tests.factories import TenantFactory
from tests.memory.api_helpers import agent_client, remember_body
from tests.remembering import remember


def run_at_once(work: Callable[[int], None], *, workers: int, timeout: float = 60) -> list:
    """Run work(0) … work(workers - 1) on threads released together; each thread closes
    its own connection. Returns what the workers raised (nothing, when all went well)."""
    barrier = threading.Barrier(workers)
    failures: list[BaseException] = []

    def worker(number: int) -> None:
        try:
            barrier.wait(timeout=10)
            work(number)
        except BaseException as exc:  # returned to the test, which asserts on it
            failures.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(number,)) for number in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=timeout)
    return failures


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_writers_patching_the_same_version_get_one_200_and_one_409(postgres_only):
    tenant = TenantFactory(slug="tenant-a")
    key, plaintext = create_api_key(username="racer", tenant=tenant, actor="test-setup")
    item = remember(actor=key.user, payload=remember_body()).item
    url = f"/api/v1/memories/{item.public_id}/"
    statuses: list[int] = []

    def patch(number: int) -> None:
        body = {"version": 1, "content": {"text": f"written by writer {number}"}}
        statuses.append(agent_client(plaintext).patch(url, body, format="json").status_code)

    assert run_at_once(patch, workers=2) == []
    assert sorted(statuses) == [200, 409]
    stored = MemoryItem.objects.get(pk=item.pk)
    assert stored.version == 2
    assert MemoryVersion.objects.filter(item=stored).count() == 2


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_same_memory_written_twice_at_once_is_stored_once(postgres_only):
    tenant = TenantFactory(slug="tenant-a")
    key, plaintext = create_api_key(username="twin", tenant=tenant, actor="test-setup")
    remember(actor=key.user, payload=remember_body(content={"text": "warm-up"}))  # scope exists
    statuses: list[int] = []

    def post(_number: int) -> None:
        response = agent_client(plaintext).post("/api/v1/memories/", remember_body(), format="json")
        statuses.append(response.status_code)

    assert run_at_once(post, workers=2) == []
    assert sorted(statuses) == [200, 201]
    assert MemoryItem.objects.filter(text=remember_body()["content"]["text"]).count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_repeat_queued_behind_its_original_merges_into_it(postgres_only):
    """The twin lookup runs once the dedupe lock is granted, with a fresh snapshot: a repeat
    that waited for its original's transaction sees the committed original and merges.
    (A lookup sharing one statement with the lock would keep the snapshot taken before
    the wait and insert a twin.)"""
    tenant = TenantFactory(slug="tenant-a")
    key, _ = create_api_key(username="twin", tenant=tenant, actor="test-setup")
    agent = key.user
    remember(actor=agent, payload=remember_body(content={"text": "warm-up"}))  # scope exists
    original_uncommitted = threading.Event()
    results: dict[str, object] = {}

    def write(number: int) -> None:
        if number == 0:
            with transaction.atomic():
                results["original"] = remember(actor=agent, payload=remember_body())
                original_uncommitted.set()
                wait_for_a_blocked_advisory_lock()
        else:
            assert original_uncommitted.wait(timeout=10)
            results["repeat"] = remember(actor=agent, payload=remember_body())

    assert run_at_once(write, workers=2) == []
    assert results["repeat"].merged
    assert results["repeat"].item.pk == results["original"].item.pk
    assert MemoryItem.objects.filter(text=remember_body()["content"]["text"]).count() == 1


def wait_for_a_blocked_advisory_lock(timeout: float = 10) -> None:
    """Poll pg_locks until some session of this test database waits for an advisory lock
    (pg_locks shows the whole server: other databases' sessions are not this test's)."""
    deadline = time.monotonic() + timeout
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute(
                "SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
                " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
            )
            if cursor.fetchone():
                return
            time.sleep(0.01)
    raise AssertionError("the repeat never queued for the dedupe lock")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_writers_mixing_new_memories_and_repeats_never_deadlock(postgres_only):
    """Merges lock the item row only: locking its tenant too (a join in FOR UPDATE) made a
    merge wait on the audit lock while the audit lock's holder waited, at commit, on the
    tenant row for its foreign-key check — a deadlock under ordinary concurrent load."""

    tenant = TenantFactory(slug="tenant-a")
    key, _ = create_api_key(username="busy", tenant=tenant, actor="test-setup")
    remember(actor=key.user, payload=remember_body(scope="user:shared"))  # the scope exists
    writers, writes_each = 4, 24

    def writer(number: int) -> None:
        for n in range(writes_each):
            if n % 2:  # a fact every writer also sends: all but the first merge
                body = remember_body(scope="user:shared", content={"text": f"fact {n % 6}"})
            else:
                body = remember_body(scope=f"user:w{number}", content={"text": f"own {n}"})
            remember(actor=key.user, payload=body)

    assert run_at_once(writer, workers=writers) == []
    own, shared, warm_up = writers * writes_each // 2, 3, 1
    assert MemoryItem.objects.filter(scope__tenant=tenant).count() == own + shared + warm_up
    assert walk_chain().ok


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_repeats_and_contradictions_of_one_fact_at_once_never_deadlock(postgres_only):
    """A merge locks the existing item to update it while a contradicting write opens a
    conflict that references the same item (a foreign-key check at commit). The merge's
    lock must not block that check: the conflict's writer holds the audit chain's lock,
    which the merge waits for next."""
    from apps.conflicts.models import Conflict

    tenant = TenantFactory(slug="tenant-a")
    key, _ = create_api_key(username="busy", tenant=tenant, actor="test-setup")
    fact = remember_body(key="seat.preference", content={"text": "Window seat"})
    original = remember(actor=key.user, payload=fact).item
    writers, writes_each = 4, 15

    def writer(number: int) -> None:
        for n in range(writes_each):
            # Odd writers contradict the fact (a conflict against the original); even
            # writers repeat it (merged into the original).
            body = {**fact, "content": {"text": f"Aisle seat {number}-{n}"}} if number % 2 else fact
            remember(actor=key.user, payload=body)

    assert run_at_once(writer, workers=writers) == []
    original.refresh_from_db()
    assert original.access_count == (writers // 2) * writes_each
    assert Conflict.objects.count() == (writers // 2) * writes_each
    assert walk_chain().ok


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_repeats_and_replacements_of_a_last_write_wins_fact_never_deadlock(postgres_only):
    """A merge locks the current value to update it; a new value supersedes the current
    one, locking it after it has taken the audit chain's lock. Row locks come after the
    chain's lock everywhere, so neither can hold what the other waits for."""

    tenant = TenantFactory(slug="tenant-a", lww_key_patterns=["seat.*"])
    key, _ = create_api_key(username="busy", tenant=tenant, actor="test-setup")
    fact = remember_body(key="seat.preference", content={"text": "Window seat"})
    remember(actor=key.user, payload=fact)
    writers, writes_each = 4, 15

    def writer(number: int) -> None:
        for n in range(writes_each):
            # Odd writers send a new value (it supersedes whatever is current); even
            # writers repeat the original (merged into it while it is current).
            body = {**fact, "content": {"text": f"Aisle seat {number}-{n}"}} if number % 2 else fact
            remember(actor=key.user, payload=body)

    assert run_at_once(writer, workers=writers) == []
    current = MemoryItem.objects.filter(scope__tenant=tenant, key="seat.preference")
    assert current.filter(status="active").count() == 1
    assert walk_chain().ok


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_mixed_concurrent_workload_completes_without_deadlocks(postgres_only):
    """Agents writing, repeating, replacing and contradicting facts, recalling them (whose
    accesses are recorded), giving feedback and forgetting, all at once: every operation
    completes and the audit chain stays intact."""
    import random

    from apps.memory.recall import recall_memories
    from apps.memory.services import forget_item, give_feedback

    tenant = TenantFactory(slug="tenant-a", lww_key_patterns=["seat.*"])
    key, _ = create_api_key(username="busy", tenant=tenant, actor="test-setup")
    agent = key.user
    for scope in ("user:a", "user:b"):
        remember(actor=agent, payload=remember_body(scope=scope, key="seat.pref"))
        remember(actor=agent, payload=remember_body(scope=scope, key="diet"))
    writers, operations_each = 4, 25

    def operate(number: int) -> None:
        rng = random.Random(number)
        for n in range(operations_each):
            scope = rng.choice(["user:a", "user:b"])
            choice = rng.randrange(6)
            if choice == 0:  # repeat the original (merge while current)
                remember(actor=agent, payload=remember_body(scope=scope, key="seat.pref"))
            elif choice == 1:  # replace a last-write-wins value
                body = remember_body(scope=scope, key="seat.pref", content={"text": f"s{n}"})
                remember(actor=agent, payload=body)
            elif choice == 2:  # contradict a reviewed key (conflict)
                body = remember_body(scope=scope, key="diet", content={"text": f"d{n}"})
                remember(actor=agent, payload=body)
            elif choice == 3:  # recall; its accesses are recorded after commit
                recall_memories(actor=agent, tenant="tenant-a", scope_key=scope, query="seat")
            elif choice == 4:
                item = MemoryItem.objects.filter(status="active").order_by("?").first()
                give_feedback(item_id=item.pk, signal="positive", actor=agent)
            else:
                fresh = remember_body(scope=scope, content={"text": f"note {number}-{n}"})
                forget_item(item_id=remember(actor=agent, payload=fresh).item.pk, actor=agent)

    assert run_at_once(operate, workers=writers, timeout=90) == []
    for scope in ("a", "b"):
        current = MemoryItem.objects.filter(
            scope__external_id=scope, key="seat.pref", status="active"
        )
        assert current.count() == 1
    assert walk_chain().ok
