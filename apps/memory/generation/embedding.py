"""A small deterministic embedder for generated data and tests: hashed character trigrams →
384 dimensions. Texts sharing trigrams are near; no model is downloaded (issue 18).

`trigram_counts` is the raw signed count per dimension (small integers: the generator
writes them as they are, since cosine ignores length); `embed` is its unit vector.
"""

import hashlib
import math
import unicodedata
from functools import lru_cache

DIMENSIONS = 384


@lru_cache(maxsize=65_536)
def _slot(trigram: str, dims: int) -> tuple[int, int]:
    """The dimension a trigram counts in, and its sign (+1 or -1)."""
    digest = hashlib.blake2b(trigram.encode(), digest_size=8).digest()
    return int.from_bytes(digest[:4], "little") % dims, 1 if digest[4] & 1 else -1


def trigram_counts(text: str, dims: int = DIMENSIONS) -> list[int]:
    """The signed, hashed character trigram counts of `text` (NFKC, case-folded)."""
    normal = f"  {unicodedata.normalize('NFKC', text).casefold()}  "
    counts = [0] * dims
    for start in range(len(normal) - 2):
        bucket, sign = _slot(normal[start : start + 3], dims)
        counts[bucket] += sign
    return counts


def embed(text: str, dims: int = DIMENSIONS) -> list[float]:
    """The unit vector of `text`'s trigram counts (a zero vector stays zero)."""
    counts = trigram_counts(text, dims)
    norm = math.hypot(*counts) or 1.0
    return [value / norm for value in counts]
