"""Injection stage of the remember gate (ARCHITECTURE §4 step 3).

Scores the draft's text with the configured detectors plus the behavioural signals,
weighted by source trust. The rate signals (fan-out, burst) count only with a substantive
text finding on a text that is not the writer's preference about themselves. A
suspicious write is stored as `quarantined` and gets a queue entry (created after the item
is saved, in the same transaction). A clean, trusted write with a key counts as
corroboration for pending entries holding the same key and value in its scope.
"""

from dataclasses import replace
from functools import partial

from django.conf import settings

from apps.memory.content import content_hash, render_text
from apps.memory.gate import Draft
from apps.memory.models import MemoryStatus
from apps.memory.sensitive import PLACEHOLDER
from apps.quarantine.behaviour import DETECTOR_NAME, behaviour_findings, strongest_scores
from apps.quarantine.detectors import Assessment, assess, combine, is_suspicious, weight_by_source
from apps.quarantine.detectors.base import Span
from apps.quarantine.detectors.directive import is_self_preference
from apps.quarantine.detectors.normalise import normalise
from apps.quarantine.detectors.patterns import Category
from apps.quarantine.services import TRUSTED_CORROBORATION_KINDS, corroborate, flag_item


def assess_draft(draft: Draft) -> Assessment:
    """Text detectors and behavioural signals combined, weighted by the source's trust."""
    memory = draft.memory
    text = memory.text or render_text(memory.content or {})
    source_kind = memory.source_kind or "explicit_statement"
    written = draft.written_text or text
    text_assessment = assess(written, source_kind=source_kind)
    if written != text:
        text_assessment = spans_moved_onto(text_assessment, written=written, stored=text)
    rate = rate_signals_may_count(text_assessment, written)
    # A scope the write creates (a first write, a restore into new scopes) holds nothing
    # to contradict (behaviour.contradiction_finding), so its key cannot add a signal.
    contradictable_key = memory.key if memory.scope.pk is not None else ""
    if not _signals_could_tip(
        text_assessment, source_kind=source_kind, key=contradictable_key, rate=rate
    ):
        return text_assessment
    signals = behaviour_findings(
        tenant_id=memory.tenant.pk,
        scope_id=memory.scope.pk,
        source=memory.source,
        api_key_prefix=memory.api_key_prefix,
        key=memory.key,
        content_hash=memory.content_hash or content_hash(memory.content or {}),
        rate=rate,
    )
    if not signals:
        return text_assessment
    return _with_signals(text_assessment, signals, source_kind=source_kind)


def spans_moved_onto(assessment: Assessment, *, written: str, stored: str) -> Assessment:
    """The assessment with its spans moved from the text as written onto the stored text
    (the sensitive-data stage replaced parts of it with `[REDACTED:<kind>]`), so the queue
    highlights the words the reviewer sees; a span inside a replaced part covers its
    placeholder."""
    move = _offset_map(written, stored)
    findings = tuple(
        replace(
            finding,
            spans=tuple(
                Span(move(span.start, is_end=False), move(span.end, is_end=True), span.label)
                for span in finding.spans
            ),
        )
        for finding in assessment.findings
    )
    return Assessment(score=assessment.score, findings=findings)


def _offset_map(written: str, stored: str):
    """Offsets in `written` to offsets in `stored`, which is `written` with some parts
    replaced by placeholders: the literal pieces between placeholders are found in order
    (linear; a character-level diff took minutes on a 50 KiB text full of addresses)."""
    # (written start, stored start, length) of each literal piece, in order.
    pieces: list[tuple[int, int, int]] = []
    position, stored_at = 0, 0
    literal = PLACEHOLDER.split(stored)
    for index, piece in enumerate(literal):
        last = index == len(literal) - 1
        found = len(written) - len(piece) if last else written.find(piece, position)
        if found < position or (last and not written.endswith(piece)):
            break  # not the shape redaction leaves: spans are only kept inside the text
        pieces.append((found, stored_at, len(piece)))
        position = found + len(piece) + 1  # a replaced part is never empty
        stored_at += len(piece)
        if not last:
            stored_at = stored.index("]", stored_at) + 1

    def move(offset: int, *, is_end: bool) -> int:
        for number, (start, new_start, length) in enumerate(pieces):
            if start <= offset <= start + length:
                return new_start + offset - start
            if offset < start:  # inside the placeholder before this piece
                previous = pieces[number - 1] if number else (0, 0, 0)
                return new_start if is_end else previous[1] + previous[2]
        return len(stored)

    return move


