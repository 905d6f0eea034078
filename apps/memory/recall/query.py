"""Query analysis for recall: the terms a query is scored by and the patterns the
database filters on.

Latin words (minus stop words, crudely stemmed) are scored by their trigrams, CJK runs
by their bigrams, the same way on every database. The SQL patterns are at most
MAX_PATTERNS: Latin stems of 3+ characters and spread trigrams of CJK runs (which the
trigram index serves), CJK runs of one or two characters as they are.
"""

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

MAX_PATTERNS = 4
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_TOKEN = re.compile(rf"[{_CJK}]+|[0-9a-z\u00c0-\u024f]+")
_CJK_RUN = re.compile(rf"[{_CJK}]+")
_STOPWORD_TEXT = (
    "a an and are as at be by did do does for from had has have he her his how i if in is "
    "it its me my of on or our she so that the their them they this to was we were what "
    "when where which who why will with you your about any can could should would "
    "after all also before but into just more most not now only over some than then very "
    # Nearly every memory is about "the user": the word tells candidates apart no better.
    "user users"
)
_STOPWORDS = frozenset(_STOPWORD_TEXT.split())
_SUFFIXES = ("ing", "ed", "es", "ly", "s")


@dataclass(frozen=True)
class QueryTerm:
    """A query word (Latin) or run (CJK): the n-grams it is scored by and its SQL pattern."""

    grams: tuple[str, ...]
    pattern: str
    is_cjk: bool


def normalise(text: str) -> str:
    """NFKC and case-folded, so full-width and upper-case forms compare equal."""
    return unicodedata.normalize("NFKC", text).casefold()


def _stem(word: str) -> str:
    """A crude suffix strip so "prefers", "preferred" and "preferring" find "prefer"."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            stem = word[: -len(suffix)]
            if suffix in ("ed", "ing") and len(stem) > 3 and stem[-1] == stem[-2]:
                stem = stem[:-1]  # preferr(ed) -> prefer
            return stem
    return word


def _ngrams(token: str, size: int) -> tuple[str, ...]:
    if len(token) <= size:
        return (token,)
    return tuple(dict.fromkeys(token[i : i + size] for i in range(len(token) - size + 1)))


def query_terms(query: str) -> list[QueryTerm]:
    """Split a query into scored terms: Latin words (minus stop words) and CJK runs."""
    terms: list[QueryTerm] = []
    seen: set[str] = set()
    for token in _TOKEN.findall(normalise(query)):
        if token in seen:
            continue
        seen.add(token)
        if _CJK_RUN.fullmatch(token):
            terms.append(QueryTerm(_ngrams(token, 2), token, is_cjk=True))
        elif token not in _STOPWORDS:
            terms.append(QueryTerm(_ngrams(token, 3), _stem(token), is_cjk=False))
    if not terms:  # a query of stop words only still means something
        terms = [QueryTerm(_ngrams(token, 3), token, is_cjk=False) for token in seen]
    return terms


def _spread(grams: Sequence[str], count: int) -> list[str]:
    """Up to `count` grams spread evenly over a run (first and last included)."""
    if len(grams) <= count:
        return list(grams)
    if count <= 1:
        return list(grams[:1])
    step = (len(grams) - 1) / (count - 1)
    return [grams[round(i * step)] for i in range(count)]


def sql_patterns(terms: Sequence[QueryTerm]) -> list[tuple[str, bool]]:
    """What the database filters on, as (pattern, caseless) pairs, at most MAX_PATTERNS.

    Latin stems of 3+ characters and trigrams of CJK runs of 3+ characters can use the
    trigram index; CJK runs of one or two characters cannot, and are matched as they are
    within the scope (the (tenant, scope, status) index bounds that scan). Every pattern
    costs a comparison per scanned row, so long runs are sampled (spread trigrams) and
    longer, rarer words win over short ones.
    """
    latin = sorted(
        {term.pattern for term in terms if not term.is_cjk and len(term.pattern) >= 3},
        key=lambda word: (-len(word), word),
    )
    cjk_runs = [term.pattern for term in terms if term.is_cjk]
    cjk: list[str] = []
    per_run = max(1, (MAX_PATTERNS - min(len(latin), MAX_PATTERNS // 2)) // max(len(cjk_runs), 1))
    for run in cjk_runs:
        cjk += _spread(_ngrams(run, 3), min(per_run, 3))
    patterns = [(gram, True) for gram in dict.fromkeys(cjk)]
    patterns += [(word, False) for word in latin]
    if not patterns:
        patterns = [(term.pattern, term.is_cjk) for term in terms]
    return patterns[:MAX_PATTERNS]


def cjk_bigram_patterns(terms: Sequence[QueryTerm]) -> list[tuple[str, bool]]:
    """The bigrams of a query's CJK runs (spread), for the second, broader pass."""
    runs = [term for term in terms if term.is_cjk]
    per_run = max(1, MAX_PATTERNS // max(len(runs), 1))
    grams = [gram for term in runs for gram in _spread(term.grams, per_run)]
    return [(gram, True) for gram in dict.fromkeys(grams)][:MAX_PATTERNS]


def lexical_similarity(terms: Sequence[QueryTerm], text: str) -> float:
    """Average over query terms of the share of each term's n-grams present in the text."""
    if not terms:
        return 0.0
    haystack = normalise(text)
    total = 0.0
    for term in terms:
        total += sum(1 for gram in term.grams if gram in haystack) / len(term.grams)
    return total / len(terms)
