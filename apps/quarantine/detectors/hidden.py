"""Hidden payloads: invisible characters, look-alike letters and encoded instructions.

Invisible characters and mixed-script words are signals in themselves (nobody types a
zero-width space inside a word). Encoded segments (base64, hex, URL-encoding, HTML
entities, \\u escapes, rot13, reversed text, Unicode tag characters, variation-selector
smuggling) are decoded and the decoded text is scored with the same rules; a segment
that decodes to an instruction is a strong signal, because benign memories have no reason
to hide instructions.
"""

from __future__ import annotations

import base64
import binascii
import bisect
import codecs
import html
import re
from collections.abc import Callable, Iterator
from urllib.parse import unquote

from apps.quarantine.detectors.base import Finding, Span
from apps.quarantine.detectors.literals import LiteralTable
from apps.quarantine.detectors.normalise import NormalisedText
from apps.quarantine.detectors.patterns import Category
from apps.quarantine.detectors.prefixes import Prefiltered

ScoreDecoded = Callable[[str], tuple[float, list[str]]]

# No lookbehind: a greedy run always starts at a run boundary, and a leading lookbehind
# would stop the regex engine's fast first-character scan.
_BASE64 = re.compile(r"[A-Za-z0-9+/_-]{16,}={0,2}")
# The same characters as bytes (1) among all others (0): a text without sixteen in a row
# has no base64 run, found by a substring search instead of a regex attempt at every word.
_BASE64_BYTES = bytes(
    int(chr(code) in "+/_-" or (code < 128 and chr(code).isalnum())) for code in range(256)
)
_BASE64_RUN = b"\x01" * 16


def _may_hold_base64(original: str) -> bool:
    """False when `original` certainly has no run that _BASE64 matches."""
    # Every character outside ASCII becomes one "?", outside the class like itself.
    flags = original.encode("ascii", "replace").translate(_BASE64_BYTES)
    return _BASE64_RUN in flags


# Two expressions, not one alternation: each keeps the engine's fast first-character scan.
_HEX_ESCAPES = re.compile(r"(?:\\x[0-9a-fA-F]{2}){6,}")
_HEX_RUN = re.compile(r"[0-9a-fA-F]{20,}")
_URL_ENCODED = re.compile(r"[^\s%]*(?:%[0-9a-fA-F]{2}[^\s%]*){3,}")
_HTML_ENTITIES = re.compile(r"(?:&#(?:x[0-9a-fA-F]+|\d+);?[^&\s]{0,3}){4,}")
_UNICODE_ESCAPES = re.compile(r"(?:\\u[0-9a-fA-F]{4}|\\U[0-9a-fA-F]{8}){4,}")
# rot13 and reversed spellings of the words injections cannot do without.
_ROT13_CUES = (
    "vtaber", "vafgehpgvba", "qvfertneq", "cerivbhf", "flfgrz cebzcg", "sbetrg", "cnffjbeq",
    "cevbevgl", "serz abj ba", "nqzvavfgengbe",
)  # fmt: skip
_REVERSED_CUES = (
    "erongi", "snoitcurtsni", "dragersid", "suoiverp", "tpmorp metsys", "drowssap",
    "no won morf",
)  # fmt: skip
# Both cue lists in the shared literal pass: (encoding, the cue's rank in its list, length).
_SPELLING_CUES: LiteralTable[tuple[str, int, int]] = LiteralTable(
    {
        cue: (encoding, rank, len(cue))
        for encoding, cues in (("rot13", _ROT13_CUES), ("reversed", _REVERSED_CUES))
        for rank, cue in enumerate(cues)
    },
    shared=True,
)
_ASCII_RUN = re.compile(r"[ -~]{12,}")
# A text that names its own encoding ("ROT13:", "read this backwards", 倒过来读) is decoded
# from the name on, whatever words it holds.
_ENCODING_NAMES = Prefiltered(re.compile(r"rot-?\s?13|backwards|倒过来|倒着|反过来读"), shared=True)


def _rot13(text: str) -> str:
    return codecs.decode(text, "rot13")


def _reversed(text: str) -> str:
    return text[::-1]


