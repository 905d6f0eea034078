"""Behavioural signals of memory poisoning that join the text detectors (issue 5 §4).

Poisoned facts often read as harmless text; what gives them away is how they are
written. Each signal is a cheap, capped, indexed query and returns a Finding with a
content-free reason, so the gate can combine it with the text findings:

- fan-out: one writer (API key, else source) writing into more scopes in a recent window
  than the limit AND than its own rolling baseline allows (indexes mem_tenant_key_recent,
  mem_tenant_source_recent);
- burst: one writer writing faster than the limit and than its own baseline (same indexes);

Both rate signals are judged against what that writer usually does (issue 17): the writes
it made in the BASELINE_HOURS before the window, per window. A support agent that always
serves thousands of users has a baseline to match and is normal; a key that suddenly fans
out is not. The gate only lets a rate signal count when the text itself carries a
substantive finding and is not the writer's preference about themselves
(apps/quarantine/gate.py).
- contradiction: the write's key matches an established, frequently recalled active
  item of the same scope with a different value (index mem_scope_key_status).
"""

import math
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


def baseline_period() -> timedelta:
    """How far before the window the writer's usual activity is measured."""
    return timedelta(hours=_setting("BASELINE_HOURS"))


@dataclass(frozen=True)
class WriterActivity:
    """How much one writer wrote in the window: rows (capped) and distinct scopes, and
    whether that is usual for it (None: not measured, the limits were not exceeded)."""

    writes: int
    scopes: int
    usual_writes: int | None = None  # baseline writes counted (capped at what is needed)
    needed_for_usual: int | None = None  # baseline writes that make this window's activity usual

    @property
    def usual(self) -> bool:
        """The writer's baseline shows it works at this volume routinely."""
        if self.usual_writes is None or self.needed_for_usual is None:
            return False
        return self.usual_writes >= self.needed_for_usual


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
# The writer's rows in the baseline period, counted up to the number that would make the
# current window usual (so a busy writer's long history costs a bounded scan).
_BASELINE_SQL = """
    SELECT count(*) FROM (
        SELECT 1 FROM {table}
        WHERE tenant_id = %s AND {writer_column} = %s AND created_at >= %s AND created_at < %s
        LIMIT %s
    ) AS usual
"""
_BASELINE_BY_KEY = _BASELINE_SQL.format(
    table=MemoryItem._meta.db_table, writer_column="api_key_prefix"
)
_BASELINE_BY_SOURCE = _BASELINE_SQL.format(table=MemoryItem._meta.db_table, writer_column="source")


def needed_for_usual(volume: int) -> int:
    """Baseline writes at which `volume` in one window is within FACTOR of the writer's
    usual per-window volume: volume <= FACTOR * baseline / windows."""
    windows = baseline_period() / window()
    return max(1, math.ceil(volume * windows / float(_setting("BASELINE_FACTOR"))))


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
        sql, baseline_sql, writer = _WRITER_ACTIVITY_BY_KEY, _BASELINE_BY_KEY, api_key_prefix
    elif source:
        sql, baseline_sql, writer = _WRITER_ACTIVITY_BY_SOURCE, _BASELINE_BY_SOURCE, source
    else:
        return None
    now = now or timezone.now()
    since = now - window()
    cap = int(_setting("BURST_WRITES")) + 1
    adapt = connection.ops.adapt_datetimefield_value
    with connection.cursor() as cursor:
        cursor.execute(sql, [tenant_id, writer, adapt(since), cap])
        writes, scopes = cursor.fetchone()
        over_fanout = scopes > int(_setting("FANOUT_SCOPES"))
        over_burst = writes > int(_setting("BURST_WRITES"))
        if not (over_fanout or over_burst):
            return WriterActivity(writes=writes, scopes=scopes)
        # Over a limit: is this what the writer usually does? Its baseline is counted in
        # writes (distinct scopes over a day would cost a full scan); a writer that spreads
        # this many writes over this many scopes routinely wrote at least as many rows.
        needed = needed_for_usual(max(writes, scopes))
        cursor.execute(
            baseline_sql,
            [tenant_id, writer, adapt(now - window() - baseline_period()), adapt(since), needed],
        )
        (usual_writes,) = cursor.fetchone()
    return WriterActivity(
        writes=writes, scopes=scopes, usual_writes=usual_writes, needed_for_usual=needed
    )


