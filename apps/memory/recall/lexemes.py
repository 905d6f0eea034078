"""Recall's lexeme index (PostgreSQL with the `rum` extension): the lexical candidates of a
scope, best first, straight from the index.

The trigram index (migration 0002) finds the rows containing a pattern anywhere in the
table; recall then reads those rows one by one until SCAN_LIMIT of them are the scope's,
so a common word costs in proportion to the whole table's matches (80+ ms at 50,000 items
in 1,000,000), and the candidates are an arbitrary SCAN_LIMIT of the scope's matches.
Where the `rum` extension is installed, migration 0014 stores each item's lexemes in the
column `recall_lexemes` (Latin words as they are, CJK runs as their one-, two- and
three-character grams, each prefixed by the item's scope: `s2sweekly`, `s2s朝阳`) and
indexes the active items' with their positions (RUM). One index scan then reads only the
scope's entries for the query's patterns and ranks the matches by rum's `<=>` (a
ts_rank-like distance from the positions the index holds); only the CANDIDATE_LIMIT best
are read from the table.

The patterns are the trigram path's (apps.memory.recall.query.sql_patterns): a Latin stem
matches the words it begins (`prefer` finds "preferred"; inside a word, as ILIKE finds it,
it no longer does), a CJK gram (three characters at most) the runs that contain it.
Where the extension or the index is missing, recall keeps the trigram path.
"""

import re
import unicodedata
from collections.abc import Sequence

from django.db import connection

from memory_console.db import relation_present

LEXEME_INDEX = "memory_memoryitem_recall_lexemes"
LEXEMES_COLUMN = "recall_lexemes"


def lexeme_index_available() -> bool:
    """Whether this database has the lexeme index (migration 0014 creates it only with rum)."""
    return relation_present(LEXEME_INDEX)


# A text through every branch of the definition: accented Latin, a dotted capital I, full-width
# letters, a combining mark, CJK and kana runs, digits. The lower case and NFKC come from the
# database's locale and Unicode tables, which stored_lexemes mirrors only for C.UTF-8 here.
_AGREEMENT_PROBE = "Ünïcode İstanbul ｆｕｌｌ nai\u0308ve 北京朝阳区 カタカナ 2024 ﾊﾝｶｸ"
_agreement_checked: dict[str, bool] = {}


def stored_lexemes_agree() -> bool:
    """Whether a bulk load may bring lexemes computed by stored_lexemes: the index exists and
    this database's `memory_recall_lexemes` gives the same on a probe (checked once per
    database). Where not, loaders leave the column to the database's trigger."""
    if not lexeme_index_available():
        return False
    name = connection.settings_dict["NAME"]
    if name not in _agreement_checked:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT memory_recall_lexemes(0, %s) = %s::tsvector",
                [_AGREEMENT_PROBE, stored_lexemes(0, _AGREEMENT_PROBE)],
            )
            _agreement_checked[name] = bool(cursor.fetchone()[0])
    return _agreement_checked[name]


def scope_lexeme(scope_id: int, word: str) -> str:
    """A word as the scope's lexeme: the form migration 0014's `memory_recall_lexemes` stores
    (`s` scope `s` word, letters and digits only, so the text parser keeps it one word)."""
    return f"s{int(scope_id):d}s{word}"


def lexeme_query(scope_id: int, patterns: Sequence[tuple[str, bool]]) -> str:
    """The tsquery (text form) of the scope's items matching any of the patterns: a Latin
    stem as a prefix, a CJK gram as it is, each as the scope's lexeme. Patterns hold only
    letters and digits (query._TOKEN); quoting keeps any other character literal anyway."""
    parts = []
    for pattern, caseless in patterns:
        lexeme = scope_lexeme(scope_id, pattern)
        quoted = "'" + lexeme.replace("\\", "\\\\").replace("'", "''") + "'"
        parts.append(quoted if caseless else f"{quoted}:*")
    return " | ".join(parts)


