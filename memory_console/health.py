"""`/healthz`: what an operator on call (or a load balancer) needs, without a login.

JSON with one entry per dependency: the database, the broker, the cache, the audit
chain's last verification, and the last run of each job. 200 while the database
answers (a broker or cache outage degrades, it does not take the API down: see
docs/security.md), 503 when it does not. Names no tenant, user or content.
"""

import time

from django.core.cache import cache
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from memory_console.celery import app as celery_app


def _timed(check) -> dict:
    started = time.perf_counter()
    try:
        result = {"ok": True, **(check() or {})}
    except Exception as exc:
        result = {"ok": False, "error": type(exc).__name__}
    result["ms"] = round((time.perf_counter() - started) * 1000, 1)
    return result


def _database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")


def _broker() -> dict:
    if celery_app.conf.task_always_eager:
        return {"mode": "eager (no broker configured)"}
    with celery_app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=1)
    return {}


def _cache() -> None:
    cache.set("healthz", "1", 10)
    if cache.get("healthz") != "1":
        raise RuntimeError("cache did not return what was set")


def _audit_chain() -> dict:
    from apps.audit.models import AuditVerification

    latest = AuditVerification.objects.order_by("-ran_at").first()
    if latest is None:
        return {"verified": None}
    return {
        "verified": latest.ok,
        "ran_at": latest.ran_at.isoformat(),
        "checked": latest.checked,
        "first_bad_sequence": latest.first_bad_sequence,
    }


def _jobs() -> dict:
    from apps.core.models import JobRun

    last_runs = {}
    for job in JobRun.objects.values_list("job", flat=True).distinct().order_by("job"):
        run = JobRun.objects.filter(job=job).order_by("-started_at", "-id").first()
        last_runs[job] = {
            "started_at": run.started_at.isoformat(),
            "outcome": run.outcome,
            "duration_s": run.duration_seconds,
        }
    return {"last_runs": last_runs}


@never_cache
@require_GET
def healthz(request) -> JsonResponse:
    checks = {
        "database": _timed(_database),
        "broker": _timed(_broker),
        "cache": _timed(_cache),
    }
    if checks["database"]["ok"]:
        checks["audit_chain"] = _timed(_audit_chain)
        checks["jobs"] = _timed(_jobs)
    healthy = all(check["ok"] for check in checks.values())
    status = "ok" if healthy else ("degraded" if checks["database"]["ok"] else "down")
    return JsonResponse(
        {"status": status, "checks": checks}, status=200 if checks["database"]["ok"] else 503
    )
