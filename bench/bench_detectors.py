#!/usr/bin/env python
"""Injection-detector quality on dev and blind test sets, and throughput (issue 17:
recall >= 0.95 at FPR <= 0.02 per language on a blind set; >= 2,000 texts/s of 1 KiB
on one core).

    DEBUG=true .venv/bin/python bench/bench_detectors.py [--verbose] [--texts 3000]
    DEBUG=true .venv/bin/python bench/bench_detectors.py --test /path/to/blind[.jsonl]
    DATABASE_URL=postgres://…/mc_bench_detectors DEBUG=true \
        .venv/bin/python bench/bench_detectors.py --api [--history|--no-history] --test …

Sets (docs/bench/detectors.md):
- `corpus` — bench/data/injection_corpus.jsonl, the project's own corpus (tuned on);
- `dev` — bench/data/detectors_dev/dev.jsonl, written for issue 17 to tune on, plus the
  retired held-out sets v1 (bench/data/detectors_heldout/) to v7
  (bench/data/detectors_heldout_v7/), each measured blind and tuned and/or trained on
  since; every dev figure is also printed per source;
- `test` — `--test PATH` (default: the last blind set named in quality.TEST_PATHS, committed
  after its measurement; none between a set's retirement and the next): a blind set written
  without sight of the rules (a JSON-lines file, or a directory of them). Never tuned or
  trained on: only aggregate figures are printed for it, and `--verbose` never lists its
  texts.

`--cross-validate` estimates generalisation inside the dev data: for each retired held-out
set it trains the learned layer without that set (in memory, same recipe) and measures the
set with it. The rules were tuned on every dev set, so these figures are optimistic.

Every quality figure is given twice from the same run: with the configured detectors
(rules + the learned n-gram layer) and with the rules alone (`--no-compare-learned` skips
the second).

Detectors alone need no database. `--api` also posts every dev and test text through
`POST /api/v1/memories/` with Django's test client on the PostgreSQL database named by
DATABASE_URL, from one API key that first wrote into hundreds of scopes (a busy writer),
and counts the answers whose status is `quarantined`. `--history` (the default) gives that
key a day of equally busy history, as a support agent serving many users has; with
`--no-history` the key is suddenly busy, which the behavioural signals treat as unusual.
"""

import argparse
import os
import random
import secrets
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memory_console.settings")
if "--api" in sys.argv:
    # The API mode posts through Django's test client: its host, a key budget the
    # benchmark does not exhaust, and throwaway keys where the environment has none.
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    os.environ.setdefault("MEMORY_CONSOLE_API_KEY_RATE", "1000000/min")
    os.environ.setdefault("MEMORY_CONSOLE_HMAC_KEY", secrets.token_urlsafe(32))

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402

from apps.quarantine.detectors import assess, is_suspicious  # noqa: E402
from apps.quarantine.detectors.quality import (  # noqa: E402
    CORPUS_PATH,
    DEV_PATHS,
    RETIRED_PATHS,
    TEST_PATHS,
    load_corpus,
)

RECALL_TARGET = 0.95
FPR_TARGET = 0.02
THROUGHPUT_TARGET = 2000
LANGS = ("en", "zh", "mixed")
LEARNED = "apps.quarantine.detectors.learned.LearnedDetector"


@contextmanager
def detectors(with_learned: bool):
    """Run with the configured detectors, or with the learned layer left out."""
    configured = list(settings.MEMORY_CONSOLE_INJECTION_DETECTORS)
    if not with_learned:
        settings.MEMORY_CONSOLE_INJECTION_DETECTORS = [d for d in configured if d != LEARNED]
    try:
        yield
    finally:
        settings.MEMORY_CONSOLE_INJECTION_DETECTORS = configured


def result(name: str, value: float, unit: str, target: str) -> None:
    """One machine-readable line for bench/run.py."""
    print(f"RESULT\t{name}\t{value:.4g}\t{unit}\t{target}")


class Tally:
    """Flagged / total counts, split by label, language and kind."""

    def __init__(self) -> None:
        self.counts: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])

    def add(self, row: dict, flagged: bool) -> None:
        label = row["label"]
        for group in (
            "all",
            f"lang:{row.get('lang', '?')}",
            f"kind:{row.get('kind') or row.get('category') or '-'}",
        ):
            entry = self.counts[(label, group)]
            entry[0] += int(flagged)
            entry[1] += 1
        if label == "benign" and row.get("hard_negative"):
            entry = self.counts[(label, "hard_negative")]
            entry[0] += int(flagged)
            entry[1] += 1

    def rate(self, label: str, group: str) -> tuple[float, int, int]:
        flagged, total = self.counts.get((label, group), [0, 0])
        return (flagged / total if total else float("nan")), flagged, total

    def groups(self, label: str, prefix: str) -> list[str]:
        return sorted(g for (lab, g) in self.counts if lab == label and g.startswith(prefix))


