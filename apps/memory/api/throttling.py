"""Per-API-key throttling: each agent key gets its own budget (429 with Retry-After).

Every throttled answer tells the client where it stands, as the IETF RateLimit header
draft does: `RateLimit-Limit` (requests per window), `RateLimit-Remaining` (left in it)
and `RateLimit-Reset` (seconds until the oldest counted request leaves the window).
The throttle notes them on the request; ApiRequestMiddleware (api.limits) writes them
on the response, whatever answered it (a view, an error, the 429 itself).
"""

import math

from django.conf import settings
from rest_framework.throttling import SimpleRateThrottle

from apps.access.models import AgentAPIKey
from apps.core.cache import rate_limit_cache
from apps.memory.api.limits import RATE_LIMIT_ATTRIBUTE, RateLimitState


class AgentKeyRateThrottle(SimpleRateThrottle):
    """Limit requests per API key; console sessions are limited per user instead."""

    scope = "agent_key"
    cache = rate_limit_cache  # falls back to the process while the shared cache is down

    def get_rate(self) -> str | None:
        # Read at request time so settings overrides (tests, deployments) take effect.
        return settings.MEMORY_CONSOLE_API_KEY_RATE or None

    def get_cache_key(self, request, view) -> str | None:
        if isinstance(request.auth, AgentAPIKey):
            ident = f"key:{request.auth.prefix}"
        elif request.user is not None and request.user.is_authenticated:
            ident = f"user:{request.user.pk}"
        else:
            ident = f"anon:{self.get_ident(request)}"
        return self.cache_format % {"scope": self.scope, "ident": ident}

    def allow_request(self, request, view) -> bool:
        # The rate is resolved per request (see get_rate), not once at construction.
        self.rate = self.get_rate()
        if self.rate is None:
            return True
        self.num_requests, self.duration = self.parse_rate(self.rate)
        allowed = super().allow_request(request, view)
        history = getattr(self, "history", None)
        if history is not None:  # a request this throttle counted
            oldest_leaves = self.duration - (self.now - history[-1]) if history else 0
            state = RateLimitState(
                limit=self.num_requests,
                remaining=max(0, self.num_requests - len(history)),
                reset_seconds=max(0, math.ceil(oldest_leaves)),
            )
            setattr(getattr(request, "_request", request), RATE_LIMIT_ATTRIBUTE, state)
        return allowed
