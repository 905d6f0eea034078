"""The detectors' shared literal pass and the learned layer's n-gram table find exactly what
a search of their own finds (issue 17's throughput work: same findings, less work).

- Every table of the shared Aho-Corasick pass (literals.py) reports, on corpus texts and
  generated ones, the same (end offset, value) occurrences as an automaton of its own words.
- A table made after the first scan joins the pass; a table not shared keeps its own.
- The vectorised n-gram table (ngram_table.py) finds exactly the vocabulary n-grams that
  occur in a text, including characters outside its alphabet, short and empty texts.
"""

import ahocorasick
from hypothesis import given, settings
from hypothesis import strategies as st

from apps.quarantine.detectors import assess, literals
from apps.quarantine.detectors.learned import CHAR_SIZES, load_model
from apps.quarantine.detectors.ngram_table import CharNgramTable
from apps.quarantine.detectors.normalise import normalise
from apps.quarantine.detectors.quality import CORPUS_PATH, load_corpus

CORPUS = [normalise(row["text"], remember=False).text for row in load_corpus(CORPUS_PATH)]


def _own_search(table: literals.LiteralTable, text: str) -> list[tuple[int, str]]:
    automaton = ahocorasick.Automaton()
    for word, value in table.words.items():
        automaton.add_word(word, value)
    if not table.words:
        return []
    automaton.make_automaton()
    return sorted((end, repr(value)) for end, value in automaton.iter(text))


def _shared_search(table: literals.LiteralTable, text: str) -> list[tuple[int, str]]:
    return sorted((end, repr(value)) for value, ends in table.occurrences(text) for end in ends)


def _shared_tables() -> list[literals.LiteralTable]:
    assess("warm up: every detector's tables exist", source_kind="tool")
    return list(literals._tables)


def test_the_detectors_tables_share_one_pass():
    tables = _shared_tables()
    assert len(tables) >= 20  # rule triggers and prefixes, cue prefixes and anchors
    assert all(table.own is None for table in tables)


def test_every_shared_table_finds_what_its_own_automaton_finds_on_the_corpus():
    tables = _shared_tables()
    for text in CORPUS[::3]:
        for table in tables:
            assert _shared_search(table, text) == _own_search(table, text)


_WORDS = sorted({word for table in _shared_tables() for word in table.words})[::10]


@settings(max_examples=60, deadline=None)
@given(
    text=st.lists(
        st.sampled_from(_WORDS or ["a"]) | st.text(alphabet=" .,:@/-_你我ab", max_size=3),
        max_size=15,
    ).map("".join)
)
def test_every_shared_table_finds_what_its_own_automaton_finds_on_generated_texts(text):
    for table in _shared_tables():
        assert _shared_search(table, text) == _own_search(table, text)


def test_a_table_made_after_the_first_scan_joins_the_pass_and_others_keep_their_own():
    text = "the quick brown fox said zyxwv twice: zyxwv"
    _shared_tables()
    literals.LiteralTable({"brown": 1}, shared=True).occurrences(text)  # a scan
    late = literals.LiteralTable({"zyxwv": "late", "fox": "animal"}, shared=True)
    assert sorted(late.occurrences(text)) == [("animal", [18]), ("late", [29, 42])]
    alone = literals.LiteralTable({"quick": 5})
    assert alone.own is not None
    assert alone.occurrences(text) == [(5, [8])]
    assert alone not in literals._tables


def _ngrams_present(grams: list[str], text: str) -> set[str]:
    return {gram for gram in grams if gram in text}


def test_the_ngram_table_finds_every_vocabulary_ngram_of_the_model_on_the_corpus():
    model = load_model()
    grams = model.char_grams
    assert {len(gram) for gram in grams} <= set(CHAR_SIZES)
    for text in CORPUS[::5]:
        found = {grams[i] for i in model.char_table.present(text).tolist()}
        assert found == _ngrams_present(grams, text)


SMALL = ["ab", "abc", "b c", "你好", "好吗?", "zzzzz", "a\u00e9", "\U0001f600x"]
# \u0101 is in no n-gram: it packs as 0 and must never complete one.
_SMALL_ALPHABET = st.sampled_from(list("abcz 你好吗?\u00e9\U0001f600x\u0101"))


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet=_SMALL_ALPHABET, max_size=30))
def test_the_ngram_table_matches_a_substring_search_on_generated_texts(text):
    table = CharNgramTable(SMALL)
    found = table.present(text).tolist()
    assert len(found) == len(set(found))  # distinct
    assert {SMALL[i] for i in found} == _ngrams_present(SMALL, text)


def test_the_ngram_table_on_short_and_empty_texts():
    table = CharNgramTable(SMALL)
    assert table.present("").tolist() == []
    assert table.present("a").tolist() == []
    assert [SMALL[i] for i in table.present("ab").tolist()] == ["ab"]
