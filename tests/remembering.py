"""Writing a remember body as `POST /api/v1/memories/` does, without HTTP.

The body is validated and resolved into a NewMemory by the API's own builder
(apps.memory.api.serializers.new_memory_from_request), then goes through the gate.
"""

from apps.memory import services
from apps.memory.api.remember_body import new_memory_from_request


def remember(*, actor, payload, api_key_prefix: str = "") -> services.RememberResult:
    """Remember a request body as `actor`, through the builder and the whole gate."""
    new = new_memory_from_request(payload, actor=actor, api_key_prefix=api_key_prefix)
    return services.remember(new=new, actor=actor)
