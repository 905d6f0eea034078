"""The API's one error shape (CONTRACT): `{"error": {"code", "message", "fields"}}`.

`api_exception_handler` is DRF's EXCEPTION_HANDLER: it reshapes every DRF error (keeping
the status and headers such as Retry-After) and maps the domain exceptions of the gate
and the services onto statuses. Size limits (413) live in apps.memory.api.limits.
"""

from typing import Any

from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from apps.memory.api.limits import RequestTooLarge, error_body
from apps.memory.gate import GateRejected
from apps.memory.services import StaleVersion
from memory_console.metrics import count_gate_outcome

# GateRejected codes that are not plain bad input.
_GATE_STATUS = {"not_found": status.HTTP_404_NOT_FOUND, "too_large": 413}


def _flatten(detail: Any) -> Any:
    """Turn DRF's ErrorDetail trees into plain strings (lists of messages per field)."""
    if isinstance(detail, dict):
        return {str(key): _flatten(value) for key, value in detail.items()}
    if isinstance(detail, list):
        flat = [_flatten(value) for value in detail]
        return flat
    return str(detail)


def _first_message(fields: dict) -> str:
    for name, messages in fields.items():
        first = messages[0] if isinstance(messages, list) and messages else messages
        if isinstance(first, dict):
            return _first_message(first)
        return f"{name}: {first}"
    return "Invalid input."


def _code_of(exc: exceptions.APIException) -> str:
    codes = exc.get_codes()
    if isinstance(codes, str):
        return codes
    return "invalid"


def api_exception_handler(exc: Exception, context: dict) -> Response | None:
    """Answer every API error in the CONTRACT shape with the right status."""
    if isinstance(exc, GateRejected):
        count_gate_outcome(f"rejected_{exc.code}")
        code = _GATE_STATUS.get(exc.code, status.HTTP_400_BAD_REQUEST)
        return Response(error_body(exc.code, exc.message, exc.fields), status=code)
    if isinstance(exc, StaleVersion):
        body = error_body("version_conflict", str(exc), {"version": [str(exc)]})
        body["error"]["current_version"] = exc.current_version
        return Response(body, status=status.HTTP_409_CONFLICT)
    if isinstance(exc, RequestDataTooBig):
        exc = RequestTooLarge()
    elif isinstance(exc, SuspiciousOperation):
        exc = exceptions.ParseError(str(exc) or "Malformed request.")
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, (Http404, exceptions.NotFound)):
        response.data = error_body("not_found", "Not found.")
    elif isinstance(exc, exceptions.ValidationError):
        detail = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
        fields = _flatten(detail)
        response.data = error_body("invalid", _first_message(fields), fields)
    elif isinstance(exc, exceptions.APIException):
        response.data = error_body(_code_of(exc), str(exc.detail))
    return response
