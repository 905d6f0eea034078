"""Request size limits for the API: 413 in the CONTRACT error shape, before parsing.

Kept apart from apps.core.api because DRF imports the parser while building its settings,
and this module must not import rest_framework.views in turn.
"""

import io
import json
from typing import NamedTuple

from django.conf import settings
from django.http import JsonResponse
from rest_framework import exceptions
from rest_framework.parsers import JSONParser

from apps.core.errors import RequestTooLarge, error_body
from apps.core.validation import MAX_JSON_DEPTH, nests_deeper_than


class NestedTooDeeply(exceptions.ParseError):
    default_detail = f"JSON nests deeper than {MAX_JSON_DEPTH} levels."
    default_code = "too_deep"


def max_request_bytes() -> int:
    return settings.MEMORY_CONSOLE_MAX_REQUEST_BYTES


class SizeLimitedJSONParser(JSONParser):
    """JSON parser that reads at most the configured body size, refuses nesting deeper
    than MAX_JSON_DEPTH, and refuses NaN/Infinity, which are not JSON and would poison
    scores."""

    def parse(self, stream, media_type=None, parser_context=None):
        limit = max_request_bytes()
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise RequestTooLarge()
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            data = json.loads(raw.decode(encoding), parse_constant=_reject_constant)
        except RecursionError as exc:
            raise NestedTooDeeply() from exc
        except (ValueError, UnicodeDecodeError) as exc:
            raise exceptions.ParseError(f"JSON parse error - {exc}") from exc
        if nests_deeper_than(data, MAX_JSON_DEPTH):
            raise NestedTooDeeply()
        return data


def _reject_constant(name: str) -> float:
    raise ValueError(f"{name} is not a valid JSON number")


class RateLimitState(NamedTuple):
    """Where a client stands with its request budget (apps.memory.api.throttling)."""

    limit: int
    remaining: int
    reset_seconds: int

    def headers(self) -> dict[str, str]:
        return {
            "RateLimit-Limit": str(self.limit),
            "RateLimit-Remaining": str(self.remaining),
            "RateLimit-Reset": str(self.reset_seconds),
        }


# Where the throttle leaves the state on the Django request for the middleware.
RATE_LIMIT_ATTRIBUTE = "rate_limit_state"


# Statuses Django itself may answer on API paths (no view ran, or a view crashed).
_DJANGO_ERROR_CODES = {
    400: ("parse_error", "Malformed request."),
    403: ("permission_denied", "Forbidden."),
    404: ("not_found", "Not found."),
    405: ("method_not_allowed", "Method not allowed."),
    411: ("length_required", "Send the body with a Content-Length."),
    413: ("too_large", "The request body is too large."),
    500: ("server_error", "Internal server error."),
}
# Pages under /api/ that are not JSON by design.
_NON_JSON_API_PATHS = ("/api/docs/", "/api/schema/")


class ApiRequestMiddleware:
    """Guard the API at the Django level: refuse declared bodies over the limit with 413
    before anything reads them, and give errors that Django (not DRF) produced on API
    paths — unknown URL, a crash — the same JSON shape as every other API error."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not request.path.startswith("/api/"):
            return self.get_response(request)
        try:
            declared = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            declared = 0
        limit = max_request_bytes()
        if declared > limit:
            return self._too_large(limit)
        if not declared and "chunked" in request.META.get("HTTP_TRANSFER_ENCODING", "").lower():
            refusal = self._take_chunked_body(request, limit)
            if refusal is not None:
                return refusal
        response = self.get_response(request)
        if (
            response.status_code >= 400
            and not response.get("Content-Type", "").startswith("application/json")
            and not request.path.startswith(_NON_JSON_API_PATHS)
        ):
            code, message = _DJANGO_ERROR_CODES.get(
                response.status_code, ("error", "The request failed.")
            )
            replacement = JsonResponse(error_body(code, message), status=response.status_code)
            for header in ("Allow", "Retry-After", "WWW-Authenticate", "X-Request-ID"):
                if header in response:
                    replacement[header] = response[header]
            response = replacement
        rate_limit = getattr(request, RATE_LIMIT_ATTRIBUTE, None)
        if rate_limit is not None:
            for header, value in rate_limit.headers().items():
                response[header] = value
        return response

    @staticmethod
    def _too_large(limit: int) -> JsonResponse:
        return JsonResponse(
            error_body("too_large", f"The request body exceeds {limit} bytes."), status=413
        )

    def _take_chunked_body(self, request, limit: int) -> JsonResponse | None:
        """Read a chunked body (which Django would see as empty) up to the limit.

        Only a server that de-chunks the body and marks its end (`wsgi.input_terminated`,
        as gunicorn and uWSGI do) can be read safely; elsewhere reading would block or
        return chunk framing, so the client is asked for a Content-Length (411).
        """
        if not request.META.get("wsgi.input_terminated"):
            code, message = _DJANGO_ERROR_CODES[411]
            return JsonResponse(error_body(code, message), status=411)
        body = request.META["wsgi.input"].read(limit + 1)
        if len(body) > limit:
            return self._too_large(limit)
        request._stream = io.BytesIO(body)
        request.META["CONTENT_LENGTH"] = str(len(body))
        return None
