"""Core memory data: memory items and their version history (tenants and scopes: apps.tenancy)."""

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from apps.tenancy.models import Scope, Tenant


class MemoryType(models.TextChoices):
    WORKING = "working", "Working"
    EPISODIC = "episodic", "Episodic"
    SEMANTIC = "semantic", "Semantic"
    PROCEDURAL = "procedural", "Procedural"


class SourceKind(models.TextChoices):
    EXPLICIT_STATEMENT = "explicit_statement", "Explicit statement"
    INFERRED = "inferred", "Inferred"
    AGENT = "agent", "Agent"
    TOOL = "tool", "Tool output"
    EXTERNAL = "external", "External content"
    IMPORT = "import", "Import"


class MemoryStatus(models.TextChoices):
    ACTIVE = "active", "Active"
    QUARANTINED = "quarantined", "Quarantined"
    PENDING_REVIEW = "pending_review", "Pending review (conflict)"
    ARCHIVED = "archived", "Archived"
    SUPERSEDED = "superseded", "Superseded"
    REJECTED = "rejected", "Rejected"


CATEGORY_BANDS = [
    (0, 19, "Profile"),
    (20, 39, "Dialogue summary"),
    (40, 59, "Task progress"),
    (60, 79, "Decision preference"),
    (80, 99, "Correction & safety warning"),
]


def category_band(category: int) -> str:
    """Name the band (profile, dialogue summary, …) a 0–99 category falls in."""
    for low, high, label in CATEGORY_BANDS:
        if low <= category <= high:
            return label
    return "Unknown"


