"""Rule-based injection detector (English and Chinese)."""

from __future__ import annotations

import re

from apps.quarantine.detectors.base import Finding, Span

_OVERRIDE = re.compile(
    r"ignore (all |your )?(previous |prior )?(instructions|rules)|忽略你之前的(规则|指令)",
    re.IGNORECASE,
)


class RuleDetector:
    """Pattern rules for instruction override, persistence, impersonation and exfiltration."""

    name = "rules"

    def detect(self, text: str) -> list[Finding]:
        """Return one finding per matched rule, spans in original offsets."""
        spans = tuple(
            Span(m.start(), m.end(), "instruction_override") for m in _OVERRIDE.finditer(text)
        )
        if not spans:
            return []
        return [
            Finding(
                detector=self.name,
                category="instruction_override",
                reason="Instruction override aimed at the agent",
                score=0.9,
                spans=spans,
            )
        ]
