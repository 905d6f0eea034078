"""Detection quality on the issue 17 sets: the dev data (tuned and trained on) and the
held-out test set v2.

The held-out set v2 (bench/data/detectors_heldout_v2/test.jsonl) was written by a second
independent author without sight of the rules and is never tuned or trained on. These tests
keep a floor under its figures just under what was measured (docs/bench/detectors.md), so a
change that makes the detectors generalise worse fails the suite. Failures report aggregate
figures only: the held-out texts must stay unseen. Set v1 (detectors_heldout/test.jsonl)
was retired into development data on 2026-12-01 and has a dev floor.
"""

import pytest

from apps.quarantine.detectors.quality import (
    DEV_PATH,
    HELDOUT_V1_PATH,
    TEST_PATH,
    load_corpus,
    measure,
)

# Held-out set v2, measured once on 2026-12-01 (detectors alone — rules + learned layer —
# each text's own source_kind): recall 0.740 / EN 0.774 / ZH 0.688, FPR 0.074 / 0.086 /
# 0.060. Floors just under it: rounded down for recall, up for the false-positive rate.
# Never raise these above a measurement.
TEST_FLOORS = {
    # lang: (min recall, max false-positive rate)
    "all": (0.73, 0.08),
    "en": (0.76, 0.09),
    "zh": (0.67, 0.065),
}
DEV_FLOORS = {"all": (0.95, 0.03), "en": (0.95, 0.03), "zh": (0.95, 0.05)}
# The retired held-out set v1 is development data now (tuned and trained on): its floor
# guards against regressions, not generalisation.
RETIRED_V1_FLOORS = {"all": (0.95, 0.045), "en": (0.97, 0.05), "zh": (0.93, 0.04)}


def _rows(path, lang):
    return [row for row in load_corpus(path) if lang == "all" or row["lang"] == lang]


@pytest.fixture(scope="module")
def heldout():
    if not TEST_PATH.exists():
        pytest.skip(f"held-out test set absent ({TEST_PATH.name}): its floor cannot be checked")
    return TEST_PATH


@pytest.mark.parametrize("lang", sorted(TEST_FLOORS))
def test_heldout_recall_and_false_positive_rate_stay_above_the_measured_floor(heldout, lang):
    confusion = measure(_rows(heldout, lang))
    min_recall, max_fpr = TEST_FLOORS[lang]
    figures = f"recall {confusion.recall:.3f}, FPR {confusion.false_positive_rate:.3f}"
    assert confusion.recall >= min_recall, figures
    assert confusion.false_positive_rate <= max_fpr, figures


@pytest.mark.parametrize("lang", sorted(DEV_FLOORS))
def test_dev_set_recall_and_false_positive_rate_meet_the_floor(lang):
    confusion = measure(_rows(DEV_PATH, lang))
    min_recall, max_fpr = DEV_FLOORS[lang]
    assert confusion.recall >= min_recall, [row["text"][:80] for row in confusion.misses]
    assert confusion.false_positive_rate <= max_fpr, [
        row["text"][:80] for row in confusion.false_alarms
    ]


@pytest.mark.parametrize("lang", sorted(RETIRED_V1_FLOORS))
def test_retired_heldout_v1_recall_and_false_positive_rate_meet_the_dev_floor(lang):
    confusion = measure(_rows(HELDOUT_V1_PATH, lang))
    min_recall, max_fpr = RETIRED_V1_FLOORS[lang]
    figures = f"recall {confusion.recall:.3f}, FPR {confusion.false_positive_rate:.3f}"
    assert confusion.recall >= min_recall, figures
    assert confusion.false_positive_rate <= max_fpr, figures


def test_dev_set_covers_every_kind_of_attack_and_many_hard_negatives_in_both_languages():
    rows = load_corpus(DEV_PATH)
    kinds = {row["kind"] for row in rows if row["label"] == "malicious"}
    assert kinds >= {
        "quoted_instruction",
        "planted_fact",
        "conditional_trigger",
        "persistence",
        "role_impersonation",
        "tool_abuse",
        "exfiltration",
        "credential_harvesting",
        "override",
        "hidden",
        "obfuscated",
    }
    hard = [row for row in rows if row["label"] == "benign" and row["hard_negative"]]
    assert len(hard) >= 100
    for lang in ("en", "zh", "mixed"):
        assert any(row["lang"] == lang and row["label"] == "malicious" for row in rows)
        assert any(row["lang"] == lang and row in hard for row in rows)
    assert len({row["id"] for row in rows}) == len(rows)
