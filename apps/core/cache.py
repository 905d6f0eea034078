"""The shared cache as rate limits use it: when it is unreachable, they fall back to this
process's memory (logged) instead of failing the request.

Limits then hold per process rather than across processes until the cache is back: a
looser limit for a while, never a 500. After a failure the shared cache is left alone
for RETRY_AFTER_SECONDS, so an outage costs one connection attempt per process per
period, not one per request.
"""

import logging
import time
from typing import Any

from django.core.cache import cache as shared_cache
from django.core.cache.backends.locmem import LocMemCache

logger = logging.getLogger("memory_console.cache")

RETRY_AFTER_SECONDS = 5.0


def _outage_errors() -> tuple[type[BaseException], ...]:
    from redis.exceptions import RedisError

    return (RedisError, OSError)


class DegradingCache:
    """get / get_many / set / add / incr on the shared cache, or on a per-process store
    while it is down."""

    def __init__(self) -> None:
        self.local = LocMemCache("memory-console-fallback", {"OPTIONS": {"MAX_ENTRIES": 10_000}})
        self.down_until = 0.0

    def _call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        if time.monotonic() >= self.down_until:
            try:
                return getattr(shared_cache, name)(*args, **kwargs)
            except _outage_errors() as exc:
                self.down_until = time.monotonic() + RETRY_AFTER_SECONDS
                logger.warning(
                    "shared cache unreachable (%s); rate limits use this process's memory "
                    "for %.0f s",
                    type(exc).__name__,
                    RETRY_AFTER_SECONDS,
                )
        return getattr(self.local, name)(*args, **kwargs)

    @property
    def degraded(self) -> bool:
        return time.monotonic() < self.down_until

    def get(self, key: str, default: Any = None) -> Any:
        return self._call("get", key, default)

    def get_many(self, keys: list[str]) -> dict[str, Any]:
        return self._call("get_many", keys)

    def set(self, key: str, value: Any, timeout: float | None = None) -> None:
        self._call("set", key, value, timeout)

    def add(self, key: str, value: Any, timeout: float | None = None) -> bool:
        return self._call("add", key, value, timeout)

    def incr(self, key: str, delta: int = 1) -> int:
        return self._call("incr", key, delta)


rate_limit_cache = DegradingCache()
