"""Appending events: on PostgreSQL audit_append_events links them in the database, and
its hashes are the ones the chain walk recomputes from the stored fields."""

import pytest
from django.db import connection, transaction
from django.utils import timezone

from apps.audit.appending import (
    _hashed_fields,
    append_events,
    canonical_event,
    chain_hash,
    new_event,
)
from apps.audit.context import RequestContext, reset_request_context, set_request_context
from apps.audit.models import Action, AuditEvent
from apps.audit.services import record, verify_chain
from apps.audit.verification import canonical_pieces

pytestmark = pytest.mark.django_db

AWKWARD_DATA = [
    {},
    {"label": 'ünïcode ✓ "quoted" \\ back\nline', "sequence": 7, "occurred_at": "x"},
    {"nested": {"b": 1, "a": [None, 1.5, True]}, "z": "靠窗"},
]


def events_with_awkward_fields() -> list[AuditEvent]:
    token = set_request_context(RequestContext(ip="2001:0db8::0001", request_id="req-\u2028"))
    try:
        return [
            new_event(
                actor="job ✓",
                action=Action.JOB_RUN,
                target_type="job",
                target_id=f'"{n}"',
                tenant=n or None,
                scope=None if n % 2 else n + 10,
                data=data,
            )
            for n, data in enumerate(AWKWARD_DATA)
        ]
    finally:
        reset_request_context(token)


def test_the_pieces_around_time_and_sequence_make_the_canonical_text():
    for n, event in enumerate(events_with_awkward_fields()):
        before_time, before_sequence, after_sequence = canonical_pieces(_hashed_fields(event))
        event.sequence = 10**12 + n
        event.occurred_at = timezone.now()
        stamp = event.occurred_at.isoformat(timespec="microseconds")
        whole = before_time + stamp + before_sequence + str(event.sequence) + after_sequence
        assert whole.encode() == canonical_event(event)


def test_appended_events_are_linked_as_the_walk_recomputes_them():
    record(actor="test", action=Action.JOB_RUN, target_type="job", target_id="first")
    events = events_with_awkward_fields()
    with transaction.atomic():
        append_events(events)
    stored = list(AuditEvent.objects.order_by("sequence"))
    assert [e.sequence for e in stored] == [1, 2, 3, 4]
    for previous, event, returned in zip(stored[:-1], stored[1:], events, strict=True):
        assert event.prev_hash == previous.hash
        assert event.hash == chain_hash(previous.hash, event) == returned.hash
        assert (event.pk, event.sequence, event.occurred_at) == (
            returned.pk,
            returned.sequence,
            returned.occurred_at,
        )
    assert verify_chain(actor="test", full=True).ok


@pytest.mark.postgres
def test_an_event_with_its_rows_is_one_statement_on_postgresql(
    postgres_only, django_assert_num_queries
):
    with transaction.atomic(), django_assert_num_queries(1):
        append_events(events_with_awkward_fields())
    assert connection.vendor == "postgresql"
    assert AuditEvent.objects.count() == len(AWKWARD_DATA)
