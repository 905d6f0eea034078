"""Which character n-grams of a fixed vocabulary occur in a text, in a dozen array operations.

The learned layer (learned.py) sums the weights of the distinct vocabulary n-grams present
in a text. Found one Aho-Corasick hit at a time, a 1 KiB text costs ~1,800 Python tuples;
here every n-gram of the text is packed into one 64-bit key (each character as its index
in the vocabulary's alphabet, the n-gram's length on top) and all keys are looked up at
once in a cuckoo hash table with numpy. A character outside the alphabet packs as 0, a
digit no vocabulary key holds, so an n-gram containing one is never found.

Most n-grams of a text are not in the vocabulary, and the cuckoo table (twice the
vocabulary's size, 64-bit keys) is evicted from the CPU caches by the rest of detection
between texts, so probing it with every n-gram costs thousands of cache misses per text.
A small filter first — one bit per hash value, set for the vocabulary's keys, 32 KiB
that stay cached — passes every vocabulary n-gram and a few percent of the rest, and only
those are looked up in the cuckoo table: the same n-grams found, several times fewer misses.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

# Odd 64-bit multipliers for the two hash functions (Fibonacci and murmur constants and a
# few more, tried in pairs until every key has a slot: the first pair does in practice).
_MULTIPLIERS = (
    0x9E3779B97F4A7C15,
    0xC2B2AE3D27D4EB4F,
    0x165667B19E3779F9,
    0xD6E8FEB86659FD93,
    0xFF51AFD7ED558CCD,
    0xC4CEB9FE1A85EC53,
)
_MASK = (1 << 64) - 1
MAX_KICKS = 500  # evictions before an insertion gives up and the next pair is tried
# The filter's hash (a multiplier the cuckoo pairs never use) and its size: 16 to 32 bits
# per vocabulary key (32 KiB for ~11,000 n-grams), so under 6% of other n-grams pass it.
_FILTER_MULTIPLIER = 0x2545F4914F6CDD1D
FILTER_BITS_PER_KEY = 16


class CharNgramTable:
    """A vocabulary of character n-grams, looked up in texts without a Python-level loop."""

    def __init__(self, grams: Sequence[str]) -> None:
        self.grams = list(grams)
        alphabet = sorted({char for gram in self.grams for char in gram})
        self.sizes = sorted({len(gram) for gram in self.grams})
        self.bits = max(len(alphabet).bit_length(), 1)
        longest = max(self.sizes, default=1)
        self.length_shift = self.bits * longest
        if self.length_shift + longest.bit_length() > 64:
            raise ValueError(
                f"{len(alphabet)} distinct characters in n-grams of up to {longest} do not "
                "pack into 64 bits"
            )
        # Index in the alphabet + 1 for every code point up to the largest (0 beyond it).
        self.beyond = max((ord(char) for char in alphabet), default=0) + 1
        self.digits = np.zeros(self.beyond + 1, dtype=np.uint64)
        for number, char in enumerate(alphabet, start=1):
            self.digits[ord(char)] = number
        keys = [self._key(gram) for gram in self.grams]
        self._build_table(keys)
        self._build_filter(keys)

    def _key(self, gram: str) -> int:
        key = 0
        for char in gram:
            key = (key << self.bits) | int(self.digits[ord(char)])
        return key | (len(gram) << self.length_shift)

    def _build_table(self, keys: list[int]) -> None:
        slot_bits = max((len(keys) * 5 // 2).bit_length(), 6)  # load factor below 0.4
        for first, second in zip(_MULTIPLIERS[::2], _MULTIPLIERS[1::2], strict=True):
            placed = _cuckoo(keys, (first, second), slot_bits)
            if placed is not None:
                break
        else:  # pragma: no cover - six multipliers and a 0.4 load factor always suffice
            raise ValueError("no cuckoo table for this vocabulary")
        slot_keys, slot_grams = placed
        self.multipliers = (np.uint64(first), np.uint64(second))
        self.slot_shift = np.uint64(64 - slot_bits)
        self.slot_keys = np.array(slot_keys, dtype=np.uint64)
        self.slot_grams = np.array(slot_grams, dtype=np.int64)
        # The found slots are sorted as the narrowest unsigned type that holds every slot:
        # numpy sorts 16-bit integers by radix (two passes), 64-bit ones by quicksort
        # (several times the instructions for the thousand slots of a 1 KiB text).
        self.slot_dtype = np.uint16 if slot_bits <= 16 else np.uint32

    def _build_filter(self, keys: list[int]) -> None:
        filter_bits = max((len(keys) * FILTER_BITS_PER_KEY).bit_length(), 6)
        self.filter_multiplier = np.uint64(_FILTER_MULTIPLIER)
        self.filter_shift = np.uint64(64 - filter_bits)
        bits = np.zeros(1 << filter_bits, dtype=bool)
        for key in keys:
            bits[((key * _FILTER_MULTIPLIER) & _MASK) >> (64 - filter_bits)] = True
        self.filter = np.packbits(bits, bitorder="little")  # bit h is bit h % 8 of byte h // 8

    def _may_hold(self, keys: np.ndarray) -> np.ndarray:
        """False for keys the vocabulary certainly lacks (the filter's bit is unset)."""
        # Hashes below 2**63 read as int64 without a copy: numpy indexes with int64 (intp)
        # directly, while uint64 indices are converted with a check each, 3x the cost.
        hashes = ((keys * self.filter_multiplier) >> self.filter_shift).view(np.int64)
        bits = (self.filter[hashes >> 3] >> (hashes & 7).astype(np.uint8)) & 1
        return bits.view(bool)  # bytes 0 and 1

    def present(self, text: str) -> np.ndarray:
        """Indices into `grams` of the distinct vocabulary n-grams occurring in `text`."""
        return self.slot_grams[self.slots_present(text)]

    def slots_present(self, text: str) -> np.ndarray:
        """The slots of the table that hold an n-gram occurring in `text`, ascending and
        distinct: per slot values, such as weights, read with them come in slot order, as a
        boolean mask over every slot would give them, without a pass over the whole table."""
        # surrogatepass: a lone surrogate (JSON can carry one) is a code point like any other.
        codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
        # Code points (below 2**31) as int32 indices: converted to intp without checks.
        digits = self.digits[np.minimum(codes, self.beyond).view(np.int32)]
        shift = np.uint64(self.bits)
        keys = []
        window = digits  # the keys of every n-gram of one length, growing by one character
        for size in range(1, self.sizes[-1] + 1 if self.sizes else 0):
            if size > 1:
                window = (window[:-1] << shift) | digits[size - 1 :]
            if size in self.sizes:
                keys.append(window | np.uint64(size << self.length_shift))
        if not keys:
            return np.zeros(0, dtype=self.slot_dtype)
        every = np.concatenate(keys)
        every = every[self._may_hold(every)]
        found = []
        for multiplier in self.multipliers:
            slots = ((every * multiplier) >> self.slot_shift).view(np.int64)
            found.append(slots[self.slot_keys[slots] == every])
        # Distinct and ascending (an n-gram repeated in the text is found once per
        # occurrence): sorted, then each slot kept where it differs from the one before.
        # np.unique hashes instead, several times the instructions for a few hundred slots.
        slots = np.sort(np.concatenate(found).astype(self.slot_dtype), kind="stable")
        distinct = np.empty(len(slots), dtype=bool)
        distinct[:1] = True
        np.not_equal(slots[1:], slots[:-1], out=distinct[1:])
        return slots[distinct]


def _cuckoo(
    keys: list[int], multipliers: tuple[int, int], slot_bits: int
) -> tuple[list[int], list[int]] | None:
    """Slots for every key (two choices each, by multiplicative hashing), or None."""
    shift = 64 - slot_bits

    def slot(key: int, multiplier: int) -> int:
        return ((key * multiplier) & _MASK) >> shift

    slot_keys = [0] * (1 << slot_bits)  # 0: empty (every key has its length bits set)
    slot_grams = [-1] * (1 << slot_bits)
    for number, key in enumerate(keys):
        choice = 0
        for _ in range(MAX_KICKS):
            position = slot(key, multipliers[choice])
            if slot_keys[position] == 0:
                slot_keys[position], slot_grams[position] = key, number
                break
            # Evict the occupant to its other slot.
            slot_keys[position], key = key, slot_keys[position]
            slot_grams[position], number = number, slot_grams[position]
            choice = 1 if slot(key, multipliers[0]) == position else 0
        else:
            return None
    return slot_keys, slot_grams


__all__ = ["CharNgramTable"]
