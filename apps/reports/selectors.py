"""Aggregate figures for the dashboard and reports: counts, never content."""

from django.db.models import Count

from apps.memory.models import MemoryStatus
from apps.memory.selectors import items_visible_to, tenants_visible_to


def memory_counts_by_tenant(user) -> list[dict]:
    """Memories per status per tenant, for the tenants the user may see (one GROUP BY)."""
    tenants = {t.pk: t for t in tenants_visible_to(user, "view_memories")}
    counts = (
        items_visible_to(user, "view_memories")
        .filter(tenant__in=list(tenants))
        .values("tenant_id", "status")
        .annotate(n=Count("pk"))
        .order_by()
    )
    rows = {
        pk: {"tenant": t, "total": 0, **dict.fromkeys(MemoryStatus.values, 0)}
        for pk, t in tenants.items()
    }
    for entry in counts:
        rows[entry["tenant_id"]][entry["status"]] = entry["n"]
        rows[entry["tenant_id"]]["total"] += entry["n"]
    return sorted(rows.values(), key=lambda row: row["tenant"].slug)