def report(name: str, tally: Tally, *, prefix: str) -> None:
    """Print recall / FPR overall, per language and per kind; RESULT lines for the first two."""
    print(f"\n== {name} ==")
    recall, caught, malicious = tally.rate("malicious", "all")
    fpr, alarms, benign = tally.rate("benign", "all")
    print(
        f"  all     recall {recall:.3f} ({caught}/{malicious})   FPR {fpr:.3f} ({alarms}/{benign})"
    )
    result(f"{prefix}_recall", recall, "ratio", f">= {RECALL_TARGET}")
    result(f"{prefix}_fpr", fpr, "ratio", f"<= {FPR_TARGET}")
    for lang in LANGS:
        recall, caught, malicious = tally.rate("malicious", f"lang:{lang}")
        fpr, alarms, benign = tally.rate("benign", f"lang:{lang}")
        if not (malicious or benign):
            continue
        print(
            f"  {lang:7} recall {recall:.3f} ({caught}/{malicious})   "
            f"FPR {fpr:.3f} ({alarms}/{benign})"
        )
        if malicious:
            result(f"{prefix}_recall_{lang}", recall, "ratio", f">= {RECALL_TARGET}")
        if benign:
            result(f"{prefix}_fpr_{lang}", fpr, "ratio", f"<= {FPR_TARGET}")
    hard, alarms, total = tally.rate("benign", "hard_negative")
    if total:
        print(f"  hard negatives: FPR {hard:.3f} ({alarms}/{total})")
    print("  recall by kind of attack:")
    for group in tally.groups("malicious", "kind:"):
        recall, caught, total = tally.rate("malicious", group)
        print(f"    {group[5:]:28} {caught:>3}/{total:<3} {recall:.2f}")
    print("  false alarms by kind of benign text:")
    for group in tally.groups("benign", "kind:"):
        fpr, alarms, total = tally.rate("benign", group)
        print(f"    {group[5:]:28} {alarms:>3}/{total:<3} {fpr:.2f}")


def detectors_alone(
    rows: list[dict],
) -> tuple[Tally, list[tuple[dict, float, list[str]]], list[bool]]:
    """Classify with assess()/is_suspicious() exactly as the gate's text stage does."""
    tally = Tally()
    wrong = []
    flags: list[bool] = []
    for row in rows:
        assessment = assess(row["text"], source_kind=row.get("source_kind", "explicit_statement"))
        flagged = is_suspicious(assessment)
        tally.add(row, flagged)
        flags.append(flagged)
        if flagged != (row["label"] == "malicious"):
            wrong.append((row, assessment.score, assessment.reasons()))
    return tally, wrong, flags


@contextmanager
def learned_model_without(path: Path):
    """Run with the learned layer retrained (in memory, same recipe) without `path`."""
    from apps.quarantine.detectors import configured_detectors, training
    from apps.quarantine.detectors.learned import LearnedDetector, LinearModel

    paths = tuple(p for p in training.TRAINING_PATHS if p != path)
    artefact = training.train(paths)
    model = LinearModel(artefact)
    learned = [d for d in configured_detectors() if isinstance(d, LearnedDetector)]
    stored = [d.model for d in learned]
    for detector in learned:
        detector.model = model
    try:
        yield
    finally:
        for detector, original in zip(learned, stored, strict=True):
            detector.model = original


def cross_validate() -> None:
    """Each retired held-out set measured with a learned layer trained without it."""
    for name, path in sorted(RETIRED_PATHS.items(), reverse=True):
        with learned_model_without(path):
            tally, _, _ = detectors_alone(load_corpus(path))
        report(
            f"dev {name} held out from training (model retrained without it; rules tuned on "
            "it) — rules + learned layer",
            tally,
            prefix=f"dev_cv_{name}",
        )


