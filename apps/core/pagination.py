"""The one keyset pager of the console's lists (ARCHITECTURE §11: no COUNT, no OFFSET).

A page is the rows that follow (or precede) a position in a fixed ordering; the position
is carried by an opaque cursor holding the ordering's values of a row. Each page reads
size+1 rows through the ordering's index and never counts the table, so its cost stays
flat however deep the reader goes. The template `includes/pager.html` draws the links.
"""

import base64
import binascii
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import reduce
from operator import or_
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Model, Q, QuerySet


@dataclass
class KeysetPage:
    """One page: its rows, and cursors to continue along the ordering or back toward its start."""

    rows: list = field(default_factory=list)
    next_cursor: str = ""
    previous_cursor: str = ""


class KeysetPager:
    """Pages over `ordering` (field names, "-" for descending; the last one unique)."""

    def __init__(self, ordering: Sequence[str], *, size: int = 50) -> None:
        self.ordering = tuple(ordering)
        self.size = size
        self._fields = [(name.lstrip("-"), name.startswith("-")) for name in self.ordering]

    # --- cursors ------------------------------------------------------------------------

    def cursor(self, row: Model) -> str:
        """The opaque position of a row."""
        values = [_attname_value(row, name) for name, _ in self._fields]
        raw = json.dumps([str(value) for value in values], separators=(",", ":")).encode()
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    def position(self, model: type[Model], cursor: str) -> list[Any] | None:
        """The ordering values a cursor holds; None for a missing, garbled or forged one."""
        if not cursor:
            return None
        try:
            raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
            texts = json.loads(raw.decode())
            if not isinstance(texts, list) or len(texts) != len(self._fields):
                return None
            return [
                model._meta.get_field(name).to_python(text)
                for (name, _), text in zip(self._fields, texts, strict=True)
            ]
        except (binascii.Error, UnicodeDecodeError, ValueError, TypeError, ValidationError):
            return None

    # --- queries ------------------------------------------------------------------------

    def following(self, queryset: QuerySet, values: Sequence[Any]) -> QuerySet:
        """Rows after the position along the ordering (a row's values: `values_of`)."""
        return queryset.filter(self._beyond(values, forward=True))

    def values_of(self, row: Model) -> list[Any]:
        return [_attname_value(row, name) for name, _ in self._fields]

    def _beyond(self, values: Sequence[Any], *, forward: bool) -> Q:
        # (a, b, c) past (A, B, C): a past A, or a = A and b past B, or … The plain range on
        # the first column lets an index on the ordering bound the scan.
        branches = []
        for index, (name, descending) in enumerate(self._fields):
            past = "lt" if descending == forward else "gt"
            equal = {self._fields[j][0]: values[j] for j in range(index)}
            branches.append(Q(**equal, **{f"{name}__{past}": values[index]}))
        condition = reduce(or_, branches)
        if len(self._fields) > 1:
            first, descending = self._fields[0]
            bound = "lte" if descending == forward else "gte"
            condition = Q(**{f"{first}__{bound}": values[0]}) & condition
        return condition

    def _reversed(self) -> list[str]:
        return [name[1:] if name.startswith("-") else f"-{name}" for name in self.ordering]

    def page(self, queryset: QuerySet, *, after: str = "", before: str = "") -> KeysetPage:
        """The rows after (or, with `before`, preceding) a cursor; reads size+1 rows."""
        size = self.size
        newer = self.position(queryset.model, before)
        if newer is not None:
            rows = list(
                queryset.filter(self._beyond(newer, forward=False)).order_by(*self._reversed())[
                    : size + 1
                ]
            )
            has_previous, rows = len(rows) > size, rows[:size][::-1]
            return KeysetPage(
                rows,
                next_cursor=self.cursor(rows[-1]) if rows else "",
                previous_cursor=self.cursor(rows[0]) if rows and has_previous else "",
            )
        older = self.position(queryset.model, after)
        if older is not None:
            queryset = queryset.filter(self._beyond(older, forward=True))
        rows = list(queryset.order_by(*self.ordering)[: size + 1])
        has_next, rows = len(rows) > size, rows[:size]
        return KeysetPage(
            rows,
            next_cursor=self.cursor(rows[-1]) if rows and has_next else "",
            previous_cursor=self.cursor(rows[0]) if rows and older is not None else "",
        )


def _attname_value(row: Model, name: str) -> Any:
    """A row's value of an ordering field (the raw id for a foreign key or `pk`)."""
    if name == "pk":
        return row.pk
    return getattr(row, row._meta.get_field(name).attname)