def _fanout(activity: WriterActivity | None) -> Finding | None:
    limit = int(_setting("FANOUT_SCOPES"))
    if activity is None or activity.scopes <= limit or activity.usual:
        return None
    return Finding(
        detector=DETECTOR_NAME,
        category="fanout",
        reason=f"Writer touched more than {limit} scopes within {window()}, well above its "
        f"own usual activity",
        score=float(_setting("FANOUT_SCORE")),
    )


def _burst(activity: WriterActivity | None) -> Finding | None:
    limit = int(_setting("BURST_WRITES"))
    if activity is None or activity.writes <= limit or activity.usual:
        return None
    return Finding(
        detector=DETECTOR_NAME,
        category="burst",
        reason=f"Writer made more than {limit} writes within {window()}, well above its own "
        f"usual rate",
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


# Hand-written for the same reason as the activity query: the ORM's `.exists()` cost
# five times the query's own client time on every keyed write; tests compare it with
# the equivalent queryset.
_CONTRADICTED_TEMPLATE = """
    SELECT EXISTS (
        SELECT 1 FROM {table}
        WHERE scope_id = %s AND key = %s AND status = %s AND access_count >= %s
            AND content_hash <> %s
    )
"""
_CONTRADICTED_SQL = _CONTRADICTED_TEMPLATE.format(table=MemoryItem._meta.db_table)


def contradiction_finding(*, scope_id: int | None, key: str, content_hash: str) -> Finding | None:
    """The write contradicts an active, frequently recalled item of its scope with this key."""
    if not key or scope_id is None:
        # A scope that does not exist yet (a first write, a restore into new scopes) holds
        # nothing to contradict: no query.
        return None
    trusted = int(_setting("TRUSTED_ACCESS_COUNT"))
    with connection.cursor() as cursor:
        cursor.execute(
            _CONTRADICTED_SQL, [scope_id, key, MemoryStatus.ACTIVE.value, trusted, content_hash]
        )
        (contradicted,) = cursor.fetchone()
    if not contradicted:
        return None
    return Finding(
        detector=DETECTOR_NAME,
        category="contradiction",
        reason=f"Contradicts an established memory recalled at least {trusted} times",
        score=float(_setting("CONTRADICTION_SCORE")),
    )


def strongest_scores(*, key: str, rate: bool = True) -> list[float]:
    """The scores behaviour_findings could report at most for a write (with or without a
    key, with or without the rate signals), so the gate can skip the queries when even
    these would not change its verdict."""
    scores = [max(float(_setting("FANOUT_SCORE")), float(_setting("BURST_SCORE")))] if rate else []
    return [*scores, float(_setting("CONTRADICTION_SCORE"))] if key else scores


def behaviour_findings(
    *,
    tenant_id: int,
    scope_id: int | None,
    source: str,
    api_key_prefix: str,
    key: str,
    content_hash: str,
    rate: bool = True,
) -> list[Finding]:
    """Every behavioural signal that fires for this write (`rate`: measure fan-out and
    burst at all; the gate passes False when they may not count for this text)."""
    findings: list[Finding] = []
    if rate:
        # Fan-out and burst are two views of one fact (a busy writer): counting both would
        # let a legitimately busy agent quarantine its own explicit statements.
        activity = writer_activity(
            tenant_id=tenant_id, source=source, api_key_prefix=api_key_prefix
        )
        fired = [found for found in (_fanout(activity), _burst(activity)) if found is not None]
        if fired:
            findings.append(max(fired, key=lambda finding: finding.score))
    contradiction = contradiction_finding(scope_id=scope_id, key=key, content_hash=content_hash)
    if contradiction is not None:
        findings.append(contradiction)
    return findings
