"""The memory detail page (memory app) offers undo and reinstatement through our URLs."""

import pytest
from django.urls import reverse

from apps.conflicts.services import resolve_conflict
from apps.memory.models import MemoryItem, MemoryStatus
from tests.conflicts.factories import ConflictFactory, fact, write_through_conflict_stage
from tests.factories import ScopeFactory

pytestmark = pytest.mark.django_db


def test_history_page_offers_undo_of_a_resolution_and_it_works(client, operator_a, tenant_a):
    conflict = ConflictFactory(scope=ScopeFactory(tenant=tenant_a))
    resolve_conflict(conflict_id=conflict.pk, resolution="keep_new", actor=operator_a, reason="r")
    page_url = reverse("memory:detail", args=[conflict.incoming_item_id])
    client.force_login(operator_a)
    page = client.get(page_url)
    revert_url = reverse("conflicts:revert", args=[conflict.pk])
    assert revert_url in page.text
    answer = client.post(revert_url, {"next": page_url})
    assert answer["Location"] == page_url
    incoming = MemoryItem.objects.get(pk=conflict.incoming_item_id)
    assert incoming.status == MemoryStatus.PENDING_REVIEW


def test_superseded_memory_page_offers_reinstatement(client, operator_a, tenant_a):
    scope = ScopeFactory(tenant=tenant_a)
    old = fact(scope, "address.city", {"city": "Chaoyang"})
    write_through_conflict_stage(scope=scope, key="address.city", content={"city": "Haidian"})
    client.force_login(operator_a)
    page = client.get(reverse("memory:detail", args=[old.pk]))
    assert reverse("conflicts:reinstate", args=[old.pk]) in page.text
    answer = client.post(reverse("conflicts:reinstate", args=[old.pk]))
    assert answer["Location"] == reverse("memory:detail", args=[old.pk])
    old.refresh_from_db()
    assert old.status == MemoryStatus.ACTIVE
