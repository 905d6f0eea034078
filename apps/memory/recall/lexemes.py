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

from collections.abc import Sequence

from memory_console.db import relation_present

LEXEME_INDEX = "memory_memoryitem_recall_lexemes"
LEXEMES_COLUMN = "recall_lexemes"


def lexeme_index_available() -> bool:
    """Whether this database has the lexeme index (migration 0014 creates it only with rum)."""
    return relation_present(LEXEME_INDEX)


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