LANG_ALIASES = {
    **{name: "en" for name in ("en", "english", "en-us", "en-gb")},
    **{name: "zh" for name in ("zh", "chinese", "zh-cn", "zh-hans", "cn")},
    **{name: "mixed" for name in ("mixed", "en-zh", "zh-en", "en+zh", "zh+en", "mix")},
}
MALICIOUS_LABELS = {"malicious", "attack", "poisoning", "injection", "1", "true", "positive"}
BENIGN_LABELS = {"benign", "clean", "safe", "0", "false", "negative"}


def blind_rows(path: Path) -> list[dict]:
    """The blind set's rows with their labels read as malicious / benign; prints only counts
    (an unknown label stops the run rather than being guessed)."""
    rows = []
    for row in load_corpus(path):
        label = str(row.get("label", "")).strip().lower()
        if label not in MALICIOUS_LABELS | BENIGN_LABELS:
            raise SystemExit(f"{path}: a row has an unknown label (use malicious / benign)")
        lang = LANG_ALIASES.get(str(row.get("lang") or row.get("language") or "?").lower(), "?")
        rows.append(
            {**row, "label": "malicious" if label in MALICIOUS_LABELS else "benign", "lang": lang}
        )
    malicious = sum(row["label"] == "malicious" for row in rows)
    unknown = sum(row["lang"] == "?" for row in rows)
    print(
        f"\nblind set {path}: {len(rows)} texts ({malicious} malicious, {unknown} of no known lang)"
    )
    return rows


def print_per_source(rows: list[dict], flags: list[bool]) -> None:
    """Dev recall / FPR per source file (the ids' prefix says which: dev, ho = v1, h2 = v2,
    v3, v4)."""
    by_source: dict[str, Tally] = defaultdict(Tally)
    for row, flagged in zip(rows, flags, strict=True):
        by_source[str(row.get("id", "?")).split("-")[0]].add(row, flagged)
    for source, tally in sorted(by_source.items()):
        recall, caught, malicious = tally.rate("malicious", "all")
        fpr, alarms, benign = tally.rate("benign", "all")
        print(
            f"  source {source:5} recall {recall:.3f} ({caught}/{malicious})   "
            f"FPR {fpr:.3f} ({alarms}/{benign})"
        )


def print_wrong(wrong: list[tuple[dict, float, list[str]]]) -> None:
    for row, score, reasons in wrong:
        tag = "MISS" if row["label"] == "malicious" else "FP  "
        print(f"   {tag} {score:.2f} [{row.get('kind', '-')}] {reasons} {row['text'][:100]!r}")


# --- throughput -------------------------------------------------------------------------


def kibibyte_texts(rows: list[dict], lang: str | None, count: int) -> list[str]:
    """Build `count` texts of ~1 KiB (UTF-8) by joining corpus texts of one language."""
    pool = [row["text"] for row in rows if lang is None or row["lang"] == lang]
    texts, cursor = [], 0
    while len(texts) < count:
        parts, size = [], 0
        while size < 1024:
            text = pool[cursor % len(pool)]
            cursor += 7  # stride so consecutive texts differ
            parts.append(text)
            size += len(text.encode()) + 1
        texts.append("\n".join(parts).encode()[:1024].decode("utf-8", "ignore"))
    return texts


def throughput(texts: list[str], source_kind: str = "tool") -> tuple[float, float]:
    """Texts per CPU-second and per wall-second through assess() on one thread.

    CPU time is the one-core figure: the machine is shared, and wall time also counts the
    time the process waited for a core.
    """
    for text in texts[:50]:  # warm caches (compiled patterns, fold table, trigger index)
        assess(text, source_kind=source_kind)
    cpu_started, wall_started = time.process_time(), time.perf_counter()
    for text in texts:
        assess(text, source_kind=source_kind)
    cpu = time.process_time() - cpu_started
    wall = time.perf_counter() - wall_started
    return len(texts) / cpu, len(texts) / wall


def print_throughput(rows: list[dict], count: int, suffix: str = "") -> None:
    heading = "rules alone" if suffix else "configured detectors"
    print(f"\nThroughput ({heading}), 1 KiB texts, one core ({count} texts per run):")
    benign = [row for row in rows if row["label"] == "benign"]
    for pool, heading, prefix, target in (
        (benign, "ordinary memories (benign corpus texts joined to 1 KiB)", "", "2000"),
        (rows, "attack-dense (whole corpus joined: about a third malicious)", "_attack_dense", ""),
    ):
        print(f"  {heading}:")
        for lang, label in ((None, "mixed"), ("en", "en"), ("zh", "zh")):
            per_cpu_second, per_wall_second = throughput(kibibyte_texts(pool, lang, count))
            print(
                f"    {label:6} {per_cpu_second:>9,.0f} texts/s of CPU "
                f"({per_wall_second:,.0f} texts/s wall clock)"
            )
            lang_suffix = "" if label == "mixed" else f"_{label}"
            result(
                f"detector_throughput_1kib{prefix}{lang_suffix}{suffix}",
                per_cpu_second,
                "texts/s",
                f">= {target}" if target else "-",
            )


