"""Recall ranking: final = α·similarity + β·recency + γ·S(t) with the tenant's weights.

Similarity is the cosine of the query and item embeddings when both were embedded by the
same model (computed by the vector path, apps.memory.recall.vectors), else lexical
(apps.memory.recall.query). Recency is
0.5 ^ (days since last access / RECENCY_HALF_LIFE_DAYS): how fresh the memory is in use,
independent of how long it is worth keeping (S(t) covers that).
"""

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, TypeVar

from apps.memory.models import MemoryItem
from apps.memory.recall.candidates import Candidate
from apps.memory.recall.query import QueryTerm, lexical_similarity
from apps.memory.scoring import effective_score
from apps.tenancy.models import Tenant

RECENCY_HALF_LIFE_DAYS = 7.0
# Reciprocal-rank fusion's constant (the usual 60: ranks far down still count a little).
RRF_K = 60
_SECONDS_PER_DAY = 86_400.0


def fuse(*rankings: Sequence[Any], k: int = RRF_K) -> list[Any]:
    """Reciprocal-rank fusion: keys ordered by Σ 1/(k + rank) over the rankings they are in
    (ranks from 1), so an item high in either list comes early, higher if in both."""
    fused: dict[Any, float] = {}
    for ranking in rankings:
        for position, key in enumerate(ranking, start=1):
            fused[key] = fused.get(key, 0.0) + 1.0 / (k + position)
    return sorted(fused, key=lambda key: -fused[key])


Item = TypeVar("Item", Candidate, MemoryItem)


@dataclass(frozen=True)
class RecallHit(Generic[Item]):
    """One recalled memory, its final score and the components the score is made of
    (while ranking, the memory is a Candidate; recall's answers carry the MemoryItem)."""

    item: Item
    score: float
    similarity: float
    recency: float
    importance: float
    similarity_source: str  # "embedding", "lexical" or "padding" (no match: similarity 0)

    @property
    def components(self) -> dict[str, float]:
        return {
            "similarity": self.similarity,
            "recency": self.recency,
            "importance": self.importance,
        }


def cosine_similarity(left: Sequence[float], right: Sequence[float]) -> float | None:
    """Cosine of two vectors of equal length (None if they differ or one is zero).

    Computed with C-level helpers (no numpy): a·b = (|a|² + |b|² − |a−b|²) / 2.
    """
    if len(left) != len(right) or not left:
        return None
    norm_left, norm_right = math.hypot(*left), math.hypot(*right)
    if norm_left == 0 or norm_right == 0:
        return None
    dot = (norm_left**2 + norm_right**2 - math.dist(left, right) ** 2) / 2
    return max(-1.0, min(1.0, dot / (norm_left * norm_right)))


def recency(*, last_access_at: datetime, now: datetime) -> float:
    """0.5 ^ (days since last access / RECENCY_HALF_LIFE_DAYS), in (0, 1]."""
    elapsed_days = max((now - last_access_at).total_seconds(), 0.0) / _SECONDS_PER_DAY
    return 0.5 ** (elapsed_days / RECENCY_HALF_LIFE_DAYS)


def rank(
    candidates: Iterable[tuple[Candidate, float | None]],
    *,
    tenant: Tenant,
    terms: Sequence[QueryTerm],
    now: datetime,
    min_score: float = -math.inf,
    keep_padding: bool = True,
    limit: int | None = None,
) -> list[RecallHit[Candidate]]:
    """Score candidates α·similarity + β·recency + γ·S(t), best first: the first `limit`
    of those scoring at least `min_score` (and matching one way or another, unless
    `keep_padding`).

    Each candidate comes with the embedding similarity the vector path computed (None
    when the item has no embedding of the query's model); the others are scored
    lexically, and one that matches neither way (similarity 0) is labelled "padding".
    """
    alpha, beta, gamma = tenant.recall_alpha, tenant.recall_beta, tenant.recall_gamma
    scored = []
    for item, cosine in candidates:
        if cosine is not None:
            similarity, source = max(cosine, 0.0), "embedding"
        else:
            similarity, source = lexical_similarity(terms, item.text), "lexical"
        if similarity <= 0:
            if not keep_padding:
                continue
            source = "padding"
        fresh = recency(last_access_at=item.last_access_at, now=now)
        decayed = effective_score(
            importance=item.importance,
            half_life_days=item.half_life_days,
            last_access_at=item.last_access_at,
            now=now,
        )
        score = alpha * similarity + beta * fresh + gamma * decayed
        if score >= min_score:
            # Ties go by key: a UUID orders as its text does, without writing it out.
            scored.append((-score, -similarity, item.pk, item, fresh, decayed, source))
    # Hits are built for the kept candidates only: hundreds are scored per recall.
    scored.sort(key=lambda entry: entry[:3])
    return [
        RecallHit(item, -negative_score, -negative_similarity, fresh, decayed, source)
        for negative_score, negative_similarity, _, item, fresh, decayed, source in scored[:limit]
    ]
