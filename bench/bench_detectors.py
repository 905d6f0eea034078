#!/usr/bin/env python
"""Injection-detector quality and throughput (issue 5: recall >= 0.95 at FPR <= 0.02,
>= 2,000 texts/s of 1 KiB on one core).

    DEBUG=true .venv/bin/python bench/bench_detectors.py [--verbose]

Needs no database: detectors are pure functions of the text and its source kind.
"""

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memory_console.settings")

import django

django.setup()

from apps.quarantine.detectors import assess  # noqa: E402
from apps.quarantine.detectors.quality import load_corpus, measure  # noqa: E402

RECALL_TARGET = 0.95
FPR_TARGET = 0.02
THROUGHPUT_TARGET = 2000


def result(name: str, value: float, unit: str, target: str) -> None:
    """One machine-readable line for bench/run.py."""
    print(f"RESULT\t{name}\t{value:.4g}\t{unit}\t{target}")


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


def print_quality(rows: list[dict], verbose: bool) -> None:
    print(
        f"Corpus: {len(rows)} texts "
        f"({sum(r['label'] == 'malicious' for r in rows)} malicious, "
        f"{sum(r['label'] == 'benign' for r in rows)} benign)"
    )
    header = f"{'split':8} {'lang':5} {'n':>4} {'precision':>9} {'recall':>7} {'FPR':>6}"
    print("\nWith each text's own source_kind (default explicit_statement):")
    print(header)
    for split in ("all", "dev", "holdout", "blind1", "blind2", "blind3"):
        for lang in ("all", "en", "zh"):
            subset = [
                r
                for r in rows
                if (split == "all" or r.get("split", "dev") == split)
                and (lang == "all" or r["lang"] == lang)
            ]
            c = measure(subset)
            print(
                f"{split:8} {lang:5} {c.total:>4} {c.precision:>9.3f} {c.recall:>7.3f} "
                f"{c.false_positive_rate:>6.3f}"
            )
            if split == "all":
                suffix = "" if lang == "all" else f"_{lang}"
                result(f"detector_recall{suffix}", c.recall, "ratio", f">= {RECALL_TARGET}")
                result(f"detector_fpr{suffix}", c.false_positive_rate, "ratio", f"<= {FPR_TARGET}")
                result(f"detector_precision{suffix}", c.precision, "ratio", "-")
            if split in ("holdout", "blind1", "blind2", "blind3") and lang == "all" and c.total:
                result(f"detector_recall_{split}", c.recall, "ratio", f">= {RECALL_TARGET}")
                result(f"detector_fpr_{split}", c.false_positive_rate, "ratio", f"<= {FPR_TARGET}")
            if verbose and split == "all" and lang == "all":
                for miss in c.misses:
                    print(
                        f"   MISS {miss['score']:.2f} [{miss.get('source_kind', '-')}] "
                        f"{miss['text'][:110]!r}"
                    )
                for alarm in c.false_alarms:
                    print(
                        f"   FP   {alarm['score']:.2f} [{alarm.get('source_kind', '-')}] "
                        f"{alarm['reasons']} {alarm['text'][:90]!r}"
                    )
    explicit = measure(
        [r for r in rows if r["label"] == "malicious"], force_source_kind="explicit_statement"
    )
    print(
        f"\nRecall with every malicious text treated as an explicit statement "
        f"(lowest trust weight): {explicit.recall:.3f}"
    )
    result("detector_recall_explicit_statement", explicit.recall, "ratio", f">= {RECALL_TARGET}")
    if verbose:
        for miss in explicit.misses:
            print(f"   MISS(explicit) {miss['score']:.2f} {miss['text'][:110]!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--verbose", action="store_true", help="list misses and false alarms")
    parser.add_argument("--texts", type=int, default=3000, help="texts per throughput run")
    args = parser.parse_args()
    rows = load_corpus()
    print_quality(rows, args.verbose)
    print(f"\nThroughput, 1 KiB texts, one core ({args.texts} texts per run):")
    benign = [row for row in rows if row["label"] == "benign"]
    for pool, heading, prefix, target in (
        (
            benign,
            "ordinary memories (benign corpus texts joined to 1 KiB)",
            "",
            f">= {THROUGHPUT_TARGET}",
        ),
        (rows, "attack-dense (whole corpus joined: about a third malicious)", "_attack_dense", "-"),
    ):
        print(f"  {heading}:")
        for lang, label in ((None, "mixed"), ("en", "en"), ("zh", "zh")):
            per_cpu_second, per_wall_second = throughput(kibibyte_texts(pool, lang, args.texts))
            print(
                f"    {label:6} {per_cpu_second:>9,.0f} texts/s of CPU "
                f"({per_wall_second:,.0f} texts/s wall clock)"
            )
            suffix = "" if label == "mixed" else f"_{label}"
            result(f"detector_throughput_1kib{prefix}{suffix}", per_cpu_second, "texts/s", target)


if __name__ == "__main__":
    main()
