"""Restore mappings: `OLD=NEW` pairs of scope keys (`user:u_1=user:u_9`) or subjects
(`subject:alice=subject:bob`), typed on the command line or uploaded as a two-column CSV."""

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass, field

from apps.core.errors import ServiceError
from apps.tenancy.models import ScopeKind

SUBJECT_PREFIX = "subject:"
MAX_PAIRS = 10_000


class InvalidMapping(ServiceError):
    code = "invalid_mapping"


@dataclass(frozen=True)
class Mapping:
    """Old scope key → new scope key, and old subject → new subject."""

    scopes: dict[str, str] = field(default_factory=dict)
    subjects: dict[str, str] = field(default_factory=dict)

    def as_pairs(self) -> dict[str, str]:
        return {
            **self.scopes,
            **{SUBJECT_PREFIX + k: SUBJECT_PREFIX + v for k, v in self.subjects.items()},
        }

    def __len__(self) -> int:
        return len(self.scopes) + len(self.subjects)


def _check_scope_key(key: str, line: str) -> None:
    kind, sep, external_id = key.partition(":")
    if not sep or kind not in ScopeKind.values or not external_id or len(external_id) > 200:
        raise InvalidMapping(
            f"{line}: {key!r} is not a scope key such as user:u_1024 "
            f"(kinds: {', '.join(ScopeKind.values)}) nor subject:NAME."
        )


def mapping_from_pairs(pairs: Iterable[tuple[str, str]]) -> Mapping:
    """Check each (old, new) pair; both sides are scope keys, or both are subject:…"""
    scopes: dict[str, str] = {}
    subjects: dict[str, str] = {}
    for number, (old, new) in enumerate(pairs, start=1):
        old, new = old.strip(), new.strip()
        where = f"mapping {number} ({old}={new})"
        if number > MAX_PAIRS:
            raise InvalidMapping(f"A mapping holds at most {MAX_PAIRS} pairs.")
        if old.startswith(SUBJECT_PREFIX) or new.startswith(SUBJECT_PREFIX):
            if not (old.startswith(SUBJECT_PREFIX) and new.startswith(SUBJECT_PREFIX)):
                raise InvalidMapping(f"{where}: map a subject to a subject.")
            old_subject, new_subject = old[len(SUBJECT_PREFIX) :], new[len(SUBJECT_PREFIX) :]
            if not old_subject or not new_subject:
                raise InvalidMapping(f"{where}: a subject cannot be empty.")
            target = subjects
            old, new = old_subject, new_subject
        else:
            _check_scope_key(old, where)
            _check_scope_key(new, where)
            target = scopes
        if old in target and target[old] != new:
            raise InvalidMapping(f"{where}: {old} is mapped twice.")
        target[old] = new
    return Mapping(scopes=scopes, subjects=subjects)


def parse_mapping_args(values: Iterable[str]) -> Mapping:
    """`--map OLD=NEW` values (or the console's lines of them)."""
    pairs = []
    for number, value in enumerate(values, start=1):
        value = value.strip()
        if not value:
            continue
        old, sep, new = value.partition("=")
        if not sep:
            raise InvalidMapping(f"mapping {number} ({value}): write it as OLD=NEW.")
        pairs.append((old, new))
    return mapping_from_pairs(pairs)


def parse_mapping_csv(text: str) -> Mapping:
    """A CSV of `old,new` rows (a header row `old,new` is allowed)."""
    pairs = []
    for number, row in enumerate(csv.reader(io.StringIO(text)), start=1):
        if not row or not "".join(row).strip():
            continue
        if len(row) != 2:
            raise InvalidMapping(f"CSV row {number}: expected two columns, old and new.")
        if number == 1 and [cell.strip().lower() for cell in row] == ["old", "new"]:
            continue
        pairs.append((row[0], row[1]))
    return mapping_from_pairs(pairs)
