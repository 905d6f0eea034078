"""Text normalisation for detection, with an offset map back to the original text.

Detectors match on a folded form of the text (NFKC, invisible characters removed, case
folded, look-alike letters folded to Latin, whitespace collapsed) so that
"ＩＧＮＯＲＥ", "ign\u200bore" and "іgnоrе" (Cyrillic і/о/е) all read "ignore". The
queue, however, highlights the text as it was submitted, so every normalised character
remembers the index of the original character it came from.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

import numpy as np

# Characters that render as nothing: zero-width spaces and joiners, word joiner, BOM,
# soft hyphen, invisible maths operators, fillers.
ZERO_WIDTH = frozenset(
    "\u200b\u200c\u200d\u2060\ufeff\u180e\u00ad\u034f\u2061\u2062\u2063\u2064"
    "\u115f\u1160\u3164\uffa0"
)
# Bidirectional controls: they reorder what the reader sees versus what the model reads.
BIDI_CONTROLS = frozenset(
    "\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
# Bidi controls with no legitimate use in memory text (overrides and isolates).
BIDI_OVERRIDES = frozenset("\u202a\u202b\u202d\u202e\u2066\u2067\u2068")

# Cyrillic and Greek letters (lower case, after case folding) that look like Latin ones.
HOMOGLYPHS: dict[str, str] = {
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o",
    "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "і": "i", "ї": "i", "ј": "j",
    "ѕ": "s", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ӏ": "l", "һ": "h", "ո": "n", "ս": "u",
    # Greek
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o",
    "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ζ": "z", "μ": "u", "ϲ": "c",
    # Latin look-alikes NFKC leaves alone
    "ı": "i", "ɡ": "g", "ɑ": "a", "ℓ": "l",
    # Typographic quotes read as plain ones, so quoting cues are one character
    "‘": "'", "’": "'", "“": '"', "”": '"',
}  # fmt: skip
_CONFUSABLE_SCRIPTS = frozenset(HOMOGLYPHS) - frozenset("ıɡɑℓ‘’“”")


def is_invisible(char: str) -> bool:
    """True for characters that render as nothing (zero-width, bidi, tags, selectors)."""
    code = ord(char)
    return (
        char in ZERO_WIDTH
        or char in BIDI_CONTROLS
        or 0xE0000 <= code <= 0xE007F  # tag characters ("ASCII smuggling")
        or 0xFE00 <= code <= 0xFE0F  # variation selectors
        or 0xE0100 <= code <= 0xE01EF
    )


def is_cjk(char: str) -> bool:
    """True for CJK ideographs and kana, between which spaces carry no meaning."""
    code = ord(char)
    return 0x3040 <= code <= 0x9FFF or 0xF900 <= code <= 0xFAFF or 0x20000 <= code <= 0x2FA1F


_fold_cache: dict[str, str] = {}


def fold_char(char: str) -> str:
    """Fold one visible character: NFKC, strip combining marks, case fold, homoglyphs."""
    folded = _fold_cache.get(char)
    if folded is None:
        composed = unicodedata.normalize("NFKC", char).casefold()
        if not composed.isascii():
            decomposed = unicodedata.normalize("NFD", composed)
            composed = "".join(c for c in decomposed if not unicodedata.combining(c))
            composed = unicodedata.normalize("NFC", composed)
        folded = "".join(HOMOGLYPHS.get(c, c) for c in composed)
        if len(_fold_cache) < 50_000:
            _fold_cache[char] = folded
    return folded


@dataclass(frozen=True)
class NormalisedText:
    """The folded text plus, for each folded character, its index in the original."""

    original: str
    text: str
    index: list[int] | None = field(default=None, repr=False)  # None: identity map
    invisible: tuple[int, ...] = ()  # original offsets of invisible characters
    bidi_overrides: tuple[int, ...] = ()
    mixed_script_words: tuple[tuple[int, int], ...] = ()  # original spans

    def to_original(self, start: int, end: int) -> tuple[int, int]:
        """Map a [start, end) range of the folded text to the original text."""
        if self.index is None:
            return start, end
        if start >= end or not self.index:
            position = self.index[start] if start < len(self.index) else len(self.original)
            return position, position
        return self.index[start], self.index[end - 1] + 1


_CJK_CLASS = "\u3040-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f"
# A run of two or more whitespace characters, or one space between ideographs
# (``\s{2,}|(?<=[CJK]) (?=[CJK])``), spelled to begin with one character class: the engine
# then skips to whitespace instead of trying both alternatives at every offset.
_NEEDS_COLLAPSE = re.compile(rf"\s(?:\s+|(?<=[{_CJK_CLASS}] )(?=[{_CJK_CLASS}]))")
# The same on ASCII text, where the only whitespace left after _SINGLE_SPACE is " " and
# no ideograph can surround it (found at all exactly when "  " occurs).
_NEEDS_COLLAPSE_ASCII = re.compile(" {2,}")
# Single whitespace characters become one space in place, keeping offsets 1:1.
_SINGLE_SPACE = {ord(c): " " for c in "\t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\u2028\u2029"}
_ASCII_LOWER = {code: code + 32 for code in range(ord("A"), ord("Z") + 1)}


def _collapse_whitespace(
    original: str, folded: str, base: list[int] | None = None, *, spaced: bool = False, **facts
) -> NormalisedText:
    """Collapse whitespace runs of the folded text; `base` maps folded to original
    offsets (None: identity) and the result maps collapsed offsets to original ones.
    `spaced`: the fold table already turned single whitespace characters into spaces."""
    if not spaced:
        folded = folded.translate(_SINGLE_SPACE)
    if folded.isascii():
        needs_collapse = _NEEDS_COLLAPSE_ASCII
        if "  " not in folded:  # most texts need no (further) offset map
            return NormalisedText(original=original, text=folded, index=base, **facts)
    else:
        needs_collapse = _NEEDS_COLLAPSE
        if not needs_collapse.search(folded):
            return NormalisedText(original=original, text=folded, index=base, **facts)
    pieces: list[str] = []
    index: list[int] = []
    position = 0
    for match in needs_collapse.finditer(folded):  # only the runs that change
        start, end = match.span()
        pieces.append(folded[position:start])
        index.extend(range(position, start) if base is None else base[position:start])
        between_ideographs = (
            start > 0 and end < len(folded) and is_cjk(folded[start - 1]) and is_cjk(folded[end])
        )
        if not between_ideographs:  # spaces inside "忽 略 规 则" are padding, not breaks
            pieces.append(" ")
            index.append(start if base is None else base[start])
        position = end
    pieces.append(folded[position:])
    index.extend(range(position, len(folded)) if base is None else base[position:])
    return NormalisedText(original=original, text="".join(pieces), index=index, **facts)


# The fold table of every non-ASCII character seen so far (bounded): a text's distinct
# characters are folded once per process, not once per text.
# Entries are composed with _SINGLE_SPACE, so one translate both folds and spaces.
_BASE_TABLE: dict[int, str | int] = {
    **_ASCII_LOWER,
    **{code: space for code, space in _SINGLE_SPACE.items() if code < 128},
}
_TABLE: dict[int, str | int] = dict(_BASE_TABLE)
_KNOWN: set[str] = set()  # characters already in _TABLE
_IRREGULAR: set[str] = set()  # ... that fold to nothing or to several characters
_CONFUSABLE: set[str] = set()  # ... that are Cyrillic or Greek look-alikes (any case)
MAX_KNOWN = 50_000
# The same table over the Basic Multilingual Plane as an array of code points, for the texts
# whose characters all fold to one: a numpy gather instead of str.translate, which looks
# each character of a non-ASCII text up in the dict (hundreds of instructions apiece).
_BMP = 0x10000
_BMP_FOLDS = np.arange(_BMP, dtype=np.uint32)
for _code, _entry in _BASE_TABLE.items():
    _BMP_FOLDS[_code] = _entry if isinstance(_entry, int) else ord(_entry)


def _fold_entry(char: str) -> str:
    return "" if is_invisible(char) else fold_char(char).translate(_SINGLE_SPACE)


def _fold_table(distinct: set[str]) -> tuple[dict[int, str | int], list[str], bool]:
    """A translate table covering `distinct`, its irregular characters (folding to nothing
    or to several characters) and whether a look-alike letter is among them."""
    new = [char for char in distinct - _KNOWN if not char.isascii()]
    if len(_KNOWN) + len(new) > MAX_KNOWN:  # hostile variety: a table for this text only
        table: dict[int, str | int] = dict(_BASE_TABLE)
        irregular = []
        for char in distinct:
            if not char.isascii():
                table[ord(char)] = folded = _fold_entry(char)
                if len(folded) != 1:
                    irregular.append(char)
        confusable = any(c.lower() in _CONFUSABLE_SCRIPTS for c in distinct if not c.isascii())
        return table, irregular, confusable
    for char in new:  # entries first, then _KNOWN: a reader never sees half an entry
        folded = _fold_entry(char)
        _TABLE[ord(char)] = folded
        if len(folded) != 1:
            _IRREGULAR.add(char)
        elif ord(char) < _BMP:
            _BMP_FOLDS[ord(char)] = ord(folded)
        if char.lower() in _CONFUSABLE_SCRIPTS:
            _CONFUSABLE.add(char)
        _KNOWN.add(char)
    return _TABLE, list(distinct & _IRREGULAR), not distinct.isdisjoint(_CONFUSABLE)


_last_normalised: list = [None, None]  # (text, result): every detector folds the same text


def normalise(text: str, *, remember: bool = True) -> NormalisedText:
    """Fold `text` for matching and keep the offset map back to the original (the last
    result is remembered: the rules and the learned layer read the same folded text;
    `remember=False` for a passing text, such as a decoded payload, keeps it so)."""
    if _last_normalised[0] is text:
        return _last_normalised[1]
    result = _normalise(text)
    if remember:
        _last_normalised[0], _last_normalised[1] = text, result
    return result


def _normalise(text: str) -> NormalisedText:
    if text.isascii():
        return _collapse_whitespace(text, text.lower())
    distinct = set(text)
    table, irregular, confusable = _fold_table(distinct)
    mixed = _mixed_script_words(text, confusable)
    if not irregular:
        # Every character folds to exactly one: translate in C, offsets stay 1:1.
        return _collapse_whitespace(
            text, _translate_regular(text, table), spaced=True, mixed_script_words=mixed
        )
    pieces: list[str] = []
    base: list[int] = []
    invisible: list[int] = []
    overrides: list[int] = []
    position = 0
    for match in re.finditer("[" + re.escape("".join(irregular)) + "]", text):
        start = match.start()
        pieces.append(text[position:start].translate(table))
        base.extend(range(position, start))
        char = match.group()
        folded = table[ord(char)]
        if not folded and is_invisible(char):
            invisible.append(start)
            if char in BIDI_OVERRIDES:
                overrides.append(start)
        pieces.append(folded)
        base.extend([start] * len(folded))
        position = start + 1
    pieces.append(text[position:].translate(table))
    base.extend(range(position, len(text)))
    return _collapse_whitespace(
        text,
        "".join(pieces),
        base,
        spaced=True,
        invisible=tuple(invisible),
        bidi_overrides=tuple(overrides),
        mixed_script_words=mixed,
    )


def _translate_regular(text: str, table: dict[int, str | int]) -> str:
    """`text.translate(table)` for a text whose characters each fold to one character."""
    if table is _TABLE:  # the per-process table, mirrored in _BMP_FOLDS
        codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
        if codes.max() < _BMP:
            return _BMP_FOLDS[codes].tobytes().decode("utf-32-le", "surrogatepass")
    return text.translate(table)


_WORD = re.compile(r"[^\W\d_]{2,}")


def _mixed_script_words(text: str, confusable: bool) -> tuple[tuple[int, int], ...]:
    """Spans of words mixing Latin letters with Cyrillic/Greek look-alikes ("pаypal");
    `confusable`: the text holds a Cyrillic or Greek look-alike at all."""
    if not confusable:
        return ()
    spans = []
    for match in _WORD.finditer(text):
        word = match.group().casefold()
        if word.isascii():
            continue
        has_latin = any("a" <= c <= "z" for c in word)
        if has_latin and any(c in _CONFUSABLE_SCRIPTS for c in word):
            spans.append((match.start(), match.end()))
    return tuple(spans)
