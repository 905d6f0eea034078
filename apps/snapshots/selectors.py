"""Permission-aware reads of snapshot jobs: compliance officers and admins, per tenant."""

from django.db.models import QuerySet

from apps.access.selectors import filter_by_grant, grants_of
from apps.snapshots.models import SnapshotJob
from apps.tenancy.models import Tenant
from apps.tenancy.permissions import Perm

SNAPSHOT_PERM = Perm.EXPORT_SNAPSHOTS


def may_use_snapshots(user) -> bool:
    """Whether the user holds the snapshot permission anywhere."""
    if user is None or not user.is_authenticated:
        return False
    held = grants_of(user).held_permissions
    return held is None or SNAPSHOT_PERM in held


def snapshot_tenants_for(user) -> QuerySet[Tenant]:
    """Tenants the user may export or restore (a grant on the whole tenant)."""
    return filter_by_grant(
        Tenant.objects.all(), user, SNAPSHOT_PERM, tenant_field="pk", scope_field=None
    )


def jobs_visible_to(user) -> QuerySet[SnapshotJob]:
    """Snapshot jobs of the tenants the user may export or restore."""
    return filter_by_grant(
        SnapshotJob.objects.all(), user, SNAPSHOT_PERM, tenant_field="tenant", scope_field=None
    )
