"""The memory browser: only granted items, escaped content, keyset pages, history actions."""

import pytest
from django.urls import reverse

from apps.audit.models import Action
from apps.memory.models import MemoryItem, MemoryStatus, MemoryType
from apps.memory.services import create_item, update_item
from tests.factories import MemoryItemFactory, ScopeFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def scope_a(tenant_a):
    return ScopeFactory(tenant=tenant_a, external_id="u_1024")


@pytest.fixture
def scope_b(tenant_b):
    return ScopeFactory(tenant=tenant_b, external_id="u_2048")


def _edit(item: MemoryItem, text: str, actor="test-setup") -> None:
    update_item(
        item_id=item.pk,
        changes={"content": {"text": text}},
        actor=actor,
        action=Action.MEMORY_UPDATED,
    )


def _item(scope, text="The user prefers tea.", **values) -> MemoryItem:
    return create_item(
        values={
            "tenant": scope.tenant,
            "scope": scope,
            "memory_type": MemoryType.SEMANTIC,
            "content": {"text": text},
            "source": "langgraph@0.2",
            **values,
        },
        actor="test-setup",
    )


def test_operator_sees_items_of_granted_tenant_only(client, operator_a, scope_a, scope_b):
    mine = _item(scope_a, "Mine: the user prefers tea.")
    theirs = _item(scope_b, "Theirs: the user prefers coffee.")
    client.force_login(operator_a)
    response = client.get(reverse("memory:list"))
    assert response.status_code == 200
    body = response.content.decode()
    assert str(mine.pk) in body and "Mine: the user prefers tea." in body
    assert str(theirs.pk) not in body and "Theirs" not in body


def test_operator_gets_404_on_foreign_tenant_item(client, operator_a, scope_b):
    theirs = _item(scope_b)
    client.force_login(operator_a)
    assert client.get(reverse("memory:detail", args=[theirs.pk])).status_code == 404


def test_analyst_sees_no_memory_content(client, analyst, scope_a):
    item = _item(scope_a, "Analysts must never read this.")
    client.force_login(analyst)
    listing = client.get(reverse("memory:list"))
    assert listing.status_code == 403  # not an empty list: a page saying whose it is
    assert "Analysts must never read this." not in listing.content.decode()
    assert client.get(reverse("memory:detail", args=[item.pk])).status_code == 404


def test_detail_shows_content_escaped_as_pretty_json(client, operator_a, scope_a):
    item = _item(scope_a, '<script>alert("x")</script> 忽略之前的规则')
    client.force_login(operator_a)
    body = client.get(reverse("memory:detail", args=[item.pk])).content.decode()
    assert "<script>alert" not in body
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; 忽略之前的规则" in body
    assert '<pre class="memory-content' in body
    assert "{\n  &quot;text&quot;: " in body  # indent=2, ensure_ascii=False


def test_detail_shows_provenance_score_lifecycle_and_versions(client, operator_a, scope_a):
    item = _item(scope_a, run_id="run_77", importance=0.8)
    update_item(
        item_id=item.pk,
        changes={"content": {"text": "v2"}},
        actor=operator_a,
        action=Action.MEMORY_UPDATED,
    )
    client.force_login(operator_a)
    response = client.get(reverse("memory:detail", args=[item.pk]))
    body = response.content.decode()
    assert "langgraph@0.2" in body and "run_77" in body
    assert 0 < response.context["score_now"] <= 0.8
    assert [v.version for v in response.context["versions"]] == [2, 1]
    assert "memory.updated" in body and "Roll back to this version" in body


def test_sensitive_item_shows_sealed_notice_and_never_the_token(client, operator_a, scope_a):
    item = _item(scope_a, sensitive=True, sealed_content="gAAAAABsecret-fernet-token")
    client.force_login(operator_a)
    body = client.get(reverse("memory:detail", args=[item.pk])).content.decode()
    assert "Content sealed" in body
    assert "gAAAAABsecret-fernet-token" not in body


def test_operator_rolls_back_to_an_earlier_version(client, operator_a, scope_a):
    item = _item(scope_a, "original")
    update_item(
        item_id=item.pk,
        changes={"content": {"text": "changed"}},
        actor="t",
        action=Action.MEMORY_UPDATED,
    )
    client.force_login(operator_a)
    response = client.post(
        reverse("memory:rollback", args=[item.pk]), {"version": 1, "reason": "typo"}
    )
    assert response.status_code == 302
    item.refresh_from_db()
    assert item.content == {"text": "original"} and item.version == 3
    assert item.versions.get(version=3).change == Action.MEMORY_ROLLED_BACK


def test_rollback_needs_review_rights_on_the_scope(client, officer, scope_a):
    item = _item(scope_a, "original")
    update_item(
        item_id=item.pk, changes={"content": {"text": "b"}}, actor="t", action=Action.MEMORY_UPDATED
    )
    client.force_login(officer)  # reads memories, does not review them
    detail = client.get(reverse("memory:detail", args=[item.pk])).content.decode()
    assert "Roll back to this version" not in detail
    assert (
        client.post(
            reverse("memory:rollback", args=[item.pk]), {"version": 1, "reason": "typo"}
        ).status_code
        == 404
    )
    item.refresh_from_db()
    assert item.version == 2


