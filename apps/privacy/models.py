"""GDPR erasure (ARCHITECTURE §8): deletion requests and the denylist that keeps erased
subjects out.

A request holds the subject and the identifiers the data subject gave only as long as it
needs them: sealed with the installation's keys (apps.memory.crypto) while open, shown
masked, and wiped when the request completes or is rejected, leaving keyed hashes
(apps.audit.hashing.keyed_hash) and masked forms. The denylist holds keyed hashes only.
"""

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q


class RequestStatus(models.TextChoices):
    RECEIVED = "received", "Received"
    VERIFIED = "verified", "Verified"
    APPROVED = "approved", "Approved"
    EXECUTING = "executing", "Executing"
    COMPLETED = "completed", "Completed"
    REJECTED = "rejected", "Rejected"
    ON_HOLD = "on_hold", "On hold (legal hold)"


# Statuses in which the request still holds the subject (sealed) and can move on.
OPEN_STATUSES = (
    RequestStatus.RECEIVED,
    RequestStatus.VERIFIED,
    RequestStatus.APPROVED,
    RequestStatus.EXECUTING,
    RequestStatus.ON_HOLD,
)


class DeletionRequest(models.Model):
    """One data subject's "delete everything you know about me", from receipt to receipt."""

    # Stable across backups and installations: the erasure log and receipts name it.
    reference = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    tenant = models.ForeignKey(
        "tenancy.Tenant", on_delete=models.PROTECT, related_name="deletion_requests"
    )
    subject_hash = models.CharField(max_length=64, db_index=True)
    subject_masked = models.CharField(max_length=64)
    # Fernet tokens (apps.memory.crypto); emptied once the request is closed.
    subject_sealed = models.TextField(blank=True, default="")
    identifiers_sealed = models.TextField(blank=True, default="")
    identifier_hashes = models.JSONField(default=list, blank=True)
    identifiers_masked = models.JSONField(default=list, blank=True)
    reason = models.TextField(blank=True, default="")
    status = models.CharField(
        max_length=16, choices=RequestStatus.choices, default=RequestStatus.RECEIVED
    )
    received_at = models.DateTimeField()
    due_at = models.DateTimeField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    verified_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    verified_at = models.DateTimeField(null=True, blank=True)
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    approved_at = models.DateTimeField(null=True, blank=True)
    decided_reason = models.TextField(
        blank=True, default="", help_text="Why it was rejected, or why it is on hold."
    )
    held_from = models.CharField(
        max_length=16, choices=RequestStatus.choices, blank=True, default=""
    )
    # The officer's residue choice: ids of items in other scopes that join the erasure.
    residue_ids = models.JSONField(default=list, blank=True)
    residue_reason = models.TextField(blank=True, default="")
    # Per-table counts the preview showed when the request was approved / executed.
    preview_counts = models.JSONField(default=dict, blank=True)
    # Rows deleted so far, per table; committed with each batch so a resumed run adds on.
    erased_counts = models.JSONField(default=dict, blank=True)
    executed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    execution_started_at = models.DateTimeField(null=True, blank=True)
    completed_at = models.DateTimeField(null=True, blank=True)
    receipt = models.JSONField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-received_at", "-id"]
        indexes = [
            # The officers' list: newest first per tenant and status (keyset on both).
            models.Index(fields=["-received_at", "-id"], name="dr_newest"),
            models.Index(fields=["tenant", "-received_at", "-id"], name="dr_tenant_newest"),
            models.Index(fields=["status", "-received_at", "-id"], name="dr_status_newest"),
            # The SLA watch: open requests by due date.
            models.Index(
                fields=["due_at"],
                name="dr_open_due",
                condition=Q(status__in=["received", "verified", "approved", "executing"]),
            ),
        ]

    def __str__(self) -> str:
        return f"erasure {self.public_id}"

    @property
    def public_id(self) -> str:
        return f"dr_{self.pk}"

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES


class DenylistKind(models.TextChoices):
    SUBJECT = "subject", "Subject"
    SCOPE = "scope", "Scope key"


class DenylistEntry(models.Model):
    """An erased subject or scope key of a tenant, as a keyed hash: writes and snapshot
    restores for it are refused. Lifting keeps the row (who, when, why)."""

    tenant = models.ForeignKey("tenancy.Tenant", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=16, choices=DenylistKind.choices)
    digest = models.CharField(max_length=64)
    request = models.ForeignKey(
        DeletionRequest,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="denylist_entries",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    lifted_at = models.DateTimeField(null=True, blank=True)
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    lift_reason = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "denylist entries"
        constraints = [
            models.UniqueConstraint(
                fields=["tenant", "kind", "digest"],
                condition=Q(lifted_at__isnull=True),
                name="denylist_one_active_entry",
            )
        ]
        indexes = [
            models.Index(
                fields=["tenant", "digest"],
                name="denylist_active_lookup",
                condition=Q(lifted_at__isnull=True),
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.digest[:12]}…"

    @property
    def is_active(self) -> bool:
        return self.lifted_at is None
