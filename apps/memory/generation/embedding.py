"""A small deterministic embedder for generated data and tests: hashed character trigrams →
384 dimensions, normalised. Texts sharing trigrams are near; no model is downloaded."""

import hashlib
import math
import unicodedata

DIMENSIONS = 384


def embed(text: str, dims: int = DIMENSIONS) -> list[float]:
    """The unit vector of `text`'s signed, hashed character trigrams (NFKC, case-folded)."""
    normal = f"  {unicodedata.normalize('NFKC', text).casefold()}  "
    vector = [0.0] * dims
    for start in range(len(normal) - 2):
        digest = hashlib.blake2b(normal[start : start + 3].encode(), digest_size=8).digest()
        bucket = int.from_bytes(digest[:4], "little") % dims
        vector[bucket] += 1.0 if digest[4] & 1 else -1.0
    norm = math.hypot(*vector) or 1.0
    return [value / norm for value in vector]