def _with_signals(text_assessment: Assessment, signals, *, source_kind: str) -> Assessment:
    findings = (*text_assessment.findings, *signals)
    score = weight_by_source(combine([finding.score for finding in findings]), source_kind)
    return Assessment(score=round(score, 4), findings=findings)


# Source kinds nobody vouched for: data fetched or imported, not said by the user or agent.
UNVERIFIED_SOURCE_KINDS = frozenset({"tool", "external", "import"})
# A text finding at least this strong makes the memory read as an instruction.
INSTRUCTION_LIKE_SCORE = 0.2


def recall_flags(assessment: Assessment, *, source_kind: str) -> list[str]:
    """What an agent should know when it recalls this memory (issue 17, point 6): stored
    on the item at write time, so recall needs no detector (memory never imports
    quarantine). Documented in docs/agent-integration.md."""
    flags = []
    text_findings = [f for f in assessment.findings if f.detector != DETECTOR_NAME]
    if any(finding.score >= INSTRUCTION_LIKE_SCORE for finding in text_findings):
        flags.append("instruction_like")
    if source_kind in UNVERIFIED_SOURCE_KINDS:
        flags.append("unverified_source")
    categories = {finding.category for finding in text_findings}
    if Category.HIDDEN_PAYLOAD in categories:
        flags.append("hidden_content")
    if Category.QUOTED_INSTRUCTION in categories:
        flags.append("quoted_instructions")
    if Category.PLANTED_FACT in categories:
        flags.append("authoritative_update")
    return flags


def rate_signals_may_count(text_assessment: Assessment, text: str) -> bool:
    """Whether fan-out and burst may add to this write's score (issue 17): only when the
    text itself has a substantive finding and is not the writer's preference about
    themselves. A busy writer alone, or with a weak rule hit ("from now on reply in
    Chinese"), never holds a memory."""
    substantive = combine([finding.score for finding in text_assessment.findings])
    if substantive < settings.MEMORY_CONSOLE_BEHAVIOUR_MIN_TEXT_SCORE:
        return False
    return not is_self_preference(normalise(text).text)


def _signals_could_tip(
    text_assessment: Assessment, *, source_kind: str, key: str | None, rate: bool = True
) -> bool:
    """Whether the behavioural signals, all firing at once, would make the write suspicious.

    When they could not (a trusted source, clean text), their queries are skipped: the
    verdict is the same, and the findings of a write that is not held are not kept.
    """
    scores = [finding.score for finding in text_assessment.findings]
    strongest = strongest_scores(key=key or "", rate=rate)
    bound = weight_by_source(combine([*scores, *strongest]), source_kind)
    return is_suspicious(Assessment(score=round(bound, 4), findings=()))


class InjectionStage:
    name = "injection"

    def inspect(self, draft: Draft) -> None:
        """Quarantine a suspicious write; let a clean trusted write corroborate pending ones."""
        assessment = assess_draft(draft)
        draft.memory.flags = recall_flags(
            assessment, source_kind=draft.memory.source_kind or "explicit_statement"
        )
        if is_suspicious(assessment) or draft.held_when_written:
            draft.status = MemoryStatus.QUARANTINED
            draft.notes["injection"] = {
                "score": assessment.score,
                "detectors": assessment.detectors(),
            }
            actor = draft.actor
            draft.on_persist(lambda item: flag_item(item=item, assessment=assessment, actor=actor))
            return
        memory = draft.memory
        if memory.key and memory.source_kind in TRUSTED_CORROBORATION_KINDS:
            # Counted once the write has committed, whatever a later stage made of it
            # (merged or held, it still confirms the value), in a transaction of its own:
            # releasing an entry queues for the audit chain's lock, which this write's
            # transaction must not wait for while it holds its dedupe lock.
            draft.on_commit(
                partial(
                    corroborate,
                    scope_id=memory.scope.pk,
                    key=memory.key,
                    content_hash=memory.content_hash or content_hash(memory.content or {}),
                    source=memory.source,
                    api_key_prefix=memory.api_key_prefix,
                )
            )
