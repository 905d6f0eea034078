"""One Aho-Corasick pass per text for every table of literal words the detectors search.

The rules' trigger words and literal prefixes, the cue patterns' prefixes and the directive
pass's anchors are each a table of literal words. Searched one table at a time, a 1 KiB
text was walked ~17 times; here every table registers its words in one shared automaton,
the text is walked once (remembered for the text being analysed) and each table reads its
own occurrences: exactly those an automaton of its own words would report.

Only the detectors' own tables, made once per process (at import or by a cached factory),
are shared: a table made after the first scan rebuilds the shared automaton. Any other
table (`shared=False`, the default) keeps an automaton of its own.

The automaton is ahocorasick_rs's (the Rust aho-corasick crate's contiguous NFA): one call
returns every occurrence of every word (overlapping matches) as a list, so the text is
walked in compiled code and Python only groups the occurrences by word.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Mapping
from typing import Generic, TypeVar

import ahocorasick_rs

Value = TypeVar("Value")
_tables: list[LiteralTable] = []
_lock = threading.Lock()
# Per table: (value, end offsets) of each distinct word found in the text.
Occurrences = list[list[tuple[object, list[int]]]]


# A lone surrogate (JSON can carry one) cannot cross into Rust as UTF-8: it is searched as
# U+FFFD, one character for one, so offsets stay those of the text. No word holds either
# character (`automaton` refuses them), so the same occurrences are found.
_SURROGATE = re.compile("[\ud800-\udfff]")
_STAND_IN = "\ufffd"


def automaton(words: list[str]) -> ahocorasick_rs.AhoCorasick:
    """An automaton finding every occurrence of `words` (see `find_all`)."""
    if any(_SURROGATE.search(word) or _STAND_IN in word for word in words):
        raise ValueError("a literal word holds a surrogate or U+FFFD")
    # The contiguous NFA, not the DFA: for the ~6,000 words of the shared pass the DFA takes
    # 38 MB, which every text would walk through cache misses (and every worker would hold).
    return ahocorasick_rs.AhoCorasick(
        words,
        matchkind=ahocorasick_rs.MatchKind.Standard,
        implementation=ahocorasick_rs.Implementation.ContiguousNFA,
    )


def find_all(searcher: ahocorasick_rs.AhoCorasick, text: str) -> list[tuple[int, int, int]]:
    """Every occurrence of every word in `text`, overlapping ones included, ordered by end:
    (word's index, start, end) in characters."""
    try:
        return searcher.find_matches_as_indexes(text, overlapping=True)
    except UnicodeEncodeError:
        return searcher.find_matches_as_indexes(_SURROGATE.sub(_STAND_IN, text), overlapping=True)


class _Shared:
    """The automaton over the words of the first `count` tables registered."""

    def __init__(self, tables: list[LiteralTable]) -> None:
        self.count = len(tables)
        entries: dict[str, list[tuple[int, object]]] = {}
        for number, table in enumerate(tables):
            for word, value in table.words.items():
                entries.setdefault(word, []).append((number, value))
        words = list(entries)
        # Per word (by its index in the automaton): (table number, value) for each table.
        self.entries = [tuple(entries[word]) for word in words]
        self.automaton = automaton(words) if words else None

    def scan(self, text: str) -> Occurrences:
        """Per table, each distinct word of it found in `text` with its end offsets."""
        ends: dict[int, list[int]] = {}
        if self.automaton is not None:
            known = ends.get  # the hot loop: ~170 matches in a 1 KiB English text
            for word, _, end in find_all(self.automaton, text):  # each word's ends ascend
                found = known(word)
                if found is None:
                    ends[word] = [end - 1]  # the offset of the last character
                else:
                    found.append(end - 1)
        occurrences: Occurrences = [[] for _ in range(self.count)]
        entries = self.entries
        for word, found in ends.items():
            for number, value in entries[word]:
                occurrences[number].append((value, found))
        return occurrences


_shared: _Shared | None = None
# (text, shared automaton, occurrences) of the last text, replaced in one assignment.
_last: tuple[str | None, _Shared | None, Occurrences] = (None, None, [])


def _occurrences(text: str, number: int) -> list[tuple[object, list[int]]]:
    global _shared, _last
    last_text, shared, occurrences = _last
    if last_text is not text or shared is None or number >= shared.count:
        shared = _shared
        if shared is None or number >= shared.count:
            with _lock:  # a table registered since the last build: build again
                shared = _shared = _Shared(list(_tables))
        occurrences = shared.scan(text)
        _last = (text, shared, occurrences)
    return occurrences[number]


class LiteralTable(Generic[Value]):
    """A table of literal words (word -> value), searched by the shared pass when `shared`
    (a table made once per process), else by an automaton of its own."""

    def __init__(self, words: Mapping[str, Value], *, shared: bool = False) -> None:
        self.words = {word: value for word, value in words.items() if word}
        self.own = None if shared else _Shared([self])
        if shared:
            with _lock:
                self.number = len(_tables)
                _tables.append(self)

    def occurrences(self, text: str) -> list[tuple[Value, list[int]]]:
        """For each of the words occurring in `text`: its value and the offsets of the last
        characters of its occurrences, ascending (lists shared with other callers: read
        them, never change them)."""
        if self.own is not None:
            return self.own.scan(text)[0]  # type: ignore[return-value]
        return _occurrences(text, self.number)  # type: ignore[return-value]


__all__ = ["LiteralTable", "automaton", "find_all"]
