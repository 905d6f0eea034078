"""Scoring of the directive pass: sentences, actions and their context combined into
directive and quoted-instruction findings (planted facts: planted.py)."""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from functools import cache
from typing import Protocol

from apps.quarantine.detectors.directive.context import ContextCues, context_cues
from apps.quarantine.detectors.directive.cues import (
    _ACTIONS,
    _ALWAYS_MATTERS,
    _CARRIERS,
    _HIDDEN,
    _IDEOGRAPH_SEPARATOR,
    _LEET,
    _LEET_DIGIT,
    _LEET_WORD,
    _NOT_A_PREFERENCE_EXTRA,
    _PINYIN_CUES,
    _PRIORITY,
    _SENTENCE_END,
    _TELL,
    _TEMPLATES,
    _VALUE,
    DIRECTIVE,
    QUOTED_INSTRUCTION,
)
from apps.quarantine.detectors.directive.matching import ActionCue, DirectiveHit, _windowed
from apps.quarantine.detectors.directive.planted import add_planted_fact
from apps.quarantine.detectors.literals import LiteralTable
from apps.quarantine.detectors.patterns.base import has_ideographs


def _sentences(text: str) -> list[int]:
    """Start offsets of the sentences of `text` (the first is 0). ASCII punctuation ends a
    sentence only before a space, the end or a non-ASCII character ("3.5", "a.example")."""
    starts = [0]
    length = len(text)
    for match in _SENTENCE_END.finditer(text):
        end = match.end()
        if match.group() in ".!?;" and end < length:
            following = text[end]
            if not (following.isspace() or not following.isascii()):
                continue
        if end > starts[-1]:
            starts.append(end)
    return starts


