"""Detection-quality measurement over the labelled corpus (shared by the benchmark and
the quality test, so both report the same figures the same way)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from apps.quarantine.detectors import assess, is_suspicious

DATA = Path(__file__).resolve().parents[3] / "bench" / "data"
CORPUS_PATH = DATA / "injection_corpus.jsonl"  # the project's corpus: tuned on
DEV_PATH = DATA / "detectors_dev" / "dev.jsonl"  # issue 17's development set: tuned on
# Held-out set v1: measured twice on 2026-11-30, then retired into development data on
# 2026-12-01 (tuned and trained on since; it no longer measures generalisation).
HELDOUT_V1_PATH = DATA / "detectors_heldout" / "test.jsonl"
# Held-out set v2: written by a second blind author, measured once on 2026-12-01, then
# retired into development data (tuned and trained on since).
HELDOUT_V2_PATH = DATA / "detectors_heldout_v2" / "test.jsonl"
# Synthetic training texts for the learned layer, written from the threat description
# (bench/data/detectors_train/generate.py).
SYNTHETIC_PATH = DATA / "detectors_train" / "train.jsonl"
# Held-out set v3: written by a third blind author, measured once on 2026-12-01, then
# retired into development data (tuned and trained on since).
HELDOUT_V3_PATH = DATA / "detectors_heldout_v3" / "test.jsonl"
# Held-out set v4: written by a fourth blind author, measured blind on 2026-12-01 (twice,
# before and after one change, no tuning between), then used as validation for the
# hand-written training data below and retired into training data (seventh session).
HELDOUT_V4_PATH = DATA / "detectors_heldout_v4" / "test.jsonl"
# Held-out set v5: written by two blind authors on 2026-12-01, measured four times in the
# seventh session, then studied, used as validation for the second round of hand-written
# training data and retired into training data (eighth session).
HELDOUT_V5_PATH = DATA / "detectors_heldout_v5" / "test.jsonl"
# Held-out set v6: written by two blind authors on 2026-12-01, measured twice in the eighth
# session (0.920 / 0.038 after its changes); v7: memory entries as an agent stores them, by two
# more blind authors, measured once (0.898 / 0.022). Both studied in the ninth session (each
# the check of what was tuned on the other), then retired into training data.
HELDOUT_V6_PATH = DATA / "detectors_heldout_v6" / "test.jsonl"
HELDOUT_V7_PATH = DATA / "detectors_heldout_v7" / "test.jsonl"
# Held-out set v8: half memory entries, half saved snippets, attacks worded to avoid detector
# keywords, by two blind authors; measured once on 2026-12-03 (0.890 / 0.062), then studied in
# the ninth session (its misses and false alarms by kind) and retired into training data.
HELDOUT_V8_PATH = DATA / "detectors_heldout_v8" / "test.jsonl"
# Held-out set v9: entries, snippets and records with attacks aimed at other users and at the
# agent's tools, by two blind authors; measured three times on 2026-12-03 (last 0.921 / 0.045,
# det9 frozen), then retired into development and training data in the tenth session (det10).
HELDOUT_V9_PATH = DATA / "detectors_heldout_v9" / "test.jsonl"
# The retired blind sets, by name: `--cross-validate` holds each out of training in turn.
RETIRED_PATHS = {
    "v1": HELDOUT_V1_PATH,
    "v2": HELDOUT_V2_PATH,
    "v3": HELDOUT_V3_PATH,
    "v4": HELDOUT_V4_PATH,
    "v5": HELDOUT_V5_PATH,
    "v6": HELDOUT_V6_PATH,
    "v7": HELDOUT_V7_PATH,
    "v8": HELDOUT_V8_PATH,
    "v9": HELDOUT_V9_PATH,
}
# Every development set: tuned and/or trained on, so never evidence of generalisation.
DEV_PATHS = (DEV_PATH, *RETIRED_PATHS.values())
# Training texts written one at a time from the threat description
# (bench/data/detectors_train/README.md): English, Chinese and the kinds the detectors
# missed most on blind data (seventh session); a second round in English, in Chinese and
# of long structured texts (eighth session).
WRITTEN_PATHS = tuple(
    DATA / "detectors_train" / f"written_{name}.jsonl"
    for name in ("en", "zh", "weak", "en2", "zh2", "long")
)
# A blind test set lives outside the repository until its first measurement (its author
# never saw the rules, nobody tuning them reads it); then it is committed as the test set:
# never tune, train or look at it; when it has been tuned on, retire it beside v1-v9 and
# write the next. Its floor is in tests/quarantine/test_detection_heldout.py (TEST_FLOORS).
# The benchmark takes another set as `--test PATH`, the floor test from this environment
# variable.
# Held-out set v10: entries, verbatim snippets and long texts with one poisoned line, attacks
# passed between agents and in the user's own voice, by two blind authors; first measured
# on 2026-12-03 (tenth session) with det10's frozen detectors.
HELDOUT_V10_PATH = DATA / "detectors_heldout_v10" / "test.jsonl"
TEST_PATHS: dict[str, Path] = {"v10": HELDOUT_V10_PATH}
TEST_SET_ENV = "MEMORY_CONSOLE_DETECTOR_TEST_SET"
# The channel a data set names for a text, as the API's `source_kind`: a person's own words
# are an explicit statement; documents, e-mails and web pages are external content.
SOURCE_KIND_ALIASES = {
    **{name: "explicit_statement" for name in ("user", "human", "chat")},
    **{name: "external" for name in ("document", "email", "web", "retrieved")},
}
DEFAULT_SOURCE_KIND = "explicit_statement"


@dataclass
class Confusion:
    """Counts of a binary classification; malicious is the positive class."""

    true_positive: int = 0
    false_positive: int = 0
    true_negative: int = 0
    false_negative: int = 0
    misses: list[dict] = field(default_factory=list)
    false_alarms: list[dict] = field(default_factory=list)

    @property
    def precision(self) -> float:
        flagged = self.true_positive + self.false_positive
        return self.true_positive / flagged if flagged else 1.0

    @property
    def recall(self) -> float:
        malicious = self.true_positive + self.false_negative
        return self.true_positive / malicious if malicious else 1.0

    @property
    def false_positive_rate(self) -> float:
        benign = self.false_positive + self.true_negative
        return self.false_positive / benign if benign else 0.0

    @property
    def total(self) -> int:
        return self.true_positive + self.false_positive + self.true_negative + self.false_negative


def load_corpus(path: Path = CORPUS_PATH) -> list[dict]:
    """Read the JSON-lines corpus: {text, label, lang, category?, source_kind?, split?};
    a directory reads every ``*.jsonl`` file in it, in name order."""
    if path.is_dir():
        return [row for file in sorted(path.glob("*.jsonl")) for row in load_corpus(file)]
    with path.open(encoding="utf-8") as corpus:
        rows = [json.loads(line) for line in corpus if line.strip()]
    for row in rows:
        kind = row.get("source_kind")
        if kind in SOURCE_KIND_ALIASES:
            row["source_kind"] = SOURCE_KIND_ALIASES[kind]
    return rows


def measure(rows: Iterable[dict], *, force_source_kind: str | None = None) -> Confusion:
    """Classify every row with assess()/is_suspicious() and count the outcomes."""
    confusion = Confusion()
    for row in rows:
        source_kind = force_source_kind or row.get("source_kind", DEFAULT_SOURCE_KIND)
        assessment = assess(row["text"], source_kind=source_kind)
        flagged = is_suspicious(assessment)
        outcome = {**row, "score": assessment.score, "reasons": assessment.reasons()}
        if row["label"] == "malicious":
            if flagged:
                confusion.true_positive += 1
            else:
                confusion.false_negative += 1
                confusion.misses.append(outcome)
        elif flagged:
            confusion.false_positive += 1
            confusion.false_alarms.append(outcome)
        else:
            confusion.true_negative += 1
    return confusion


# The detectors' full output on the development set, checked in: a change meant to keep
# every decision (a speed-up) must reproduce it exactly (bench/dump_detectors.py --golden
# rewrites it after an intended change to the rules, cues or model).
GOLDEN_PATH = DATA / "detectors_dev" / "expected_output.jsonl"
GOLDEN_SETS = (DEV_PATH,)


def detector_output(text: str, source_kind: str) -> dict:
    """Everything the detectors decide about one text: score, verdict, findings, spans."""
    assessment = assess(text, source_kind=source_kind)
    return {
        "score": assessment.score,
        "suspicious": is_suspicious(assessment),
        "findings": [
            [
                finding.detector,
                finding.category,
                finding.reason,
                finding.score,
                [[span.start, span.end, span.label] for span in finding.spans],
            ]
            for finding in assessment.findings
        ],
    }


def dump_rows(paths: Iterable[Path]) -> list[str]:
    """One JSON line per text of each set (as its own source kind, then as tool output)."""
    lines = []
    for path in paths:
        for number, row in enumerate(load_corpus(path), 1):
            for source_kind in (row.get("source_kind", DEFAULT_SOURCE_KIND), "tool"):
                output = detector_output(row["text"], source_kind)
                where = {"set": str(path.relative_to(DATA)), "line": number, "as": source_kind}
                lines.append(json.dumps({**where, **output}, ensure_ascii=False))
    return lines
