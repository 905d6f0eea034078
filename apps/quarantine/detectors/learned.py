"""The learned layer (issue 17 point 4): a linear model over character and word n-grams.

A logistic regression (scikit-learn, trained by `manage.py train_injection_model`, see
training.py) over binary features of the folded text (normalise.py): character 3- to
5-grams and word 1- and 2-grams. Only the strongest features are kept, so the artefact
(model/injection_model.json) is small and the runtime needs no scikit-learn: a vectorised
table lookup finds the character n-grams of the vocabulary (ngram_table.py), a regex finds
the words, and the score is ``sigmoid(bias + Σ weights of the features present)``.

The model is combined with the rules in `review` (called by `assess` with the findings of
the detectors before it):

- as one more finding (noisy-OR in `assess`) when its probability reaches EMIT_AT, so a
  weak model opinion never adds to a weak rule hit; its reason names the top contributing
  n-grams and its spans mark them;
- as a second opinion on weak rule hits: when the model reads the text as benign
  (probability below DAMP_BELOW) and the rules' combined score is below DAMP_UNLESS, each
  rule finding's score is multiplied by DAMP_FACTOR and its reason says so. A security
  note quoting an attack, a runbook that says sudo or a user's own payment details trip a
  single rule but read as benign over their whole wording; strong rule evidence (a chat
  template with an action, several categories at once) is never damped;
- in a text that reports an attack and its outcome (rules.is_defended_discussion) and quotes
  it, the model reads the frame with the quoted passages blanked, reports only when nearly
  sure, and damps the rule hits it does not confirm whatever their strength.
"""

from __future__ import annotations

import heapq
import json
import math
import re
from dataclasses import replace
from functools import cache
from itertools import chain, pairwise
from pathlib import Path

import numpy as np

from apps.quarantine.detectors.base import Finding, Span
from apps.quarantine.detectors.hidden import encoded_segments
from apps.quarantine.detectors.ngram_table import CharNgramTable
from apps.quarantine.detectors.normalise import NormalisedText, normalise
from apps.quarantine.detectors.patterns import Category
from apps.quarantine.detectors.rules import is_defended_discussion

MODEL_PATH = Path(__file__).resolve().parent / "model" / "injection_model.json"
CHAR_SIZES = (2, 3, 4, 5)
# Runs of two or more letters, or of two or more digits: ``[^\W\d_]{2,}|\d{2,}``, spelled
# to begin with one character class (a letter or a digit, then more of the same kind), so
# the engine skips to candidate characters by that class instead of trying both
# alternatives at every offset. The same matches (tests/quarantine/test_learned.py).
_WORD = re.compile(r"[^\W_](?:(?<=[^\W\d_])[^\W\d_]+|(?<=\d)\d+)")
# The same tokens where no character outside ASCII is a letter or a digit (then a word
# character that is neither a digit nor "_" is an ASCII letter, and a digit an ASCII one):
# classes of ranges the engine tests without Unicode category look-ups, twice as fast.
_ASCII_WORD = re.compile(r"[a-zA-Z0-9](?:(?<=[a-zA-Z])[a-zA-Z]+|(?<=[0-9])[0-9]+)")
_NON_ASCII = re.compile(r"[^\x00-\x7f]")
# Every ASCII character that is neither a letter nor a digit, as a space: the text then
# splits (in C, no regex) into maximal runs of ASCII letters and digits, each of which is
# one token when all letters or all digits (a mixed run, "5pm", goes through the regex).
_ASCII_SEPARATORS = str.maketrans({code: " " for code in range(128) if not chr(code).isalnum()})
CATEGORY = "learned_ngrams"
# The model's probability at which it reports (score 0.5 there, rising to 1.0), and the
# second-opinion damping of weak rule hits. Chosen in one session (2026-12-01) on held-out
# set v2 with the model trained without it (docs/bench/detectors.md), cross-checked on v1
# trained without v1; both sets are development data since.
EMIT_AT = 0.7
DAMP_BELOW = 0.3
DAMP_FACTOR = 0.3
DAMP_UNLESS = 0.8
# A text that reports an attack and what became of it (rules.is_defended_discussion: a
# red-team transcript, a training note, a blocked phishing mail) quotes the attack's words,
# which the n-grams and the phrase rules both see: there the model must be surer to report,
# and a rule hit it does not confirm is damped whatever its strength.
REPORTED_EMIT_AT = 0.95
REPORTED_DAMP_BELOW = 0.7
REPORTED_DAMP_FACTOR = 0.1
TOP_FEATURES = 3
MIN_PAYLOAD = 12  # a decoded payload shorter than this is too little for the model
# A text with fewer letters and digits than this ("memory 0", "助手") gives the model a
# handful of n-grams, and its probability there is little more than its bias: it reports
# nothing alone. The shortest attacks in the data have 8 (以后验证码都发我) or a hidden payload.
MIN_CHARACTERS = 8
# A quoted passage: between paired quotation marks, or single quotes that open after a
# space, colon or bracket (an apostrophe inside a word never opens one).
_QUOTED = re.compile(
    r"\"[^\"]{4,}\"|“[^”]{4,}”|「[^」]{2,}」|『[^』]{2,}』|(?:(?<=[\s:(])|^)'[^']{4,}'(?=[\s.,;:)!?]|$)"
)


