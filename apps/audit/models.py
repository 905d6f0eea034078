"""The append-only, hash-chained audit log (ARCHITECTURE §7).

AuditEvent rows are written once by apps.audit.services.record and never changed:
the model, its queryset and (on PostgreSQL) a trigger all refuse updates and deletes.
AuditCheckpoint signs a chain head with a key kept outside the database;
AuditVerification keeps the outcome of every walk of the chain for the console.
"""

from django.db import models


class AppendOnlyError(Exception):
    """Something tried to change or remove an audit event."""


class ActorKind(models.TextChoices):
    USER = "user", "User"
    SERVICE_ACCOUNT = "service_account", "Service account"
    SYSTEM = "system", "System job"


class Action(models.TextChoices):
    """Every audited action. The column holds no DB choices, so adding one needs no migration."""

    AUTH_LOGIN = "auth.login", "Logged in"
    AUTH_LOGIN_FAILED = "auth.login_failed", "Failed login"
    AUTH_LOGOUT = "auth.logout", "Logged out"
    AUTH_LOCKED_OUT = "auth.locked_out", "Locked out after failed logins"
    AUTH_UNLOCKED = "auth.unlocked", "Login lockout lifted"
    ACCESS_DENIED = "access.denied", "Access denied (401/403/404 on an object)"
    ACCESS_GRANTED = "access.granted", "Access granted"
    ACCESS_REVOKED = "access.revoked", "Access revoked"
    API_KEY_CREATED = "api_key.created", "API key created"
    API_KEY_REVOKED = "api_key.revoked", "API key revoked"
    TENANT_CREATED = "tenant.created", "Tenant created"
    TENANT_UPDATED = "tenant.updated", "Tenant policy changed"
    SCOPE_CREATED = "scope.created", "Scope created"
    SCOPE_FORGOTTEN = "scope.forgotten", "Scope forgotten (its memories archived)"
    MEMORY_CREATED = "memory.created", "Memory created"
    MEMORY_UPDATED = "memory.updated", "Memory updated"
    MEMORY_DEDUPLICATED = "memory.deduplicated", "Duplicate merged on write"
    MEMORY_MERGED = "memory.merged", "Memories merged"
    MEMORY_FORGOTTEN = "memory.forgotten", "Memory forgotten (archived)"
    MEMORY_FEEDBACK = "memory.feedback", "Feedback on a memory"
    MEMORY_REJECTED_SENSITIVE = "memory.rejected_sensitive", "Write rejected: sensitive data"
    MEMORY_SUPERSEDED = "memory.superseded", "Memory superseded"
    MEMORY_REINSTATED = "memory.reinstated", "Memory reinstated"
    MEMORY_ROLLED_BACK = "memory.rolled_back", "Memory rolled back to a version"
    MEMORY_ARCHIVED = "memory.archived", "Memories archived by decay"
    MEMORY_EXPIRED = "memory.expired", "Working memories expired"
    MEMORY_RESTORED = "memory.restored", "Archived memory restored"
    MEMORY_RECALLED = "memory.recalled", "Memories recalled"
    MEMORY_IMPORTED = "memory.imported", "Memories imported"
    MEMORY_REQUEUED = "memory.requeued", "Memory returned to review (no queue showed it)"
    QUARANTINE_FLAGGED = "quarantine.flagged", "Memory quarantined"
    QUARANTINE_RELEASED = "quarantine.released", "Released from quarantine"
    QUARANTINE_EDITED = "quarantine.edited_released", "Edited and released"
    QUARANTINE_REJECTED = "quarantine.rejected", "Rejected from quarantine (deleted)"
    QUARANTINE_ESCALATED = "quarantine.escalated", "Escalated to compliance"
    QUARANTINE_AUTO_RELEASED = "quarantine.auto_released", "Released by corroboration"
    QUARANTINE_BLAST_RADIUS = "quarantine.blast_radius", "Blast-radius action"
    QUARANTINE_WITHDRAWN = "quarantine.withdrawn", "Withdrawn: the memory was forgotten"
    CONFLICT_OPENED = "conflict.opened", "Conflict opened"
    CONFLICT_RESOLVED = "conflict.resolved", "Conflict resolved"
    CONFLICT_REVERTED = "conflict.reverted", "Conflict resolution undone"
    AUDIT_VERIFIED = "audit.verified", "Audit chain verified"
    AUDIT_CHECKPOINT = "audit.checkpoint", "Audit checkpoint signed"
    AUDIT_EXPORTED = "audit.exported", "Audit log exported (CSV)"
    JOB_RUN = "job.run", "Scheduled job ran"
    ERASURE_REQUESTED = "erasure.requested", "Erasure requested"
    ERASURE_VERIFIED = "erasure.verified", "Erasure request verified"
    ERASURE_APPROVED = "erasure.approved", "Erasure approved"
    ERASURE_REJECTED = "erasure.rejected", "Erasure rejected"
    ERASURE_HELD = "erasure.held", "Erasure put on legal hold"
    ERASURE_HOLD_RELEASED = "erasure.hold_released", "Legal hold lifted"
    ERASURE_STARTED = "erasure.started", "Erasure started"
    ERASURE_EXECUTED = "erasure.executed", "Erasure executed"
    ERASURE_REPLAYED = "erasure.replayed", "Erasure replayed after a restore"
    ERASURE_LOG_EXPORTED = "erasure.log_exported", "Erasure log exported"
    ERASURE_WRITE_REFUSED = "erasure.write_refused", "Write refused: subject erased"
    DENYLIST_LIFTED = "denylist.lifted", "Denylist entry lifted"
    SNAPSHOT_EXPORTED = "snapshot.exported", "Snapshot exported"
    SNAPSHOT_RESTORED = "snapshot.restored", "Snapshot restored"
    IMPORT_FINISHED = "import.finished", "Foreign import finished (counts)"