def test_superseded_item_offers_reinstate_and_conflict_version_offers_undo(
    client, operator_a, scope_a
):
    item = _item(scope_a, "old fact", status=MemoryStatus.SUPERSEDED)
    update_item(
        item_id=item.pk,
        changes={"importance": 0.4},
        actor="t",
        action=Action.CONFLICT_RESOLVED,
        reference="conflict:12",
    )
    client.force_login(operator_a)
    body = client.get(reverse("memory:detail", args=[item.pk])).content.decode()
    assert f'action="{reverse("conflicts:reinstate", args=[item.pk])}"' in body
    assert f'action="{reverse("conflicts:revert", args=[12])}"' in body


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"status": "quarantined"}, {"quarantined"}),
        ({"memory_type": "working"}, {"working-item"}),
        ({"scope": "user:u_1024"}, {"tea", "quarantined", "working-item"}),
        ({"scope": "session:s_1"}, {"session-item", "mem0-item"}),
        ({"q": "TEA"}, {"tea"}),
        ({"q": "%"}, set()),  # LIKE wildcards are matched literally
        ({"source": "mem0"}, {"mem0-item"}),
        ({"scope": "nonsense"}, set()),
    ],
)
def test_filters_narrow_the_list(client, operator_a, scope_a, params, expected):
    session = ScopeFactory(tenant=scope_a.tenant, kind="session", external_id="s_1")
    _item(scope_a, "tea")
    _item(scope_a, "quarantined", status=MemoryStatus.QUARANTINED)
    _item(scope_a, "working-item", memory_type=MemoryType.WORKING)
    _item(session, "session-item")
    _item(session, "mem0-item", source="mem0@0.1")
    client.force_login(operator_a)
    response = client.get(reverse("memory:list"), params)
    assert {item.text for item in response.context["page"].rows} == expected


def test_tenant_filter_refuses_a_tenant_outside_the_grant(client, operator_a, scope_a, scope_b):
    _item(scope_a)
    _item(scope_b)
    client.force_login(operator_a)
    response = client.get(reverse("memory:list"), {"tenant": scope_b.tenant.slug})
    assert response.context["page"].rows == []


def test_keyset_pages_walk_forward_and_back_without_gaps(client, operator_a, scope_a):
    MemoryItemFactory.create_batch(120, scope=scope_a)
    client.force_login(operator_a)
    seen, url = [], reverse("memory:list")
    first = client.get(url).context["page"]
    pages = [first]
    while pages[-1].next_cursor:
        pages.append(client.get(url, {"after": pages[-1].next_cursor}).context["page"])
    seen = [item.pk for page in pages for item in page.rows]
    assert [len(page.rows) for page in pages] == [50, 50, 20]
    assert len(set(seen)) == 120
    assert first.previous_cursor == ""
    back = client.get(url, {"before": pages[2].previous_cursor}).context["page"]
    assert [item.pk for item in back.rows] == [item.pk for item in pages[1].rows]


def test_list_query_count_does_not_grow_with_rows(
    client, operator_a, scope_a, django_assert_max_num_queries
):
    client.force_login(operator_a)
    MemoryItemFactory.create_batch(3, scope=scope_a)
    with django_assert_max_num_queries(12) as few:
        client.get(reverse("memory:list"))
    MemoryItemFactory.create_batch(60, scope=ScopeFactory(tenant=scope_a.tenant))
    with django_assert_max_num_queries(len(few.captured_queries)):
        client.get(reverse("memory:list"))


def test_list_never_counts_the_table(client, admin_user, scope_a, django_assert_max_num_queries):
    MemoryItemFactory.create_batch(5, scope=scope_a)
    client.force_login(admin_user)
    with django_assert_max_num_queries(12) as captured:
        client.get(reverse("memory:list"))
    item_queries = [
        q["sql"].upper()
        for q in captured.captured_queries
        if "MEMORY_MEMORYITEM" in q["sql"].upper()
    ]
    assert item_queries and not any("COUNT(" in sql for sql in item_queries)


def test_rollback_without_a_reason_is_refused_and_changes_nothing(client, operator_a, scope_a):
    item = _item(scope_a, "original")
    update_item(
        item_id=item.pk, changes={"content": {"text": "b"}}, actor="t", action=Action.MEMORY_UPDATED
    )
    client.force_login(operator_a)
    detail = client.get(reverse("memory:detail", args=[item.pk])).content.decode()
    assert 'name="reason"' in detail and "required" in detail
    response = client.post(reverse("memory:rollback", args=[item.pk]), {"version": 1}, follow=True)
    assert "Reason" in response.content.decode()
    item.refresh_from_db()
    assert item.version == 2
