#!/usr/bin/env python
"""Benchmark: GDPR erasure at scale (targets: erase 50,000 items ≤ 10 s inside 1,000,000;
preview with the residue scan ≤ 2 s; the request list at 10,000 requests ≤ 100 ms p95).

    createdb -h 127.0.0.1 -U postgres mc_bench_privacy
    DEBUG=true DATABASE_URL=postgres://postgres@127.0.0.1:5432/mc_bench_privacy \
        .venv/bin/python bench/bench_privacy.py [--total 1000000] [--subject-items 50000] \
        [--list-requests 10000] [--requests 200]

Migrates, then (once; later runs reuse them) COPYs the background items of one tenant
over 5,000 user scopes, a few of them naming the subject's account id (residue), and
bulk-creates the deletion requests the officer's list pages through. Every run COPYs
the subject's items (and one version each) over a user scope and nine session scopes,
then times, through the real services: the preview (per-table counts, the residue scan
and the sealed-item count), the erasure (start_erasure runs the task eagerly: batches,
scopes, denylist, verification, receipt), and the request list page as an officer.
"""

import argparse
import json
import os
import random
import statistics
import sys
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memory_console.settings")
os.environ.setdefault("DEBUG", "true")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402

TARGET_ERASE_S = 10.0
TARGET_PREVIEW_S = 2.0
TARGET_LIST_P95_MS = 100.0
TENANT = "bench-privacy"
SUBJECT = "subj-bench-0001"
IDENTIFIER = "acct-bench-777"
BACKGROUND_SCOPES = 5000
RESIDUE_ITEMS = 25
WORDS = [
    "tea",
    "coffee",
    "window",
    "aisle",
    "refund",
    "parcel",
    "invoice",
    "delivery",
    "hotel",
    "flight",
    "seat",
    "meal",
]
ITEM_COLUMNS = (
    "id, tenant_id, scope_id, memory_type, category, key, content, text, source, source_kind, "
    "api_key_prefix, run_id, importance, half_life_days, last_access_at, access_count, "
    "confidence, status, version, content_hash, sensitive, sealed_content, embedding_model, "
    "created_at, updated_at, flags"
)
VERSION_COLUMNS = (
    "item_id, version, content, text, key, status, importance, change, reference, created_at"
)


def result(name: str, value: float, unit: str, target: str) -> None:
    """One machine-readable line for bench/run.py."""
    print(f"RESULT\t{name}\t{value:.4g}\t{unit}\t{target}", flush=True)


def copy_items(tenant_id: int, scope_ids: list[int], count: int, *, seed: int, versions: bool,
               mention_every: int = 0) -> None:  # fmt: skip
    rng = random.Random(seed)
    now = datetime.now(UTC)
    ids = []
    with connection.cursor() as cursor, cursor.cursor.copy(
        f"COPY memory_memoryitem ({ITEM_COLUMNS}) FROM STDIN"
    ) as copy:  # fmt: skip
        for n in range(count):
            words = " ".join(rng.choice(WORDS) for _ in range(6))
            if mention_every and n % mention_every == 0:
                words += f" account {IDENTIFIER}"
            text = f"The user mentioned {words} #{seed}-{n}"
            item_id = uuid.uuid4()
            created = now - timedelta(days=rng.uniform(0, 365))
            copy.write_row((
                item_id, tenant_id, rng.choice(scope_ids), "episodic", 20, "",
                json.dumps({"text": text}), text, "bench@1", "explicit_statement", "", "", 0.5,
                30.0, created, 0, 1.0, "active", 1, uuid.uuid4().hex + uuid.uuid4().hex, False,
                "", "", created, created, "[]",
            ))  # fmt: skip
            ids.append((item_id, text, created))
    if not versions:
        return
    with connection.cursor() as cursor, cursor.cursor.copy(
        f"COPY memory_memoryversion ({VERSION_COLUMNS}) FROM STDIN"
    ) as copy:  # fmt: skip
        for item_id, text, created in ids:
            copy.write_row((item_id, 1, json.dumps({"text": text}), text, "", "active", 0.5,
                            "memory.created", "", created))  # fmt: skip


