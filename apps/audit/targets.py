"""What the audit viewer may say about an event's target: a human name, and a link.

Events name their target as `app_label.model` and an id (the log outlives the rows).
Apps above audit register their targets from their AppConfig.ready() (dependency
direction: they import audit, never the reverse), each with the URL of its page and a
permission-aware lookup, so the viewer links only to pages the reader may open, with
one query per target type on the page (never one per row).
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.apps import apps
from django.urls import reverse


@dataclass(frozen=True)
class TargetKind:
    """A target type the viewer links to: its label, its page, and who may open which."""

    label: str
    url_name: str
    # (user, target ids as stored in events) -> {stored id: URL argument} the user may open
    visible: Callable[[object, list[str]], dict[str, object]]


_KINDS: dict[str, TargetKind] = {}


def register_target(target_type: str, kind: TargetKind) -> None:
    """Called from an app's ready(): events about `target_type` link to its page."""
    _KINDS[target_type] = kind


def target_label(target_type: str) -> str:
    """ "Memory", "Conflict", … ; a model's verbose name otherwise; the raw type last."""
    if target_type in _KINDS:
        return _KINDS[target_type].label
    try:
        return str(apps.get_model(target_type)._meta.verbose_name).capitalize()
    except (LookupError, ValueError):
        return target_type.replace("_", " ").capitalize()


def target_links(user, pairs: Iterable[tuple[str, str]]) -> dict[tuple[str, str], str]:
    """{(target_type, target_id): URL} for the targets on a page the user may open."""
    wanted: dict[str, set[str]] = {}
    for target_type, target_id in pairs:
        if target_type in _KINDS and target_id:
            wanted.setdefault(target_type, set()).add(target_id)
    links = {}
    for target_type, ids in wanted.items():
        kind = _KINDS[target_type]
        for target_id, argument in kind.visible(user, sorted(ids)).items():
            links[(target_type, target_id)] = reverse(kind.url_name, args=[argument])
    return links
