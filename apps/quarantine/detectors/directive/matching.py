"""Matching machinery of the directive pass: bilingual patterns (the Chinese half only runs
on texts with ideographs), action cues screened by literal anchors, windows around anchors."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from apps.quarantine.detectors.literals import LiteralTable
from apps.quarantine.detectors.patterns.base import has_ideographs
from apps.quarantine.detectors.prefixes import prefiltered


@dataclass
class DirectiveHit:
    """One category's result: the best score, its reason and the spans of the cues."""

    score: float
    reason: str
    spans: list[tuple[int, int]] = field(default_factory=list)


def _top_level_alternatives(pattern: str) -> list[str]:
    """Split a regex source at its top-level `|` (outside groups and classes)."""
    parts, depth, in_class, escaped, current = [], 0, False, False, []
    for char in pattern:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "|" and depth == 0:
            parts.append("".join(current))
            current = []
            continue
        current.append(char)
    parts.append("".join(current))
    return parts


class Bilingual:
    """A cue pattern split into its English and Chinese alternatives: the Chinese half
    only runs on ranges with ideographs (it has no fast first-character scan, and an
    English memory never matches it)."""

    def __init__(self, pattern: str) -> None:
        alternatives = _top_level_alternatives(pattern)
        chinese = [part for part in alternatives if has_ideographs(part)]
        english = [part for part in alternatives if not has_ideographs(part)]
        self.pattern = re.compile(pattern)
        self.english = prefiltered(re.compile("|".join(english))) if english else None
        self.chinese = prefiltered(re.compile("|".join(chinese))) if chinese else None

    def search(self, text: str, low: int = 0, high: int | None = None) -> re.Match | None:
        high = len(text) if high is None else high
        found = self.english.search(text, low, high) if self.english else None
        if self.chinese is not None and has_ideographs(text):
            other = self.chinese.search(text, low, high)
            if other is not None and (found is None or other.start() < found.start()):
                found = other
        return found

    def finditer(self, text: str, low: int = 0, high: int | None = None) -> list[re.Match]:
        high = len(text) if high is None else high
        matches = self.english.finditer(text, low, high) if self.english else []
        if self.chinese is not None and has_ideographs(text):
            matches.extend(self.chinese.finditer(text, low, high))
            matches.sort(key=lambda match: match.start())
        return matches

    def match(self, text: str, position: int) -> re.Match | None:
        return self.pattern.match(text, position)


# Actions, each with how much it matters on its own (before context). Hashed by identity,
# like patterns.Rule: the cues key per-text dicts, and no two cues are alike.
@dataclass(frozen=True, eq=False)
class ActionCue:
    """One way of asking for an action: every match contains one of `anchors`, so the
    regex only runs on texts where an anchor occurs (the shared literal pass finds them)."""

    reason: str
    weight: float
    anchors: tuple[str, ...]
    pattern: re.Pattern[str]
    leading: bool  # every match starts with an anchor: try `match` there, never scan


def _action(
    reason: str, weight: float, anchors: str, pattern: str, *, leading: bool = False
) -> ActionCue:
    """An action cue; `anchors` are space-separated ("_" stands for a space)."""
    words = tuple(anchor.replace("_", " ") for anchor in anchors.split())
    compiled = re.compile(pattern)
    if not leading:
        prefiltered(compiled)  # its prefixes join the shared literal pass before any scan
    return ActionCue(reason, weight, words, compiled, leading)


ANCHOR_WINDOW = (120, 140)  # characters before and after an anchor a match can reach


def _windowed(pattern: re.Pattern[str], text: str, starts: list[int]) -> list[tuple[int, int]]:
    """Matches of `pattern` near the anchors only: the windows around them, merged."""
    before, after = ANCHOR_WINDOW
    windows: list[list[int]] = []
    for start in sorted(starts):
        low, high = max(0, start - before), min(len(text), start + after)
        if windows and low <= windows[-1][1]:
            windows[-1][1] = high
        else:
            windows.append([low, high])
    spans: list[tuple[int, int]] = []
    finditer = (
        prefiltered(pattern).finditer if isinstance(pattern, re.Pattern) else pattern.finditer
    )
    for low, high in windows:
        spans.extend(match.span() for match in finditer(text, low, high))
    return sorted(set(spans))


class Screened:
    """A cue pattern that only runs when one of its literal anchors occurs in the text
    (a module-level cue table: its anchors join the shared literal pass)."""

    def __init__(self, pattern: re.Pattern[str], anchors: str, *, leading: bool = False):
        self.pattern = pattern
        if not leading and isinstance(pattern, re.Pattern):
            prefiltered(pattern)  # searched in windows (_windowed): shared from the start
        self.leading = leading  # every match starts at an anchor: `match` there, no scan
        words = (anchor.replace("_", " ") for anchor in anchors.split())
        self.literals = LiteralTable({word: len(word) for word in words}, shared=True)

    def spans(self, text: str) -> list[tuple[int, int]]:
        if not self.leading:
            starts = [
                end - length + 1 for length, ends in self.literals.occurrences(text) for end in ends
            ]
            return _windowed(self.pattern, text, starts) if starts else []
        spans: list[tuple[int, int]] = []
        # In the order an automaton reports them: by end, the longer anchor first.
        found = sorted(
            (end, -length) for length, ends in self.literals.occurrences(text) for end in ends
        )
        for end, negative_length in found:
            start = end + negative_length + 1
            if spans and start < spans[-1][1]:
                continue
            match = self.pattern.match(text, start)
            if match is not None and match.end() > start:
                spans.append(match.span())
        return spans
