"""delete_items: the one hard delete of memory items (quarantine reject, blast radius,
erasure), set-based, taking versions with it and leaving other apps' rows unlinked."""

import ast
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.audit.models import Action
from apps.conflicts.models import Conflict
from apps.memory.models import MemoryItem, MemoryStatus, MemoryVersion
from apps.memory.services import delete_items, update_item
from apps.quarantine.models import QuarantineEntry
from tests.conflicts.factories import ConflictFactory
from tests.factories import MemoryItemFactory, ScopeFactory
from tests.quarantine.factories import QuarantineEntryFactory

pytestmark = pytest.mark.django_db

APPS = Path(__file__).resolve().parents[2] / "apps"


def items_with_history(scope, count: int) -> list[MemoryItem]:
    items = [MemoryItemFactory(scope=scope) for _ in range(count)]
    for item in items:
        update_item(
            item_id=item.pk, changes={"importance": 0.9}, actor="t", action=Action.MEMORY_UPDATED
        )
    return items


def test_deleting_items_takes_their_versions_and_nothing_else(tenant_a):
    scope = ScopeFactory(tenant=tenant_a)
    doomed = items_with_history(scope, 3)
    kept = items_with_history(scope, 1)[0]
    assert delete_items(item_ids=[item.pk for item in doomed]) == 3
    assert list(MemoryItem.objects.values_list("pk", flat=True)) == [kept.pk]
    assert set(MemoryVersion.objects.values_list("item_id", flat=True)) == {kept.pk}


def test_rows_of_other_apps_keep_their_row_without_the_link(tenant_a):
    entry = QuarantineEntryFactory(item__scope=ScopeFactory(tenant=tenant_a))
    conflict = ConflictFactory(scope=ScopeFactory(tenant=tenant_a))
    successor = MemoryItemFactory(scope=conflict.scope)
    old = MemoryItemFactory(
        scope=conflict.scope, status=MemoryStatus.SUPERSEDED, superseded_by=successor
    )
    delete_items(item_ids=[entry.item_id, conflict.incoming_item_id, successor.pk])
    assert QuarantineEntry.objects.get(pk=entry.pk).item_id is None
    assert Conflict.objects.get(pk=conflict.pk).incoming_item_id is None
    assert MemoryItem.objects.get(pk=old.pk).superseded_by_id is None


def test_the_number_of_statements_does_not_grow_with_the_number_of_items(tenant_a):
    scope = ScopeFactory(tenant=tenant_a)
    few, many = items_with_history(scope, 2), items_with_history(scope, 40)
    counts = []
    for batch in (few, many):
        with CaptureQueriesContext(connection) as queries:
            delete_items(item_ids=[item.pk for item in batch])
        counts.append(len(queries.captured_queries))
    assert counts[0] == counts[1]
    assert not MemoryItem.objects.exists()


def test_unknown_and_repeated_ids_are_harmless(tenant_a):
    item = MemoryItemFactory(scope=ScopeFactory(tenant=tenant_a))
    assert delete_items(item_ids=[item.pk, item.pk]) == 1
    assert delete_items(item_ids=[item.pk]) == 0


def test_no_other_module_deletes_memory_items_itself():
    """Every hard delete of a MemoryItem goes through delete_items."""
    home = APPS / "memory" / "services" / "items.py"
    offenders = []
    for path in APPS.rglob("*.py"):
        if path == home or "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "delete"
                and "MemoryItem" in ast.unparse(node.func.value)
            ):
                offenders.append(f"{path.relative_to(APPS)}:{node.lineno}")
    assert offenders == []
