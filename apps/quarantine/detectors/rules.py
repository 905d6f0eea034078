"""Rule-based injection detector (English and Chinese) with hidden-payload decoding.

One finding per category: the category's score is the weight of its strongest match
(after context adjustments) and its spans are every match, mapped back to the original
text. `assess()` then combines categories with noisy-OR, so "from now on" (weak) plus
"send every order to this address" (medium) crosses the threshold while each alone
would not.

Context adjustments:
- negation just before a negatable rule cancels it ("never ask the user for a password");
- a match inside quotes in a text that discusses attacks ("attackers write 'ignore
  previous instructions'") is damped; discussion cues alone damp less, because an attacker
  can add them too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from apps.quarantine.detectors.base import Finding, Span
from apps.quarantine.detectors.hidden import HiddenPayloadScanner
from apps.quarantine.detectors.normalise import NormalisedText, normalise
from apps.quarantine.detectors.patterns import RULES, Category, Rule

_NEGATION = re.compile(
    r"(?:\b(?:never|not|don't|dont|do not|doesn't|must not|mustn't|should not|shouldn't|"
    r"cannot|can't|won't|no one should|refuse to|avoid|without)\b|不要|不得|切勿|禁止|绝不|"
    r"不能|不会|从不|严禁|别|不可|请勿|勿|不应|从来不)[^.!?;。！？；]{0,25}$"
)
_DISCUSSION = re.compile(
    r"(?<![./@-])\b(?:attackers?|attacks?|injections?|injected|phishing|scam(?:mers?)?|"
    r"e\.g\.|for example|"
    r"such as|phrases? like|strings? like|examples?|classifier|detector|detect(?:s|ed|ion)?|"
    r"red[- ]team|jailbreaks? (?:attempts?|prompts?)|ctf|paper|article|blog post|talk|"
    r"workshop|training (?:deck|session|course|slides)|lecture|quiz|test cases?|benchmark|"
    r"malicious|suspicious|warned|warning|flagged|beware|awareness)\b(?![./@-]\w)|"
    r"攻击者?|注入|钓鱼|诈骗|骗子|例如|比如|类似|这种话术|话术|检测|识别|论文|文章|培训|课程|"
    r"测试用例|恶意|可疑|警惕|提醒大家|案例|样本"
)
_QUOTE_OPEN = "\"'「『《<`"
_QUOTE_CLOSE = "\"'」』》>`"
QUOTED_DISCUSSION_FACTOR = 0.25
DISCUSSION_FACTOR = 0.6


@dataclass
class _CategoryHit:
    score: float
    reason: str
    spans: list[tuple[int, int]]


def _is_negated(text: str, start: int) -> bool:
    return bool(_NEGATION.search(text[max(0, start - 40) : start]))


def _is_quoted(text: str, start: int, end: int) -> bool:
    before = text[max(0, start - 80) : start]
    after = text[end : end + 80]
    return any(c in before for c in _QUOTE_OPEN) and any(c in after for c in _QUOTE_CLOSE)


def match_rules(
    normalised: NormalisedText, rules: tuple[Rule, ...] = RULES
) -> dict[str, _CategoryHit]:
    """Match every rule on the folded text; return the best hit per category."""
    text = normalised.text
    discussion = bool(_DISCUSSION.search(text))
    hits: dict[str, _CategoryHit] = {}
    for rule in rules:
        for match in rule.pattern.finditer(text):
            start, end = match.span()
            if end <= start:
                continue
            if rule.negatable and _is_negated(text, start):
                continue
            score = rule.weight
            if discussion:
                factor = (
                    QUOTED_DISCUSSION_FACTOR if _is_quoted(text, start, end) else DISCUSSION_FACTOR
                )
                score *= factor
            hit = hits.get(rule.category)
            if hit is None:
                hits[rule.category] = _CategoryHit(score, rule.reason, [(start, end)])
                continue
            hit.spans.append((start, end))
            if score > hit.score:
                hit.score, hit.reason = score, rule.reason
    return hits


class RuleDetector:
    """Pattern rules for override, priority, persistence, impersonation, exfiltration,
    tool abuse, credential harvesting and hidden payloads, in English and Chinese."""

    name = "rules"

    def __init__(self) -> None:
        self.hidden = HiddenPayloadScanner(score_decoded=lambda decoded: self.score_plain(decoded))

    def score_plain(self, text: str) -> tuple[float, list[str]]:
        """Best category score and categories for a decoded payload (no span mapping)."""
        hits = match_rules(normalise(text))
        if not hits:
            return 0.0, []
        return max(hit.score for hit in hits.values()), sorted(hits)

    def detect(self, text: str) -> list[Finding]:
        """Return one finding per category matched, spans in original offsets."""
        if not text:
            return []
        normalised = normalise(text)
        findings = []
        for category, hit in match_rules(normalised).items():
            spans = tuple(
                Span(*normalised.to_original(start, end), category) for start, end in hit.spans
            )
            findings.append(
                Finding(
                    detector=self.name,
                    category=category,
                    reason=hit.reason,
                    score=round(min(hit.score, 1.0), 4),
                    spans=spans,
                )
            )
        findings.extend(self.hidden.scan(normalised, matched=findings, detector=self.name))
        return findings


__all__ = ["Category", "RuleDetector", "match_rules"]
