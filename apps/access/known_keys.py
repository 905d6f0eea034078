"""API keys this process found, kept for KEY_CACHE_SECONDS: a request then makes no statement
to authenticate (the key's lookup was one of a recall's four).

What is kept is the key's row (the key, its account, its admin flag) as the lookup
returned it; every request still checks the presented secret against its hash, the
expiry date and the account's `is_active` on a fresh copy, and grants are never kept.

Revocation is seen at once: `revoke_api_key` drops the key here and marks it revoked in
the shared cache, which each request reads in the round trip it makes anyway (the
bad-key counter). Without a shared cache, or while it is down, another process sees a
revocation within KEY_CACHE_SECONDS; so does every process see a key's account disabled,
its expiry date moved, or its account's admin membership changed.
"""

import time
from typing import Any

from apps.core.cache import rate_limit_cache

KEY_CACHE_SECONDS = 10.0
# Keys kept at most (a process sees the keys of its agents: a handful, not thousands).
MAX_KEPT = 1_000

_clock = time.monotonic  # tests move it
_kept: dict[str, tuple[float, tuple[Any, ...]]] = {}


def revoked_marker(prefix: str) -> str:
    """The shared-cache entry saying the key with this prefix was revoked."""
    return f"api-key-revoked:{prefix}"


def kept_row(prefix: str, *, revoked: bool) -> tuple[Any, ...] | None:
    """The key's row as kept by this process, unless it is older than KEY_CACHE_SECONDS
    or the key is `revoked` (its shared-cache marker), in which case it is dropped."""
    kept = _kept.get(prefix)
    if kept is None:
        return None
    found_at, row = kept
    if revoked or _clock() - found_at >= KEY_CACHE_SECONDS:
        _kept.pop(prefix, None)
        return None
    return row


def keep_row(prefix: str, row: tuple[Any, ...]) -> None:
    """Keep the key's row as just found in the database."""
    if len(_kept) >= MAX_KEPT:
        _kept.clear()
    _kept[prefix] = (_clock(), row)


def replace_row(prefix: str, row: tuple[Any, ...]) -> None:
    """Update a kept row (its last use was written) without extending its life."""
    kept = _kept.get(prefix)
    if kept is not None:
        _kept[prefix] = (kept[0], row)


def forget_revoked_key(prefix: str) -> None:
    """Drop a revoked key here, and tell other processes through the shared cache (long
    enough for any row they kept before the revocation to have expired)."""
    _kept.pop(prefix, None)
    rate_limit_cache.set(revoked_marker(prefix), True, 2 * KEY_CACHE_SECONDS)
