"""The memory browser: a filtered, keyset-paginated list and a detail page with history.

Thin: items come from apps.memory.selectors (out of grant → 404), rollback goes
through apps.memory.services. Pages never COUNT the table: they fetch one row more
than they show to know whether a next page exists.
"""

import base64
import json
import uuid
from dataclasses import dataclass, field
from datetime import datetime

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.db.models import Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.views import View

from apps.access.sections import SectionRequiredMixin
from apps.memory.filters import MemoryItemFilter
from apps.memory.forms import RollbackForm
from apps.memory.models import MemoryItem, MemoryStatus, MemoryVersion, category_band
from apps.memory.scoring import effective_score
from apps.memory.selectors import items_visible_to, user_has_perm_on
from apps.memory.services import RollbackRefused, rollback_to_version

PAGE_SIZE = 50
REVIEW_PERM = "review_memories"
CONFLICT_RESOLVED = "conflict.resolved"


@dataclass
class KeysetPage:
    """One page of items, newest first, with cursors to its neighbours (no COUNT)."""

    rows: list[MemoryItem] = field(default_factory=list)
    next_cursor: str = ""
    previous_cursor: str = ""


def encode_cursor(item: MemoryItem) -> str:
    raw = f"{item.created_at.isoformat()}|{item.pk.hex}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[datetime, uuid.UUID] | None:
    """The (created_at, id) a cursor names; None for a missing or garbled one."""
    if not cursor:
        return None
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        stamp, _, pk = raw.rpartition("|")
        created_at = parse_datetime(stamp)
        return (created_at, uuid.UUID(pk)) if created_at else None
    except (ValueError, UnicodeDecodeError):
        return None


def keyset_page(
    queryset: QuerySet[MemoryItem], *, after: str = "", before: str = "", size: int = PAGE_SIZE
) -> KeysetPage:
    """Rows after (older than) or before (newer than) a cursor; fetches size+1 rows."""
    page = KeysetPage()
    newer = decode_cursor(before)
    older = decode_cursor(after)
    if newer is not None:
        created_at, pk = newer
        rows = list(
            queryset.filter(
                Q(created_at__gt=created_at) | Q(created_at=created_at, pk__gt=pk)
            ).order_by("created_at", "pk")[: size + 1]
        )
        has_previous, rows = len(rows) > size, rows[:size]
        page.rows = rows[::-1]
        if page.rows:
            page.next_cursor = encode_cursor(page.rows[-1])
        if has_previous:
            page.previous_cursor = encode_cursor(page.rows[0])
        return page
    if older is not None:
        created_at, pk = older
        queryset = queryset.filter(
            Q(created_at__lt=created_at) | Q(created_at=created_at, pk__lt=pk)
        )
    rows = list(queryset.order_by("-created_at", "-pk")[: size + 1])
    page.rows = rows[:size]
    if len(rows) > size:
        page.next_cursor = encode_cursor(page.rows[-1])
    if older is not None and page.rows:
        page.previous_cursor = encode_cursor(page.rows[0])
    return page


def _optional_reverse(name: str, *args) -> str:
    """The URL of another app's action, or "" while that app has not published it."""
    try:
        return reverse(name, args=args)
    except NoReverseMatch:
        return ""


class MemoryListView(SectionRequiredMixin, View):
    """Items the user may read, newest first, filtered, keyset-paginated."""

    section = "memory:list"

    def get(self, request: HttpRequest) -> HttpResponse:
        visible = (
            items_visible_to(request.user)
            .select_related("tenant", "scope")
            .defer("content", "embedding", "sealed_content")
        )
        filterset = MemoryItemFilter(request.GET or None, queryset=visible, request=request)
        # An invalid filter (e.g. a tenant outside the grant) shows nothing, not everything.
        valid = not filterset.is_bound or filterset.is_valid()
        matching = filterset.qs if valid else visible.none()
        page = keyset_page(
            matching,
            after=request.GET.get("after", ""),
            before=request.GET.get("before", ""),
        )
        query = request.GET.copy()
        query.pop("after", None)
        query.pop("before", None)
        context = {"filter": filterset, "page": page, "query": query.urlencode()}
        return render(request, "memory/list.html", context)


class MemoryDetailView(LoginRequiredMixin, View):
    """One item: escaped content, provenance, score now, lifecycle and version history."""

    def get(self, request: HttpRequest, pk: uuid.UUID) -> HttpResponse:
        item = get_object_or_404(
            items_visible_to(request.user).select_related(
                "tenant", "scope", "created_by", "superseded_by"
            ),
            pk=pk,
        )
        now = timezone.now()
        can_review = user_has_perm_on(request.user, REVIEW_PERM, scope=item.scope)
        versions = list(item.versions.select_related("changed_by").order_by("-version"))
        for version in versions:
            version.revert_url = self._conflict_revert_url(version) if can_review else ""
        context = {
            "item": item,
            "content_json": json.dumps(item.content, indent=2, ensure_ascii=False),
            "score_now": effective_score(
                importance=item.importance,
                half_life_days=item.half_life_days,
                last_access_at=item.last_access_at,
                now=now,
            ),
            "band": category_band(item.category),
            "now": now,
            "versions": versions,
            "can_review": can_review,
            "reinstate_url": (
                _optional_reverse("conflicts:reinstate", item.pk)
                if can_review and item.status == MemoryStatus.SUPERSEDED
                else ""
            ),
        }
        return render(request, "memory/detail.html", context)

    @staticmethod
    def _conflict_revert_url(version: MemoryVersion) -> str:
        """Undo of a conflict resolution, offered on the version that resolution wrote."""
        if version.change != CONFLICT_RESOLVED or not version.reference.startswith("conflict:"):
            return ""
        conflict_pk = version.reference.partition(":")[2]
        return (
            _optional_reverse("conflicts:revert", int(conflict_pk)) if conflict_pk.isdigit() else ""
        )


class MemoryRollbackView(LoginRequiredMixin, View):
    """Restore an item as it stood at an earlier version (needs review rights on its scope)."""

    def post(self, request: HttpRequest, pk: uuid.UUID) -> HttpResponse:
        item = get_object_or_404(items_visible_to(request.user, REVIEW_PERM), pk=pk)
        form = RollbackForm(request.POST, item=item)
        if not form.is_valid():
            problems = [
                f"{'Reason' if name == 'reason' else 'Version'}: {' '.join(errors)}"
                for name, errors in form.errors.items()
            ]
            messages.error(request, " ".join(problems))
            return redirect("memory:detail", pk=item.pk)
        version = form.cleaned_data["version"]
        try:
            restored = rollback_to_version(
                item_id=item.pk,
                version=version,
                actor=request.user,
                reason=form.cleaned_data["reason"],
            )
        except RollbackRefused as refusal:
            messages.error(request, refusal.message)
            return redirect("memory:detail", pk=item.pk)
        if restored.status == MemoryStatus.PENDING_REVIEW:
            messages.warning(
                request,
                f"Rolled back to version {version}. Its value still contradicts the active one, "
                "so it waits in a new conflict for review.",
            )
        else:
            messages.success(request, f"Rolled back to version {version}.")
        return redirect("memory:detail", pk=item.pk)
