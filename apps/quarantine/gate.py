"""Injection stage of the remember gate (ARCHITECTURE §4 step 3).

Scores the draft's text with the configured detectors plus the behavioural signals,
weighted by source trust. A suspicious write is stored as `quarantined` and gets a
queue entry (created after the item is saved, in the same transaction). A clean,
trusted write with a key counts as corroboration for pending entries holding the
same key and value in its scope.
"""

from functools import partial

from apps.memory.content import content_hash, render_text
from apps.memory.gate import Draft
from apps.memory.models import MemoryStatus
from apps.quarantine.behaviour import behaviour_findings, strongest_scores
from apps.quarantine.detectors import Assessment, assess, combine, is_suspicious, weight_by_source
from apps.quarantine.services import TRUSTED_CORROBORATION_KINDS, corroborate, flag_item


def assess_draft(draft: Draft) -> Assessment:
    """Text detectors and behavioural signals combined, weighted by the source's trust."""
    memory = draft.memory
    text = memory.text or render_text(memory.content or {})
    source_kind = memory.source_kind or "explicit_statement"
    text_assessment = assess(text, source_kind=source_kind)
    if not _signals_could_tip(text_assessment, source_kind=source_kind, key=memory.key):
        return text_assessment
    signals = behaviour_findings(
        tenant_id=memory.tenant.pk,
        scope_id=memory.scope.pk,
        source=memory.source,
        api_key_prefix=memory.api_key_prefix,
        key=memory.key,
        content_hash=memory.content_hash or content_hash(memory.content or {}),
    )
    if not signals:
        return text_assessment
    return _with_signals(text_assessment, signals, source_kind=source_kind)


def _with_signals(text_assessment: Assessment, signals, *, source_kind: str) -> Assessment:
    findings = (*text_assessment.findings, *signals)
    score = weight_by_source(combine([finding.score for finding in findings]), source_kind)
    return Assessment(score=round(score, 4), findings=findings)


def _signals_could_tip(text_assessment: Assessment, *, source_kind: str, key: str | None) -> bool:
    """Whether the behavioural signals, all firing at once, would make the write suspicious.

    When they could not (a trusted source, clean text), their queries are skipped: the
    verdict is the same, and the findings of a write that is not held are not kept.
    """
    scores = [finding.score for finding in text_assessment.findings]
    bound = weight_by_source(combine([*scores, *strongest_scores(key=key or "")]), source_kind)
    return is_suspicious(Assessment(score=round(bound, 4), findings=()))


class InjectionStage:
    name = "injection"

    def inspect(self, draft: Draft) -> None:
        """Quarantine a suspicious write; let a clean trusted write corroborate pending ones."""
        assessment = assess_draft(draft)
        if is_suspicious(assessment):
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
