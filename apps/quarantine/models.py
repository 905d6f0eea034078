"""The quarantine review queue: one entry per write the gate held back (ARCHITECTURE §4, §11).

An entry holds no memory content: only the risk, the detector names and reasons, the
matched spans as offsets into the item's text, and provenance copied from the item so
the queue can be filtered and a compromised source traced (blast radius). The item
link is SET_NULL, so a rejected (hard-deleted) or erased item leaves a content-free
decision record behind.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q


class EntryStatus(models.TextChoices):
    PENDING = "pending", "Pending review"
    RELEASED = "released", "Released"
    REJECTED = "rejected", "Rejected (deleted)"
    ESCALATED = "escalated", "Escalated to compliance"
    WITHDRAWN = "withdrawn", "Withdrawn (forgotten by its agent)"


class QuarantineEntry(models.Model):
    """A quarantined memory waiting for (or carrying) an operator's decision."""

    item = models.ForeignKey(
        "memory.MemoryItem",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="quarantine_entries",
    )
    # Denormalised from the item so the queue filters and grants never join through it.
    tenant = models.ForeignKey(
        "tenancy.Tenant", on_delete=models.CASCADE, related_name="quarantine_entries"
    )
    scope = models.ForeignKey(
        "tenancy.Scope", on_delete=models.CASCADE, related_name="quarantine_entries"
    )
    status = models.CharField(
        max_length=16, choices=EntryStatus.choices, default=EntryStatus.PENDING
    )
    risk = models.FloatField(help_text="Combined detector and behaviour score, 0..1.")
    detectors = models.JSONField(default=list, blank=True)
    reasons = models.JSONField(default=list, blank=True)
    # [[start, end, label], …] offsets into the item's text; never the matched text itself.
    spans = models.JSONField(default=list, blank=True)
    # Provenance, copied for filters and blast radius.
    source = models.CharField(max_length=200, blank=True, default="")
    source_kind = models.CharField(max_length=32, blank=True, default="")
    api_key_prefix = models.CharField(max_length=16, blank=True, default="")
    run_id = models.CharField(max_length=200, blank=True, default="")
    # Identities ("source|api key prefix") of independent trusted writes confirming the value.
    corroborations = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_by_label = models.CharField(max_length=150, blank=True, default="")
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_reason = models.CharField(max_length=500, blank=True, default="")

    class Meta:
        ordering = ["-risk", "created_at", "id"]
        verbose_name_plural = "quarantine entries"
        indexes = [
            models.Index(fields=["status", "-risk", "created_at", "id"], name="qe_queue_order"),
            models.Index(
                fields=["tenant", "-risk", "created_at"],
                name="qe_tenant_pending",
                condition=Q(status="pending"),
            ),
            models.Index(fields=["scope", "status"], name="qe_scope_status"),
            models.Index(fields=["source", "created_at"], name="qe_source_created"),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(risk__gte=0) & Q(risk__lte=1), name="qe_risk_0_1")
        ]

    def __str__(self) -> str:
        return f"quarantine:{self.pk} ({self.status})"

    @property
    def reference(self) -> str:
        """How memory versions name this entry, so a change can be traced back to it."""
        return f"quarantine:{self.pk}"
