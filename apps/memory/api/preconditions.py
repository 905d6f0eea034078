"""Optimistic locking over HTTP: which version an edit expects, and the answers when it
is missing (428) or stale (412 for If-Match; 409 stays for a stale body `version`)."""

import re
from collections.abc import Callable
from typing import Any

from rest_framework import serializers
from rest_framework.request import Request

from apps.core.errors import ServiceError
from apps.memory.models import MemoryItem
from apps.memory.services import StaleVersion

_ETAG = re.compile(r'^\s*(?:W/)?"?(\d{1,9})"?\s*$')


class PreconditionRequired(ServiceError):
    code = "precondition_required"
    status = 428
    default_message = "Send the version you are editing: `version` in the body or If-Match."


class PreconditionFailed(StaleVersion):
    """A stale If-Match header (412); a stale `version` in the body stays a 409."""

    status = 412


def if_match_version(request: Request, item: MemoryItem) -> int:
    """The version an If-Match header names (`*`: the current one); 428 without one."""
    header = request.headers.get("If-Match")
    if not header:
        raise PreconditionRequired(
            fields={"version": ["Send the version you are editing (or an If-Match header)."]}
        )
    if header.strip() == "*":
        return item.version
    match = _ETAG.match(header)
    if match is None:
        raise serializers.ValidationError({"If-Match": ["If-Match must hold a version."]})
    return int(match.group(1))


def edit_expecting_version(
    request: Request, item: MemoryItem, body_version: int | None, edit: Callable[[int], Any]
) -> Any:
    """Run `edit(expected_version)` with the body's version, else If-Match's; a stale
    If-Match answers 412, a stale body version 409 (StaleVersion as raised)."""
    if body_version is not None:
        return edit(body_version)
    try:
        return edit(if_match_version(request, item))
    except StaleVersion as stale:
        raise PreconditionFailed(stale.current_version) from None
