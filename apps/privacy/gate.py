"""The remember gate's denylist stage: an erased subject (or scope key) stays erased.

An agent holding a stale context must not write the person back a minute after the
erasure: the write is refused with 409 `subject_erased`, and the refusal is audited
(after the write's transaction rolled back) with no identifier in it.
"""

from apps.audit.hashing import keyed_hash
from apps.audit.models import Action
from apps.audit.services import record
from apps.core.types import Actor
from apps.memory.gate import Draft, GateRejected
from apps.privacy.selectors import active_denylist_digests

ERASED_MESSAGE = "This subject was erased under a GDPR request; it cannot be written again."


class SubjectErased(GateRejected):
    """A write for a denylisted subject or scope (409)."""

    status = 409

    def __init__(self, *, tenant_id: int, scope_kind: str, api_key_prefix: str = ""):
        super().__init__(ERASED_MESSAGE, code="subject_erased")
        self.status = 409  # GateRejected sets a per-code status; this code is a conflict
        self.tenant_id = tenant_id
        self.scope_kind = scope_kind
        self.api_key_prefix = api_key_prefix

    def after_rollback(self, *, actor: Actor) -> None:
        """Audit the refusal once the write's transaction is gone (so it survives it)."""
        record(
            actor=actor,
            action=Action.ERASURE_WRITE_REFUSED,
            target_type="memory.memoryitem",
            tenant=self.tenant_id,
            data={"scope_kind": self.scope_kind, "api_key": self.api_key_prefix},
        )


class DenylistStage:
    """Refuse writes whose scope key or subject is on the tenant's denylist."""

    name = "denylist"

    def inspect(self, draft: Draft) -> None:
        memory, scope = draft.memory, draft.scope
        if scope is None or draft.tenant is None:
            return
        subjects = {scope.subject, memory.subject}
        digests = {keyed_hash(scope.key)} | {keyed_hash(s) for s in subjects if s}
        if active_denylist_digests(tenant_id=draft.tenant.pk, digests=digests):
            raise SubjectErased(
                tenant_id=draft.tenant.pk,
                scope_kind=scope.kind,
                api_key_prefix=memory.api_key_prefix,
            )
