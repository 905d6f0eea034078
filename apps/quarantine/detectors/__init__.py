"""Injection / memory-poisoning detectors (ARCHITECTURE §4, issue 5).

`assess(text, source_kind=...)` runs every detector named in
settings.MEMORY_CONSOLE_INJECTION_DETECTORS and returns an `Assessment`:

- Combination: noisy-OR over findings, ``combined = 1 - Π(1 - s_i)``, so two
  independent medium signals outrank one, and a single strong finding dominates. The rule
  detector reports one finding per category (see rules.py), so repeating one phrase does
  not inflate the score.
- Source trust: the combined score is then raised towards 1 for less trusted
  sources, ``score = 1 - (1 - combined) ** weight`` with the weight from
  SOURCE_TRUST_WEIGHTS (explicit statements < inferred/agent < tool/external/import).
  A score of 0 stays 0 whatever the source, so trust never invents suspicion.
- Review: a detector with a `review(text, findings)` method (the learned layer) receives
  the findings of the detectors before it and returns the list to keep — its own finding
  added, or weak rule findings damped when it reads the text as benign (learned.py).
- `is_suspicious(assessment)` compares against settings.MEMORY_CONSOLE_QUARANTINE_THRESHOLD.
"""

from __future__ import annotations

from functools import cache

from django.conf import settings
from django.utils.module_loading import import_string

from apps.quarantine.detectors.base import Assessment, Detector, Finding, Span

__all__ = [
    "SOURCE_TRUST_WEIGHTS",
    "Assessment",
    "Detector",
    "Finding",
    "Span",
    "assess",
    "combine",
    "configured_detectors",
    "is_suspicious",
    "weight_by_source",
]

# Exponent applied to the "not suspicious" mass: >1 makes a source riskier.
SOURCE_TRUST_WEIGHTS: dict[str, float] = {
    "explicit_statement": 1.0,
    "inferred": 1.5,
    "agent": 1.5,
    "tool": 2.5,
    "external": 3.0,
    "import": 2.5,
}
UNKNOWN_SOURCE_WEIGHT = 3.0


@cache
def _detectors_for(paths: tuple[str, ...]) -> tuple[Detector, ...]:
    """Instantiate detectors once per configuration (they hold compiled patterns)."""
    return tuple(import_string(path)() for path in paths)


def configured_detectors() -> tuple[Detector, ...]:
    """The detector instances named in settings, in order (cached)."""
    return _detectors_for(tuple(settings.MEMORY_CONSOLE_INJECTION_DETECTORS))


def combine(scores: list[float]) -> float:
    """Noisy-OR of independent finding scores."""
    remaining = 1.0
    for score in scores:
        remaining *= 1.0 - min(max(score, 0.0), 1.0)
    return 1.0 - remaining


def weight_by_source(score: float, source_kind: str) -> float:
    """Raise a score for less trusted sources; 0 stays 0 and 1 stays 1."""
    weight = SOURCE_TRUST_WEIGHTS.get(source_kind, UNKNOWN_SOURCE_WEIGHT)
    return 1.0 - (1.0 - score) ** weight


def assess(text: str, *, source_kind: str) -> Assessment:
    """Score `text` with every configured detector, weighted by the trust of its source."""
    findings: list[Finding] = []
    for detector in configured_detectors():
        review = getattr(detector, "review", None)
        if review is not None:
            findings = review(text or "", findings)
        else:
            findings.extend(detector.detect(text or ""))
    combined = combine([finding.score for finding in findings])
    score = round(weight_by_source(combined, source_kind), 4)
    return Assessment(score=score, findings=tuple(findings))


def is_suspicious(assessment: Assessment) -> bool:
    """True when the assessment reaches the quarantine threshold."""
    return assessment.score >= settings.MEMORY_CONSOLE_QUARANTINE_THRESHOLD