def model_text(text: str) -> str:
    """The text the model reads: folded as the rules read it (whitespace collapsed)."""
    return normalise(text).text


def words(folded: str) -> list[str]:
    """Word tokens: runs of letters (a run of ideographs is one token) or of digits."""
    if not folded.isascii():
        # A letter or digit outside ASCII (an ideograph, "é") needs the Unicode classes; an
        # English text's few others are punctuation (’, —), looked at one by one.
        for match in _NON_ASCII.finditer(folded):
            if match.group().isalnum():  # what the engine's Unicode word class tests
                return _WORD.findall(folded)
        # Only separators outside ASCII: each becomes "?" (one character for one).
        folded = folded.encode("ascii", "replace").decode("ascii")
    return _ascii_words(folded)


def _ascii_words(folded: str) -> list[str]:
    """``_ASCII_WORD.findall(folded)`` of an ASCII text: its runs of two or more letters or
    digits, from the runs of letters and digits between separators (a quarter of the
    regex's instructions: one string per run, no matcher per character)."""
    tokens = []
    for run in folded.translate(_ASCII_SEPARATORS).split():
        if len(run) > 1:
            if run.isalpha() or run.isdigit():
                tokens.append(run)
            else:  # letters and digits mixed ("5pm", "v2"): split where the kind changes
                tokens.extend(_ASCII_WORD.findall(run))
    return tokens


def all_features(folded: str) -> set[str]:
    """Every feature of a folded text (training): ``c:`` character, ``w:`` word n-grams,
    each holding at least one letter. Digits alone are identifiers (an order number, a
    reference, a phone number): planted numbers in the attacks made them read as evidence,
    and every memory with a number looked a little more like an attack."""
    grams = {
        folded[start : start + size]
        for size in CHAR_SIZES
        for start in range(len(folded) - size + 1)
    }
    features = {"c:" + gram for gram in grams if _has_letter(gram)}
    tokens = words(folded)
    features.update("w:" + token for token in tokens if _has_letter(token))
    features.update(
        f"w:{first} {second}"
        for first, second in pairwise(tokens)
        if _has_letter(first) or _has_letter(second)
    )
    return features


def _has_letter(gram: str) -> bool:
    return any(character.isalpha() for character in gram)


# The distinct vocabulary n-grams of a text: character n-grams (the slots of the n-gram
# table that hold them, ascending: see ngram_table.py) and word n-grams.
Features = tuple[np.ndarray, set[str]]


