"""Expose the caller's IP and a request id to audit.record for the life of a request."""

import uuid

from apps.audit.context import RequestContext, reset_request_context, set_request_context


class RequestContextMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request_id = request.headers.get("X-Request-ID", "")[:64] or uuid.uuid4().hex
        token = set_request_context(
            RequestContext(ip=request.META.get("REMOTE_ADDR") or None, request_id=request_id)
        )
        try:
            response = self.get_response(request)
        finally:
            reset_request_context(token)
        response["X-Request-ID"] = request_id
        return response
