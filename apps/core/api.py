"""The API's one error mapping and one cursor pagination (CONTRACT: errors and lists).

`api_exception_handler` is DRF's EXCEPTION_HANDLER: a ServiceError answers its own code,
message, fields and status; every DRF error is reshaped into the same document (keeping
its status and headers such as Retry-After). `KeysetCursorPagination` is the base of
every list: subclasses set only `ordering` (and page sizes); a forged cursor answers 400.
"""

from typing import Any

from django.core.exceptions import RequestDataTooBig, SuspiciousOperation, ValidationError
from django.http import Http404
from rest_framework import exceptions
from rest_framework.pagination import CursorPagination
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from apps.core.errors import InvalidCursor, RequestTooLarge, ServiceError, error_body


def _flatten(detail: Any) -> Any:
    """Turn DRF's ErrorDetail trees into plain strings (lists of messages per field)."""
    if isinstance(detail, dict):
        return {str(key): _flatten(value) for key, value in detail.items()}
    if isinstance(detail, list):
        return [_flatten(value) for value in detail]
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
    return codes if isinstance(codes, str) else "invalid"


def api_exception_handler(exc: Exception, context: dict) -> Response | None:
    """Answer every API error in the CONTRACT shape with the right status."""
    if isinstance(exc, RequestDataTooBig):
        exc = RequestTooLarge()
    if isinstance(exc, ServiceError):
        return Response(exc.as_body(), status=exc.status)
    if isinstance(exc, SuspiciousOperation):
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


class KeysetCursorPagination(CursorPagination):
    """Keyset pages with no COUNT at any depth; a garbage or forged cursor answers 400.

    DRF answers an undecodable cursor with 404 and trusts the position inside a decodable
    one, so a forged position (text where a date is expected) used to fail in the database
    (500). Here both are refused up front with `invalid_cursor`.
    """

    page_size = 50
    page_size_query_param = "limit"
    max_page_size = 200

    def paginate_queryset(self, queryset, request, view=None):
        self._model = queryset.model
        return super().paginate_queryset(queryset, request, view)

    def decode_cursor(self, request):
        try:
            cursor = super().decode_cursor(request)
        except exceptions.NotFound:
            raise InvalidCursor(fields={"cursor": ["invalid"]}) from None
        if cursor is not None and cursor.position is not None:
            ordering = self.ordering if isinstance(self.ordering, str) else self.ordering[0]
            field = self._model._meta.get_field(ordering.lstrip("-"))
            try:
                field.to_python(cursor.position)
            except (ValidationError, ValueError, TypeError):
                raise InvalidCursor(fields={"cursor": ["invalid"]}) from None
        return cursor
