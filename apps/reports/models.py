"""Stored health reports (one per tenant and one for the installation, per week) and the
GDPR SLA watch's record of which deletion requests it has already flagged."""

from django.db import models
from django.db.models import Q


class HealthReport(models.Model):
    """The weekly audit's figures for one tenant, or for the installation (tenant empty).

    Stored, so last week stays comparable: `figures` holds aggregates only (counts,
    rates, histograms, ids), never memory content. Rebuilding a week replaces its row.
    """

    tenant = models.ForeignKey(
        "tenancy.Tenant", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    week_start = models.DateField(help_text="Monday (UTC) of the ISO week the report covers.")
    period_start = models.DateTimeField()
    period_end = models.DateTimeField()
    generated_at = models.DateTimeField()
    chain_ok = models.BooleanField(null=True)
    total_items = models.BigIntegerField(default=0)
    figures = models.JSONField(default=dict)

    class Meta:
        ordering = ["-week_start", "tenant_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tenant", "week_start"],
                condition=Q(tenant__isnull=False),
                name="healthreport_one_per_tenant_week",
            ),
            models.UniqueConstraint(
                fields=["week_start"],
                condition=Q(tenant__isnull=True),
                name="healthreport_one_installation_week",
            ),
        ]
        indexes = [models.Index(fields=["tenant", "-week_start"], name="healthreport_tenant_week")]

    def __str__(self) -> str:
        return f"health report {self.week_start} {self.tenant or 'installation'}"

    @property
    def is_installation(self) -> bool:
        return self.tenant_id is None


class SlaLevel(models.TextChoices):
    DUE_SOON = "due_soon", "Due within 48 h"
    OVERDUE = "overdue", "Overdue"


class SlaAlert(models.Model):
    """A deletion request the GDPR SLA watch flagged (once per level), and whom it told.

    Plain ids, not foreign keys: the alert is evidence that outlives the request's row.
    """

    request_id = models.BigIntegerField()
    tenant_id = models.BigIntegerField()
    level = models.CharField(max_length=16, choices=SlaLevel.choices)
    due_at = models.DateTimeField()
    flagged_at = models.DateTimeField()
    notified = models.PositiveIntegerField(default=0, help_text="Compliance officers e-mailed.")

    class Meta:
        ordering = ["-flagged_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["request_id", "level"], name="slaalert_once_per_level")
        ]

    def __str__(self) -> str:
        return f"dr_{self.request_id} {self.level}"