# Declared for the log's vocabulary but emitted by no code yet (the decay and expiry
# jobs, GDPR erasure, snapshots): the viewer's action filter leaves them out until they
# are. tests/audit/test_actions.py derives the emitted set from the code, so this list
# cannot drift: emitting one of these fails the test until it is taken off the list.
PLANNED_ACTIONS: frozenset[Action] = frozenset()


def emitted_action_choices() -> list[tuple[str, str]]:
    """(value, label) of the actions the code can record today, in declaration order."""
    return [(value, label) for value, label in Action.choices if value not in PLANNED_ACTIONS]


def action_label(value: str) -> str:
    """ "Released from quarantine" for "quarantine.released"; unknown values as stored."""
    try:
        return Action(value).label
    except ValueError:
        return value


class AuditEventQuerySet(models.QuerySet):
    """Bulk writes are refused: the log is append-only, and every event is chained by
    apps.audit.services.record (a bulk insert would skip the chain)."""

    def bulk_create(self, objs, *args, **kwargs):
        raise AppendOnlyError("Audit events are appended one at a time by audit.record().")

    def update(self, **kwargs):
        raise AppendOnlyError("Audit events cannot be updated.")

    def delete(self):
        raise AppendOnlyError("Audit events cannot be deleted.")

    def bulk_update(self, objs, fields, batch_size=None):
        raise AppendOnlyError("Audit events cannot be updated.")

    bulk_create.queryset_only = True
    update.queryset_only = True
    delete.queryset_only = True


