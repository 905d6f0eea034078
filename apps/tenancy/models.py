"""Tenants and scopes: the ownership every other app (access, audit, memory …) builds on.

The tables keep their historical names (`memory_tenant`, `memory_scope`): the models moved
here from apps.memory without touching the database (see migrations/0001_initial.py).
"""

from django.db import models

from apps.tenancy.permissions import Perm

# Object permissions granted on a Tenant or a Scope (a grant on a tenant covers its scopes).
# The same codenames exist on both models so one selector can check either level.
OBJECT_PERMISSIONS = Perm.choices


class SensitivePolicy(models.TextChoices):
    REDACT = "redact", "Redact"
    ENCRYPT = "encrypt", "Encrypt at rest"
    REJECT = "reject", "Reject the write"


def default_lww_patterns() -> list[str]:
    return ["address.*", "phone", "email", "contact.*"]


class Tenant(models.Model):
    """An agent deployment or business unit; scopes, grants and policies hang off it."""

    slug = models.SlugField(max_length=64, unique=True)
    name = models.CharField(max_length=200)
    sensitive_policy = models.CharField(
        max_length=16, choices=SensitivePolicy.choices, default=SensitivePolicy.REDACT
    )
    recall_alpha = models.FloatField(default=0.5, help_text="Weight of similarity.")
    recall_beta = models.FloatField(default=0.25, help_text="Weight of recency.")
    recall_gamma = models.FloatField(default=0.25, help_text="Weight of the decayed importance.")
    archive_threshold = models.FloatField(default=0.1)
    lww_key_patterns = models.JSONField(
        default=default_lww_patterns,
        blank=True,
        help_text="Fact keys (glob patterns) where the newest write supersedes the old one.",
    )
    half_life_overrides = models.JSONField(
        default=dict,
        blank=True,
        help_text='Half-lives in days by memory type or category band, e.g. {"procedural": 120}.',
    )
    erasure_sla_hours = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "memory_tenant"
        ordering = ["slug"]
        permissions = OBJECT_PERMISSIONS

    def __str__(self) -> str:
        return self.slug


class ScopeKind(models.TextChoices):
    USER = "user", "User"
    SESSION = "session", "Session"
    AGENT = "agent", "Agent"
    GLOBAL = "global", "Global"


class Scope(models.Model):
    """Where a memory belongs inside a tenant: `kind:external_id`, about an optional subject."""

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="scopes")
    kind = models.CharField(max_length=16, choices=ScopeKind.choices)
    external_id = models.CharField(max_length=200)
    subject = models.CharField(
        max_length=200, blank=True, default="", help_text="The data subject this scope is about."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "memory_scope"
        ordering = ["tenant_id", "kind", "external_id"]
        permissions = OBJECT_PERMISSIONS
        constraints = [
            models.UniqueConstraint(
                fields=["tenant", "kind", "external_id"], name="scope_unique_key_per_tenant"
            )
        ]
        indexes = [models.Index(fields=["tenant", "subject"], name="scope_tenant_subject")]

    def __str__(self) -> str:
        return self.key

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.external_id}"