def ensure_background(total: int, subject_items: int, list_requests: int):
    from apps.access.roles import Role
    from apps.access.services import grant_role
    from apps.memory.models import MemoryItem, Scope, Tenant
    from apps.privacy.models import DeletionRequest
    from apps.privacy.services.requests import create_request
    from apps.tenancy.permissions import Perm
    from tests.factories import UserFactory

    tenant, _ = Tenant.objects.get_or_create(slug=TENANT, defaults={"name": "Bench privacy"})
    officers = [UserFactory(username=name) for name in ("bench-officer", "bench-officer2")]
    for officer in officers:
        if not officer.has_perm(Perm.MANAGE_PRIVACY, tenant):
            grant_role(user=officer, role=Role.COMPLIANCE_OFFICER, target=tenant, actor="bench")
    Scope.objects.bulk_create(
        [Scope(tenant=tenant, kind="user", external_id=f"u_{n:05d}", subject=f"u_{n:05d}")
         for n in range(BACKGROUND_SCOPES)],
        ignore_conflicts=True,
    )  # fmt: skip
    background = total - subject_items
    have = MemoryItem.objects.filter(tenant=tenant).count()
    if have < background:
        scope_ids = list(
            Scope.objects.filter(tenant=tenant, kind="user").exclude(subject=SUBJECT)
            .values_list("pk", flat=True)
        )  # fmt: skip
        started = time.perf_counter()
        mention_every = max(1, (background - have) // RESIDUE_ITEMS)
        copy_items(tenant.pk, scope_ids, background - have, seed=have, versions=False,
                   mention_every=mention_every)  # fmt: skip
        print(f"  background: {background - have:,} items in "
              f"{time.perf_counter() - started:.1f} s")  # fmt: skip
    missing = list_requests - DeletionRequest.objects.filter(tenant=tenant).count()
    if missing > 0:
        started = time.perf_counter()
        template = create_request(tenant=tenant, subject="u_template", actor=officers[0])
        now = datetime.now(UTC)
        rows = []
        for n in range(missing - 1):
            received = now - timedelta(minutes=7 * n)
            rows.append(DeletionRequest(
                tenant=tenant, subject_hash=template.subject_hash, subject_masked="u_*****",
                subject_sealed=template.subject_sealed, received_at=received,
                due_at=received + timedelta(days=30), created_by=officers[0],
                status=random.Random(n).choice(["received", "verified", "completed"]),
            ))  # fmt: skip
        DeletionRequest.objects.bulk_create(rows, batch_size=2000)
        print(f"  {missing:,} deletion requests in {time.perf_counter() - started:.1f} s")
    with connection.cursor() as cursor:
        for table in ("memory_memoryitem", "memory_scope", "privacy_deletionrequest"):
            cursor.execute(f"VACUUM ANALYZE {table}")
    return tenant, officers


def add_subject(tenant, subject_items: int) -> None:
    from apps.memory.models import Scope

    scopes = [Scope.objects.get_or_create(tenant=tenant, kind="user", external_id=SUBJECT,
                                          defaults={"subject": SUBJECT})[0]]  # fmt: skip
    for n in range(9):
        scopes.append(Scope.objects.get_or_create(
            tenant=tenant, kind="session", external_id=f"{SUBJECT}-s{n}",
            defaults={"subject": SUBJECT},
        )[0])  # fmt: skip
    started = time.perf_counter()
    copy_items(tenant.pk, [scope.pk for scope in scopes], subject_items, seed=7, versions=True)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE memory_memoryitem")
        cursor.execute("ANALYZE memory_memoryversion")
    print(f"  subject: {subject_items:,} items and versions in "
          f"{time.perf_counter() - started:.1f} s")  # fmt: skip


def percentile(samples: list[float], pct: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(pct / 100 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--total", type=int, default=1_000_000)
    parser.add_argument("--subject-items", type=int, default=50_000)
    parser.add_argument("--list-requests", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=200, help="List page samples.")
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("bench_privacy needs PostgreSQL (set DATABASE_URL).")
    call_command("migrate", "--noinput", verbosity=0)
    from django.conf import settings

    from apps.memory.models import MemoryItem
    from apps.privacy import services
    from memory_console.celery import app

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    settings.DEBUG = False
    app.conf.task_always_eager = True  # the erasure task runs in this process, timed
    tenant, (officer, officer2) = ensure_background(
        args.total, args.subject_items, args.list_requests
    )
    add_subject(tenant, args.subject_items)
    total = MemoryItem.objects.filter(tenant=tenant).count()
    with open("/proc/loadavg") as handle:
        load = handle.read().split()[0]
    print(f"privacy benchmark: {total:,} items in the tenant, {args.subject_items:,} of the "
          f"subject, {os.cpu_count()} cores, load average {load}")  # fmt: skip

    request = services.create_request(
        tenant=tenant, subject=SUBJECT, identifiers=[IDENTIFIER], actor=officer
    )
    services.verify_request(request_id=request.pk, actor=officer)
    services.approve_request(request_id=request.pk, actor=officer2)
    previews = []
    for _ in range(5):
        started = time.perf_counter()
        preview = services.preview_request(request)
        previews.append(time.perf_counter() - started)
    print(f"preview: {preview.tables.get('memory_memoryitem'):,} items, "
          f"{len(preview.residue)} residue, p50 {statistics.median(previews):.2f} s, "
          f"max {max(previews):.2f} s")  # fmt: skip

    started = time.perf_counter()
    services.start_erasure(request_id=request.pk, actor=officer)
    erase_seconds = time.perf_counter() - started
    request.refresh_from_db()
    assert request.status == "completed", request.status
    print(f"erasure: {request.erased_counts} in {erase_seconds:.2f} s")

    client = Client()
    client.force_login(officer)
    for _ in range(5):
        assert client.get("/privacy/requests/").status_code == 200
    samples = []
    for _ in range(args.requests):
        started = time.perf_counter()
        assert client.get("/privacy/requests/").status_code == 200
        samples.append((time.perf_counter() - started) * 1000)
    p50, p95 = statistics.median(samples), percentile(samples, 95)
    print(f"request list: p50 {p50:.1f} ms, p95 {p95:.1f} ms")

    result("privacy_preview_p50", statistics.median(previews), "s", f"<= {TARGET_PREVIEW_S:.0f}")
    result("privacy_preview_max", max(previews), "s", f"<= {TARGET_PREVIEW_S:.0f}")
    result(f"privacy_erase_{args.subject_items}_in_{total}", erase_seconds, "s",
           f"<= {TARGET_ERASE_S:.0f}")  # fmt: skip
    result("privacy_request_list_p50", p50, "ms", "-")
    result("privacy_request_list_p95", p95, "ms", f"<= {TARGET_LIST_P95_MS:.0f}")


if __name__ == "__main__":
    main()
