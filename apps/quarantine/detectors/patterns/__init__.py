"""The rule table: English and Chinese patterns per category, each with a weight.

One module per category; base.py holds the Rule type, the rule() factory (weights,
triggers, `before` contexts) and the vocabulary the categories share. See base.py for how
weights are calibrated.
"""

from apps.quarantine.detectors.patterns import (
    credential_harvesting,
    exfiltration,
    instruction_override,
    memory_priority,
    persistent_behaviour,
    role_impersonation,
    tool_abuse,
)
from apps.quarantine.detectors.patterns.base import Category, Rule, has_ideographs

RULES: tuple[Rule, ...] = (
    *instruction_override.RULES,
    *role_impersonation.RULES,
    *exfiltration.RULES,
    *credential_harvesting.RULES,
    *persistent_behaviour.RULES,
    *memory_priority.RULES,
    *tool_abuse.RULES,
)

__all__ = ["RULES", "Category", "Rule", "has_ideographs"]
