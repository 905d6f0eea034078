"""Permission-aware reads of the quarantine queue, shared by the console and the API."""

from dataclasses import dataclass

from django.db.models import F, Q, QuerySet
from django.db.models.functions import Substr

from apps.access.selectors import count_by_grant, filter_by_grant, grants_of
from apps.core.pagination import KeysetPager
from apps.memory.models import MemoryItem
from apps.quarantine.models import EntryStatus, QuarantineEntry
from apps.tenancy.permissions import Perm

NAV_COUNT_CAP = 1000
QUEUE_ORDER = ("-risk", "created_at", "id")
# Cursors and continuation of the queue order (the one keyset pager).
QUEUE_PAGES = KeysetPager(QUEUE_ORDER)
PREVIEW_LENGTH = 140


def entries_visible_to(user, perm: Perm = Perm.REVIEW_MEMORIES) -> QuerySet[QuarantineEntry]:
    """Entries in tenants or scopes where the user holds `perm`; outside them, nothing."""
    return filter_by_grant(
        QuarantineEntry.objects.all(), user, perm, tenant_field="tenant", scope_field="scope"
    )


def escalated_entries_visible_to(user) -> QuerySet[QuarantineEntry]:
    """Escalated entries: reviewers and compliance officers of the tenant both see them."""
    reviewable = entries_visible_to(user, Perm.REVIEW_MEMORIES).values("pk")
    compliance = entries_visible_to(user, Perm.MANAGE_PRIVACY).values("pk")
    return QuarantineEntry.objects.filter(status=EntryStatus.ESCALATED).filter(
        Q(pk__in=reviewable) | Q(pk__in=compliance)
    )


def entries_readable_by(user) -> QuerySet[QuarantineEntry]:
    """Entries the user may open: those of their review grant and those escalated to them."""
    reviewable = entries_visible_to(user).values("pk")
    escalated = escalated_entries_visible_to(user).values("pk")
    return QuarantineEntry.objects.filter(Q(pk__in=reviewable) | Q(pk__in=escalated))


# Who may take each decision, by the entry's state: any one of these permissions on the
# entry's tenant or scope. The console and the API both decide through this map. An
# escalated entry is compliance's to decide as well as the operators'; it cannot be
# escalated twice. In any other state (already decided) the entry stays reachable by
# whoever could have decided it, so the answer is "already decided by …", not 404.
DECISION_PERMS: dict[str, dict[str, tuple[Perm, ...]]] = {
    "release": {
        EntryStatus.PENDING: (Perm.RELEASE_QUARANTINE,),
        EntryStatus.ESCALATED: (Perm.RELEASE_QUARANTINE, Perm.MANAGE_PRIVACY),
    },
    "edit": {
        EntryStatus.PENDING: (Perm.RELEASE_QUARANTINE,),
        EntryStatus.ESCALATED: (Perm.RELEASE_QUARANTINE, Perm.MANAGE_PRIVACY),
    },
    "reject": {
        EntryStatus.PENDING: (Perm.REVIEW_MEMORIES,),
        EntryStatus.ESCALATED: (Perm.REVIEW_MEMORIES, Perm.MANAGE_PRIVACY),
    },
    "escalate": {
        EntryStatus.PENDING: (Perm.REVIEW_MEMORIES,),
    },
}


def decidable_entries(user, decision: str) -> QuerySet[QuarantineEntry]:
    """Entries the user may take `decision` on (DECISION_PERMS); outside them, nothing."""
    rules = DECISION_PERMS[decision]
    anyone_who_could = tuple(dict.fromkeys(perm for perms in rules.values() for perm in perms))
    states_by_perms: dict[tuple[Perm, ...], list[str]] = {}
    for state in EntryStatus.values:
        states_by_perms.setdefault(rules.get(state, anyone_who_could), []).append(state)
    condition = Q(pk__in=[])
    for perms, states in states_by_perms.items():
        granted = Q(pk__in=[])
        for perm in perms:
            granted |= Q(pk__in=entries_visible_to(user, perm).values("pk"))
        condition |= Q(status__in=states) & granted
    return QuarantineEntry.objects.filter(condition)


def queue_for(user, status: str = EntryStatus.PENDING) -> QuerySet[QuarantineEntry]:
    """The review queue in working order: highest risk first, then oldest first."""
    if status == EntryStatus.ESCALATED:
        entries = escalated_entries_visible_to(user)
    else:
        entries = entries_visible_to(user).filter(status=status)
    return entries.select_related("tenant", "scope", "item").order_by(*QUEUE_ORDER)