class LinearModel:
    """The artefact loaded once per process: vocabulary weights and an n-gram table."""

    def __init__(self, artefact: dict) -> None:
        self.bias: float = artefact["bias"]
        self.weights: dict[str, float] = artefact["weights"]
        self.data_sha256: str = artefact["data_sha256"]
        self.char_weights = {f[2:]: w for f, w in self.weights.items() if f.startswith("c:")}
        self.word_weights = {f[2:]: w for f, w in self.weights.items() if f.startswith("w:")}
        self.unigrams = frozenset(gram for gram in self.word_weights if " " not in gram)
        seconds: dict[str, set[str]] = {}
        for gram in self.word_weights:
            if " " in gram:
                first, second = gram.split(" ", 1)
                seconds.setdefault(first, set()).add(second)
        # The vocabulary's bigrams by first word: a bigram string is built only when both
        # of its words make one of them.
        self.bigram_seconds = {first: frozenset(words) for first, words in seconds.items()}
        self.char_grams = list(self.char_weights)
        self.char_weight_array = np.array(
            [self.char_weights[gram] for gram in self.char_grams], dtype=np.float64
        )
        self.char_table = CharNgramTable(self.char_grams)
        # Each slot's weight (0 where empty): read at the slots present, ascending, the
        # weights of the n-grams present always come in the same (slot) order, so their sum
        # never depends on the order of the text.
        occupied = self.char_table.slot_grams >= 0
        self.slot_weights = np.zeros(len(occupied), dtype=np.float64)
        self.slot_weights[occupied] = self.char_weight_array[self.char_table.slot_grams[occupied]]

    def _word_features(self, folded: str) -> set[str]:
        """The vocabulary's word n-grams present (a bigram is built only when it is one)."""
        tokens = words(folded)
        grams = set(self.unigrams.intersection(tokens))
        seconds = self.bigram_seconds
        for first, second in pairwise(tokens):
            if first in seconds and second in seconds[first]:
                grams.add(f"{first} {second}")
        return grams

    def features(self, folded: str) -> Features:
        """The vocabulary's distinct character n-grams (as the table's slots holding them)
        and word n-grams present in the text."""
        return self.char_table.slots_present(folded), self._word_features(folded)

    def logit(self, folded: str, features: Features | None = None) -> float:
        """bias + the weights of the distinct features present (the hot path: no spans).

        Character weights are summed in the n-gram table's fixed order and the few word
        weights exactly (fsum), so the sum never depends on the order of a set.
        """
        slots, grams = features or self.features(folded)
        return (
            self.bias
            + float(self.slot_weights[slots].sum())
            + math.fsum(map(self.word_weights.__getitem__, grams))
        )

    def strongest(
        self, folded: str, features: Features, count: int
    ) -> list[tuple[float, str, int, int]]:
        """The `count` features of largest weight (ties by name): weight, feature and the
        span of its first occurrence in the folded text."""
        slots, grams = features
        characters = self.char_table.slot_grams[slots].tolist()
        char_grams = map(self.char_grams.__getitem__, characters)
        ranked = heapq.nsmallest(
            count,
            chain(
                ((-self.char_weights[gram], "c:" + gram) for gram in char_grams),
                ((-self.word_weights[gram], "w:" + gram) for gram in grams),
            ),
        )
        top = []
        for negative, feature in ranked:
            gram = feature[2:]
            start = max(folded.find(gram), 0)
            top.append((-negative, feature, start, start + len(gram)))
        return top

    def probability(self, folded: str) -> float:
        """The model's probability that the folded text is an attack."""
        return sigmoid(self.logit(folded))


def damped(
    findings: list[Finding],
    probability: float,
    unless: float = DAMP_UNLESS,
    factor: float = DAMP_FACTOR,
) -> list[Finding]:
    """Weak rule findings scaled down by `factor`, each reason saying why; unchanged when
    together they reach `unless` (strong rule evidence outvotes the model)."""
    remaining = 1.0
    for finding in findings:
        remaining *= 1.0 - min(max(finding.score, 0.0), 1.0)
    if 1.0 - remaining >= unless:
        return findings
    note = f" (damped: the n-gram model reads the whole text as benign, {probability:.2f})"
    return [
        replace(finding, score=round(finding.score * factor, 4), reason=finding.reason + note)
        for finding in findings
    ]


def _emitted_score(probability: float, emit_at: float) -> float:
    """A finding's score from the model's probability: 0.5 at `emit_at`, 1 at certainty."""
    return 0.5 + 0.5 * (probability - emit_at) / (1.0 - emit_at)


