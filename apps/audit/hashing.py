"""Keyed hashes that stand in for subjects and scope keys wherever they must not appear."""

import hashlib
import hmac

from django.conf import settings


def keyed_hash(value: str) -> str:
    """HMAC-SHA256 of an identifier under MEMORY_CONSOLE_HMAC_KEY, as hex."""
    key = settings.MEMORY_CONSOLE_HMAC_KEY.encode()
    return hmac.new(key, value.encode(), hashlib.sha256).hexdigest()
