"""Training of the learned layer (learned.py), deterministic end to end.

The training data are the development sets — the project corpus, the issue 17 dev set, the
retired held-out sets v1 to v9 — the templated synthetic texts and the texts written one at
a time from the threat description (bench/data/detectors_train/). Never a blind test set
(quality.TEST_PATHS): it is only measured (bench/bench_detectors.py --test). Rows are
deduplicated and sorted by text, features are sorted, the solver is liblinear with a fixed
seed, weights are rounded: the same data give the same artefact byte for byte (with the
same OpenBLAS kernel: liblinear's dot products go through it, and another kernel can move
a weight's fifth decimal), and the artefact records the SHA-256 of the data it was
trained on.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from apps.quarantine.detectors.learned import MODEL_PATH, all_features, model_text
from apps.quarantine.detectors.quality import (
    CORPUS_PATH,
    DATA,
    DEV_PATHS,
    SYNTHETIC_PATH,
    WRITTEN_PATHS,
    load_corpus,
)

TRAINING_PATHS = (CORPUS_PATH, *DEV_PATHS, SYNTHETIC_PATH, *WRITTEN_PATHS)
KEPT_FEATURES = 25000  # the strongest weights kept in the artefact
MIN_DOCUMENTS = 2  # a feature seen in a single text is that text, not a pattern
REGULARISATION = 1.0  # liblinear's C (inverse strength), fixed
SEED = 20261201
TRAINING_COMMAND = "python manage.py train_injection_model"


def data_sha256(paths: tuple[Path, ...] = TRAINING_PATHS) -> str:
    """SHA-256 over the training files' bytes, in order, each preceded by its name."""
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.name.encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()


def training_rows(paths: tuple[Path, ...] = TRAINING_PATHS) -> list[tuple[str, int]]:
    """(folded text, 1 if malicious) for every distinct text, sorted by text."""
    labelled: dict[str, int] = {}
    for path in paths:
        for row in load_corpus(path):
            folded = model_text(row["text"])
            label = 1 if row["label"] == "malicious" else 0
            labelled[folded] = max(label, labelled.get(folded, 0))
    return sorted(labelled.items())


def _fit(rows: list[tuple[str, int]], kept: int = KEPT_FEATURES):
    """Fit on all features seen in MIN_DOCUMENTS texts, keep the strongest, refit on them."""
    import numpy as np
    from sklearn.feature_extraction.text import CountVectorizer
    from sklearn.linear_model import LogisticRegression

    vectorizer = CountVectorizer(
        analyzer=lambda folded: sorted(all_features(folded)),
        binary=True,
        min_df=MIN_DOCUMENTS,
        dtype=np.float64,
    )
    matrix = vectorizer.fit_transform([text for text, _ in rows])
    labels = np.array([label for _, label in rows])
    names = vectorizer.get_feature_names_out()

    def logistic():
        return LogisticRegression(
            C=REGULARISATION, solver="liblinear", class_weight="balanced", random_state=SEED
        )

    first = logistic().fit(matrix, labels)
    strength = np.abs(first.coef_[0])
    order = np.lexsort((names, -strength))[:kept]  # ties broken by the feature's name
    columns = np.sort(order)
    second = logistic().fit(matrix[:, columns], labels)
    weights = {
        str(names[column]): round(float(weight), 5)
        for column, weight in zip(columns, second.coef_[0], strict=True)
        if round(float(weight), 5) != 0.0
    }
    return round(float(second.intercept_[0]), 5), weights


def train(paths: tuple[Path, ...] = TRAINING_PATHS) -> dict:
    """The artefact (a JSON-able dict) trained on `paths`."""
    rows = training_rows(paths)
    bias, weights = _fit(rows)
    return {
        "format": 1,
        "training_command": TRAINING_COMMAND,
        "training_files": [str(path.relative_to(DATA.parents[1])) for path in paths],
        "data_sha256": data_sha256(paths),
        "texts": len(rows),
        "malicious": sum(label for _, label in rows),
        "kept_features": KEPT_FEATURES,
        "min_documents": MIN_DOCUMENTS,
        "regularisation": REGULARISATION,
        "seed": SEED,
        "bias": bias,
        "weights": dict(sorted(weights.items())),
    }


def serialise(artefact: dict) -> str:
    """The artefact as stable JSON text (sorted keys, one line per weight)."""
    return json.dumps(artefact, ensure_ascii=False, indent=0, sort_keys=True) + "\n"


def out_of_fold_probabilities(folds: int = 5) -> list[tuple[str, int, float]]:
    """(folded text, label, probability from a model that never saw it): for choosing
    EMIT_AT on the training data without a second look at any held-out set."""
    from sklearn.model_selection import StratifiedKFold

    from apps.quarantine.detectors.learned import LinearModel

    rows = training_rows()
    labels = [label for _, label in rows]
    result = []
    splitter = StratifiedKFold(n_splits=folds, shuffle=True, random_state=SEED)
    for train_index, test_index in splitter.split(rows, labels):
        bias, weights = _fit([rows[i] for i in train_index])
        model = LinearModel({"bias": bias, "weights": weights, "data_sha256": ""})
        for i in test_index:
            text, label = rows[i]
            result.append((text, label, model.probability(text)))
    return result


def write(artefact: dict, path: Path = MODEL_PATH) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(serialise(artefact), encoding="utf-8")
