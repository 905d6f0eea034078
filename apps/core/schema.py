"""The OpenAPI schema's house rules, applied to every endpoint by one AutoSchema.

Set as DRF's DEFAULT_SCHEMA_CLASS, so an endpoint added anywhere gets them without a
per-view declaration:
- operation ids read like the API (`memories_create`, `memories_feedback`, `recall`);
- descriptions come only from `extend_schema(description=...)` or an action's docstring,
  never from a view class's docstring (those are notes for developers);
- every error an operation can answer is declared with the one error document
  (`Error`, the shape of apps.core.api.api_exception_handler), by what the operation
  takes: a body, a path parameter, an `If-Match` header, a state to change.
An explicit `extend_schema(responses={...})` entry for a status wins over the default.
Response headers are declared the same way: `Location` on a 201, `RateLimit-*` on the
answers of throttled operations, `Retry-After` on a 429.
"""

from typing import Any, ClassVar

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiParameter
from rest_framework import permissions, serializers

ERROR_COMPONENT = "Error"
_STANDARD_ACTIONS = frozenset(
    {"list", "create", "retrieve", "update", "partial_update", "destroy", "metadata"}
)
_HANDLERS = ("get", "post", "put", "patch", "delete")

ERROR_DESCRIPTIONS = {
    400: "Invalid input: `error.fields` names each bad field (an unknown query parameter "
    "is named too).",
    401: "No valid credentials: send `Authorization: Api-Key <key>`.",
    403: "Authenticated but not allowed here (a missing role, or a console session "
    "without its CSRF token).",
    404: "Unknown, or outside the caller's grants (never 403 for what you may not see).",
    409: "Conflicts with the current state: a stale `version` in the body (the current "
    "one is in `error.current_version`), an erased subject, or a step not allowed now.",
    412: "`If-Match` names a version that is no longer current (the current one is in "
    "`error.current_version`); read the item again and retry.",
    413: "The request body is too large.",
    422: "This `Idempotency-Key` was already used for another request (another body, "
    "method or path): use a new key per write.",
    428: 'A version is required: send `If-Match: "<version>"` (or `version` in the body).',
    429: "Too many requests: wait `Retry-After` seconds.",
}
_RETRY_AFTER = {
    "Retry-After": {
        "schema": {"type": "integer"},
        "description": "Seconds to wait before retrying.",
    }
}
# Sent to an agent key whenever a request budget is configured (2xx answers and 429).
_RATE_LIMIT = {
    "RateLimit-Limit": {
        "schema": {"type": "integer"},
        "description": "Requests allowed per window for this key.",
    },
    "RateLimit-Remaining": {
        "schema": {"type": "integer"},
        "description": "Requests left in the current window.",
    },
    "RateLimit-Reset": {
        "schema": {"type": "integer"},
        "description": "Seconds until the window frees a request.",
    },
}
_LOCATION = {
    "Location": {
        "schema": {"type": "string", "format": "uri-reference"},
        "description": "Where the created resource can be read.",
    }
}


class ErrorDetailSerializer(serializers.Serializer):
    """What went wrong: a stable code, a message for people, the fields at fault."""

    code = serializers.CharField(
        help_text="Stable machine-readable code, e.g. `invalid`, `not_found`, "
        "`version_conflict`, `throttled`."
    )
    message = serializers.CharField(help_text="A sentence meant for the person who asked.")
    fields = serializers.DictField(
        child=serializers.JSONField(),
        help_text="Per-field messages, `{field: [message, …]}` (nested for nested input).",
    )
    current_version = serializers.IntegerField(
        required=False, help_text="On a version conflict (409/412): the item's current version."
    )


class ErrorSerializer(serializers.Serializer):
    """Every API error answers this document, whatever its status."""

    error = ErrorDetailSerializer()