def capped_count(queryset: QuerySet, cap: int) -> int:
    """Count at most `cap` rows (never a COUNT over the whole queue)."""
    return queryset.order_by().values("pk")[:cap].count()


def pending_count_for(user) -> int | None:
    """The navigation badge: entries waiting for this user, capped. Reviewers count the
    pending entries they may review; compliance officers the entries escalated to them."""
    pending = QuarantineEntry.objects.filter(status=EntryStatus.PENDING)
    count = count_by_grant(pending, user, Perm.REVIEW_MEMORIES, cap=NAV_COUNT_CAP)
    held = grants_of(user).held_permissions  # kept for the request: no extra query
    if count < NAV_COUNT_CAP and (held is None or Perm.MANAGE_PRIVACY in held):
        escalated = QuarantineEntry.objects.filter(status=EntryStatus.ESCALATED)
        count += count_by_grant(escalated, user, Perm.MANAGE_PRIVACY, cap=NAV_COUNT_CAP - count)
    return count or None


def next_entry(user, *, after: QuarantineEntry | None) -> QuarantineEntry | None:
    """The entry that follows `after` in the queue (or the first one)."""
    entries = queue_for(user)
    if after is not None:
        entries = QUEUE_PAGES.following(entries, QUEUE_PAGES.values_of(after))
    return entries.first()


def same_key_items(entry: QuarantineEntry, *, limit: int = 10) -> list[MemoryItem]:
    """The scope's other items with the quarantined item's key (what it would contradict)."""
    item = entry.item
    if item is None or not item.key:
        return []
    return list(
        MemoryItem.objects.filter(scope_id=entry.scope_id, key=item.key)
        .exclude(pk=item.pk)
        .only("id", "status", "text", "access_count", "created_at", "source", "version")
        .order_by("-created_at")[:limit]
    )


@dataclass(frozen=True)
class Fragment:
    """A piece of the item's text; `marked` pieces matched a detector."""

    text: str
    marked: bool = False
    label: str = ""


def highlight_fragments(text: str, spans: list) -> list[Fragment]:
    """Split the ORIGINAL text at the span offsets; the template escapes every fragment
    and wraps marked ones, so no markup from the content can ever become HTML."""
    cleaned = sorted(
        (max(0, int(start)), min(len(text), int(end)), str(label))
        for start, end, label in (span[:3] for span in spans or [])
        if int(end) > int(start)
    )
    fragments: list[Fragment] = []
    position = 0
    for start, end, label in cleaned:
        start = max(start, position)  # overlapping spans: continue from where we are
        if end <= start:
            continue
        if start > position:
            fragments.append(Fragment(text[position:start]))
        fragments.append(Fragment(text[start:end], marked=True, label=label))
        position = end
    if position < len(text):
        fragments.append(Fragment(text[position:]))
    return fragments


def with_preview(entries: QuerySet[QuarantineEntry]) -> QuerySet[QuarantineEntry]:
    """List rows: a short text preview and the key, without loading whole contents."""
    return (
        entries.select_related(None)
        .select_related("tenant", "scope")
        .annotate(preview=Substr("item__text", 1, PREVIEW_LENGTH), item_key=F("item__key"))
    )


def queue_page(
    entries: QuerySet[QuarantineEntry], *, size: int, lookahead: int
) -> tuple[list[QuarantineEntry], int]:
    """One page of list rows and how many ids were seen (up to `lookahead`, for a capped
    count). Ids are picked in queue order from the entries table alone, then only those
    rows are loaded with their joins, so nothing is joined for rows beyond the page."""
    ids = list(entries.order_by(*QUEUE_ORDER).values_list("pk", flat=True)[: max(size, lookahead)])
    rows = with_preview(QuarantineEntry.objects.filter(pk__in=ids[:size])).order_by(*QUEUE_ORDER)
    return list(rows), len(ids)


def visible_entry_ids(user, ids: list[str]) -> dict[str, int]:
    """Of the given entry ids (as text), those the user may open (one query): reviewers'
    entries and the escalated ones officers see."""
    wanted = {int(text): text for text in ids if text.isdigit()}
    mine = Q(pk__in=entries_visible_to(user).values("pk")) | Q(
        pk__in=escalated_entries_visible_to(user).values("pk")
    )
    found = QuarantineEntry.objects.filter(mine, pk__in=list(wanted)).values_list("pk", flat=True)
    return {wanted[pk]: pk for pk in found}
