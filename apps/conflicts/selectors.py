"""Permission-aware reads of conflicts: the review queue, its filters, pages and counts.

Operators see conflicts of the tenants and scopes where they hold review_memories;
anything else is simply absent (404), never forbidden.
"""

import json
import re
from dataclasses import dataclass
from datetime import timedelta

from django.db.models import QuerySet
from django.utils import timezone

from apps.access.selectors import count_by_grant, filter_by_grant
from apps.conflicts.diff import DiffEntry, json_diff
from apps.conflicts.models import Conflict, ConflictStatus
from apps.core.pagination import KeysetPage, KeysetPager
from apps.memory.models import MemoryItem
from apps.memory.scoring import effective_score
from apps.tenancy.permissions import Perm

PAGE_SIZE = 50
NAV_COUNT_CAP = 999
# Columns the queue never shows (binary or ciphertext).
_ITEM_HEAVY = ("embedding", "sealed_content")


def conflicts_visible_to(user, perm: Perm = Perm.REVIEW_MEMORIES) -> QuerySet[Conflict]:
    """Conflicts in tenants or scopes where the user holds `perm`."""
    return filter_by_grant(Conflict.objects.all(), user, perm)


def glob_to_regex(pattern: str) -> str:
    """`address.*` → `^address\\..*$`: the same glob syntax as the tenant's LWW patterns."""
    parts = (".*" if ch == "*" else "." if ch == "?" else re.escape(ch) for ch in pattern)
    return "^" + "".join(parts) + "$"


def open_conflicts_for(
    user,
    *,
    tenant: str = "",
    scope_key: str = "",
    key_pattern: str = "",
    older_than_days: int | None = None,
    status: str = ConflictStatus.OPEN,
) -> QuerySet[Conflict]:
    """The review queue: visible conflicts, filtered, oldest first."""
    queryset = conflicts_visible_to(user).filter(status=status)
    if tenant:
        queryset = queryset.filter(tenant__slug=tenant)
    if scope_key:
        kind, _, external_id = scope_key.partition(":")
        queryset = queryset.filter(scope__kind=kind, scope__external_id=external_id)
    if key_pattern:
        if "*" in key_pattern or "?" in key_pattern:
            queryset = queryset.filter(key__regex=glob_to_regex(key_pattern))
        else:
            queryset = queryset.filter(key=key_pattern)
    if older_than_days:
        queryset = queryset.filter(created_at__lte=timezone.now() - timedelta(days=older_than_days))
    deferred = [
        f"{side}__{name}" for side in ("existing_item", "incoming_item") for name in _ITEM_HEAVY
    ]
    return (
        queryset.select_related("tenant", "scope", "existing_item", "incoming_item")
        .defer(*deferred)
        .order_by("created_at", "id")
    )


def open_count_for(user) -> int | None:
    """Open conflicts the user may review, counted up to NAV_COUNT_CAP (cheap for the nav)."""
    open_conflicts = Conflict.objects.filter(status=ConflictStatus.OPEN)
    count = count_by_grant(open_conflicts, user, Perm.REVIEW_MEMORIES, cap=NAV_COUNT_CAP)
    return count or None


# Oldest first, the review order, on the (created_at, id) index.
QUEUE_ORDER = ("created_at", "id")


def queue_page(
    queryset: QuerySet[Conflict], *, after: str = "", before: str = "", size: int | None = None
) -> KeysetPage:
    """One page of the queue through the one keyset pager (no COUNT, size+1 rows read)."""
    return KeysetPager(QUEUE_ORDER, size=size or PAGE_SIZE).page(
        queryset, after=after, before=before
    )


def next_open_conflict(user, *, after: Conflict) -> Conflict | None:
    """The next conflict to review after this one (oldest first), or the oldest left."""
    queue = open_conflicts_for(user).exclude(pk=after.pk)
    pager = KeysetPager(QUEUE_ORDER)
    return pager.following(queue, pager.values_of(after)).first() or queue.first()


@dataclass
class SideView:
    """One side of the side-by-side review: the item (if it still exists) and its figures."""

    label: str
    item: MemoryItem | None
    score: float | None = None


@dataclass
class ConflictReview:
    """Everything the detail page shows, computed once."""

    conflict: Conflict
    old: SideView
    new: SideView
    diff: list[DiffEntry]
    merge_seed: str = ""


def conflict_review(conflict: Conflict) -> ConflictReview:
    """The two items, their decayed scores now, and the field-level diff of their content."""
    now = timezone.now()
    items = MemoryItem.objects.select_related("created_by").defer("embedding")
    item_ids = [pk for pk in (conflict.existing_item_id, conflict.incoming_item_id) if pk]
    by_id = items.in_bulk(item_ids)
    sides = []
    for label, item_id in (
        ("Existing", conflict.existing_item_id),
        ("Incoming", conflict.incoming_item_id),
    ):
        item = by_id.get(item_id)
        score = None
        if item is not None:
            score = effective_score(
                importance=item.importance,
                half_life_days=item.half_life_days,
                last_access_at=item.last_access_at,
                now=now,
            )
        sides.append(SideView(label=label, item=item, score=score))
    old, new = sides
    diff = json_diff(
        old.item.content if old.item else {},
        new.item.content if new.item else {},
        include_same=True,
    )
    # The merge editor starts from the old content overlaid with the new.
    seed = {**(old.item.content if old.item else {}), **(new.item.content if new.item else {})}
    merge_seed = json.dumps(seed, indent=2, ensure_ascii=False)
    return ConflictReview(conflict=conflict, old=old, new=new, diff=diff, merge_seed=merge_seed)


def visible_conflict_ids(user, ids: list[str]) -> dict[str, int]:
    """Of the given conflict ids (as text), those the user may review (one query)."""
    wanted = {int(text): text for text in ids if text.isdigit()}
    found = conflicts_visible_to(user).filter(pk__in=list(wanted)).values_list("pk", flat=True)
    return {wanted[pk]: pk for pk in found}
