"""The one root of every refusal a service can give, mapped once onto HTTP answers.

A service raises a `ServiceError` subclass with a stable `code`, a message meant for the
person who asked, optional per-field messages, and the HTTP status the API should give.
The API's exception handler (apps.core.api) and the console's views read these and
nothing else.
"""

from typing import Any, ClassVar


class ServiceError(Exception):
    """A business operation that cannot be done; `message` is shown to the person who asked."""

    code: ClassVar[str] = "invalid"
    status: ClassVar[int] = 400
    default_message: ClassVar[str] = "The request cannot be done."

    def __init__(
        self,
        message: str | None = None,
        *,
        code: str | None = None,
        fields: dict[str, Any] | None = None,
        status: int | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        message = message or self.default_message
        super().__init__(message)
        self.message = message
        self.fields = fields or {}
        # Further members of the error document (e.g. a 409's current_version).
        self.extra = extra or {}
        if code is not None:
            self.code = code  # type: ignore[misc]  # an instance may refine its class's code
        if status is not None:
            self.status = status  # type: ignore[misc]

    def as_body(self) -> dict[str, Any]:
        """The CONTRACT error document for this refusal."""
        body = error_body(self.code, self.message, self.fields)
        body["error"].update(self.extra)
        return body


class RequestTooLarge(ServiceError):
    code = "too_large"
    status = 413
    default_message = "The request body is too large."


class InvalidCursor(ServiceError):
    code = "invalid_cursor"
    default_message = "The cursor is invalid; start again from the first page."


def error_body(code: str, message: str, fields: dict | None = None) -> dict[str, Any]:
    """Build the CONTRACT error document `{"error": {"code", "message", "fields"}}`."""
    return {"error": {"code": code, "message": message, "fields": fields or {}}}
