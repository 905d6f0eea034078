#!/usr/bin/env python
"""Dump the full detector output (score, verdict, findings with detector, category, reason,
score and spans) for every text of the labelled sets, one JSON line per text, so a change
that should not alter any decision can be checked against the output before it.

    DEBUG=true .venv/bin/python bench/dump_detectors.py /tmp/before.jsonl
    DEBUG=true .venv/bin/python bench/dump_detectors.py /tmp/after.jsonl
    cmp /tmp/before.jsonl /tmp/after.jsonl

Every text is assessed twice, as an explicit statement and as tool output (the source
weight moves the score, not the findings). `--golden` rewrites the checked-in expected
output of the dev set that tests/quarantine/test_detector_equivalence.py compares with:
run it after an intended change to the rules, the cues or the model, and review the diff.
"""

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memory_console.settings")

import django  # noqa: E402

django.setup()

from apps.quarantine.detectors.quality import (  # noqa: E402
    CORPUS_PATH,
    DEV_PATHS,
    GOLDEN_PATH,
    GOLDEN_SETS,
    dump_rows,
)

ALL_SETS = (CORPUS_PATH, *DEV_PATHS)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", nargs="?", help="where to write the dump (every set)")
    parser.add_argument("--golden", action="store_true", help=f"rewrite {GOLDEN_PATH.name}")
    args = parser.parse_args()
    if args.golden:
        lines = dump_rows(GOLDEN_SETS)
        GOLDEN_PATH.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        print(f"{len(lines)} lines written to {GOLDEN_PATH.relative_to(ROOT)}")
    if args.output:
        lines = dump_rows(ALL_SETS)
        Path(args.output).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        print(f"{len(lines)} lines written to {args.output}")
    if not (args.golden or args.output):
        parser.error("give an output path, --golden, or both")


if __name__ == "__main__":
    main()
