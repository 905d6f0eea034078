"""The one root of every refusal a service can give, mapped once onto HTTP answers.

A service raises a `ServiceError` subclass with a stable `code`, a message meant for the
person who asked, optional per-field messages, and the HTTP status the API should give.
The API's exception handler and the console's views read these four and nothing else.
"""

from typing import Any, ClassVar


class ServiceError(Exception):
    """A business operation that cannot be done; `message` is shown to the person who asked."""

    code: ClassVar[str] = "invalid"
    status: ClassVar[int] = 400

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        fields: dict[str, Any] | None = None,
        status: int | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.fields = fields or {}
        if code is not None:
            self.code = code  # type: ignore[misc]  # an instance may refine its class's code
        if status is not None:
            self.status = status  # type: ignore[misc]
