"""Request facts for the audit log, and the coalesced record of denied requests."""

import logging
import re
import uuid

from django.db import DatabaseError

from apps.audit.context import RequestContext, reset_request_context, set_request_context
from apps.audit.models import Action
from apps.audit.services import denial_actor, note_denial
from memory_console.logging import bind_request, unbind_request

logger = logging.getLogger("memory_console.audit")

# A client's X-Request-ID is kept (it ends up in the audit chain) only when it looks like
# an id: letters, digits and . _ : - up to 64 characters. Anything else is replaced.
_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")


def request_id_of(request) -> str:
    """The client's request id when it is well-formed, else a fresh one."""
    offered = request.headers.get("X-Request-ID", "")
    return offered if _REQUEST_ID.fullmatch(offered) else uuid.uuid4().hex


class RequestContextMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request_id = request_id_of(request)
        token = set_request_context(
            RequestContext(ip=request.META.get("REMOTE_ADDR") or None, request_id=request_id)
        )
        request.request_id = request_id
        bound = bind_request(request)
        try:
            response = self.get_response(request)
            if is_denial(request, response.status_code):
                count_denial(request)
        finally:
            unbind_request(bound)
            reset_request_context(token)
        response["X-Request-ID"] = request_id
        return response


def count_denial(request) -> None:
    """Count the denial for the audit log; a database hiccup must not turn it into a 500."""
    try:
        note_denial(
            actor=denial_actor(
                user=getattr(request, "user", None), address=request.META.get("REMOTE_ADDR")
            ),
            target_kind=_target_kind(request),
            action=Action.ACCESS_DENIED,
        )
    except DatabaseError as exc:
        logger.warning("could not count a denied request (%s)", type(exc).__name__)


def is_denial(request, status: int) -> bool:
    """401 and 403 anywhere (bad key, CSRF, missing permission), and 404 on an object URL
    (outside a grant an object is 404, the same as an unknown one)."""
    if status in (401, 403):
        return True
    match = getattr(request, "resolver_match", None)
    return status == 404 and match is not None and bool(match.kwargs)


def _target_kind(request) -> str:
    match = getattr(request, "resolver_match", None)
    return (match.view_name if match is not None else "unmatched")[:64]
