"""Sealing memory content at rest with MultiFernet over MEMORY_CONSOLE_ENCRYPTION_KEYS.

Keys are listed newest first: `seal` always encrypts under the first key, `unseal`
tries every key, so after a rotation (new key prepended) old items stay readable and
`rotate_token` re-encrypts them under the newest key at leisure.
"""

import hashlib
import json
from functools import lru_cache
from typing import Any

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

__all__ = [
    "InvalidToken",
    "configured_key_ids",
    "rotate_token",
    "seal",
    "seal_content",
    "unseal",
    "unseal_content",
]


@lru_cache(maxsize=4)
def _multi_fernet(keys: tuple[str, ...]) -> MultiFernet:
    if not keys:
        raise ImproperlyConfigured("MEMORY_CONSOLE_ENCRYPTION_KEYS is empty.")
    return MultiFernet([Fernet(key.encode()) for key in keys])


def _keyring() -> MultiFernet:
    """The MultiFernet for the keys configured now (cached per key list, so rotation applies)."""
    return _multi_fernet(tuple(settings.MEMORY_CONSOLE_ENCRYPTION_KEYS))


def seal(text: str) -> str:
    """Encrypt text under the newest key; returns a Fernet token (ASCII)."""
    return _keyring().encrypt(text.encode()).decode("ascii")


def unseal(token: str) -> str:
    """Decrypt a token sealed under any configured key; raises InvalidToken otherwise."""
    return _keyring().decrypt(token.encode("ascii")).decode()


def rotate_token(token: str) -> str:
    """Re-encrypt a token under the newest key (same plaintext, fresh timestamp)."""
    return _keyring().rotate(token.encode("ascii")).decode("ascii")


def seal_content(content: dict[str, Any]) -> str:
    """Seal a memory's JSON content."""
    return seal(json.dumps(content, ensure_ascii=False, sort_keys=True))


def unseal_content(token: str) -> dict[str, Any]:
    """The JSON content sealed by `seal_content`."""
    return json.loads(unseal(token))


def key_id(key: str) -> str:
    """A short public fingerprint of a key, to name it without revealing it."""
    return hashlib.sha256(b"memory-console-key-id:" + key.encode()).hexdigest()[:16]


def configured_key_ids() -> list[str]:
    """Fingerprints of the configured keys, newest (the one `seal` uses) first."""
    return [key_id(key) for key in settings.MEMORY_CONSOLE_ENCRYPTION_KEYS]
