"""Literal prefixes derived from a regex, so a table of patterns is searched in one pass.

`literal_prefixes(pattern)` reads the compiled pattern's syntax tree and returns a set of
literal strings such that **every match of the pattern starts with one of them** (or None
when that cannot be shown: a pattern starting with ``\\w+`` or ``.``, case-insensitive
flags, a one-character prefix). `PrefixIndex` puts the prefixes of a whole table into one
table of the shared literal pass (literals.py): one pass over a text gives, per pattern,
the offsets where a match can start, and ``pattern.match(text, offset)`` at those
offsets finds exactly the matches ``pattern.search`` would (search tries the same offsets
left to right and behaves as `match` at each; look-behinds see the text before the
offset either way).

Nothing here is written by hand per rule: a rule or cue added to a table gets its
prefixes from its own pattern, and a pattern without derivable prefixes is searched as
before.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from functools import cache

from apps.quarantine.detectors.literals import LiteralTable

try:  # the regex parser of CPython (3.11+); without it every pattern is searched
    from re import _constants as sre
    from re import _parser as sre_parse
except ImportError:  # pragma: no cover
    sre = sre_parse = None

MAX_ALTERNATIVES = 256  # prefixes per pattern before the expansion stops lengthening them
MAX_CLASS = 8  # characters of a class expanded into alternatives ("[- ]", "[sz]")
MIN_LENGTH = 2  # shorter prefixes would find candidate offsets almost everywhere

# (prefix, open): `open` when the prefix spells everything matched so far, so what
# follows in the pattern may lengthen it.
_Alternatives = list[tuple[str, bool]]


def _class_characters(items) -> list[str] | None:
    """The characters of a small positive character class, else None."""
    characters: list[str] = []
    for op, value in items:
        if op is sre.LITERAL:
            characters.append(chr(value))
        elif op is sre.RANGE and value[1] - value[0] < MAX_CLASS:
            characters.extend(chr(code) for code in range(value[0], value[1] + 1))
        else:
            return None
    return characters if len(characters) <= MAX_CLASS else None


def _item(op, value) -> _Alternatives | None:
    """How one element of a sequence can begin (None: unknown, the prefix ends here)."""
    if op is sre.LITERAL:
        return [(chr(value), True)]
    if op is sre.IN:
        characters = _class_characters(value)
        return None if characters is None else [(char, True) for char in characters]
    if op is sre.SUBPATTERN:
        _group, added, removed, pattern = value
        return None if (added or removed) else _sequence(pattern)
    if op is sre.BRANCH:
        alternatives: _Alternatives = []
        for branch in value[1]:
            found = _sequence(branch)
            if found is None:
                return None
            alternatives.extend(found)
        return alternatives
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT):
        low, high, pattern = value
        found = _sequence(pattern)
        if low == high == 1:
            return found
        if found is not None and high == 1:  # optional: absent, or present once
            return [("", True), *found]
        once = [] if found is None else [(prefix, False) for prefix, _ in found]
        if low == 0:  # absent, or present at least once (then the prefix ends)
            return [("", True), *once] if found is not None else [("", False)]
        return once or None
    return None


def _sequence(items) -> _Alternatives | None:
    """How a sequence of elements can begin: the cross product of its elements."""
    current: _Alternatives = [("", True)]
    for op, value in items:
        if not any(is_open for _, is_open in current):
            break
        if op in (sre.AT, sre.ASSERT, sre.ASSERT_NOT):
            continue  # zero width: `match` checks it at the offset
        found = _item(op, value)
        if found is None or len(current) * len(found) > MAX_ALTERNATIVES:
            current = [(prefix, False) for prefix, _ in current]
            break
        current = [
            (prefix + more, more_open) if is_open else (prefix, False)
            for prefix, is_open in current
            for more, more_open in (found if is_open else [("", False)])
        ]
    return current


def literal_prefixes(pattern: re.Pattern[str]) -> frozenset[str] | None:
    """Literal strings one of which begins every match of `pattern`, or None if unknown."""
    if sre_parse is None or pattern.flags & re.IGNORECASE or not isinstance(pattern.pattern, str):
        return None
    try:
        found = _sequence(sre_parse.parse(pattern.pattern, pattern.flags).data)
    except (re.error, TypeError, ValueError, RecursionError):  # pragma: no cover
        return None
    if found is None:
        return None
    prefixes = {prefix for prefix, _ in found}
    if any(len(prefix) < MIN_LENGTH for prefix in prefixes):
        return None
    # A prefix that begins with a shorter one adds no offset the shorter one misses.
    ordered = sorted(prefixes, key=len)
    minimal: list[str] = []
    for prefix in ordered:
        if not any(prefix.startswith(shorter) for shorter in minimal):
            minimal.append(prefix)
    return frozenset(minimal)


class PrefixIndex:
    """Candidate match offsets of many patterns, found in the shared literal pass.

    `screened[i]` says whether pattern i has derivable prefixes; for the others the
    caller searches as usual.
    """

    def __init__(self, patterns: Iterable[re.Pattern[str]], *, shared: bool = False) -> None:
        by_prefix: dict[str, list[int]] = {}
        self.screened: list[bool] = []
        for number, pattern in enumerate(patterns):
            prefixes = literal_prefixes(pattern)
            self.screened.append(prefixes is not None)
            for prefix in prefixes or ():
                by_prefix.setdefault(prefix, []).append(number)
        # The value is found per occurrence: one shared tuple per prefix.
        self.literals = LiteralTable(
            {prefix: (len(prefix) - 1, tuple(numbers)) for prefix, numbers in by_prefix.items()},
            shared=shared,
        )
        self.unscreened = frozenset(n for n, screened in enumerate(self.screened) if not screened)

    def starts(self, text: str) -> PrefixStarts:
        """Where each screened pattern's matches can start in `text`."""
        return PrefixStarts(self.literals.occurrences(text))


