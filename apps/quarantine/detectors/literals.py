"""One Aho-Corasick pass per text for every table of literal words the detectors search.

The rules' trigger words and literal prefixes, the cue patterns' prefixes and the directive
pass's anchors are each a table of literal words. Searched one table at a time, a 1 KiB
text was walked ~17 times; here every table registers its words in one shared automaton,
the text is walked once (remembered for the text being analysed) and each table reads its
own occurrences: exactly those an automaton of its own words would report.

Only the detectors' own tables, made once per process (at import or by a cached factory),
are shared: a table made after the first scan rebuilds the shared automaton. Any other
table (`shared=False`, the default) keeps an automaton of its own.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Generic, TypeVar

import ahocorasick

Value = TypeVar("Value")
_tables: list[LiteralTable] = []
_lock = threading.Lock()
# Per table: (value, end offsets) of each distinct word found in the text.
Occurrences = list[list[tuple[object, list[int]]]]


class _Word:
    """A word's entries in the shared automaton: (table number, value) for each table that
    holds it (hashed by identity, so occurrences are grouped by word cheaply)."""

    __slots__ = ("entries",)

    def __init__(self, entries: tuple[tuple[int, object], ...]) -> None:
        self.entries = entries


class _Shared:
    """The automaton over the words of the first `count` tables registered."""

    def __init__(self, tables: list[LiteralTable]) -> None:
        self.count = len(tables)
        entries: dict[str, list[tuple[int, object]]] = {}
        for number, table in enumerate(tables):
            for word, value in table.words.items():
                entries.setdefault(word, []).append((number, value))
        self.automaton = ahocorasick.Automaton()
        for word, found in entries.items():
            self.automaton.add_word(word, _Word(tuple(found)))
        self.empty = not entries
        if entries:
            self.automaton.make_automaton()

    def scan(self, text: str) -> Occurrences:
        """Per table, each distinct word of it found in `text` with its end offsets."""
        ends: dict[_Word, list[int]] = {}
        if not self.empty:
            known = ends.get  # the hot loop: ~170 hits in a 1 KiB English text
            for end, word in self.automaton.iter(text):
                found = known(word)
                if found is None:
                    ends[word] = [end]
                else:
                    found.append(end)
        occurrences: Occurrences = [[] for _ in range(self.count)]
        for word, found in ends.items():
            for number, value in word.entries:
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
        """For each of the words occurring in `text`: its value and the offsets where its
        occurrences end, ascending, as ``ahocorasick.Automaton.iter`` reports them (lists
        shared with other callers: read them, never change them)."""
        if self.own is not None:
            return self.own.scan(text)[0]  # type: ignore[return-value]
        return _occurrences(text, self.number)  # type: ignore[return-value]


__all__ = ["LiteralTable"]
