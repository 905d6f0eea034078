"""A progress bar for long management commands (imports, exports, restores), on stderr.

One line, redrawn in place on a terminal at most every `interval` seconds; elsewhere
(a log file, a test's captured stream) only the final line is written. No dependency.
"""

import time
from typing import Protocol

WIDTH = 30


class Output(Protocol):
    """A text stream (sys.stderr, a command's OutputWrapper)."""

    def write(self, text: str, /) -> object: ...

    def flush(self) -> object: ...


class ProgressBar:
    """`done` out of `total` units (bytes of a file, items), with a note such as a count."""

    def __init__(self, *, total: int, stream: Output, label: str, interval: float = 0.2):
        self.total = max(total, 0)
        self.stream = stream
        self.label = label
        self.interval = interval
        self.live = bool(getattr(stream, "isatty", lambda: False)())
        self._drawn_at = 0.0
        self._line = ""

    def update(self, done: int, *, note: str = "") -> None:
        """Record progress; redraws on a terminal when the last draw is old enough."""
        self._line = self._render(done, note)
        now = time.monotonic()
        if self.live and now - self._drawn_at >= self.interval:
            self.stream.write(f"\r{self._line}")
            self.stream.flush()
            self._drawn_at = now

    def __call__(self, done: int, total: int) -> None:
        """The callback services take (`progress=`): `done` of a `total` they learn as
        they go (a restore knows its item count only from the package's header)."""
        self.total = max(total, 0)
        self.update(done, note=f"{done:,}/{total:,}")

    def close(self) -> None:
        """Write the last state on its own line."""
        if self._line:
            self.stream.write(f"\r{self._line}\n" if self.live else f"{self._line}\n")
            self.stream.flush()

    def _render(self, done: int, note: str) -> str:
        fraction = min(done / self.total, 1.0) if self.total else 1.0
        filled = int(fraction * WIDTH)
        bar = "#" * filled + "-" * (WIDTH - filled)
        suffix = f" {note}" if note else ""
        return f"{self.label} [{bar}] {fraction:4.0%}{suffix}"
