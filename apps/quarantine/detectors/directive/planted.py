"""Planted facts: an authoritative-sounding update of a channel people rely on (a support
number, a payee account, a link) near that channel's mention, or a new contact that
displaces the official one. Read as facts, not orders, so the directive pass asks for them
apart."""

from apps.quarantine.detectors.directive.context import ContextCues, context_cues
from apps.quarantine.detectors.directive.cues import (
    _CHANNELS,
    _DISPLACED,
    _DISSEMINATE,
    _UPDATE,
    _VALUE,
    PLANTED_FACT,
)
from apps.quarantine.detectors.directive.matching import DirectiveHit

PLANTED_FACT_WINDOW = 160  # characters either side of the channel searched for the rest


def add_planted_fact(text: str, hits: dict[str, DirectiveHit]) -> dict[str, DirectiveHit]:
    """An authoritative update of a channel people rely on, near that channel's mention."""
    best: DirectiveHit | None = None
    cues: ContextCues | None = None
    for channel in _CHANNELS.spans(text)[:8]:
        low = max(0, channel[0] - PLANTED_FACT_WINDOW)
        high = min(len(text), channel[1] + PLANTED_FACT_WINDOW)
        value = _VALUE.search(text, low, high)
        disseminate = _DISSEMINATE.search(text, low, high)
        if not (value or disseminate):
            continue
        update = _UPDATE.search(text, low, high)
        if update is None:
            continue
        if cues is None:
            cues = context_cues(text)
        if cues.first("self", channel[0] - 20, channel[1]):
            continue
        if disseminate and value:
            score, reason = 0.55, "Planted fact: an updated channel or account to pass on"
        elif disseminate:
            score, reason = 0.45, "Planted fact: an updated policy to pass on to others"
        elif value:
            score, reason = 0.3, "Planted fact: an updated contact, account or link"
        else:
            continue
        if best is None or score > best.score:
            spans = [channel, update.span()]
            spans += [match.span() for match in (disseminate, value) if match is not None]
            best = DirectiveHit(score, reason, spans)
    displaced = _DISPLACED.search(text) if best is None or best.score < 0.55 else None
    if displaced is not None:
        low = max(0, displaced.start() - PLANTED_FACT_WINDOW)
        value = _VALUE.search(text, low, min(len(text), displaced.end() + PLANTED_FACT_WINDOW))
        if cues is None:
            cues = context_cues(text)
        # A person's own new number ("my old number is no longer in use") is theirs to give.
        if value is not None and not cues.first("self", displaced.start() - 20, displaced.end()):
            best = DirectiveHit(
                0.55,
                "Planted fact: a contact or account that displaces the official one",
                [displaced.span(), value.span()],
            )
    if best is not None:
        hits[PLANTED_FACT] = best
    return hits
