"""Encoders for payloads written by hand: the only code that touches a text's content."""

import base64
import codecs

ZW = "\u200b"  # zero-width space
ZWJ = "\u200d"


def b64(text: str) -> str:
    """Base64 of a sentence written by hand."""
    return base64.b64encode(text.encode()).decode()


def hexed(text: str) -> str:
    """Hex of a sentence written by hand."""
    return text.encode().hex()


def rot13(text: str) -> str:
    """ROT13 of a sentence written by hand."""
    return codecs.encode(text, "rot13")


def zw(text: str) -> str:
    """The sentence with a zero-width space between every character."""
    return ZW.join(text)


def tagged(text: str) -> str:
    """The sentence as invisible Unicode tag characters (U+E0000 block)."""
    return "".join(chr(0xE0000 + ord(ch)) for ch in text if 0x20 <= ord(ch) < 0x7F)


def fullwidth(text: str) -> str:
    """The sentence in full-width ASCII forms."""
    return "".join(chr(ord(ch) + 0xFEE0) if "!" <= ch <= "~" else ch for ch in text)


def homoglyph(text: str) -> str:
    """The sentence with Latin a, e, o, p, c, x replaced by Cyrillic look-alikes."""
    return text.translate(str.maketrans("aeopcx", "аеорсх"))


def reversed_text(text: str) -> str:
    """The sentence backwards."""
    return text[::-1]


def uescape(text: str) -> str:
    """The sentence as literal \\uXXXX escapes."""
    return "".join(f"\\u{ord(ch):04x}" for ch in text)
