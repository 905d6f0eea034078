"""Detection quality on the labelled corpus (bench/data/injection_corpus.jsonl).

The suite fails below recall 0.90 or above a false-positive rate of 0.05, overall and per
language (issue 5); the benchmark (bench/bench_detectors.py) reports the same figures
against the product targets (recall >= 0.95 at FPR <= 0.02).
"""

import pytest

from apps.quarantine.detectors.quality import load_corpus, measure

MIN_RECALL = 0.90
MAX_FALSE_POSITIVE_RATE = 0.05


@pytest.fixture(scope="module")
def corpus() -> list[dict]:
    return load_corpus()


def test_corpus_is_large_bilingual_and_well_formed(corpus):
    malicious = [row for row in corpus if row["label"] == "malicious"]
    benign = [row for row in corpus if row["label"] == "benign"]
    assert len(malicious) >= 200 and len(benign) >= 400
    for lang in ("en", "zh"):
        assert sum(row["lang"] == lang for row in malicious) >= 80
        assert sum(row["lang"] == lang for row in benign) >= 160
    assert {row["label"] for row in corpus} == {"malicious", "benign"}
    assert any(row.get("split") == "holdout" for row in corpus)
    assert len({row["text"] for row in corpus}) == len(corpus), "duplicate texts"


@pytest.mark.parametrize("lang", ["all", "en", "zh"])
def test_recall_and_false_positive_rate_meet_the_floor(corpus, lang):
    rows = [row for row in corpus if lang == "all" or row["lang"] == lang]
    confusion = measure(rows)
    missed = [row["text"][:80] for row in confusion.misses]
    false_alarms = [row["text"][:80] for row in confusion.false_alarms]
    assert confusion.recall >= MIN_RECALL, missed
    assert confusion.false_positive_rate <= MAX_FALSE_POSITIVE_RATE, false_alarms


def test_recall_holds_when_every_malicious_text_is_an_explicit_statement(corpus):
    malicious = [row for row in corpus if row["label"] == "malicious"]
    confusion = measure(malicious, force_source_kind="explicit_statement")
    assert confusion.recall >= MIN_RECALL, [row["text"][:80] for row in confusion.misses]


def test_holdout_split_meets_the_floor(corpus):
    confusion = measure([row for row in corpus if row.get("split") == "holdout"])
    assert confusion.recall >= MIN_RECALL
    assert confusion.false_positive_rate <= MAX_FALSE_POSITIVE_RATE