class MemoryItem(models.Model):
    """The framework-neutral memory record (ARCHITECTURE §2)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    # Denormalised from scope so every hot query and index can lead with the tenant.
    # No single-column FK indexes: the composite indexes below lead with tenant / scope.
    tenant = models.ForeignKey(
        Tenant, on_delete=models.CASCADE, related_name="memories", db_index=False
    )
    scope = models.ForeignKey(
        Scope, on_delete=models.CASCADE, related_name="memories", db_index=False
    )
    memory_type = models.CharField(max_length=16, choices=MemoryType.choices)
    category = models.PositiveSmallIntegerField(default=0)
    key = models.CharField(max_length=200, blank=True, default="")
    content = models.JSONField(default=dict)
    text = models.TextField(blank=True, default="")
    # Provenance.
    source = models.CharField(max_length=200, blank=True, default="")
    source_kind = models.CharField(
        max_length=32, choices=SourceKind.choices, default=SourceKind.EXPLICIT_STATEMENT
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    api_key_prefix = models.CharField(max_length=16, blank=True, default="")
    run_id = models.CharField(max_length=200, blank=True, default="")
    # Scoring (ARCHITECTURE §3).
    importance = models.FloatField(default=0.5)
    half_life_days = models.FloatField(default=30.0)
    last_access_at = models.DateTimeField()
    access_count = models.PositiveIntegerField(default=0)
    archive_due_at = models.DateTimeField(null=True, blank=True)
    confidence = models.FloatField(default=1.0)
    # Lifecycle.
    status = models.CharField(
        max_length=16, choices=MemoryStatus.choices, default=MemoryStatus.ACTIVE
    )
    superseded_by = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="supersedes"
    )
    expires_at = models.DateTimeField(null=True, blank=True)
    version = models.PositiveIntegerField(default=1)
    content_hash = models.CharField(max_length=64, blank=True, default="")
    sensitive = models.BooleanField(default=False)
    # Second line for agents at recall time (issue 17): what the remember gate noticed about
    # a write it let through, e.g. "instruction_like", "unverified_source". Computed at write
    # time by the injection stage, so recall reads them without consulting the detectors.
    flags = models.JSONField(default=list, blank=True)
    # The agent's own free-form facts about the memory (thread, tool, task id…): a JSON
    # object of at most 4 KiB (apps.core.validation.validate_metadata), filterable by its
    # top-level keys on the list API. Never searched, never scored.
    metadata = models.JSONField(default=dict, db_default={}, blank=True)
    # Fernet token (MultiFernet over MEMORY_CONSOLE_ENCRYPTION_KEYS) when content is encrypted.
    sealed_content = models.TextField(blank=True, default="")
    embedding = models.BinaryField(null=True, blank=True)
    embedding_model = models.CharField(max_length=100, blank=True, default="")
    # Set on insert; an importer or a restore may carry the original time (NewMemory).
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["tenant", "scope", "status"], name="mem_tenant_scope_status"),
            models.Index(
                fields=["archive_due_at"],
                name="mem_archive_due_active",
                condition=Q(status="active"),
            ),
            models.Index(
                fields=["expires_at"], name="mem_expires_active", condition=Q(status="active")
            ),
            models.Index(fields=["scope", "content_hash"], name="mem_scope_hash"),
            models.Index(fields=["scope", "key", "status"], name="mem_scope_key_status"),
            models.Index(fields=["tenant", "status", "-created_at"], name="mem_tenant_status_new"),
            # Behavioural signals and blast radius read one writer's (API key's, else
            # source's) recent writes in a tenant, newest first, with their scopes: the
            # scope is included so that scan reads the index alone.
            models.Index(
                fields=["tenant", "api_key_prefix", "created_at"],
                include=["scope"],
                name="mem_tenant_key_recent",
            ),
            models.Index(
                fields=["tenant", "source", "created_at"],
                include=["scope"],
                name="mem_tenant_source_recent",
            ),
            # Newest-first pages of the memory browser and the API list (keyset on both).
            models.Index(fields=["-created_at", "-id"], name="mem_newest"),
            models.Index(fields=["tenant", "-created_at", "-id"], name="mem_tenant_newest"),
            # Recall's top-up of a scope's most valuable active items.
            models.Index(
                fields=["scope", "-importance", "-last_access_at"],
                name="mem_scope_active_rank",
                condition=Q(status="active"),
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(importance__gte=0) & Q(importance__lte=1), name="mem_importance_0_1"
            ),
            models.CheckConstraint(condition=Q(category__lte=99), name="mem_category_0_99"),
            models.CheckConstraint(condition=Q(half_life_days__gt=0), name="mem_half_life_pos"),
        ]

    def __str__(self) -> str:
        return self.public_id

    @property
    def public_id(self) -> str:
        return f"mem_{self.id.hex}"


class MemoryVersion(models.Model):
    """The item as it stood at one version; written with every change so history can be undone."""

    item = models.ForeignKey(MemoryItem, on_delete=models.CASCADE, related_name="versions")
    version = models.PositiveIntegerField()
    content = models.JSONField(default=dict)
    text = models.TextField(blank=True, default="")
    key = models.CharField(max_length=200, blank=True, default="")
    status = models.CharField(max_length=16, choices=MemoryStatus.choices)
    importance = models.FloatField()
    superseded_by_id = models.UUIDField(null=True, blank=True)
    change = models.CharField(max_length=64, help_text="The audit action that produced it.")
    reference = models.CharField(
        max_length=64,
        blank=True,
        default="",
        help_text='What the change belongs to, e.g. "conflict:12", so it can be undone there.',
    )
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["item_id", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["item", "version"], name="memversion_unique")
        ]

    def __str__(self) -> str:
        return f"{self.item_id} v{self.version}"


class PendingAccess(models.Model):
    """A recall's accesses kept in the database because the broker could not take them.

    Recall must answer at its normal speed with the broker down, and reinforcement must
    not be lost: apps.memory.tasks.send_recall_accesses writes one row here instead, and
    apply_pending_accesses (minutely, and whenever the broker is back) applies and
    deletes them.
    """

    item_ids = models.JSONField()
    accessed_at = models.DateTimeField()
    tenant_id = models.BigIntegerField()
    scope_id = models.BigIntegerField()
    actor_id = models.BigIntegerField(null=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{len(self.item_ids)} access(es) at {self.accessed_at:%Y-%m-%d %H:%M:%S}"


class IdempotentRequest(models.Model):
    """The first answer to a write sent with an `Idempotency-Key`, replayed to its retries.

    Claimed (no status yet) before the write runs, completed with the answer after it,
    released when the write failed; kept IDEMPOTENCY_TTL (24 h) and pruned by the hourly
    expiry job. The answer can hold memory content, so the row points at the item and
    the scope it wrote: erasing either takes the row along (apps.privacy's dependants).
    """

    # Whose retry this is: "key:<API key prefix>" or "user:<pk>" (console sessions).
    owner = models.CharField(max_length=64)
    key = models.CharField(max_length=255)
    # Keyed HMAC of the method, path and body: the same key with another body is refused.
    fingerprint = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    body = models.JSONField(null=True, blank=True)
    location = models.CharField(max_length=300, blank=True, default="")
    scope = models.ForeignKey(
        Scope, null=True, blank=True, on_delete=models.CASCADE, related_name="idempotent_requests"
    )
    item = models.ForeignKey(
        MemoryItem,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="idempotent_requests",
    )
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["owner", "key"], name="idempotency_owner_key")
        ]
        indexes = [models.Index(fields=["expires_at"], name="idempotency_expires")]

    def __str__(self) -> str:
        return f"{self.owner} {self.key[:20]}"
