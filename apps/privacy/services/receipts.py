"""Erasure receipts: what was erased, when, by whose decision, and the proof that nothing
is left, signed with the audit signing key so a receipt can be proven genuine later."""

import hmac
import json
from typing import Any

from apps.audit.verification import canonical, sign_payload, signing_key_id
from apps.privacy.models import DeletionRequest
from apps.privacy.services.errors import ErasureLogError

RECEIPT_FORMAT = "memory-console-erasure-receipt"
RECEIPT_VERSION = 1
_UNSIGNED = ("signature", "key_id")


def _iso(value) -> str | None:
    return value.isoformat(timespec="seconds") if value else None


def _name(user) -> str | None:
    return user.get_username() if user is not None else None


def sign_document(document: dict[str, Any]) -> dict[str, Any]:
    """The document with `key_id` and `signature` over everything else."""
    body = {key: value for key, value in document.items() if key not in _UNSIGNED}
    return {**body, "key_id": signing_key_id(), "signature": sign_payload(canonical(body))}


def signature_is_valid(document: dict[str, Any]) -> bool:
    body = {key: value for key, value in document.items() if key not in _UNSIGNED}
    signature = str(document.get("signature") or "")
    return bool(signature) and hmac.compare_digest(signature, sign_payload(canonical(body)))


def build_receipt(request: DeletionRequest, *, verification: dict[str, int]) -> dict[str, Any]:
    """The signed receipt of a completed request (no plain identifier in it)."""
    return sign_document(
        {
            "format": RECEIPT_FORMAT,
            "version": RECEIPT_VERSION,
            "request_id": request.pk,
            "reference": str(request.reference),
            "tenant": request.tenant.slug,
            "subject_hash": request.subject_hash,
            "identifier_hashes": list(request.identifier_hashes),
            "tables": dict(sorted(request.erased_counts.items())),
            "residue_items": len(request.residue_ids),
            "verification": dict(sorted(verification.items())),
            "received_at": _iso(request.received_at),
            "due_at": _iso(request.due_at),
            "verified_at": _iso(request.verified_at),
            "verified_by": _name(request.verified_by),
            "approved_at": _iso(request.approved_at),
            "approved_by": _name(request.approved_by),
            "executed_by": _name(request.executed_by),
            "execution_started_at": _iso(request.execution_started_at),
            "completed_at": _iso(request.completed_at),
        }
    )


def load_receipt(text: str) -> dict[str, Any]:
    """A receipt read from a file, its signature checked; raises ErasureLogError."""
    try:
        document = json.loads(text)
    except ValueError as error:
        raise ErasureLogError(f"Not a JSON document: {error}") from error
    if not isinstance(document, dict) or document.get("format") != RECEIPT_FORMAT:
        raise ErasureLogError("Not an erasure receipt.")
    if not signature_is_valid(document):
        raise ErasureLogError("The receipt's signature is invalid (wrong key or edited file).")
    return document