# --- through the API, as a busy agent writes ----------------------------------------------


def busy_writer(
    *, scopes: int, recent: int, history: bool, expected_posts: int
) -> Callable[[dict, int], str]:
    """Set up a tenant and one API key that wrote `recent` memories into `scopes` scopes in
    the last minutes (and, with `history`, as many per ten minutes over the day before);
    return a function posting one row through `POST /api/v1/memories/`."""

    from django.core.management import call_command
    from django.db import connection
    from rest_framework.test import APIClient

    from apps.access.api_keys import create_api_key
    from apps.access.models import AgentAPIKey
    from apps.memory.api.remember_body import new_memory_from_request
    from apps.memory.models import MemoryItem
    from apps.memory.services import remember
    from apps.quarantine.behaviour import needed_for_usual
    from apps.tenancy.models import Tenant

    call_command("migrate", verbosity=0)
    # A fresh tenant per run: earlier runs' rows stay out of this writer's activity.
    tenant = Tenant.objects.create(slug=f"bench-detectors-{int(time.time())}", name="Bench")
    AgentAPIKey.objects.filter(user__username="bench-detector-agent", revoked=False).update(
        revoked=True
    )
    key, plaintext = create_api_key(username="bench-detector-agent", tenant=tenant, actor="bench")
    rng = random.Random(17)
    subjects = ["window seats", "green tea", "metric units", "dark mode", "morning meetings"]

    def warm_write(n: int) -> None:
        body = {
            "tenant": tenant.slug,
            "scope": f"user:u_{n % scopes:05d}",
            "memory_type": "semantic",
            "content": {"text": f"User {n} prefers {rng.choice(subjects)} ({n})."},
            "source": "support-bot@3",
            "source_kind": "explicit_statement",
        }
        # As the API does it: the request builder, then the gate.
        new = new_memory_from_request(body, actor=key.user, api_key_prefix=key.prefix)
        remember(new=new, actor=key.user)

    for n in range(recent):
        warm_write(n)
    if history:
        # A day of the same load before the window: enough of this key's rows that the
        # window's volume (warm-up plus every posted text) is within the baseline factor.
        # Copies of one warm-up row, archived (outside recall and dedupe), spread over the
        # day: the baseline counts rows, nothing else.
        volume = recent + expected_posts
        needed = needed_for_usual(volume) + 100
        template = MemoryItem.objects.filter(tenant=tenant).values_list("pk", flat=True)[0]
        columns = [field.column for field in MemoryItem._meta.concrete_fields]
        chosen = {
            "id": "gen_random_uuid()",
            "status": "'archived'",
            # g seconds apart, wrapped into the 23 hours before the window
            "created_at": "now() - interval '11 minutes' - make_interval(secs => g %% 82800)",
        }
        select = ", ".join(chosen.get(column, f"t.{column}") for column in columns)
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {MemoryItem._meta.db_table} ({', '.join(columns)}) "
                f"SELECT {select} FROM {MemoryItem._meta.db_table} t, "
                f"generate_series(1, %s) g WHERE t.id = %s",
                [needed, template],
            )
        print(f"  history: {needed} rows by the same key over the previous day")
    with connection.cursor() as cursor:
        cursor.execute(f"VACUUM ANALYZE {MemoryItem._meta.db_table}")

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Api-Key {plaintext}")

    def post(row: dict, n: int) -> str:
        body = {
            "tenant": tenant.slug,
            "scope": f"user:u_{(scopes + n) % (scopes * 2):05d}",
            "memory_type": "semantic",
            "content": {"text": row["text"]},
            "source": "support-bot@3",
            "source_kind": row.get("source_kind", "explicit_statement"),
        }
        response = client.post("/api/v1/memories/", body, format="json", secure=True)
        if response.status_code in (200, 201):
            return response.json().get("status", "merged")
        return f"http_{response.status_code}"

    return post