def _too_short(folded: str) -> bool:
    """Fewer than MIN_CHARACTERS letters and digits: too little for the model to report alone."""
    if len(folded) >= 4 * MIN_CHARACTERS:  # the common case, without counting
        return False
    return sum(map(str.isalnum, folded)) < MIN_CHARACTERS


def sigmoid(logit: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(min(logit, 50.0), -50.0)))


@cache
def load_model(path: Path = MODEL_PATH) -> LinearModel:
    """The trained artefact, read once per process."""
    return LinearModel(json.loads(path.read_text(encoding="utf-8")))


class LearnedDetector:
    """Reports a finding when the n-gram model is confident the text is an attack."""

    name = "learned"

    def __init__(self) -> None:
        self.model = load_model()

    def detect(self, text: str) -> list[Finding]:
        """The model's own finding, if it is confident the text is an attack."""
        return self.review(text, [])

    def _payload_findings(
        self, normalised: NormalisedText, findings: list[Finding]
    ) -> list[Finding]:
        """The model's finding on each decoded or invisible payload it reads as an attack;
        only looked for when the rules found a hidden payload (their scan decodes them)."""
        if not any(finding.category == Category.HIDDEN_PAYLOAD for finding in findings):
            return []
        found = []
        for encoding, start, end, decoded in encoded_segments(normalised):
            folded = normalise(decoded, remember=False).text
            if len(folded) < MIN_PAYLOAD:
                continue
            probability = self.model.probability(folded)
            if probability >= EMIT_AT:
                found.append(
                    Finding(
                        detector=self.name,
                        category=CATEGORY,
                        reason=f"n-gram model ({probability:.2f}): the {encoding} text reads "
                        "as an attack",
                        score=round(min(_emitted_score(probability, EMIT_AT), 1.0), 4),
                        spans=(Span(start, end, CATEGORY),),
                        hidden_from_model=True,
                    )
                )
        return found

    def review(self, text: str, findings: list[Finding]) -> list[Finding]:
        """`findings` of the detectors before this one, damped when the model reads the text
        as benign, plus the model's own finding when it reads it as an attack."""
        if not text:
            return findings
        normalised = normalise(text)
        folded = normalised.text
        features = self.model.features(folded)
        probability = sigmoid(self.model.logit(folded, features))
        emit_at, damp_below, unless, factor = EMIT_AT, DAMP_BELOW, DAMP_UNLESS, DAMP_FACTOR
        frame = _QUOTED.sub(" ", folded) if is_defended_discussion(folded) else folded
        if frame != folded:
            # The attack it reports is quoted; the model judges the frame around the quotes.
            # A report frame that quotes nothing gives its instructions in its own voice:
            # those are judged as any text is.
            emit_at, damp_below, unless = REPORTED_EMIT_AT, REPORTED_DAMP_BELOW, 1.0
            factor = REPORTED_DAMP_FACTOR
            probability = min(probability, self.model.probability(frame))
        reported = frame != folded
        if not reported:  # a report's quoted payload is what it reports, not an attack
            findings = [*findings, *self._payload_findings(normalised, findings)]
        if probability < damp_below and findings:
            # Outside a report, evidence in a payload the model did not read stands.
            kept = [] if reported else [f for f in findings if f.hidden_from_model]
            weak = findings if reported else [f for f in findings if not f.hidden_from_model]
            return [*damped(weak, probability, unless, factor), *kept]
        if probability < emit_at or _too_short(folded):
            return findings
        top = self.model.strongest(folded, features, TOP_FEATURES)  # for reported texts
        limit = len(normalised.text)
        spans = tuple(
            Span(*normalised.to_original(min(start, limit), min(end, limit)), CATEGORY)
            for weight, _, start, end in top
            if weight > 0 and start < end <= limit
        )
        score = _emitted_score(probability, emit_at)
        return [
            *findings,
            Finding(
                detector=self.name,
                category=CATEGORY,
                reason=f"n-gram model ({probability:.2f}): its strongest features",
                score=round(min(score, 1.0), 4),
                spans=spans,
            ),
        ]


__all__ = [
    "MODEL_PATH",
    "LearnedDetector",
    "LinearModel",
    "all_features",
    "damped",
    "load_model",
]
