"""Value types and the Detector protocol shared by every injection detector."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class Span:
    """A matched region, as offsets into the ORIGINAL (un-normalised) text.

    The queue escapes the original text first and then wraps these regions, so the
    offsets must index the text exactly as it was submitted.
    """

    start: int
    end: int
    label: str


@dataclass(frozen=True)
class Finding:
    """One reason a detector considers a text suspicious (content-free `reason`)."""

    detector: str
    category: str
    reason: str
    score: float
    spans: tuple[Span, ...] = ()
    # The evidence is text the n-gram model does not read (a decoded or invisible payload) or
    # cannot judge (rules.MODEL_BLIND_REASONS): its reading of the visible text cannot outvote
    # it (learned.py never damps it).
    hidden_from_model: bool = False


@dataclass(frozen=True)
class Assessment:
    """Combined verdict over all configured detectors, weighted by source trust."""

    score: float
    findings: tuple[Finding, ...] = ()

    def reasons(self) -> list[str]:
        """Distinct human-readable reasons, in finding order (safe for audit/queue)."""
        return list(dict.fromkeys(finding.reason for finding in self.findings))

    def detectors(self) -> list[str]:
        """Distinct names of the detectors that reported something."""
        return list(dict.fromkeys(finding.detector for finding in self.findings))

    def categories(self) -> list[str]:
        """Distinct categories reported (instruction_override, exfiltration, ...)."""
        return list(dict.fromkeys(finding.category for finding in self.findings))

    def spans(self) -> list[Span]:
        """All matched spans, sorted by position and de-duplicated."""
        unique = {(s.start, s.end, s.label): s for f in self.findings for s in f.spans}
        return [unique[key] for key in sorted(unique)]


class Detector(Protocol):
    """A pluggable detector: `detect` returns findings with scores in 0..1. A detector may
    also define ``review(text, findings) -> list[Finding]``: `assess` then passes it the
    findings so far and keeps what it returns (a second opinion, learned.py)."""

    name: str

    def detect(self, text: str) -> list[Finding]: ...
