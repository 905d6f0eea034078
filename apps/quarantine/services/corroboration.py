"""Corroboration: independent trusted writes of the same key and value release a pending
entry without a reviewer."""

from django.conf import settings

from apps.audit.models import Action
from apps.audit.services import audited_change
from apps.memory.models import SourceKind
from apps.quarantine.models import EntryStatus, QuarantineEntry
from apps.quarantine.services.claims import activate, claim

CORROBORATION_ACTOR = "corroboration"
TRUSTED_CORROBORATION_KINDS = {SourceKind.EXPLICIT_STATEMENT}


def writer_identity(*, source: str, api_key_prefix: str) -> str:
    """Who wrote something, for independence: the API key when there is one, else the source."""
    return f"key:{api_key_prefix}" if api_key_prefix else f"source:{source}"


def corroborate(
    *, scope_id: int, key: str, content_hash: str, source: str, api_key_prefix: str
) -> list[int]:
    """Count a trusted clean write as confirming pending entries with the same key and value;
    release those that reach MEMORY_CONSOLE_CORROBORATION_WRITES independent confirmations.
    Returns the ids of the entries released."""
    if not key:
        return []
    identity = writer_identity(source=source, api_key_prefix=api_key_prefix)
    needed = settings.MEMORY_CONSOLE_CORROBORATION_WRITES
    pending = QuarantineEntry.objects.filter(
        scope_id=scope_id,
        status=EntryStatus.PENDING,
        item__key=key,
        item__content_hash=content_hash,
    )
    if not pending.exists():
        return []  # the common case, without queueing for the chain's lock
    released = []
    with audited_change():
        entries = pending.select_for_update(no_key=True).select_related("item")
        for entry in entries:
            own = writer_identity(source=entry.source, api_key_prefix=entry.api_key_prefix)
            if identity == own or identity in entry.corroborations:
                continue  # the same writer repeating itself is not independent confirmation
            entry.corroborations = [*entry.corroborations, identity]
            entry.save(update_fields=["corroborations"])
            if len(entry.corroborations) >= needed:
                _auto_release(entry_id=entry.pk, confirmations=len(entry.corroborations))
                released.append(entry.pk)
    return released


def _auto_release(*, entry_id: int, confirmations: int) -> None:
    reason = f"Corroborated by {confirmations} independent trusted writes"
    with audited_change():
        entry = claim(
            entry_id=entry_id,
            actor=CORROBORATION_ACTOR,
            reason=reason,
            to_status=EntryStatus.RELEASED,
            from_statuses=(EntryStatus.PENDING,),
        )
        activate(
            entry=entry,
            actor=CORROBORATION_ACTOR,
            action=Action.QUARANTINE_AUTO_RELEASED,
            changes={},
            extra={"confirmations": confirmations},
        )