# The definition mirrored by `stored_lexemes` (migration 0014's character classes; a test
# holds them equal): letters and digits of Latin scripts, and the CJK runs' characters.
LATIN = "0-9a-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f"
CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_LATIN_WORD = re.compile(f"[{LATIN}]+")
_CJK_RUN = re.compile(f"[{CJK}]+")
# In a restore the target scope may not exist yet: its lexemes are staged with this in
# place of the prefix, which the apply swaps for the scope's (`lexemes_for_scope_sql`).
SCOPE_PLACEHOLDER = "#"
# PostgreSQL's text parser ignores words over 2,047 bytes, a tsvector keeps 255 positions
# of a lexeme and none past 16,383.
_LONGEST_WORD_BYTES = 2047
_LONGEST_PREFIX_BYTES = len("s9223372036854775807s")
_MAX_POSITIONS = 255
_LAST_POSITION = 16383


def _parsed_words(prefix: str, candidate: str) -> list[str]:
    """The words PostgreSQL's text parser finds in the prefixed candidate (the prefix is
    letters and digits, so it starts the first): runs of letters and digits, a combining
    mark continuing the run it follows. Only a CJK gram can hold other characters (the
    class has a few unassigned ones, kana punctuation and the voicing marks)."""
    words, current = [], prefix
    for char in candidate:
        if char.isalnum() or (current and unicodedata.category(char)[0] == "M"):
            current += char
        elif current:
            words.append(current)
            current = ""
    return [*words, current] if current else words


def _cjk_words(prefix: str, runs: list[str]) -> list[str]:
    """The runs' one-character grams, then their two-, then their three-character ones,
    as the parser's words."""
    grams = list("".join(runs))
    for size in (2, 3):
        for run in runs:
            grams.extend(run[start : start + size] for start in range(len(run) - size + 1))
    if "".join(runs).isalnum():  # each prefixed gram is one word
        return [prefix + gram for gram in grams]
    return [word for gram in grams for word in _parsed_words(prefix, gram)]


def _prefix_may_decide(words: list[str]) -> bool:
    """Whether a word is long enough that another scope's prefix could take it past the
    parser's limit (four bytes a character at most: the byte lengths only if it may)."""
    if max(map(len, words)) * 4 + _LONGEST_PREFIX_BYTES <= _LONGEST_WORD_BYTES:
        return False
    return any(len(word.encode()) + _LONGEST_PREFIX_BYTES > _LONGEST_WORD_BYTES for word in words)


def stored_lexemes(scope_id: int | None, text: str) -> str | None:
    """What migration 0014's `memory_recall_lexemes(scope_id, text)` stores, as tsvector
    text, computed here so a bulk load skips the per-row function (the insert trigger
    leaves a row that arrives with its lexemes alone). With no scope yet, each prefix is
    SCOPE_PLACEHOLDER. None when a word is long enough for the prefix's length to decide
    whether it is indexed: the database computes those.

    Mirrors the SQL step by step (tests/memory/test_stored_lexemes.py proves them equal
    on arbitrary text and on the class characters): NFKC, lower case as the C.UTF-8 locale
    maps each character (Python's but for U+0130), Latin words, then the CJK runs' 1-, 2-
    and 3-character grams; then `to_tsvector('simple', …)`: its parser's words, one
    position each, lexemes with their first 255 positions (none past 16,383)."""
    folded = unicodedata.normalize("NFKC", text).replace("\u0130", "i").lower()
    prefix = SCOPE_PLACEHOLDER if scope_id is None else f"s{int(scope_id):d}s"
    words = [prefix + word for word in _LATIN_WORD.findall(folded)]  # letters, one word each
    runs = _CJK_RUN.findall(folded)
    if runs:
        words += _cjk_words(prefix, runs)
    if words and _prefix_may_decide(words):
        return None
    positions: dict[str, str] = {}
    if len(words) <= _MAX_POSITIONS:  # no lexeme reaches a limit
        for position, word in enumerate(words, 1):
            kept = positions.get(word)
            positions[word] = str(position) if kept is None else f"{kept},{position}"
    else:
        capped: dict[str, list[int]] = {}
        for position, word in enumerate(words, 1):
            kept = capped.setdefault(word, [])
            if len(kept) < _MAX_POSITIONS and (not kept or kept[-1] < _LAST_POSITION):
                kept.append(min(position, _LAST_POSITION))
        positions = {word: ",".join(map(str, kept)) for word, kept in capped.items()}
    return " ".join([f"'{word}':{kept}" for word, kept in positions.items()])
