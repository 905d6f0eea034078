"""The bulk loads' lexemes (apps.memory.recall.lexemes.stored_lexemes, in Python) equal what
migration 0014's `memory_recall_lexemes` stores, run on the real database: arbitrary Latin,
CJK and mixed text, every character of the two classes, and the parser's limits."""

import codecs
import importlib

import pytest
from django.db import connection
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apps.memory.recall import lexemes
from apps.memory.recall.lexemes import SCOPE_PLACEHOLDER, lexeme_index_available, stored_lexemes

pytestmark = pytest.mark.django_db

SCOPE_ID = 73


@pytest.fixture
def lexeme_function():
    if not lexeme_index_available():
        pytest.skip("the rum extension is not installed on this database server")


def sql_and_python(scope_id: int, texts: list[str]) -> list[tuple[str, str | None, str | None]]:
    """Per text: the SQL function's tsvector, the Python one's with the scope's prefix, and
    the Python one's staged with the placeholder then given the prefix (as a restore does)."""
    computed = [(stored_lexemes(scope_id, text), stored_lexemes(None, text)) for text in texts]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT memory_recall_lexemes(%s, t)::text, p::tsvector::text, "
            "replace(r, %s, 's' || %s || 's')::tsvector::text "
            "FROM unnest(%s::text[], %s::text[], %s::text[]) WITH ORDINALITY AS x(t, p, r, n) "
            "ORDER BY n",
            [
                scope_id,
                SCOPE_PLACEHOLDER,
                scope_id,
                texts,
                [python for python, _ in computed],
                [staged for _, staged in computed],
            ],
        )
        return cursor.fetchall()


def assert_equal(scope_id: int, texts: list[str]) -> None:
    for text, (sql, python, staged) in zip(texts, sql_and_python(scope_id, texts), strict=True):
        assert python == sql, text
        assert staged == sql, text


def test_the_character_classes_are_migration_0014s():
    migration = importlib.import_module("apps.memory.migrations.0014_recall_lexeme_index")
    written = (
        codecs.decode(migration.LATIN, "unicode_escape"),
        codecs.decode(migration.CJK, "unicode_escape"),
    )
    assert written == (lexemes.LATIN, lexemes.CJK)


LATIN_ALPHABET = st.characters(min_codepoint=0x20, max_codepoint=0x24F, exclude_characters="\x7f")
CJK_ALPHABET = st.one_of(
    st.characters(min_codepoint=0x3000, max_codepoint=0x30FF),  # kana, CJK punctuation
    st.characters(min_codepoint=0x4E00, max_codepoint=0x4E80),
    st.characters(min_codepoint=0xAC00, max_codepoint=0xAC40),  # hangul
    st.characters(min_codepoint=0xF900, max_codepoint=0xFAFF),  # compatibility ideographs
    st.characters(min_codepoint=0xFF00, max_codepoint=0xFFEF),  # full- and half-width forms
)
# Characters NFKC or lower-casing turn into (or out of) the classes: ligatures, the Kelvin
# sign, dotted capital I, sharp s, combining marks, the kana voicing marks, Greek sigma.
TRICKY = st.sampled_from(list("ﬁﬃKİẞßÅé\u0301\u0308\u3099\u309a\u309b゠・ｶﾞ㈱①ΣσŉſǅⅣ\u00a0\u200b"))
MIXED_TEXT = st.text(
    alphabet=st.one_of(
        LATIN_ALPHABET,
        CJK_ALPHABET,
        TRICKY,
        st.characters(exclude_categories=["Cs"], exclude_characters="\x00"),
    ),
    max_size=60,
)


@given(texts=st.lists(MIXED_TEXT, min_size=1, max_size=20), scope_id=st.integers(1, 10**12))
@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_python_and_sql_lexemes_agree_on_arbitrary_latin_cjk_and_mixed_text(
    lexeme_function, texts, scope_id
):
    assert_equal(scope_id, texts)


def _class_characters() -> list[str]:
    """Every character of the classes where they differ from one another (Latin letters,
    kana and its marks, compatibility ideographs, the blocks' unassigned tails); one in 61
    of the uniform ideograph and hangul blocks (all checked once, 2026-12-03, 0 differ)."""
    every = [(0x30, 0x39), (0x41, 0x5A), (0x61, 0x7A), (0xC0, 0x24F), (0x3040, 0x30FF)]
    every += [(0x4DB0, 0x4DBF), (0x9FF0, 0x9FFF), (0xD790, 0xD7AF), (0xF900, 0xFAFF)]
    sampled = [(0x3400, 0x4DAF), (0x4E00, 0x9FEF), (0xAC00, 0xD78F)]
    return [chr(code) for start, end in every for code in range(start, end + 1)] + [
        chr(code) for start, end in sampled for code in range(start, end + 1, 61)
    ]


def test_the_class_characters_alone_inside_a_word_and_inside_a_cjk_run(
    lexeme_function,
):
    characters = _class_characters()
    texts = []
    for start in range(0, len(characters), 40):
        chunk = characters[start : start + 40]
        texts.append(" ".join(chunk))
        texts.append(" ".join(f"a{char}b" for char in chunk))
        texts.append(" ".join(f"朝{char}阳" for char in chunk))
        texts.append(" ".join(f"x{char}" for char in chunk) + "".join(chunk))
    assert_equal(SCOPE_ID, texts)


def test_the_parsers_limits_positions_and_empty_text(lexeme_function):
    texts = [
        "",
        "  ×÷ !? ",
        "tea " * 300,  # a lexeme keeps 255 positions
        "朝阳" * 200,
        " ".join(f"w{n}" for n in range(16_500)) + " last w3",  # positions stop at 16,383
        "a" * 2000 + " b",
    ]
    assert_equal(SCOPE_ID, texts)


def test_a_word_long_enough_for_the_prefix_to_matter_is_left_to_the_database():
    assert stored_lexemes(SCOPE_ID, "a" * 2030 + " b") is None
    assert stored_lexemes(SCOPE_ID, "a" * 2000 + " b") is not None


def test_loaders_bring_python_lexemes_only_where_the_database_folds_text_alike(
    lexeme_function, monkeypatch
):
    """The mirror holds for this server's locale and Unicode tables; on a database whose
    function gives other lexemes for the probe, bulk loads leave them to the trigger."""
    monkeypatch.setattr(lexemes, "_agreement_checked", {})
    assert lexemes.stored_lexemes_agree()
    monkeypatch.setattr(lexemes, "_agreement_checked", {})
    monkeypatch.setattr(lexemes, "stored_lexemes", lambda scope_id, text: "'s0sother':1")
    assert not lexemes.stored_lexemes_agree()
