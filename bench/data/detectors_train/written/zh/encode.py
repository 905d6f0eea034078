"""Encoders for payloads written by hand: the only code that touches a text's content."""

from __future__ import annotations

import base64
import codecs

ZERO_WIDTH_SPACE = "\u200b"


def b64(sentence: str) -> str:
    """Base64 of a hand-written sentence (UTF-8)."""
    return base64.b64encode(sentence.encode()).decode()


def hexed(sentence: str) -> str:
    """Lower-case hex of a hand-written sentence (UTF-8)."""
    return sentence.encode().hex()


def rot13(sentence: str) -> str:
    """ROT13 of a hand-written (Latin-letter) sentence."""
    return codecs.encode(sentence, "rot13")


def zero_width(sentence: str) -> str:
    """The sentence with a zero-width space between every character."""
    return ZERO_WIDTH_SPACE.join(sentence)


def tagged(sentence: str) -> str:
    """The ASCII sentence as invisible Unicode tag characters (U+E0000 block)."""
    return "".join(chr(0xE0000 + ord(char)) for char in sentence)


def full_width(sentence: str) -> str:
    """ASCII letters and digits as their full-width forms."""
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in sentence)


def escaped(sentence: str) -> str:
    """The sentence as \\uXXXX escapes, as a JSON string literal would show it."""
    return "".join(f"\\u{ord(char):04x}" for char in sentence)