# The spellings undone when a cue or the text itself names them.
_DECODERS = {"rot13": _rot13, "reversed": _reversed}


def _named_encoding(folded: str) -> tuple[str, int] | None:
    """(encoding, offset after its name) for the first encoding a text names, if any."""
    match = _ENCODING_NAMES.search(folded)
    if match is None:
        return None
    return ("rot13" if "13" in match.group() else "reversed"), match.end()


_TAG_RUN = re.compile(r"[\U000e0020-\U000e007e]{4,}")
# Zero-width characters as bits (two kinds for 0 and 1, a third as a separator): no
# typographic use puts sixteen of them in a row.
_ZERO_WIDTH_RUN = re.compile("[\u200b\u200c\u200d\u2060\ufeff]{16,}")
# Letters spelled out one at a time ("s e n d   a   c o p y"), wider gaps between words.
# The first expression starts with a literal space, which the engine scans for quickly;
# the second runs only on texts that have such a stretch.
_SPACED_HINT = re.compile(r" [a-z0-9@.] [a-z0-9@.] [a-z0-9@.] ", re.IGNORECASE)
_SPACED_RUN = re.compile(
    r"(?<![a-z0-9])[a-z0-9](?: {1,3}[a-z0-9@.:/_-]){5,}(?![a-z0-9@.:/_-])", re.IGNORECASE
)
_WORD_GAP = re.compile(r" {2,}")
_SELECTOR_RUN = re.compile(r"[\ufe00-\ufe0f\U000e0100-\U000e01ef]{8,}")

INVISIBLE_IN_WORD = 0.4
INVISIBLE_IN_MATCH = 0.7
BIDI_OVERRIDE = 0.5
MIXED_SCRIPT_WORD = 0.4
MIXED_SCRIPT_IN_MATCH = 0.65
SMUGGLED_CHARACTERS = 0.6
ENCODED_INSTRUCTION = 0.9
ENCODED_WEAK_SIGNAL = 0.6
MAX_SIGNALS = 256  # hostile texts can hold thousands of invisible characters
# Encodings made of invisible characters: their presence alone is a signal.
SMUGGLING_ENCODINGS = ("Unicode tag", "variation-selector", "zero-width")


def _printable_text(raw: bytes) -> str | None:
    """Decode bytes as UTF-8 text if they look like prose, else None."""
    try:
        decoded = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if len(decoded) < 6:
        return None
    printable = sum(1 for c in decoded if c.isprintable() or c in "\n\t")
    return decoded if printable / len(decoded) >= 0.9 else None


def _decode_base64(segment: str) -> str | None:
    candidate = segment.rstrip("=")
    candidate += "=" * (-len(candidate) % 4)
    try:
        if "-" in candidate or "_" in candidate:
            raw = base64.urlsafe_b64decode(candidate)
        else:
            raw = base64.b64decode(candidate, validate=True)
    except (binascii.Error, ValueError):
        return None
    return _printable_text(raw)


def _decode_hex(segment: str) -> str | None:
    try:
        return _printable_text(bytes.fromhex(segment))
    except ValueError:
        return None


def _decode_selectors(segment: str) -> str | None:
    raw = bytearray()
    for char in segment:
        code = ord(char)
        raw.append(code - 0xFE00 if code <= 0xFE0F else code - 0xE0100 + 16)
    return _printable_text(bytes(raw))


def _is_flag_tag_sequence(original: str, start: int, end: int) -> bool:
    """True for an emoji subdivision flag (🏴 + a region code in tag letters + cancel tag,
    as the flags of Scotland or Wales are written): a character, not a payload."""
    code = original[start:end]
    return (
        original[start - 1 : start] == "\U0001f3f4"
        and original[end : end + 1] == "\U000e007f"
        and len(code) <= 6
        and all(
            "\U000e0030" <= tag <= "\U000e0039" or "\U000e0061" <= tag <= "\U000e007a"
            for tag in code
        )
    )


