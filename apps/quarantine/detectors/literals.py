"""One Aho-Corasick pass per text for every table of literal words the detectors search.

The rules' trigger words and literal prefixes, the cue patterns' prefixes and the directive
pass's anchors are each a table of literal words. Searched one table at a time, a 1 KiB
text was walked ~17 times; here every table registers its words in one shared automaton,
the text is walked once (remembered for the text being analysed) and each table reads its
own occurrences: exactly those, in the same order (by end offset, longer words first),
that an automaton of its own words would report.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Generic, TypeVar

import ahocorasick

Value = TypeVar("Value")
_tables: list[LiteralTable] = []
_lock = threading.Lock()


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
            self.automaton.add_word(word, tuple(found))
        self.empty = not entries
        if entries:
            self.automaton.make_automaton()

    def scan(self, text: str) -> list[list[tuple[int, object]]]:
        """Per table, the (end offset, value) of each occurrence of one of its words."""
        occurrences: list[list[tuple[int, object]]] = [[] for _ in range(self.count)]
        if not self.empty:
            for end, found in self.automaton.iter(text):
                for number, value in found:
                    occurrences[number].append((end, value))
        return occurrences


_shared: _Shared | None = None
# (text, shared automaton, occurrences) of the last text, replaced in one assignment.
_last: tuple[str | None, _Shared | None, list[list[tuple[int, object]]]] = (None, None, [])


def _occurrences(text: str, number: int) -> list[tuple[int, object]]:
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
    """A table of literal words (word -> value) searched by the shared pass."""

    def __init__(self, words: Mapping[str, Value]) -> None:
        self.words = {word: value for word, value in words.items() if word}
        with _lock:
            self.number = len(_tables)
            _tables.append(self)

    def iter(self, text: str) -> list[tuple[int, Value]]:
        """(end offset, value) of every occurrence of one of the words in `text`, as
        ``ahocorasick.Automaton.iter`` reports them (a list shared with other callers:
        read it, never change it)."""
        return _occurrences(text, self.number)  # type: ignore[return-value]


__all__ = ["LiteralTable"]
