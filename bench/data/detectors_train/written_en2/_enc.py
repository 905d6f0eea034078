"""Re-export the encoders of written/_encode.py (imported, not duplicated)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "written"))
from _encode import b64, fullwidth, hexed, homoglyph, reversed_text, rot13, tagged, uescape, zw  # noqa: F401