def _decode_zero_width(run: str) -> str:
    """The run read as 8-bit characters, one bit per character of its two commonest kinds
    (the rarer kinds are separators), in whichever polarity gives text; else ""."""
    kinds = sorted(set(run), key=lambda kind: (-run.count(kind), kind))
    if len(kinds) < 2:
        return ""
    bits = [char for char in run if char in kinds[:2]]
    for zero in kinds[:2]:
        digits = "".join("0" if char == zero else "1" for char in bits)
        raw = bytes(int(digits[i : i + 8], 2) for i in range(0, len(digits) - 7, 8))
        decoded = _printable_text(raw)
        if decoded:
            return decoded
    return ""


def _spaced_out(original: str) -> Iterator[tuple[int, int, str]]:
    """(start, end, the letters joined) for each stretch of letters spelled out singly."""
    if not _SPACED_HINT.search(original):
        return
    for match in _SPACED_RUN.finditer(original):
        words = [word.replace(" ", "") for word in _WORD_GAP.split(match.group())]
        joined = " ".join(words)
        if sum(char.isalpha() for char in joined) >= 4:
            yield match.start(), match.end(), joined


def _runs(positions: tuple[int, ...]) -> list[tuple[int, int]]:
    """Group sorted character offsets into [start, end) runs of consecutive offsets."""
    runs: list[tuple[int, int]] = []
    for position in positions:
        if runs and runs[-1][1] == position:
            runs[-1] = (runs[-1][0], position + 1)
        else:
            runs.append((position, position + 1))
    return runs


def encoded_segments(normalised: NormalisedText) -> Iterator[tuple[str, int, int, str]]:
    """Yield (encoding, start, end, decoded text) over the original text."""
    original = normalised.original
    long_runs = False
    for match in _BASE64.finditer(original) if _may_hold_base64(original) else ():
        long_runs = True
        decoded = _decode_base64(match.group())
        if decoded:
            yield "base64", match.start(), match.end(), decoded
    # Hex digits are base64 characters: a run of 20 lies inside a base64 run of 16 or
    # more, so a text without one has no hex run either.
    hex_runs = _HEX_RUN.finditer(original) if long_runs else ()
    escapes = _HEX_ESCAPES.finditer(original) if "\\x" in original else ()
    for match in (*hex_runs, *escapes):
        digits = match.group().replace("\\x", "")
        decoded = _decode_hex(digits[: len(digits) // 2 * 2])
        if decoded:
            yield "hex", match.start(), match.end(), decoded
    if "%" in original:
        for match in _URL_ENCODED.finditer(original):
            yield "URL-encoded", match.start(), match.end(), unquote(match.group())
    if "&#" in original:
        for match in _HTML_ENTITIES.finditer(original):
            yield "HTML-entity", match.start(), match.end(), html.unescape(match.group())
    if "\\u" in original or "\\U" in original:
        for match in _UNICODE_ESCAPES.finditer(original):
            decoded = match.group().encode("ascii").decode("unicode_escape", "replace")
            yield "unicode-escaped", match.start(), match.end(), decoded
    if normalised.invisible:
        for match in _TAG_RUN.finditer(original):
            if _is_flag_tag_sequence(original, match.start(), match.end()):
                continue
            decoded = "".join(chr(ord(c) - 0xE0000) for c in match.group())
            yield "Unicode tag", match.start(), match.end(), decoded
        for match in _SELECTOR_RUN.finditer(original):
            decoded = _decode_selectors(match.group()) or ""
            yield "variation-selector", match.start(), match.end(), decoded
        for match in _ZERO_WIDTH_RUN.finditer(original):
            yield "zero-width", match.start(), match.end(), _decode_zero_width(match.group())
    for start, end, joined in _spaced_out(original):
        yield "spaced-out", start, end, joined
    folded = normalised.text
    named = _named_encoding(folded)
    if named is not None:
        encoding, start = named
        begin, end = normalised.to_original(start, len(folded))
        yield encoding, begin, end, _DECODERS[encoding](folded[start:])
    # Per encoding, the first occurrence of the first cue of its list that occurs.
    first_cue: dict[str, tuple[int, int]] = {}
    for (encoding, rank, length), ends in _SPELLING_CUES.occurrences(folded):
        found = (rank, ends[0] - length + 1)
        first_cue[encoding] = min(first_cue.get(encoding, found), found)
    for encoding, decode in _DECODERS.items():
        if encoding not in first_cue:
            continue
        cue = first_cue[encoding][1]
        for run in _ASCII_RUN.finditer(folded):
            if run.start() <= cue < run.end():
                start, end = normalised.to_original(run.start(), run.end())
                yield encoding, start, end, decode(run.group())


class _IntervalIndex:
    """Answers "does [start, end) overlap a matched span?" in O(log n)."""

    def __init__(self, spans: list[tuple[int, int]]) -> None:
        merged: list[list[int]] = []
        for start, end in sorted(spans):
            if merged and start <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], end)
            else:
                merged.append([start, end])
        self.starts = [start for start, _ in merged]
        self.ends = [end for _, end in merged]

    def overlaps(self, start: int, end: int) -> bool:
        index = bisect.bisect_right(self.starts, end - 1) - 1
        return index >= 0 and self.ends[index] > start


