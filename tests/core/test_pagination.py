"""The one keyset pager: any ordering (mixed directions, ties), forward and back, no COUNT."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.core.pagination import KeysetPager
from apps.memory.models import MemoryItem
from tests.factories import MemoryItemFactory, ScopeFactory

pytestmark = pytest.mark.django_db

ORDER = ("-importance", "created_at", "id")  # ties on importance, like the quarantine queue


@pytest.fixture
def items():
    scope = ScopeFactory()
    for index in range(13):
        MemoryItemFactory(scope=scope, importance=[0.9, 0.5, 0.5, 0.1][index % 4])
    return list(MemoryItem.objects.order_by(*ORDER))


def test_pages_walk_forward_without_gaps_or_repeats_and_back_again(items):
    pager = KeysetPager(ORDER, size=5)
    pages = [pager.page(MemoryItem.objects.all())]
    while pages[-1].next_cursor:
        pages.append(pager.page(MemoryItem.objects.all(), after=pages[-1].next_cursor))
    assert [row for page in pages for row in page.rows] == items
    assert [len(page.rows) for page in pages] == [5, 5, 3]
    assert pages[0].previous_cursor == ""
    back = pager.page(MemoryItem.objects.all(), before=pages[2].previous_cursor)
    assert back.rows == pages[1].rows
    first = pager.page(MemoryItem.objects.all(), before=back.previous_cursor)
    assert first.rows == pages[0].rows and first.previous_cursor == ""


def test_following_continues_after_a_row(items):
    pager = KeysetPager(ORDER)
    assert (
        list(pager.following(MemoryItem.objects.order_by(*ORDER), pager.values_of(items[3])))
        == (items[4:])
    )


@pytest.mark.parametrize("cursor", ["", "garbage!", "W10", "WyJ4IiwieSIsInoiXQ"])
def test_a_missing_or_garbled_cursor_starts_from_the_top(items, cursor):
    page = KeysetPager(ORDER, size=5).page(MemoryItem.objects.all(), after=cursor)
    assert page.rows == items[:5]


def test_a_page_reads_one_query_and_never_counts(items):
    pager = KeysetPager(ORDER, size=5)
    cursor = pager.page(MemoryItem.objects.all()).next_cursor
    with CaptureQueriesContext(connection) as queries:
        pager.page(MemoryItem.objects.all(), after=cursor)
    assert len(queries) == 1 and "COUNT(" not in queries[0]["sql"].upper()
