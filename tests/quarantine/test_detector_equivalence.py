"""The detectors' speed-ups decide nothing differently (issue 17's throughput target).

- The full output (score, verdict, findings, reasons, spans) on the development set equals
  the checked-in expected output (bench/dump_detectors.py --golden rewrites it after an
  intended change to the rules, cues or model; review its diff like code).
- The literal-prefix prefilter (prefixes.py), derived from each pattern, finds exactly
  the matches a plain search finds, for every pattern of the rule and cue tables, on
  corpus texts and on generated ones.
- The per-process fold table normalises exactly as a table built for one text does.
"""

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from apps.quarantine.detectors import normalise as normalise_module
from apps.quarantine.detectors import rules
from apps.quarantine.detectors.directive import cues
from apps.quarantine.detectors.directive.matching import Bilingual, Screened
from apps.quarantine.detectors.patterns import RULES
from apps.quarantine.detectors.prefixes import (
    Prefiltered,
    PrefixIndex,
    literal_prefixes,
    next_match,
)
from apps.quarantine.detectors.quality import (
    CORPUS_PATH,
    DEV_PATH,
    GOLDEN_PATH,
    GOLDEN_SETS,
    dump_rows,
    load_corpus,
)


def test_the_detectors_reproduce_the_checked_in_output_on_the_dev_set():
    expected = GOLDEN_PATH.read_text(encoding="utf-8").splitlines()
    actual = dump_rows(GOLDEN_SETS)
    assert len(actual) == len(expected)
    for want, got in zip(expected, actual, strict=True):
        # One line per text and source kind; the message names the text's line.
        assert json.loads(got) == json.loads(want)


def _table_patterns() -> list[re.Pattern[str]]:
    """Every compiled pattern of the rule and cue tables (and the discussion cues)."""
    found: list[re.Pattern[str]] = [rule.pattern for rule in RULES]
    found += [cue.pattern for cue in cues._ACTIONS]
    for value in vars(cues).values():
        if isinstance(value, Screened):
            value = value.pattern
        if isinstance(value, Bilingual):
            found += [part.pattern for part in (value.english, value.chinese) if part]
        elif isinstance(value, re.Pattern):
            found.append(value)
    found += [rules._DISCUSSION, rules._DEFENSIVE_FRAMING]
    return found


PATTERNS = _table_patterns()
CORPUS = [row["text"].lower() for row in load_corpus(CORPUS_PATH) + load_corpus(DEV_PATH)]


def _searched(pattern: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    spans, position = [], 0
    while (match := pattern.search(text, position)) is not None:
        spans.append(match.span())
        position = max(match.end(), match.start() + 1)
    return spans


def _screened(
    pattern: re.Pattern[str], index: PrefixIndex, number: int, text: str
) -> list[tuple[int, int]]:
    starts = index.starts(text)
    offsets = starts.offsets(number) if number in starts.by_pattern else []
    spans, position = [], 0
    while (match := next_match(pattern, text, offsets, position)) is not None:
        spans.append(match.span())
        position = max(match.end(), match.start() + 1)
    return spans


def test_most_patterns_have_prefixes_and_the_rest_are_searched():
    index = PrefixIndex(PATTERNS)
    assert sum(index.screened) >= 0.8 * len(PATTERNS)
    assert index.unscreened == {n for n, s in enumerate(index.screened) if not s}


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        (
            r"\b(?:ignore|disregard) (?:all|any)",
            {"ignore all", "ignore any", "disregard all", "disregard any"},
        ),
        (r"phrases? like", {"phrase like", "phrases like"}),
        (r"red[- ]team", {"red-team", "red team"}),
        (r"(?<![./@-])\b(?:attack|attackers?)\b", {"attack"}),
        (r"(?:以|用)?(?:最高|首要)", {"以最高", "以首要", "用最高", "用首要", "最高", "首要"}),
    ],
)
def test_prefixes_are_read_from_the_pattern(pattern, expected):
    assert literal_prefixes(re.compile(pattern)) == expected


@pytest.mark.parametrize(
    "pattern",
    [r"\w+ now", r"(?i)ignore", r"[^。]{0,4}?官方", r"a|bc", r"(?:x)?yz|\d+"],
)
def test_no_prefixes_where_a_match_may_begin_anywhere(pattern):
    assert literal_prefixes(re.compile(pattern)) is None


def test_every_match_on_the_corpus_starts_with_one_of_its_patterns_prefixes():
    index = PrefixIndex(PATTERNS)
    for number, pattern in enumerate(PATTERNS):
        if not index.screened[number]:
            continue
        for text in CORPUS:
            assert _screened(pattern, index, number, text) == _searched(pattern, text), (
                pattern.pattern
            )


# Texts made of the tables' own vocabulary, corpus fragments and stray characters, so
# partial and overlapping prefixes, boundaries and look-arounds all occur.
_VOCABULARY = sorted({prefix for pattern in PATTERNS for prefix in literal_prefixes(pattern) or ()})
_FRAGMENTS = [text[start : start + 40] for text in CORPUS[:400] for start in (0, 40)]
_texts = st.lists(
    st.sampled_from(_VOCABULARY)
    | st.sampled_from(_FRAGMENTS)
    | st.text(alphabet=" .,:;!?'\"-_/@<>()[]|\n你我的了", max_size=3),
    max_size=12,
).map("".join)


@settings(max_examples=60, deadline=None)
@given(text=_texts)
def test_the_prefilter_finds_what_search_finds_on_generated_texts(text):
    index = PrefixIndex(PATTERNS)
    for number, pattern in enumerate(PATTERNS):
        if index.screened[number]:
            assert _screened(pattern, index, number, text) == _searched(pattern, text)


@settings(max_examples=60, deadline=None)
@given(text=_texts, low=st.integers(0, 200), width=st.integers(0, 300))
def test_prefiltered_search_and_finditer_honour_pos_and_endpos(text, low, width):
    high = min(len(text), low + width)
    for pattern in (rules._DISCUSSION, *(cue.pattern for cue in cues._ACTIONS[:12])):
        fast = Prefiltered(pattern)
        plain = pattern.search(text, low, high)
        found = fast.search(text, low, high)
        assert (found and found.span()) == (plain and plain.span())
        assert [m.span() for m in fast.finditer(text, low, high)] == [
            m.span() for m in pattern.finditer(text, low, high)
        ]


@settings(max_examples=200, deadline=None)
@given(
    text=st.text(
        alphabet=st.sampled_from(
            list("Ab c\t\n  ІgnОrе ＩＧＮＯＲＥ 忽 略 规则 ﬁ … \u200b\u202e\U000e0041 Σ ß ı İ 한")
        )
        | st.characters(),
        max_size=40,
    )
)
def test_the_per_process_fold_table_normalises_as_a_fresh_table_does(text):
    cached = normalise_module._normalise(text)
    limit = normalise_module.MAX_KNOWN
    normalise_module.MAX_KNOWN = 0  # a table for this text only
    try:
        fresh = normalise_module._normalise(text)
    finally:
        normalise_module.MAX_KNOWN = limit
    assert cached == fresh
