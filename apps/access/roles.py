"""Roles are Groups; each role brings the object permissions a grant of it confers."""

from django.db import models

from apps.tenancy.permissions import Perm


class Role(models.TextChoices):
    OPERATOR = "operator", "Operator"
    COMPLIANCE_OFFICER = "compliance_officer", "Compliance officer"
    ANALYST = "analyst", "Analyst"
    ADMIN = "admin", "Admin"
    AGENT = "agent", "Agent (service account)"


# What a grant of a role on a tenant (or scope) allows there.
ROLE_PERMISSIONS: dict[str, list[Perm]] = {
    Role.OPERATOR: [
        Perm.VIEW_MEMORIES,
        Perm.REVIEW_MEMORIES,
        Perm.RELEASE_QUARANTINE,
        Perm.VIEW_AUDIT,
    ],
    Role.COMPLIANCE_OFFICER: [
        Perm.VIEW_MEMORIES,
        Perm.VIEW_AUDIT,
        Perm.MANAGE_PRIVACY,
        Perm.EXPORT_SNAPSHOTS,
        Perm.VIEW_REPORTS,
    ],
    Role.ANALYST: [Perm.VIEW_REPORTS],
    Role.ADMIN: [
        Perm.VIEW_MEMORIES,
        Perm.WRITE_MEMORIES,
        Perm.REVIEW_MEMORIES,
        Perm.RELEASE_QUARANTINE,
        Perm.VIEW_AUDIT,
        Perm.MANAGE_PRIVACY,
        Perm.EXPORT_SNAPSHOTS,
        Perm.VIEW_REPORTS,
    ],
    Role.AGENT: [Perm.VIEW_MEMORIES, Perm.WRITE_MEMORIES],
}

# Groups created by the data migration; agents are marked by ServiceAccount, not a group.
GROUP_ROLES = [Role.OPERATOR, Role.COMPLIANCE_OFFICER, Role.ANALYST, Role.ADMIN]
