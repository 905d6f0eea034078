"""The remember gate's denylist stage: an erased subject (or scope key) stays erased.

An agent holding a stale context must not write the person back a minute after the
erasure: the write is refused with 409 `subject_erased`, and the refusal is audited
(after the write's transaction rolled back) with no identifier in it.
"""

from collections import defaultdict
from collections.abc import Sequence

from apps.audit.hashing import keyed_hash
from apps.audit.models import Action
from apps.audit.services import record
from apps.core.types import Actor
from apps.memory.gate import Draft, GateRejected, Lookup
from apps.privacy.selectors import active_denylist_digests, denylist_query, denylisted_among

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
        scope = draft.scope
        if scope is None or draft.tenant is None:
            return
        digests = _digests(draft)
        prepared = draft.prepared.get(self.name)
        if prepared is not None and digests <= prepared[0]:
            erased = bool(digests & prepared[1])  # looked up for the whole batch
        else:
            erased = active_denylist_digests(tenant_id=draft.tenant.pk, digests=digests)
        if erased:
            raise SubjectErased(
                tenant_id=draft.tenant.pk,
                scope_kind=scope.kind,
                api_key_prefix=draft.memory.api_key_prefix,
            )

    def look_up(self, draft: Draft) -> Lookup | None:
        """The denylist lookup of a single write, to go ahead with the other stages'."""
        if draft.scope is None or draft.tenant is None:
            return None
        digests = _digests(draft)
        query = denylist_query(tenant_id=draft.tenant.pk, digests=digests)
        if query is None:
            return None

        def keep(row: tuple | None) -> None:
            draft.prepared[self.name] = (digests, set() if row is None else digests)

        return Lookup(*query, columns=1, keep=keep)

    def prepare(self, drafts: Sequence[Draft]) -> None:
        """One lookup per tenant for a batch's writes (their scope keys and subjects)."""
        asked: dict[int, set[str]] = defaultdict(set)
        for draft in drafts:
            if draft.scope is not None and draft.tenant is not None:
                asked[draft.tenant.pk] |= _digests(draft)
        for tenant_id, digests in asked.items():
            found = denylisted_among(tenant_id=tenant_id, digests=digests)
            for draft in drafts:
                if draft.tenant is not None and draft.tenant.pk == tenant_id:
                    draft.prepared[self.name] = (digests, found)


def _digests(draft: Draft) -> set[str]:
    """Keyed hashes of what the write names: its scope key and subjects."""
    scope = draft.scope
    subjects = {scope.subject, draft.memory.subject}
    return {keyed_hash(scope.key)} | {keyed_hash(s) for s in subjects if s}
