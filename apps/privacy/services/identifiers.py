"""How a subject and its identifiers are kept: sealed while needed, hashed, masked."""

import json

from django.contrib.auth.models import User

from apps.audit.hashing import keyed_hash
from apps.memory import crypto

MAX_IDENTIFIERS = 20
MAX_IDENTIFIER_LENGTH = 200


def mask(value: str) -> str:
    """A recognisable but unreadable form: the first and last two characters at most.

    Short values show less, so a mask never holds most of what it hides.
    """
    value = value.strip()
    if len(value) <= 4:
        return "*" * len(value)
    if len(value) <= 8:
        return f"{value[0]}{'*' * (len(value) - 2)}{value[-1]}"
    return f"{value[:2]}{'*' * min(len(value) - 4, 8)}{value[-2:]}"


def clean_identifiers(values: list[str] | None) -> list[str]:
    """Distinct, stripped, non-empty identifiers in the order given."""
    cleaned: list[str] = []
    for value in values or []:
        text = str(value).strip()
        if text and text not in cleaned:
            cleaned.append(text)
    return cleaned


def seal_identifiers(values: list[str]) -> str:
    return crypto.seal(json.dumps(values, ensure_ascii=False)) if values else ""


def unseal_identifiers(token: str) -> list[str]:
    return json.loads(crypto.unseal(token)) if token else []


def hash_all(values: list[str]) -> list[str]:
    return [keyed_hash(value) for value in values]


def scrub(text: str, secrets: list[str]) -> str:
    """The text with every secret (subject, identifiers) replaced by its masked form."""
    for secret in sorted(secrets, key=len, reverse=True):
        if secret and text:
            lowered, needle = text.lower(), secret.lower()
            start = lowered.find(needle)
            while start != -1:
                text = text[:start] + mask(secret) + text[start + len(secret) :]
                lowered = text.lower()
                start = lowered.find(needle, start + 1)
    return text


def person(actor) -> "User | None":
    """The user behind an actor, for the request's who-did-it columns (None for a job)."""
    return None if actor is None or isinstance(actor, str) else actor


def subject_of(request) -> str:
    """The plain subject of an open request (sealed at rest)."""
    return crypto.unseal(request.subject_sealed) if request.subject_sealed else ""


def search_terms(request) -> list[str]:
    """The subject and every identifier of an open request: what residue is searched for."""
    terms = [subject_of(request), *unseal_identifiers(request.identifiers_sealed)]
    return [term for term in dict.fromkeys(terms) if term]
