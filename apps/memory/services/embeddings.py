"""Embeddings the provider computes for writes that came without one (issue 18)."""

from typing import Any

from django.db import transaction

from apps.memory.embedding_provider import EmbeddingUnavailable, embed_texts, provider_model
from apps.memory.models import MemoryItem
from apps.memory.vectors import store_vector, to_float32_bytes


def embed_item(*, item_id: Any) -> bool:
    """Embed one item's text with the configured provider and index it, unless it has an
    embedding already or holds sensitive content (never sent out). True when embedded.

    Not a new version: the embedding is derived data, so no agent's If-Match goes stale.
    Raises EmbeddingUnavailable when the provider fails (the task retries).
    """
    model = provider_model()
    fields = ("id", "scope_id", "text", "sensitive", "embedding_model")
    item = MemoryItem.objects.only(*fields).filter(pk=item_id).first()
    if item is None or not model or item.embedding_model or item.sensitive or not item.text:
        return False
    (vector,) = embed_texts([item.text])
    try:
        packed = to_float32_bytes(vector)
    except ValueError:
        raise EmbeddingUnavailable("embedding provider answered values beyond float32") from None
    with transaction.atomic():
        updated = MemoryItem.objects.filter(pk=item_id, embedding_model="").update(
            embedding=packed, embedding_model=model
        )
        if updated:  # the row is locked now: its status and expiry are the ones to index by
            item.refresh_from_db(fields=["status", "expires_at"])
            item.embedding, item.embedding_model = packed, model
            store_vector(item)
    return bool(updated)
