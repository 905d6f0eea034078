"""Detection quality on the issue 17 sets: the dev data (tuned and trained on) and a blind
test set.

A blind test set is written by an author without sight of the rules and lives outside the
repository until it is measured; then it is committed, named in quality.TEST_PATHS, and its
floor is set here from that measurement (docs/benchmarks.md). None is named between a set's
retirement and the next one's first measurement: the floor test then skips.
MEMORY_CONSOLE_DETECTOR_TEST_SET names another set (a JSON-lines file or a directory of
them) to check instead. Failures report aggregate figures only: the blind texts must stay
unseen. The earlier held-out sets v1 to v9 (bench/data/detectors_heldout*/) were each
measured blind and retired into development data; they have dev regression floors.
"""

import os
from pathlib import Path

import pytest

from apps.quarantine.detectors.quality import (
    DEV_PATH,
    RETIRED_PATHS,
    TEST_PATHS,
    TEST_SET_ENV,
    load_corpus,
    measure,
)

# The blind sets' floors, just under their first measurement, by the name TEST_PATHS gives
# the set: {lang: (min recall, max false-positive rate)}. v10 measured on 2026-12-03 with the
# tenth session's frozen detectors (bench/data/detectors_heldout_v10/README.md): all 0.900 /
# 0.053, en 0.894 / 0.055, zh 0.874 / 0.043. Never raise these above a measurement, and a
# set that has been tuned on is no longer a test set (retire it below).
TEST_FLOORS: dict[str, dict[str, tuple[float, float]]] = {
    "v10": {"all": (0.89, 0.06), "en": (0.88, 0.06), "zh": (0.86, 0.05)},
}
DEV_FLOORS = {"all": (0.98, 0.02), "en": (0.98, 0.02), "zh": (0.98, 0.02)}
# The retired held-out sets are development data now (tuned and trained on): their floors
# guard against regressions, not generalisation.
RETIRED_FLOORS = {
    "v1": {"all": (0.98, 0.015), "en": (0.98, 0.02), "zh": (0.97, 0.02)},
    "v2": {"all": (0.98, 0.015), "en": (0.98, 0.02), "zh": (0.98, 0.02)},
    # v3: measured blind once on 2026-12-01 (all 0.916 / 0.158), trained and tuned on
    # since (all 1.000 / 0.006): a dev regression floor, not a generalisation figure.
    "v3": {"all": (0.98, 0.015), "en": (0.98, 0.02), "zh": (0.98, 0.02)},
    # v4: measured blind on 2026-12-01 (all 0.729 / 0.043), used as validation and trained on
    # since (all 1.000 / 0.003).
    "v4": {"all": (0.98, 0.015), "en": (0.98, 0.02), "zh": (0.98, 0.02)},
    # v5: measured blind four times in the seventh session (last: all 0.834 / 0.026), studied
    # and trained on since.
    "v5": {"all": (0.98, 0.015), "en": (0.98, 0.02), "zh": (0.98, 0.02)},
    # v6, v7: measured blind in the eighth session (v6 0.920 / 0.038, v7 0.898 / 0.022), each
    # the check of what the ninth session tuned on the other (v7 0.915 / 0.023 with v6 trained
    # on, v6 0.941 / 0.031 with v7), then trained on: all 1.000 / 0.009 (v6) and 1.000 / 0.002 (v7).
    "v6": {"all": (0.99, 0.012), "en": (0.99, 0.02), "zh": (0.99, 0.01)},
    "v7": {"all": (0.99, 0.005), "en": (0.99, 0.005), "zh": (0.99, 0.006)},
    # v8: measured blind once in the ninth session (0.890 / 0.062), studied by kind (det9), then
    # trained on: all 0.998 / 0.008, en 1.000 / 0.005, zh 0.996 / 0.012.
    "v8": {"all": (0.99, 0.012), "en": (0.99, 0.01), "zh": (0.99, 0.015)},
    # v9: measured blind three times in the ninth session (last 0.921 / 0.045; en 0.901 / 0.056,
    # zh 0.936 / 0.033), then studied and trained on in the tenth (det10): all 1.000 / 0.005,
    # en 1.000 / 0.003, zh 1.000 / 0.006. A dev regression floor, not generalisation.
    "v9": {"all": (0.99, 0.01), "en": (0.99, 0.01), "zh": (0.99, 0.012)},
}


def _rows(path, lang):
    return [row for row in load_corpus(path) if lang == "all" or row["lang"] == lang]


def _blind_path(name: str) -> Path:
    """The set to check: the named one, or the one MEMORY_CONSOLE_DETECTOR_TEST_SET names."""
    path = Path(os.environ.get(TEST_SET_ENV) or TEST_PATHS[name])
    if not path.exists():
        pytest.skip(f"no blind test set at {path}: its floor cannot be checked")
    return path


BLIND_CASES = [(name, lang) for name in sorted(TEST_PATHS) for lang in ("all", "en", "zh")]


@pytest.mark.parametrize(
    ("name", "lang"),
    BLIND_CASES
    or [pytest.param(None, None, marks=pytest.mark.skip(reason="no blind test set is named"))],
)
def test_blind_set_recall_and_false_positive_rate_stay_above_the_measured_floor(name, lang):
    assert name in TEST_FLOORS, f"blind set {name} has no floor: set it from its measurement"
    confusion = measure(_rows(_blind_path(name), lang))
    figures = f"recall {confusion.recall:.3f}, FPR {confusion.false_positive_rate:.3f}"
    min_recall, max_fpr = TEST_FLOORS[name][lang]
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


@pytest.mark.parametrize(
    ("version", "lang"), [(v, lang) for v in sorted(RETIRED_FLOORS) for lang in ("all", "en", "zh")]
)
def test_retired_heldout_sets_recall_and_false_positive_rate_meet_the_dev_floor(version, lang):
    confusion = measure(_rows(RETIRED_PATHS[version], lang))
    min_recall, max_fpr = RETIRED_FLOORS[version][lang]
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
