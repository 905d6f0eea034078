"""The vocabulary of object permissions (ARCHITECTURE §6): what a grant on a tenant or a
scope allows there. Every check, grant and role names a `Perm`, never a codename string.

It lives with Tenant and Scope, which declare these permissions, so that every app above
tenancy (audit and access included) can name a permission without importing access."""

from django.db import models


class Perm(models.TextChoices):
    """Codenames of the object permissions declared on Tenant and Scope (the same on both,
    so one selector can check either level)."""

    VIEW_MEMORIES = "view_memories", "Read memory content"
    WRITE_MEMORIES = "write_memories", "Write memories (agents)"
    REVIEW_MEMORIES = "review_memories", "Review quarantine and conflicts"
    RELEASE_QUARANTINE = "release_quarantine", "Release memories from quarantine"
    VIEW_AUDIT = "view_audit", "Read the audit log"
    MANAGE_PRIVACY = "manage_privacy", "Run GDPR erasure requests"
    EXPORT_SNAPSHOTS = "export_snapshots", "Export and restore snapshots"
    VIEW_REPORTS = "view_reports", "Read health reports and aggregate figures"
