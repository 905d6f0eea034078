"""Contradictions between memories of one scope and key, and how a person settled them."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone


class ConflictStatus(models.TextChoices):
    OPEN = "open", "Open"
    RESOLVED = "resolved", "Resolved"


class Resolution(models.TextChoices):
    KEEP_NEW = "keep_new", "Keep the new value"
    KEEP_OLD = "keep_old", "Keep the old value"
    KEEP_BOTH = "keep_both", "Keep both (as separate facts)"
    MERGE = "merge", "Merge into one"


class DetectedBy(models.TextChoices):
    GATE = "gate", "Remember gate"
    BULK_SCAN = "bulk_scan", "Bulk scan"


class Conflict(models.Model):
    """Two memories in one scope claim different values for the same fact key.

    The items are SET_NULL: quarantine rejection and GDPR erasure hard-delete items,
    and a conflict whose item is gone must still render (and resolve) without it.
    """

    tenant = models.ForeignKey("tenancy.Tenant", on_delete=models.CASCADE, related_name="+")
    scope = models.ForeignKey("tenancy.Scope", on_delete=models.CASCADE, related_name="conflicts")
    key = models.CharField(max_length=200)
    existing_item = models.ForeignKey(
        "memory.MemoryItem",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="conflicts_as_existing",
    )
    incoming_item = models.ForeignKey(
        "memory.MemoryItem",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="conflicts_as_incoming",
    )
    status = models.CharField(
        max_length=16, choices=ConflictStatus.choices, default=ConflictStatus.OPEN
    )
    resolution = models.CharField(max_length=16, choices=Resolution.choices, blank=True)
    reason = models.TextField(blank=True, default="")
    detected_by = models.CharField(
        max_length=16, choices=DetectedBy.choices, default=DetectedBy.GATE
    )
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    resolved_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    undone_at = models.DateTimeField(null=True, blank=True)
    # A default rather than auto_now_add so imports and benchmarks can state the age.
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [
            # The review queue: open conflicts, oldest first, keyset-paginated. The grant
            # columns ride along so the capped nav count is an index-only scan.
            models.Index(
                fields=["created_at", "id", "tenant", "scope"],
                name="conflict_open_queue",
                condition=Q(status="open"),
            ),
            models.Index(fields=["status", "created_at"], name="conflict_status_age"),
            models.Index(fields=["tenant", "status", "created_at"], name="conflict_tenant_status"),
            models.Index(fields=["scope", "status"], name="conflict_scope_status"),
        ]
        constraints = [
            # Detection is idempotent: one open conflict per pair of items.
            models.UniqueConstraint(
                fields=["existing_item", "incoming_item"],
                condition=Q(status="open"),
                name="conflict_one_open_per_pair",
            ),
        ]

    def __str__(self) -> str:
        return f"conflict:{self.pk}"

    @property
    def reference(self) -> str:
        """The MemoryVersion.reference its resolutions write, so they can be undone."""
        return f"conflict:{self.pk}"

    @property
    def is_open(self) -> bool:
        return self.status == ConflictStatus.OPEN
