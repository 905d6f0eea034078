"""`Idempotency-Key` on the API's writes: a retry with the same key gets the first answer.

`answer_once(request, write)` runs `write()` once per (caller, key): the caller is the
API key (or the console user), the request is fingerprinted by method, path and body.
A retry of the same request replays the stored status, body and Location (with
`Idempotent-Replayed: true`) without writing again; the same key with another request
answers 422; a retry while the first is still running answers 409. The rows are in the
database (apps.memory.services.idempotency), so every process and restart sees them.
"""

import json
import re
from collections.abc import Callable

from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from apps.access.models import AgentAPIKey
from apps.audit.hashing import keyed_hash
from apps.memory.models import MemoryItem
from apps.memory.services.idempotency import (
    claim_idempotency_key,
    release_idempotency_key,
    store_idempotent_answer,
)

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
_VALID_KEY = re.compile(r"^[\x21-\x7e]{1,255}$")  # visible ASCII, as the draft RFC's examples

# What a write hands back: its answer, and the item it wrote (the stored answer is linked
# to it and its scope, so erasing them takes the answer along), if any.
Written = tuple[Response, MemoryItem | None]


def owner_of(request: Request) -> str:
    if isinstance(request.auth, AgentAPIKey):
        return f"key:{request.auth.prefix}"
    return f"user:{request.user.pk}"


def fingerprint_of(request: Request) -> str:
    """A keyed hash of what makes two requests the same one (no content is stored in it)."""
    body = json.dumps(request.data, sort_keys=True, ensure_ascii=False, default=str)
    return keyed_hash(f"{request.method} {request.get_full_path()}\n{body}")


def answer_once(request: Request, write: Callable[[], Written]) -> Response:
    """Answer a write at most once per Idempotency-Key (no header: just answer it)."""
    key = request.headers.get(HEADER)
    if key is None:
        return write()[0]
    if not _VALID_KEY.match(key):
        raise serializers.ValidationError(
            {HEADER: ["Send 1 to 255 visible ASCII characters (a UUID, for instance)."]}
        )
    owner = owner_of(request)
    stored = claim_idempotency_key(owner=owner, key=key, fingerprint=fingerprint_of(request))
    if stored is not None:
        replay = Response(stored.body, status=stored.status_code)
        if stored.location:
            replay["Location"] = stored.location
        replay[REPLAYED_HEADER] = "true"
        return replay
    try:
        response, item = write()
    except BaseException:
        release_idempotency_key(owner=owner, key=key)
        raise
    if 200 <= response.status_code < 300:
        store_idempotent_answer(
            owner=owner,
            key=key,
            status_code=response.status_code,
            body=response.data,
            location=response.get("Location", ""),
            item_id=item.pk if item is not None else None,
            scope_id=item.scope_id if item is not None else None,
        )
    else:
        release_idempotency_key(owner=owner, key=key)
    return response
