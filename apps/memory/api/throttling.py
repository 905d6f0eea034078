"""Per-API-key throttling: each agent key gets its own budget (429 with Retry-After)."""

from django.conf import settings
from rest_framework.throttling import SimpleRateThrottle

from apps.access.models import AgentAPIKey
from apps.core.cache import rate_limit_cache


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
        return super().allow_request(request, view)
