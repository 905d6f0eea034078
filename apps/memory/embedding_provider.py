"""The optional embedding provider: an OpenAI-compatible `POST {URL}/v1/embeddings`.

Configured by EMBEDDING_PROVIDER_URL / _MODEL / _API_KEY / _TIMEOUT_MS. Every failure
(unreachable, timeout, HTTP error, a malformed or non-finite answer) is one exception,
EmbeddingUnavailable, so callers degrade instead of failing. Texts are sent, never logged.
"""

import json
import math
import urllib.error
import urllib.request
from collections.abc import Sequence

from django.conf import settings

MAX_DIMENSIONS = 4096


class EmbeddingUnavailable(Exception):
    """The provider is not configured, or did not answer with usable embeddings."""


def provider_model() -> str:
    """The configured provider's model name, or "" when no provider is configured."""
    if not settings.EMBEDDING_PROVIDER_URL or not settings.EMBEDDING_PROVIDER_MODEL:
        return ""
    return settings.EMBEDDING_PROVIDER_MODEL


def embed_texts(texts: Sequence[str]) -> list[list[float]]:
    """One embedding per text, from the provider (EmbeddingUnavailable on any failure)."""
    model = provider_model()
    if not model:
        raise EmbeddingUnavailable("no embedding provider is configured")
    url = settings.EMBEDDING_PROVIDER_URL.rstrip("/")
    if not url.endswith("/v1/embeddings"):
        url += "/v1/embeddings"
    if not url.startswith(("http://", "https://")):
        raise EmbeddingUnavailable("EMBEDDING_PROVIDER_URL must be http(s)")
    headers = {"Content-Type": "application/json"}
    if settings.EMBEDDING_PROVIDER_API_KEY:
        headers["Authorization"] = f"Bearer {settings.EMBEDDING_PROVIDER_API_KEY}"
    body = json.dumps({"model": model, "input": list(texts)}).encode()
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")  # noqa: S310
    timeout = settings.EMBEDDING_PROVIDER_TIMEOUT_MS / 1000
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310
            answer = json.loads(response.read())
    except (OSError, ValueError) as exc:  # URLError, HTTPError, timeouts, bad JSON
        raise EmbeddingUnavailable(f"embedding provider failed: {type(exc).__name__}") from None
    return _embeddings_of(answer, count=len(texts))


def _embeddings_of(answer: object, *, count: int) -> list[list[float]]:
    """The `data[i].embedding` lists of an answer, in input order, checked."""
    try:
        rows = sorted(answer["data"], key=lambda row: row.get("index", 0))  # type: ignore[index]
        vectors = [[float(value) for value in row["embedding"]] for row in rows]
    except (KeyError, TypeError, ValueError, AttributeError):
        raise EmbeddingUnavailable("embedding provider answered without embeddings") from None
    if len(vectors) != count or any(
        not vector
        or len(vector) > MAX_DIMENSIONS
        or len(vector) != len(vectors[0])
        or not all(map(math.isfinite, vector))
        for vector in vectors
    ):
        raise EmbeddingUnavailable("embedding provider answered unusable embeddings")
    return vectors
