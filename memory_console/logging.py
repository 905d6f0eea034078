"""Structured logging: every line carries the request id and the actor, never a query
string or memory content.

`RequestFieldsFilter` adds `request_id` and `actor` (``user:<pk>`` or ``anonymous``) from
the request bound by apps.audit.middleware (plumbing: this module imports no app);
`DropQueryStrings` strips ``?…`` from the request lines that Django's development server
and request loggers print (query strings carry scope ids and search text);
`JsonFormatter` writes one JSON object per line (LOG_FORMAT=json, the default in
production).
"""

import contextvars
import json
import logging
import re
from collections.abc import Mapping
from datetime import UTC, datetime

_current_request = contextvars.ContextVar("log_request", default=None)
_QUERY = re.compile(r"\?[^\s\"']*")


def bind_request(request) -> contextvars.Token:
    return _current_request.set(request)


def unbind_request(token: contextvars.Token) -> None:
    _current_request.reset(token)


def _actor_of(request) -> str:
    if request is None:
        return "system"
    user = request.__dict__.get("user")
    wrapped = getattr(user, "_wrapped", user)  # Django's lazy user: only if already loaded
    if wrapped is None or type(wrapped).__name__ == "object":
        return "anonymous"
    if getattr(wrapped, "is_authenticated", False):
        return f"user:{wrapped.pk}"
    return "anonymous"


class RequestFieldsFilter(logging.Filter):
    """Add `request_id` and `actor` to every record."""

    def filter(self, record: logging.LogRecord) -> bool:
        request = _current_request.get()
        record.request_id = getattr(request, "request_id", None) or "-"
        record.actor = _actor_of(request)
        return True


class DropQueryStrings(logging.Filter):
    """Strip query strings from the request lines Django logs."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(_strip(arg) for arg in record.args)
        elif isinstance(record.args, Mapping):  # "%(name)s"-style arguments
            record.args = {key: _strip(value) for key, value in record.args.items()}
        if isinstance(record.msg, str):
            record.msg = _QUERY.sub("", record.msg)
        return True


def _strip(value):
    return _QUERY.sub("", value) if isinstance(value, str) else value


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, request_id, actor."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": datetime.fromtimestamp(record.created, tz=UTC).isoformat(),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", "-"),
            "actor": getattr(record, "actor", "system"),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)
