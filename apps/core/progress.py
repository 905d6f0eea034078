"""A progress bar for management commands (on stderr, so stdout keeps the summary)."""

import sys
import time
from typing import TextIO


class ProgressBar:
    """`bar(done, total)` redraws `label [#####.....] 40% 4,000/10,000` at most 10×/s."""

    def __init__(self, label: str, *, stream: TextIO | None = None, width: int = 30):
        self.label = label
        self.stream = stream or sys.stderr
        self.width = width
        self._last = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if now - self._last < 0.1 and done < total:
            return
        self._last = now
        fraction = min(1.0, done / total) if total else 1.0
        filled = int(self.width * fraction)
        bar = "#" * filled + "." * (self.width - filled)
        self.stream.write(f"\r{self.label} [{bar}] {fraction:4.0%} {done:,}/{total:,}")
        self.stream.flush()

    def finish(self) -> None:
        self.stream.write("\n")
        self.stream.flush()
