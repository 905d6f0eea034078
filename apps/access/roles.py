"""Roles are Groups; each role brings the object permissions a grant of it confers."""

from django.db import models


class Role(models.TextChoices):
    OPERATOR = "operator", "Operator"
    COMPLIANCE_OFFICER = "compliance_officer", "Compliance officer"
    ANALYST = "analyst", "Analyst"
    ADMIN = "admin", "Admin"
    AGENT = "agent", "Agent (service account)"


# What a grant of a role on a tenant (or scope) allows there.
ROLE_PERMISSIONS: dict[str, list[str]] = {
    Role.OPERATOR: ["view_memories", "review_memories", "release_quarantine", "view_audit"],
    Role.COMPLIANCE_OFFICER: [
        "view_memories",
        "view_audit",
        "manage_privacy",
        "export_snapshots",
        "view_reports",
    ],
    Role.ANALYST: ["view_reports"],
    Role.ADMIN: [
        "view_memories",
        "write_memories",
        "review_memories",
        "release_quarantine",
        "view_audit",
        "manage_privacy",
        "export_snapshots",
        "view_reports",
    ],
    Role.AGENT: ["view_memories", "write_memories"],
}

# Groups created by the data migration; agents are marked by ServiceAccount, not a group.
GROUP_ROLES = [Role.OPERATOR, Role.COMPLIANCE_OFFICER, Role.ANALYST, Role.ADMIN]