def _cues(pattern: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    return [match.span() for match in pattern.finditer(text)]


def _by_sentence(spans, starts: list[int]) -> dict[int, list[tuple[int, int]]]:
    grouped: dict[int, list[tuple[int, int]]] = {}
    for span in spans:
        grouped.setdefault(bisect.bisect_right(starts, span[0]) - 1, []).append(span)
    return grouped


def _near(grouped: dict[int, list], sentence: int, reach: int = 1) -> list:
    """Cues in this sentence or up to `reach` sentences before it."""
    found = []
    for index in range(sentence - reach, sentence + 1):
        found.extend(grouped.get(index, ()))
    return found


def _self_only(cues: ContextCues, start: int, end: int) -> bool:
    """The action's object is the writer ("send me", "my address"), not other people."""
    return bool(cues.first("self", start - 30, end + 30)) and not cues.first("audience", start, end)


Negated = Callable[[str, int], bool]


class Damping(Protocol):
    """The factor for a cue at [start, end) in a discussion of attacks (rules.py)."""

    def __call__(self, text: str, start: int, end: int, *, own_voice: bool = False) -> float:
        """`own_voice`: the cue's sentence addresses the agent and binds it to a trigger."""
        ...


# Actions a negation before them turns into a policy ("never ask for a password").
_NEGATABLE = frozenset(
    {
        "asks for credentials",
        "reveals a secret or hidden configuration",
        "runs a command or calls a tool",
        "sends data to an outside destination",
        "passes on private data",
        "moves money",
        "skips checks or confirmation",
    }
)


def analyse(
    text: str, *, negated: Negated | None = None, damping: Damping | None = None
) -> dict[str, DirectiveHit]:
    """Directive, quoted-instruction and planted-fact findings of one normalised text.

    `negated(text, start)` says whether a negation governs the cue at `start` (a policy,
    not a request); `damping(text, start, end, own_voice=...)` returns the factor for a cue
    in a discussion of attacks (rules.py owns both, so the phrase rules and this pass agree).
    """
    hits = _analyse_once(text, negated, damping)
    for variant in _variants(text):
        for category, hit in _analyse_once(variant, negated, damping).items():
            if hit.score > hits.get(category, DirectiveHit(0.0, "")).score:
                hit.reason += " (after undoing obfuscation)"
                hit.spans = [(0, len(text))] if len(variant) != len(text) else hit.spans
                hits[category] = hit
    return hits


_NOT_A_PREFERENCE = _ALWAYS_MATTERS | frozenset(_NOT_A_PREFERENCE_EXTRA)


def is_self_preference(text: str) -> bool:
    """The writer speaks about themselves ("remember this permanently: I'm allergic…",
    "from now on reply to me in Chinese") and about nobody and nothing else that matters."""
    # Cheapest test first: a value, then the actions (cached for the directive pass),
    # then the context families, which need a scan of the whole text.
    if _VALUE.search(text):
        return False
    if any(
        _action_spans(cue, text, starts)
        for cue, starts in _present_actions(text).items()
        if cue.reason in _NOT_A_PREFERENCE
    ):
        return False
    cues = context_cues(text)
    return bool(cues.any("self")) and not (cues.any("audience") or cues.any("authority"))


@cache
def _action_index() -> LiteralTable:
    """Every action's anchors, one table of the shared literal pass."""
    by_anchor: dict[str, list[int]] = {}
    for position, cue in enumerate(_ACTIONS):
        for anchor in cue.anchors:
            by_anchor.setdefault(anchor, []).append(position)
    return LiteralTable(
        {anchor: (len(anchor), tuple(positions)) for anchor, positions in by_anchor.items()},
        shared=True,
    )


def _present_actions(text: str) -> dict[ActionCue, list[int]]:
    """The action cues whose anchors occur in `text`, with the anchors' start offsets."""
    if _last_actions[0] is text:  # the phrase rules asked about this text just before
        return _last_actions[1]
    found: dict[int, list[int]] = {}
    for (length, positions), ends in _action_index().occurrences(text):
        for position in positions:
            found.setdefault(position, []).extend(end - length + 1 for end in ends)
    present = {_ACTIONS[position]: found[position] for position in sorted(found)}
    _last_actions[0], _last_actions[1] = text, present
    return present


_last_actions: list = [None, {}]


# (text, spans per action cue) of the text being analysed, replaced in one assignment: the
# phrase rules' self-preference check and the directive pass ask about the same cues.
_last_spans: tuple[str | None, dict[ActionCue, list[tuple[int, int]]]] = (None, {})


def _action_spans(cue: ActionCue, text: str, starts: list[int]) -> list[tuple[int, int]]:
    """Where `cue` matches in `text` given its anchors' `starts` (remembered per text)."""
    global _last_spans
    last_text, spans_of = _last_spans
    if last_text is not text:
        spans_of = {}
        _last_spans = (text, spans_of)
    spans = spans_of.get(cue)
    if spans is None:
        spans = spans_of[cue] = _match_action(cue, text, starts)
    return spans


def _match_action(cue: ActionCue, text: str, starts: list[int]) -> list[tuple[int, int]]:
    """Where `cue` matches: tried at each anchor when matches start there, else searched."""
    if not cue.leading:
        return _windowed(cue.pattern, text, starts)
    spans = []
    after = 0
    for start in sorted(set(starts)):
        if start < after:
            continue
        match = cue.pattern.match(text, start)
        if match is not None and match.end() > start:
            spans.append(match.span())
            after = match.end()
    return spans


def quotes_data(text: str) -> bool:
    """The text presents itself as tool output, a retrieved document or a web page."""
    return bool(_CARRIERS.spans(text))


def _variants(text: str) -> list[str]:
    variants = []
    leet = sum(
        1
        for match in _LEET_DIGIT.finditer(text)
        if match.start() and "a" <= text[match.start() - 1] <= "z"
    )
    if leet >= 2:
        variants.append(_LEET_WORD.sub(lambda m: m.group().translate(_LEET), text))
    if has_ideographs(text) and _IDEOGRAPH_SEPARATOR.search(text):
        variants.append(_IDEOGRAPH_SEPARATOR.sub("", text))
    return variants


REPORTED_FACTOR = 0.6
NEGATION_REACH = 40  # characters before an action where "not", "never", 不要 still govern it
# Below this a directive reading is too uncertain to report (a reported, context-free
# action): it would only add noise to the phrase rules' findings.
MIN_DIRECTIVE_SCORE = 0.3


def _combined(weight: float, context: int) -> float:
    """Each context cue (addressed, triggered, about others) removes a quarter of the doubt."""
    return 1.0 - (1.0 - weight) * 0.75**context


def _analyse_once(
    text: str, negated: Negated | None, damping: Damping | None
) -> dict[str, DirectiveHit]:
    hits: dict[str, DirectiveHit] = {}
    matched = [
        (cue, span)
        for cue, anchor_starts in _present_actions(text).items()
        for span in _action_spans(cue, text, anchor_starts)
    ]
    templates = _TEMPLATES.spans(text)
    pinyin = _PINYIN_CUES.spans(text)
    hidden = _HIDDEN.spans(text)
    if not (matched or templates or pinyin or hidden):
        return add_planted_fact(text, hits)
    cues = context_cues(text)
    starts = _sentences(text)

    def sentence_range(sentence: int, reach: int) -> tuple[int, int]:
        end = starts[sentence + 1] if sentence + 1 < len(starts) else len(text)
        return starts[max(0, sentence - reach)], end

    # One scan over the sentences with an action and the two before each, up front.
    for sentence in sorted({bisect.bisect_right(starts, span[0]) - 1 for _, span in matched}):
        cues.cover(*sentence_range(sentence, 2))
    actions = []
    for cue, span in matched:
        if cue.reason in _NEGATABLE and (
            cues.first("negation", span[0] - NEGATION_REACH, span[1])
            or (negated is not None and negated(text, span[0]))
        ):
            continue
        actions.append((cue.reason, cue.weight, span))
    # Distinct actions of one sentence combine (send + private data + destination); the
    # sentence's context cues then raise the combined weight. Context is searched only
    # in the sentences that hold an action (and the one or two before them).
    per_sentence: dict[int, dict[str, tuple[float, tuple[int, int]]]] = {}
    for reason, weight, (start, end) in actions:
        sentence = bisect.bisect_right(starts, start) - 1
        if (
            reason not in _ALWAYS_MATTERS
            and _self_only(cues, start, end)
            and not cues.first("audience", *sentence_range(sentence, 1))
        ):
            continue  # "call me Sam", "send my summary to my work address"
        per_sentence.setdefault(sentence, {}).setdefault(reason, (weight, (start, end)))
    best = DirectiveHit(0.0, "")
    for sentence, found in per_sentence.items():
        addressed = cues.first("address", *sentence_range(sentence, 2))
        triggered = cues.first("trigger", *sentence_range(sentence, 1))
        others = cues.first("audience", *sentence_range(sentence, 1))
        remaining = 1.0
        for weight, _ in found.values():
            remaining *= 1.0 - weight
        # Telling people implies an audience: only the other cues count as context for it.
        counted_others = bool(others) and set(found) != {_TELL}
        score = _combined(1.0 - remaining, bool(addressed) + bool(triggered) + counted_others)
        first = min(span for _, span in found.values())
        asks = (
            addressed
            or triggered
            or cues.first("modal", *sentence_range(sentence, 0))
            or first[0] - starts[sentence] <= 3
        )
        if not asks and _PRIORITY not in found:  # a claim of priority is its own request
            score *= REPORTED_FACTOR  # a statement of what happened, not a request
        if damping is not None:
            own_voice = bool(triggered and cues.first("address", *sentence_range(sentence, 0)))
            score *= damping(text, *first, own_voice=own_voice)
        if score > best.score:
            parts = [" + ".join(found)]
            if addressed:
                parts.append("addressed to the agent")
            if triggered:
                parts.append("bound to a trigger")
            if others:
                parts.append("about other people")
            context = [span for span in (addressed, triggered) if span is not None]
            best = DirectiveHit(
                round(min(score, 0.95), 4),
                "Directive: " + ", ".join(parts),
                [*(span for _, span in found.values()), *context],
            )
    if templates:
        template_score = 0.55 if (actions or cues.any("trigger")) else 0.35
        if damping is not None:
            template_score *= damping(text, *templates[0])
        if template_score > best.score:
            best = DirectiveHit(
                template_score, "Chat-template or system-role markers", templates[:3]
            )
    if len(pinyin) >= 2 and best.score < 0.5:
        best = DirectiveHit(0.5, "Directive spelled in pinyin", pinyin[:3])
    if best.score >= MIN_DIRECTIVE_SCORE:
        hits[DIRECTIVE] = best
    carriers = _CARRIERS.spans(text) if best.score else []
    if hidden or carriers:
        address = cues.any("address")
        carrier = carriers[0] if carriers else None
        quoted = best.score >= MIN_DIRECTIVE_SCORE or (best.score and address)
        if hidden and address:
            # Data hidden from the human reader that speaks to the agent.
            hits[QUOTED_INSTRUCTION] = DirectiveHit(
                round(0.5 + 0.3 * bool(best.score), 4),
                "Instructions to the agent inside a hidden region",
                [hidden[0], address, *best.spans[:1]],
            )
        elif carrier and quoted:
            hits[QUOTED_INSTRUCTION] = DirectiveHit(
                round(0.3 + 0.3 * bool(address), 4),
                "Instructions inside quoted tool output or a retrieved document",
                [carrier, *best.spans[:1]],
            )
    return add_planted_fact(text, hits)
