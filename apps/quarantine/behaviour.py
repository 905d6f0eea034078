"""Behavioural signals of memory poisoning that join the text detectors (issue 5 §4).

Poisoned facts often read as harmless text; what gives them away is how they are
written. Each signal is a cheap, capped, indexed query and returns a Finding with a
content-free reason, so the gate can combine it with the text findings:

- fan-out: one writer (API key, else source) writing into unusually many scopes in a
  recent window (indexes mem_tenant_key_recent, mem_tenant_source_recent);
- burst: one writer writing at an unusual rate in that window (same indexes);
- contradiction: the write's key matches an established, frequently recalled active
  item of the same scope with a different value (index mem_scope_key_status).
"""

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import connection
from django.utils import timezone

from apps.memory.models import MemoryItem, MemoryStatus
from apps.quarantine.detectors import Finding

DETECTOR_NAME = "behaviour"


def _setting(name: str) -> int | float:
    return getattr(settings, f"MEMORY_CONSOLE_BEHAVIOUR_{name}")


def window() -> timedelta:
    """How far back the fan-out and burst signals look."""
    return timedelta(minutes=_setting("WINDOW_MINUTES"))


@dataclass(frozen=True)
class WriterActivity:
    """How much one writer wrote in the window: rows (capped) and distinct scopes."""

    writes: int
    scopes: int


# The writer's newest rows in the tenant, capped, counted with their scopes. Hand-written
# because it runs on every write and the ORM's per-call query building cost more than the
# query itself; tests compare it with the equivalent queryset.
_WRITER_ACTIVITY_SQL = """
    SELECT count(*), count(DISTINCT scope_id) FROM (
        SELECT scope_id FROM {table}
        WHERE tenant_id = %s AND {writer_column} = %s AND created_at >= %s
        ORDER BY created_at DESC
        LIMIT %s
    ) AS recent
"""
_WRITER_ACTIVITY_BY_KEY = _WRITER_ACTIVITY_SQL.format(
    table=MemoryItem._meta.db_table, writer_column="api_key_prefix"
)
_WRITER_ACTIVITY_BY_SOURCE = _WRITER_ACTIVITY_SQL.format(
    table=MemoryItem._meta.db_table, writer_column="source"
)


def writer_activity(
    *, tenant_id: int, source: str, api_key_prefix: str, now=None
) -> WriterActivity | None:
    """Count the writer's recent rows and scopes in one bounded query (None: no writer).

    The writer is the API key when there is one, else the source name. The scan reads
    the writer's newest rows first and stops after BURST_WRITES + 1 (indexes
    mem_tenant_key_recent and mem_tenant_source_recent, which carry the scope), so a
    busy writer costs the same as a quiet one.
    """
    if api_key_prefix:
        sql, writer = _WRITER_ACTIVITY_BY_KEY, api_key_prefix
    elif source:
        sql, writer = _WRITER_ACTIVITY_BY_SOURCE, source
    else:
        return None
    since = (now or timezone.now()) - window()
    cap = int(_setting("BURST_WRITES")) + 1
    with connection.cursor() as cursor:
        cursor.execute(
            sql, [tenant_id, writer, connection.ops.adapt_datetimefield_value(since), cap]
        )
        writes, scopes = cursor.fetchone()
    return WriterActivity(writes=writes, scopes=scopes)


def _fanout(activity: WriterActivity | None) -> Finding | None:
    limit = int(_setting("FANOUT_SCOPES"))
    if activity is None or activity.scopes <= limit:
        return None
    return Finding(
        detector=DETECTOR_NAME,
        category="fanout",
        reason=f"Writer touched more than {limit} scopes within {window()}",
        score=float(_setting("FANOUT_SCORE")),
    )


def _burst(activity: WriterActivity | None) -> Finding | None:
    limit = int(_setting("BURST_WRITES"))
    if activity is None or activity.writes <= limit:
        return None
    return Finding(
        detector=DETECTOR_NAME,
        category="burst",
        reason=f"Writer made more than {limit} writes within {window()}",
        score=float(_setting("BURST_SCORE")),
    )


def fanout_finding(*, tenant_id: int, source: str, api_key_prefix: str, now=None) -> Finding | None:
    """A writer that touched more than FANOUT_SCOPES distinct scopes in the window."""
    return _fanout(
        writer_activity(tenant_id=tenant_id, source=source, api_key_prefix=api_key_prefix, now=now)
    )


def burst_finding(*, tenant_id: int, source: str, api_key_prefix: str, now=None) -> Finding | None:
    """A writer that made more than BURST_WRITES writes in the window."""
    return _burst(
        writer_activity(tenant_id=tenant_id, source=source, api_key_prefix=api_key_prefix, now=now)
    )


def contradiction_finding(*, scope_id: int, key: str, content_hash: str) -> Finding | None:
    """The write contradicts an active, frequently recalled item of its scope with this key."""
    if not key:
        return None
    trusted = int(_setting("TRUSTED_ACCESS_COUNT"))
    contradicted = (
        MemoryItem.objects.filter(
            scope_id=scope_id,
            key=key,
            status=MemoryStatus.ACTIVE,
            access_count__gte=trusted,
        )
        .exclude(content_hash=content_hash)
        .exists()
    )
    if not contradicted:
        return None
    return Finding(
        detector=DETECTOR_NAME,
        category="contradiction",
        reason=f"Contradicts an established memory recalled at least {trusted} times",
        score=float(_setting("CONTRADICTION_SCORE")),
    )


def strongest_scores(*, key: str) -> list[float]:
    """The scores behaviour_findings could report at most for a write (with or without a
    key), so the gate can skip the queries when even these would not change its verdict."""
    rate = max(float(_setting("FANOUT_SCORE")), float(_setting("BURST_SCORE")))
    return [rate, float(_setting("CONTRADICTION_SCORE"))] if key else [rate]


def behaviour_findings(
    *,
    tenant_id: int,
    scope_id: int,
    source: str,
    api_key_prefix: str,
    key: str,
    content_hash: str,
) -> list[Finding]:
    """Every behavioural signal that fires for this write."""
    # Fan-out and burst are two views of one fact (a busy writer): counting both would
    # let a legitimately busy agent quarantine its own explicit statements.
    activity = writer_activity(tenant_id=tenant_id, source=source, api_key_prefix=api_key_prefix)
    rate = [finding for finding in (_fanout(activity), _burst(activity)) if finding is not None]
    findings = [max(rate, key=lambda finding: finding.score)] if rate else []
    contradiction = contradiction_finding(scope_id=scope_id, key=key, content_hash=content_hash)
    if contradiction is not None:
        findings.append(contradiction)
    return findings