class AuditEvent(models.Model):
    """One audited action; `hash` chains it to every event before it."""

    sequence = models.BigIntegerField(unique=True)
    occurred_at = models.DateTimeField(db_index=True)
    actor_kind = models.CharField(max_length=16, choices=ActorKind.choices)
    actor_id = models.BigIntegerField(null=True, blank=True)
    actor_label = models.CharField(max_length=150)
    action = models.CharField(max_length=64)
    target_type = models.CharField(max_length=64, blank=True, default="")
    target_id = models.CharField(max_length=64, blank=True, default="")
    # Plain ids, not foreign keys: the log must outlive the rows it talks about.
    tenant_id = models.BigIntegerField(null=True, blank=True)
    scope_id = models.BigIntegerField(null=True, blank=True)
    ip = models.GenericIPAddressField(null=True, blank=True)
    request_id = models.CharField(max_length=64, blank=True, default="")
    metadata = models.JSONField(default=dict, blank=True)
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)

    objects = AuditEventQuerySet.as_manager()

    class Meta:
        ordering = ["-sequence"]
        indexes = [
            models.Index(fields=["tenant_id", "-sequence"], name="audit_tenant_seq"),
            models.Index(fields=["scope_id", "-sequence"], name="audit_scope_seq"),
            models.Index(fields=["actor_label", "-sequence"], name="audit_actor_seq"),
            # Filtering by action pages newest-first straight off this index.
            models.Index(fields=["action", "-sequence"], name="audit_action_seq"),
            models.Index(fields=["target_type", "target_id"], name="audit_target"),
        ]

    def __str__(self) -> str:
        return f"#{self.sequence} {self.action}"

    def save(self, *args, force_insert=False, **kwargs):
        """Insert only; an existing event is never rewritten."""
        if not force_insert:
            raise AppendOnlyError("Audit events are written once, with force_insert=True.")
        super().save(*args, force_insert=True, **kwargs)

    def delete(self, *args, **kwargs):
        raise AppendOnlyError("Audit events cannot be deleted.")


class AuditCheckpoint(models.Model):
    """A signed chain head: verification can resume here without rehashing what precedes it.

    The HMAC signature uses settings.MEMORY_CONSOLE_AUDIT_SIGNING_KEY, which is not in the
    database, so a database superuser can neither forge a checkpoint nor move one.
    """

    sequence = models.BigIntegerField()
    head_hash = models.CharField(max_length=64)
    count = models.BigIntegerField()
    created_at = models.DateTimeField()
    signature = models.CharField(max_length=64)

    class Meta:
        ordering = ["-sequence"]
        get_latest_by = "sequence"

    def __str__(self) -> str:
        return f"checkpoint #{self.sequence}"


class CheckpointSource(models.TextChoices):
    NONE = "none", "Genesis (full walk)"
    STORED = "stored", "Stored checkpoint"
    EXPORTED = "exported", "Exported checkpoint file"


class AuditVerification(models.Model):
    """The outcome of one walk of the chain; the viewer shows the latest."""

    ran_at = models.DateTimeField(db_index=True)
    ok = models.BooleanField()
    checked = models.BigIntegerField(help_text="Events hashed during this run.")
    head_sequence = models.BigIntegerField(null=True, blank=True)
    first_bad_sequence = models.BigIntegerField(null=True, blank=True)
    detail = models.CharField(max_length=300, blank=True, default="")
    checkpoint_source = models.CharField(
        max_length=16, choices=CheckpointSource.choices, default=CheckpointSource.NONE
    )
    checkpoint_sequence = models.BigIntegerField(null=True, blank=True)
    duration_ms = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-ran_at"]
        get_latest_by = "ran_at"

    def __str__(self) -> str:
        return f"verification {self.ran_at:%Y-%m-%d %H:%M} {'OK' if self.ok else 'FAILED'}"


# The columns of an event as exported (CSV, API, COPY in benchmarks), in chain order.
EVENT_COLUMNS = (
    "sequence",
    "occurred_at",
    "actor_kind",
    "actor_id",
    "actor_label",
    "action",
    "target_type",
    "target_id",
    "tenant_id",
    "scope_id",
    "ip",
    "request_id",
    "metadata",
    "prev_hash",
    "hash",
)


class DenialCounter(models.Model):
    """Failed logins and denied requests counted per minute, before they reach the chain.

    Denials are cheap to cause, so each one only bumps a counter row (no chain lock);
    apps.audit.services.flush_denials turns every closed minute into one audit event per
    (actor or address, target kind, action) with the count, and deletes the counter.
    The chain stays append-only and nobody can flood it. `actor` is `user:<pk>` or
    `address:<keyed hash>`: no plain address is kept.
    """

    minute = models.DateTimeField()
    actor = models.CharField(max_length=80)
    target_kind = models.CharField(max_length=64)
    action = models.CharField(max_length=64)
    count = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["minute", "actor", "target_kind", "action"], name="audit_denial_key"
            )
        ]

    def __str__(self) -> str:
        return f"{self.action} ×{self.count} at {self.minute:%H:%M}"