class PrefixStarts:
    """The prefix occurrences of one text, turned into a pattern's offsets on demand."""

    def __init__(self, ends: list[tuple[tuple[int, tuple[int, ...]], list[int]]]) -> None:
        self.by_pattern: dict[int, list[tuple[int, list[int]]]] = {}
        for value, found in ends:
            back, numbers = value
            for number in numbers:
                self.by_pattern.setdefault(number, []).append((back, found))

    def __contains__(self, number: int) -> bool:
        return number in self.by_pattern

    def offsets(self, number: int) -> list[int]:
        """Sorted distinct offsets where pattern `number` can start a match."""
        occurrences = self.by_pattern.get(number, ())
        if len(occurrences) == 1:
            back, found = occurrences[0]
            return [end - back for end in found]
        return sorted({end - back for back, found in occurrences for end in found})


def next_match(
    pattern: re.Pattern[str], text: str, offsets: list[int], position: int
) -> re.Match[str] | None:
    """What ``pattern.search(text, position)`` returns, given the sorted offsets where a
    match can start: the first offset at or after `position` where `match` succeeds."""
    for index in range(bisect.bisect_left(offsets, position), len(offsets)):
        match = pattern.match(text, offsets[index])
        if match is not None:
            return match
    return None


class Prefiltered:
    """A compiled pattern whose `search` only tries the offsets where one of its literal
    prefixes occurs (found by the shared literal pass, remembered for the last text);
    the same results as ``pattern.search``, which it falls back to when no prefixes are
    derivable."""

    def __init__(self, pattern: re.Pattern[str], *, shared: bool = False) -> None:
        self.pattern = pattern
        prefixes = literal_prefixes(pattern)
        self.literals = (
            LiteralTable({prefix: len(prefix) - 1 for prefix in prefixes}, shared=shared)
            if prefixes
            else None
        )
        # (text, offsets) of the last text, replaced in one assignment (threads).
        self._last: tuple[str | None, list[int]] = (None, [])

    def offsets(self, text: str) -> list[int]:
        """Sorted distinct offsets of `text` where a match can start."""
        last_text, offsets = self._last
        if last_text is not text:
            assert self.literals is not None
            offsets = sorted(
                {end - back for back, ends in self.literals.occurrences(text) for end in ends}
            )
            self._last = (text, offsets)
        return offsets

    def search(self, text: str, pos: int = 0, endpos: int | None = None) -> re.Match[str] | None:
        if self.literals is None:
            return self.pattern.search(text, pos, len(text) if endpos is None else endpos)
        endpos = len(text) if endpos is None else endpos
        offsets = self.offsets(text)
        match = self.pattern.match
        for index in range(bisect.bisect_left(offsets, pos), len(offsets)):
            offset = offsets[index]
            if offset >= endpos:
                break
            found = match(text, offset, endpos)
            if found is not None:
                return found
        return None

    def finditer(self, text: str, pos: int = 0, endpos: int | None = None) -> list[re.Match[str]]:
        """The matches ``pattern.finditer(text, pos, endpos)`` yields (never empty ones:
        every match holds a prefix)."""
        endpos = len(text) if endpos is None else endpos
        if self.literals is None:
            return list(self.pattern.finditer(text, pos, endpos))
        found = []
        while (match := self.search(text, pos, endpos)) is not None:
            found.append(match)
            pos = match.end()
        return found


@cache
def prefiltered(pattern: re.Pattern[str]) -> Prefiltered:
    """The (cached) prefiltered form of a compiled pattern."""
    return Prefiltered(pattern, shared=True)