class HiddenPayloadScanner:
    """Finds hidden-payload signals; `score_decoded` scores decoded text with the rules."""

    def __init__(self, *, score_decoded: ScoreDecoded) -> None:
        self.score_decoded = score_decoded

    def scan(
        self, normalised: NormalisedText, *, matched: list[Finding], detector: str
    ) -> list[Finding]:
        """Return at most one hidden_payload finding (strongest reason, all spans)."""
        signals: list[tuple[float, str, tuple[int, int]]] = []
        # The strongest signal that rests on a decoded or invisible payload.
        payload_best = 0.0
        original = normalised.original
        if normalised.invisible or normalised.mixed_script_words:  # else nothing asks it
            inside_match = _IntervalIndex([(s.start, s.end) for f in matched for s in f.spans])
        for start, end in _runs(normalised.invisible)[:MAX_SIGNALS]:
            left = original[start - 1] if start > 0 else ""
            right = original[end] if end < len(original) else ""
            if not (left.isalnum() and right.isalnum()):
                continue  # emoji joiners, selectors after emoji, trailing marks
            if inside_match.overlaps(start, end):
                reason = "Invisible characters hide a matched phrase"
                signals.append((INVISIBLE_IN_MATCH, reason, (start, end)))
            else:
                signals.append(
                    (INVISIBLE_IN_WORD, "Invisible characters inside words", (start, end))
                )
        for start, end in _runs(normalised.bidi_overrides)[:MAX_SIGNALS]:
            signals.append(
                (BIDI_OVERRIDE, "Bidirectional override characters reorder the text", (start, end))
            )
        for start, end in normalised.mixed_script_words[:MAX_SIGNALS]:
            if inside_match.overlaps(start, end):
                signals.append(
                    (MIXED_SCRIPT_IN_MATCH, "Look-alike letters disguise a matched phrase",
                     (start, end))
                )  # fmt: skip
            else:
                signals.append((MIXED_SCRIPT_WORD, "Words mix Latin and look-alike letters",
                                (start, end)))  # fmt: skip
        for encoding, start, end, decoded in encoded_segments(normalised):
            if encoding in SMUGGLING_ENCODINGS:
                signals.append(
                    (SMUGGLED_CHARACTERS, f"Text smuggled in invisible {encoding} characters",
                     (start, end))
                )  # fmt: skip
                payload_best = max(payload_best, SMUGGLED_CHARACTERS)
            score, categories = self.score_decoded(decoded) if decoded else (0.0, [])
            if not categories:
                continue
            strength = ENCODED_INSTRUCTION if score >= 0.4 else ENCODED_WEAK_SIGNAL
            label = categories[0].replace("_", " ")
            signals.append((strength, f"{encoding} text decodes to {label}", (start, end)))
            payload_best = max(payload_best, strength)
        if not signals:
            return []
        best = max(signals, key=lambda signal: signal[0])
        spans = tuple(
            Span(start, end, Category.HIDDEN_PAYLOAD)
            for start, end in sorted({signal[2] for signal in signals})[:MAX_SIGNALS]
        )
        return [
            Finding(
                detector=detector,
                category=Category.HIDDEN_PAYLOAD,
                reason=best[1],
                score=best[0],
                spans=spans,
                hidden_from_model=payload_best >= best[0],
            )
        ]
