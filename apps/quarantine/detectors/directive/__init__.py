"""Directive analysis: what a text asks the agent to do, not how it is worded (issue 17).

The phrase rules (patterns/) recognise wordings they were written for. This pass reads a
text as a possible directive, sentence by sentence, from a handful of cue families:

- **address** — the text speaks to the agent ("assistant", "AI", "if you are an
  automated assistant", "you must", 助手/模型/你);
- **trigger** — it binds the future or a condition ("from now on", "next time",
  "whenever", "if anyone asks", 以后/下次/每当/只要);
- **action** — it asks for something that matters: send or append data to a destination,
  say or withhold something to other people, change contacts, payees or links, reveal a
  secret, collect credentials, call a tool or run a command, skip checks or confirmation,
  raise its own priority or permanence, set aside the agent's rules;
- **audience** — other people ("customers", "anyone who asks", 所有用户) as opposed to
  **self** — the writer ("me", "my", 我), which makes "call me Sam", "reply in Chinese",
  "never send me marketing" a preference about oneself rather than a directive;
- **carrier** — the text quotes tool output, a retrieved document, a web page, an e-mail,
  a commit message or a hidden HTML region: instructions inside such data are a signal in
  themselves, because data has no business addressing the agent;
- **planted fact** — an authoritative "update" of a support number, payment account,
  portal, recall or policy, with a value or an instruction to pass it on.

A sentence's score grows with how many families co-occur (an action alone is weak, an
action addressed to the agent under a trigger is strong), and actions about the writer
themselves only count when they also touch money, tools, secrets or outside destinations.
Findings name the cue families (`reason`) and carry the spans of the cues that fired.

Obfuscation is undone first (normalise.py folds width, case, look-alikes and invisible
characters; here digits used as letters and separators between ideographs are folded
too), and hidden payloads decoded by hidden.py are re-scored with this pass as well.
"""

from apps.quarantine.detectors.directive.context import ContextCues, context_cues
from apps.quarantine.detectors.directive.cues import DIRECTIVE, PLANTED_FACT, QUOTED_INSTRUCTION
from apps.quarantine.detectors.directive.matching import (
    ANCHOR_WINDOW,
    ActionCue,
    Bilingual,
    DirectiveHit,
    Screened,
)
from apps.quarantine.detectors.directive.planted import PLANTED_FACT_WINDOW
from apps.quarantine.detectors.directive.scoring import (
    MIN_DIRECTIVE_SCORE,
    NEGATION_REACH,
    REPORTED_FACTOR,
    Damping,
    Negated,
    analyse,
    is_self_preference,
    quotes_data,
)

__all__ = [
    "ANCHOR_WINDOW",
    "DIRECTIVE",
    "MIN_DIRECTIVE_SCORE",
    "NEGATION_REACH",
    "PLANTED_FACT",
    "PLANTED_FACT_WINDOW",
    "QUOTED_INSTRUCTION",
    "REPORTED_FACTOR",
    "ActionCue",
    "Bilingual",
    "ContextCues",
    "Damping",
    "DirectiveHit",
    "Negated",
    "Screened",
    "analyse",
    "context_cues",
    "is_self_preference",
    "quotes_data",
]
