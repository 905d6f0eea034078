"""Permission-aware reads of deletion requests and the denylist, and the denylist check
the remember gate (and snapshot restore) consult."""

from datetime import timedelta
from functools import cache
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from apps.access.selectors import filter_by_grant, grants_of, has_global_access
from apps.audit.hashing import keyed_hash
from apps.audit.models import AuditEvent
from apps.core.pagination import KeysetPager
from apps.privacy.models import OPEN_STATUSES, DeletionRequest, DenylistEntry, RequestStatus
from apps.tenancy.models import Tenant
from apps.tenancy.permissions import Perm
from memory_console.db import Parameter, PrecompiledQuery

PRIVACY_PERM = Perm.MANAGE_PRIVACY
DUE_SOON = timedelta(days=3)


def may_handle_privacy(user) -> bool:
    """Whether the user holds the privacy permission anywhere (officers and admins)."""
    if user is None or not user.is_authenticated:
        return False
    held = grants_of(user).held_permissions
    return held is None or PRIVACY_PERM in held


def privacy_tenants_for(user) -> QuerySet[Tenant]:
    """Tenants the user may run erasure requests in (a grant on the whole tenant)."""
    return filter_by_grant(
        Tenant.objects.all(), user, PRIVACY_PERM, tenant_field="pk", scope_field=None
    )


def requests_visible_to(user) -> QuerySet[DeletionRequest]:
    """Deletion requests of the tenants the user holds the privacy permission on."""
    return filter_by_grant(
        DeletionRequest.objects.all(), user, PRIVACY_PERM, tenant_field="tenant", scope_field=None
    )


def denylist_visible_to(user) -> QuerySet[DenylistEntry]:
    return filter_by_grant(
        DenylistEntry.objects.all(), user, PRIVACY_PERM, tenant_field="tenant", scope_field=None
    )


def may_lift_denylist(user) -> bool:
    return has_global_access(user)


def sla_state(request: DeletionRequest, *, now=None) -> str:
    """'on_hold', 'overdue', 'due_soon', 'done' or 'ok' (the list's badge)."""
    now = now or timezone.now()
    if request.status == RequestStatus.ON_HOLD:
        return "on_hold"
    if request.status not in OPEN_STATUSES:
        return "done"
    if request.due_at < now:
        return "overdue"
    if request.due_at < now + DUE_SOON:
        return "due_soon"
    return "ok"


def filter_by_sla(queryset: QuerySet[DeletionRequest], sla: str) -> QuerySet[DeletionRequest]:
    now = timezone.now()
    running = [s for s in OPEN_STATUSES if s != RequestStatus.ON_HOLD]
    if sla == "on_hold":
        return queryset.filter(status=RequestStatus.ON_HOLD)
    if sla == "overdue":
        return queryset.filter(status__in=running, due_at__lt=now)
    if sla == "due_soon":
        return queryset.filter(status__in=running, due_at__gte=now, due_at__lt=now + DUE_SOON)
    if sla == "open":
        return queryset.filter(status__in=OPEN_STATUSES)
    return queryset


# Steps an officer may take from each status (the request page shows only these).
_STEPS = {
    RequestStatus.RECEIVED: ("verify", "hold", "reject"),
    RequestStatus.VERIFIED: ("approve", "hold", "reject"),
    RequestStatus.APPROVED: ("execute", "hold", "reject"),
    RequestStatus.ON_HOLD: ("release-hold", "reject"),
    RequestStatus.EXECUTING: ("execute",),  # resume a run that stopped
}


def available_steps(request: DeletionRequest, user) -> tuple[str, ...]:
    """The steps this user may take on the request now (four eyes: no self-approval)."""
    steps = _STEPS.get(RequestStatus(request.status), ())
    if "approve" in steps and user.pk in {request.created_by_id, request.verified_by_id}:
        steps = tuple(step for step in steps if step != "approve")
    return steps


# Newest first, keyset-paginated by the one pager (indexes dr_newest, dr_tenant_newest).
REQUEST_PAGER = KeysetPager(("-received_at", "-id"))


def request_timeline(request: DeletionRequest) -> QuerySet[AuditEvent]:
    """The request's audited steps, oldest first (the audit log is the timeline)."""
    return AuditEvent.objects.filter(
        target_type=DeletionRequest._meta.label_lower, target_id=str(request.pk)
    ).order_by("sequence")


_PLACEHOLDER_TENANT_ID = -0x4D44  # never a real primary key
DIGESTS_PER_QUERY = 3  # a write asks about its scope key, scope subject and subject


@cache
def _denylist_query() -> PrecompiledQuery:
    """The denylist lookup, compiled once per process: it runs on every memory write,
    where compiling the queryset cost several times what the database spent on it."""
    queryset = DenylistEntry.objects.filter(
        tenant_id=_PLACEHOLDER_TENANT_ID,
        digest__in=[Parameter(f"digest_{n}") for n in range(DIGESTS_PER_QUERY)],
        lifted_at__isnull=True,
    )
    return PrecompiledQuery(
        queryset, models=[], extra=["pk"], stand_ins={_PLACEHOLDER_TENANT_ID: "tenant_id"}
    )


def _digest_values(chunk: list[str]) -> dict[str, str]:
    chunk = chunk + [chunk[0]] * (DIGESTS_PER_QUERY - len(chunk))  # repeats change nothing
    return {f"digest_{n}": digest for n, digest in enumerate(chunk)}


def active_denylist_digests(*, tenant_id: int, digests: set[str]) -> bool:
    """Whether any of these keyed hashes is denylisted (not lifted) in the tenant (one
    query per three digests; a write has at most three)."""
    ordered = sorted(digests)
    for start in range(0, len(ordered), DIGESTS_PER_QUERY):
        values = _digest_values(ordered[start : start + DIGESTS_PER_QUERY])
        if _denylist_query().first(tenant_id=tenant_id, **values) is not None:
            return True
    return False


def denylist_query(*, tenant_id: int, digests: set[str]) -> tuple[str, list[Any]] | None:
    """The SQL and parameters of `active_denylist_digests` as one query (a row when any
    digest is denylisted), to send beside other lookups; None beyond one query's digests."""
    if not digests or len(digests) > DIGESTS_PER_QUERY:
        return None
    return _denylist_query().bound(tenant_id=tenant_id, **_digest_values(sorted(digests)))


def denylisted_among(*, tenant_id: int, digests: set[str]) -> set[str]:
    """Which of these keyed hashes are denylisted (not lifted) in the tenant."""
    return set(
        DenylistEntry.objects.filter(
            tenant_id=tenant_id, digest__in=list(digests), lifted_at__isnull=True
        ).values_list("digest", flat=True)
    )


def is_denylisted(*, tenant_id: int, subject: str = "", scope_key: str = "") -> bool:
    """Whether a subject or scope key (plain, as written) was erased from the tenant.

    The remember gate and snapshot restore ask this before letting data back in.
    """
    digests = {keyed_hash(value) for value in (subject, scope_key) if value}
    return bool(digests) and active_denylist_digests(tenant_id=tenant_id, digests=digests)


__all__ = [
    "PRIVACY_PERM",
    "denylist_visible_to",
    "denylisted_among",
    "is_denylisted",
    "may_handle_privacy",
    "privacy_tenants_for",
    "request_timeline",
    "requests_visible_to",
    "sla_state",
]
