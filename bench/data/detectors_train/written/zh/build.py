"""Validate the hand-written Chinese source lists and write detectors_train/written_zh.jsonl.

    python3 bench/data/detectors_train/written/zh/build.py

Every module here named mal_*.py or ben_*.py defines LABEL and ITEMS, a list of
(kind, lang, source_kind, text) written one at a time. This script only checks and
serialises them: keys and enums, length 15–1,500, no duplicates after NFKC + casefold,
no near-duplicates (character 4-gram Jaccard ≥ 0.6) among themselves or of any text in
the existing training and development files, and the brief's minimum counts.
"""

from __future__ import annotations

import importlib.util
import json
import statistics
import sys
import unicodedata
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE.parents[2]  # bench/data
OUTPUT = DATA / "detectors_train" / "written_zh.jsonl"
EXISTING = [
    DATA / "injection_corpus.jsonl",
    DATA / "detectors_dev" / "dev.jsonl",
    DATA / "detectors_heldout" / "test.jsonl",
    DATA / "detectors_heldout_v2" / "test.jsonl",
    DATA / "detectors_heldout_v3" / "test.jsonl",
    DATA / "detectors_train" / "train.jsonl",
    DATA / "detectors_train" / "written_en.jsonl",  # trainen's file, once merged
]
MALICIOUS_KINDS = {
    "false_fact",
    "injection_document",
    "injection_tool_output",
    "obfuscation",
    "delayed_trigger",
    "tool_abuse",
    "credential_harvest",
    "role_impersonation",
    "persistence",
    "exfiltration",
    "hidden_text",
    "policy_override",
}
HARD_NEGATIVE_KINDS = {
    "hn_user_preference",
    "hn_security_discussion",
    "hn_normal_word_usage",
    "hn_it_procedure",
    "hn_code_config",
    "hn_real_support_number",
    "hn_tool_output",
    "hn_email",
    "hn_web_content",
    "hn_document",
    "hn_customer_service",
    "hn_ecommerce_daily",
    "hn_own_contact_details",
    "hn_unicode_format",
    "hn_meeting_notes",
    "hn_agent_fact",
}
BENIGN_KINDS = HARD_NEGATIVE_KINDS | {"ordinary_fact", "ordinary_preference"}
LANGS = {"en", "zh", "mixed"}
SOURCE_KINDS = {"user", "agent", "tool", "document", "email", "web", "external"}
MIN_LENGTH, MAX_LENGTH = 15, 1500
NEAR_DUPLICATE = 0.6
MIN_PER_MALICIOUS_KIND = 35


def fold(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def shingles(text: str) -> frozenset[str]:
    folded = fold(text).replace(" ", "")
    return frozenset(folded[i : i + 4] for i in range(max(1, len(folded) - 3)))


def load_sources() -> list[dict]:
    rows = []
    sys.path.insert(0, str(HERE))
    for path in sorted(HERE.glob("*.py")):
        if not path.name.startswith(("mal_", "ben_")):
            continue
        spec = importlib.util.spec_from_file_location(path.stem, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        for number, (kind, lang, source_kind, text) in enumerate(module.ITEMS, 1):
            rows.append(
                {
                    "label": module.LABEL,
                    "lang": lang,
                    "kind": kind,
                    "source_kind": source_kind,
                    "text": text,
                    "_where": f"{path.name}#{number}",
                }
            )
    return rows


def validate(rows: list[dict]) -> list[str]:
    errors = []
    seen: dict[str, str] = {}
    for row in rows:
        where = row["_where"]
        kinds = MALICIOUS_KINDS if row["label"] == "malicious" else BENIGN_KINDS
        if row["label"] not in {"malicious", "benign"} or row["kind"] not in kinds:
            errors.append(f"{where}: label/kind {row['label']}/{row['kind']}")
        if row["lang"] not in LANGS or row["source_kind"] not in SOURCE_KINDS:
            errors.append(f"{where}: lang/source_kind {row['lang']}/{row['source_kind']}")
        if not MIN_LENGTH <= len(row["text"]) <= MAX_LENGTH:
            errors.append(f"{where}: length {len(row['text'])}")
        key = fold(row["text"])
        if key in seen:
            errors.append(f"{where}: duplicate of {seen[key]}")
        seen[key] = where
    errors += near_duplicates(rows)
    per_kind = Counter(row["kind"] for row in rows if row["label"] == "malicious")
    for kind in sorted(MALICIOUS_KINDS):
        if per_kind[kind] < MIN_PER_MALICIOUS_KIND:
            errors.append(f"only {per_kind[kind]} malicious texts of kind {kind}")
    return errors


def near_duplicates(rows: list[dict]) -> list[str]:
    """Pairs with 4-gram Jaccard ≥ NEAR_DUPLICATE, found through an inverted index."""
    existing = []
    for path in EXISTING:
        if path.exists():
            with path.open(encoding="utf-8") as lines:
                existing += [json.loads(line)["text"] for line in lines if line.strip()]
    corpus = [(f"{row['_where']}", shingles(row["text"])) for row in rows]
    corpus += [(f"existing:{text[:40]!r}", shingles(text)) for text in existing]
    index: dict[str, list[int]] = defaultdict(list)
    for number, (_, grams) in enumerate(corpus):
        for gram in grams:
            index[gram].append(number)
    errors = []
    for number in range(len(rows)):
        grams = corpus[number][1]
        shared: Counter[int] = Counter()
        for gram in grams:
            for other in index[gram]:
                if other != number and not (other < number):
                    shared[other] += 1
        for other, common in shared.items():
            union = len(grams) + len(corpus[other][1]) - common
            if common / union >= NEAR_DUPLICATE:
                errors.append(f"{corpus[number][0]}: near-duplicate of {corpus[other][0]}")
    return errors


def summary(rows: list[dict]) -> None:
    cells = Counter((row["label"], row["lang"], row["kind"]) for row in rows)
    for (label, lang, kind), count in sorted(cells.items()):
        print(f"{label:9} {lang:5} {kind:24} {count}")
    for label in ("malicious", "benign"):
        group = [row for row in rows if row["label"] == label]
        lengths = [len(row["text"]) for row in group]
        print(
            f"{label}: {len(group)} texts, length median {statistics.median(lengths)}, "
            f"max {max(lengths)}; by lang {dict(Counter(row['lang'] for row in group))}"
        )
    benign = [row for row in rows if row["label"] == "benign"]
    hard = sum(row["kind"].startswith("hn_") for row in benign)
    print(f"hard negatives {hard}/{len(benign)} = {hard / max(1, len(benign)):.0%}")
    for lang in sorted(LANGS):
        for label in ("malicious", "benign"):
            lengths = [len(r["text"]) for r in rows if r["lang"] == lang and r["label"] == label]
            if lengths:
                print(
                    f"  {lang:5} {label:9} n={len(lengths):4} median length "
                    f"{statistics.median(lengths)}"
                )


def main() -> int:
    rows = load_sources()
    errors = validate(rows)
    for error in errors:
        print(error, file=sys.stderr)
    summary(rows)
    if errors and "--force" not in sys.argv:
        print(f"{len(errors)} problems; nothing written", file=sys.stderr)
        return 1
    with OUTPUT.open("w", encoding="utf-8") as out:
        for row in rows:
            record = {key: row[key] for key in ("label", "lang", "kind", "source_kind", "text")}
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
    print(f"wrote {len(rows)} rows to {OUTPUT.relative_to(DATA.parent.parent)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
