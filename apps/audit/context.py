"""Request facts (client IP, request id) that audit events pick up without threading them."""

import contextvars
from dataclasses import dataclass


@dataclass(frozen=True)
class RequestContext:
    ip: str | None = None
    request_id: str = ""


_current = contextvars.ContextVar("audit_request_context", default=RequestContext())  # noqa: B039 (frozen)


def current_request_context() -> RequestContext:
    return _current.get()


def set_request_context(context: RequestContext) -> contextvars.Token:
    return _current.set(context)


def reset_request_context(token: contextvars.Token) -> None:
    _current.reset(token)
