"""Bulk detection over data that arrived without the gate (imports, restores)."""

import threading
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import connection
from django.utils import timezone

from apps.conflicts.models import Conflict, DetectedBy
from apps.conflicts.services import AlreadyResolved, detect_conflicts, resolve_conflict
from apps.conflicts.tasks import detect_conflicts_task
from apps.memory.content import content_hash, render_text
from apps.memory.models import MemoryItem, MemoryStatus
from tests.conflicts.factories import ConflictFactory
from tests.factories import ScopeFactory


def imported(scope, key, content, age_days):
    """An item as an importer writes it: bulk_create, no gate, no version history."""
    return MemoryItem(
        tenant=scope.tenant,
        scope=scope,
        memory_type="semantic",
        key=key,
        content=content,
        text=render_text(content),
        content_hash=content_hash(content),
        source_kind="import",
        last_access_at=timezone.now(),
        created_at=timezone.now() - timedelta(days=age_days),
    )


@pytest.fixture
def imported_scope(tenant_a):
    scope = ScopeFactory(tenant=tenant_a)
    rows = [
        imported(scope, "address.city", {"city": "Shanghai"}, 30),
        imported(scope, "address.city", {"city": "Beijing"}, 2),
        imported(scope, "preference.drink", {"drink": "tea"}, 20),
        imported(scope, "preference.drink", {"drink": "coffee"}, 10),
        imported(scope, "preference.drink", {"drink": "Tea "}, 5),  # same value, normalised
        imported(scope, "preference.food", {"food": "noodles"}, 5),
        imported(scope, "", {"text": "no key"}, 5),
    ]
    created = MemoryItem.objects.bulk_create(rows)
    # created_at is auto_now_add: restate the import's own timestamps.
    for row, original in zip(created, rows, strict=True):
        MemoryItem.objects.filter(pk=row.pk).update(created_at=original.created_at)
    return scope


def by_value(scope, key, field):
    return {i.content[field]: i for i in MemoryItem.objects.filter(scope=scope, key=key)}


@pytest.mark.django_db
def test_bulk_scan_applies_lww_and_opens_conflicts_for_the_rest(imported_scope):
    report = detect_conflicts(actor="test")
    assert (report.groups, report.superseded, report.opened) == (2, 1, 1)
    cities = by_value(imported_scope, "address.city", "city")
    assert cities["Beijing"].status == MemoryStatus.ACTIVE
    assert cities["Shanghai"].status == MemoryStatus.SUPERSEDED
    assert cities["Shanghai"].superseded_by_id == cities["Beijing"].pk
    drinks = by_value(imported_scope, "preference.drink", "drink")
    assert drinks["tea"].status == MemoryStatus.ACTIVE  # the standing value is the oldest
    assert drinks["Tea "].status == MemoryStatus.ACTIVE  # a duplicate is no contradiction
    assert drinks["coffee"].status == MemoryStatus.PENDING_REVIEW
    conflict = Conflict.objects.get()
    assert conflict.detected_by == DetectedBy.BULK_SCAN
    assert (conflict.existing_item, conflict.incoming_item) == (drinks["tea"], drinks["coffee"])


@pytest.mark.django_db
def test_bulk_scan_is_idempotent(imported_scope):
    detect_conflicts(actor="test")
    again = detect_conflicts(actor="test")
    assert (again.groups, again.superseded, again.opened) == (0, 0, 0)
    assert Conflict.objects.count() == 1


@pytest.mark.django_db
def test_bulk_scan_can_be_limited_to_a_tenant_or_scopes(imported_scope, tenant_b):
    assert detect_conflicts(tenant=tenant_b, actor="test").groups == 0
    assert detect_conflicts(scope_ids=[imported_scope.pk + 1000], actor="test").groups == 0
    assert detect_conflicts(scope_ids=[imported_scope.pk], actor="test").groups == 2


@pytest.mark.django_db
def test_bulk_scan_resolution_can_be_undone_on_imported_rows(imported_scope, operator_a):
    from apps.conflicts.services import revert_resolution

    detect_conflicts(actor="test")
    conflict = Conflict.objects.get()
    resolve_conflict(conflict_id=conflict.pk, resolution="keep_new", actor=operator_a, reason="r")
    revert_resolution(conflict_id=conflict.pk, actor=operator_a)
    drinks = by_value(imported_scope, "preference.drink", "drink")
    assert drinks["tea"].status == MemoryStatus.ACTIVE
    assert drinks["coffee"].status == MemoryStatus.PENDING_REVIEW


@pytest.mark.django_db
def test_management_command_and_task_run_the_scan(imported_scope, capsys):
    call_command("detect_conflicts", "--tenant", imported_scope.tenant.slug)
    assert "groups=2 superseded=1 opened=1" in capsys.readouterr().out
    assert detect_conflicts_task.delay().get() == {"groups": 0, "superseded": 0, "opened": 0}


@pytest.mark.django_db(transaction=True)
def test_concurrent_resolutions_one_wins_the_other_is_told(postgres_only, tenant_a, operator_a):
    from apps.access.roles import Role
    from apps.access.services import grant_role
    from tests.factories import UserFactory

    second = UserFactory(username="operator_a2")
    grant_role(user=second, role=Role.OPERATOR, target=tenant_a, actor="test")
    conflict = ConflictFactory(scope=ScopeFactory(tenant=tenant_a))
    barrier = threading.Barrier(2)
    outcomes: dict[str, str] = {}

    def attempt(actor, resolution):
        try:
            barrier.wait()
            resolve_conflict(
                conflict_id=conflict.pk, resolution=resolution, actor=actor, reason="race"
            )
            outcomes[actor.username] = "won"
        except AlreadyResolved as exc:
            outcomes[actor.username] = exc.message
        finally:
            connection.close()

    threads = [
        threading.Thread(target=attempt, args=(operator_a, "keep_new")),
        threading.Thread(target=attempt, args=(second, "keep_old")),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes.values())[-1] == "won"
    loser_message = sorted(outcomes.values())[0]
    assert "already resolved" in loser_message
    conflict.refresh_from_db()
    winner = operator_a if outcomes["operator_a"] == "won" else second
    assert conflict.resolved_by == winner
    new = MemoryItem.objects.get(pk=conflict.incoming_item_id)
    expected = MemoryStatus.ACTIVE if winner == operator_a else MemoryStatus.REJECTED
    assert new.status == expected
    assert new.versions.filter(change="conflict.resolved").count() == 1


@pytest.mark.django_db(transaction=True)
def test_concurrent_lww_writes_leave_exactly_one_active_value(postgres_only, tenant_a):
    from tests.conflicts.factories import fact, write_through_conflict_stage

    scope = ScopeFactory(tenant=tenant_a)
    fact(scope, "address.city", {"city": "Shanghai"})
    barrier = threading.Barrier(2)

    def write(city):
        try:
            barrier.wait()
            # A pause between insert and supersession widens the race window. Writes are
            # serialised today by the audit chain's lock as well as by the (scope, key)
            # lock of the conflict stage; this pins the outcome whichever remains.
            write_through_conflict_stage(
                scope=scope,
                key="address.city",
                content={"city": city},
                pause_before_callbacks=0.2,
            )
        finally:
            connection.close()

    threads = [threading.Thread(target=write, args=(city,)) for city in ("Beijing", "Hangzhou")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    active = MemoryItem.objects.filter(scope=scope, key="address.city", status="active")
    assert active.count() == 1
    assert MemoryItem.objects.filter(scope=scope, status="superseded").count() == 2