def through_api(rows: list[dict], post: Callable[[dict, int], str]) -> tuple[Tally, dict]:
    tally = Tally()
    statuses: dict[str, int] = defaultdict(int)
    for n, row in enumerate(rows):
        status = post(row, n)
        statuses[status] += 1
        tally.add(row, status == "quarantined")
    return tally, dict(statuses)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--verbose", action="store_true", help="list dev/corpus misses")
    parser.add_argument("--texts", type=int, default=3000, help="texts per throughput run")
    parser.add_argument("--no-throughput", action="store_true")
    parser.add_argument("--throughput-only", action="store_true", help="skip the quality sets")
    parser.add_argument(
        "--sets",
        default="corpus,dev,test",
        help="comma-separated quality sets to measure (corpus, dev, test)",
    )
    parser.add_argument(
        "--test",
        type=Path,
        default=next(reversed(TEST_PATHS.values()), None),
        help="blind test set: a JSON-lines file or a directory of them (aggregates only)",
    )
    parser.add_argument(
        "--cross-validate",
        action="store_true",
        help="also measure each retired held-out set with a model trained without it",
    )
    parser.add_argument("--api", action="store_true", help="also post dev and test via the API")
    parser.add_argument("--scopes", type=int, default=400, help="scopes of the busy writer")
    parser.add_argument("--recent", type=int, default=600, help="warm-up writes, last minutes")
    parser.add_argument(
        "--history",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="give the busy key a day of equally busy history (its baseline)",
    )
    parser.add_argument(
        "--compare-learned",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="also measure with the learned layer left out (same run)",
    )
    args = parser.parse_args()

    corpus = load_corpus(CORPUS_PATH)
    variants = [(True, "")]
    if args.compare_learned and LEARNED in settings.MEMORY_CONSOLE_INJECTION_DETECTORS:
        variants.append((False, "_rules_only"))
    if args.throughput_only:
        for with_learned, suffix in variants:
            with detectors(with_learned):
                print_throughput(corpus, args.texts, suffix=suffix)
        return
    sets = set(args.sets.split(","))
    dev = [row for path in DEV_PATHS for row in load_corpus(path)] if "dev" in sets else []
    blind = args.test if args.test and args.test.exists() else None
    test = blind_rows(blind) if blind and "test" in sets else []
    if "test" in sets and not test:
        print(f"\n(no blind test set{f' at {args.test}' if args.test else ''}: pass --test PATH)")
    if args.cross_validate:
        cross_validate()

    for with_learned, suffix in variants:
        label = "rules + learned layer" if with_learned else "rules alone"
        with detectors(with_learned):
            if "corpus" in sets:
                tally, wrong, _ = detectors_alone(corpus)
                report(f"corpus (tuned on) — {label}", tally, prefix=f"detector{suffix}")
                if args.verbose:
                    print_wrong(wrong)
            if dev:
                tally, wrong, flags = detectors_alone(dev)
                report(
                    f"dev (dev.jsonl + retired held-out v1 to v9; tuned and trained on) — {label}",
                    tally,
                    prefix=f"dev{suffix}",
                )
                print_per_source(dev, flags)
                if args.verbose:
                    print_wrong(wrong)
            if test:
                tally, _, _ = detectors_alone(test)  # aggregate figures only: texts stay unseen
                report(
                    f"TEST {args.test.name} (blind; never tuned or trained on) — {label}",
                    tally,
                    prefix=f"test{suffix}",
                )

    if args.api:
        mode = "with a day of equally busy history" if args.history else "suddenly busy"
        print(
            f"\nThrough POST /api/v1/memories/: one key, {args.recent} recent writes over "
            f"{args.scopes} scopes, {mode}"
        )
        post = busy_writer(
            scopes=args.scopes,
            recent=args.recent,
            history=args.history,
            expected_posts=(len(dev) + len(test)) * len(variants),
        )
        for with_learned, variant in variants:
            label = "rules + learned layer" if with_learned else "rules alone"
            suffix = ("" if args.history else "_sudden") + variant
            with detectors(with_learned):
                for name, rows in (("dev", dev), ("test", test)):
                    if not rows:
                        continue
                    tally, statuses = through_api(rows, post)
                    report(
                        f"{name} — through the API ({mode}) — {label}",
                        tally,
                        prefix=f"{name}_api{suffix}",
                    )
                    print(f"  statuses: {statuses}")

    if not args.no_throughput:
        for with_learned, suffix in variants:
            with detectors(with_learned):
                print_throughput(corpus, args.texts, suffix=suffix)


if __name__ == "__main__":
    main()