class MemoryConsoleAutoSchema(AutoSchema):
    """AutoSchema with readable operation ids, no leaked class docstrings, declared errors."""

    error_serializer: ClassVar[type[serializers.Serializer]] = ErrorSerializer

    def get_operation_id(self) -> str:
        """`memories_feedback` for a one-method custom action, `recall` for a one-method
        view; the standard actions keep drf-spectacular's `<path>_<action>`."""
        action = getattr(self.view, "action", None)
        if action is not None:
            if action in _STANDARD_ACTIONS or len(self._methods_of_action()) > 1:
                return super().get_operation_id()
        elif len([m for m in _HANDLERS if hasattr(self.view, m)]) > 1:
            return super().get_operation_id()
        tokens = [token.replace("-", "_") for token in self._tokenize_path()]
        return "_".join(tokens) or super().get_operation_id()

    def _methods_of_action(self) -> list[str]:
        handler = getattr(self.view, self.view.action, None)
        mapping = getattr(handler, "mapping", None)
        return list(mapping) if mapping else [self.method.lower()]

    def get_description(self) -> str:  # type: ignore[override]
        """An action's own docstring, never the view class's (developer notes)."""
        action = getattr(self.view, "action", None)
        if action is None or action in _STANDARD_ACTIONS:
            return ""
        handler = getattr(self.view, action, None)
        doc = (getattr(handler, "__doc__", None) or "").strip()
        return " ".join(doc.split()) if doc else ""

    def error_statuses(self) -> set[int]:
        """The error statuses this operation can answer, from what it takes and does."""
        statuses = {429}
        if not self._allows_anonymous():
            statuses |= {401, 403}
        has_body = self.method in ("POST", "PUT", "PATCH") and self.get_request_serializer()
        query_parameters = self._declares_query_parameters()
        if has_body or query_parameters or (self.method == "GET" and self._is_list_view()):
            statuses.add(400)
        if has_body:
            statuses.add(413)
        if has_body or "{" in self.path:
            statuses.add(404)
        action = getattr(self.view, "action", None)
        if self.method in ("PUT", "PATCH") or (
            self.method == "POST" and (action == "create" or self._is_detail_route())
        ):
            statuses.add(409)
        if self._declares_header("Idempotency-Key"):
            statuses |= {409, 422}  # a retry while the first still runs; a reused key
        if self._declares_header("If-Match"):
            statuses.add(412)
            if self.method == "PATCH":
                statuses.add(428)
        return statuses

    def _get_response_bodies(self, direction="response") -> dict[str, Any]:
        responses = super()._get_response_bodies(direction)
        for status in sorted(self.error_statuses()):
            if str(status) in responses:
                continue
            response = self._get_response_for_code(self.error_serializer, str(status))
            response["description"] = ERROR_DESCRIPTIONS[status]
            responses[str(status)] = response
        throttled = bool(self.view.get_throttles())
        for code, response in responses.items():
            headers = {}
            if code == "201":
                headers.update(_LOCATION)
            if throttled and (code.startswith("2") or code == "429"):
                headers.update(_RATE_LIMIT)
            if code == "429":
                headers.update(_RETRY_AFTER)
            if headers:
                response["headers"] = {**headers, **response.get("headers", {})}
        return responses

    def _map_basic_serializer(self, serializer, direction):
        """A serializer naming `schema_always_present` may answer only those members
        (an item withheld from an agent is `{id, status}`): the rest are optional."""
        schema = super()._map_basic_serializer(serializer, direction)
        always = getattr(serializer, "schema_always_present", None)
        if always is not None and "required" in schema:
            schema["required"] = [name for name in schema["required"] if name in always]
        return schema

    def _allows_anonymous(self) -> bool:
        return any(
            isinstance(permission, permissions.AllowAny)
            for permission in self.view.get_permissions()
        )

    def _is_detail_route(self) -> bool:
        return "{" in self.path

    def _override_parameters(self) -> list[OpenApiParameter]:
        return [p for p in self.get_override_parameters() if isinstance(p, OpenApiParameter)]

    def _declares_header(self, name: str) -> bool:
        return any(
            p.location == OpenApiParameter.HEADER and p.name.lower() == name.lower()
            for p in self._override_parameters()
        )

    def _declares_query_parameters(self) -> bool:
        if any(p.location == OpenApiParameter.QUERY for p in self._override_parameters()):
            return True
        return bool(self._get_filter_parameters())
