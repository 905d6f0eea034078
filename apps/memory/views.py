"""The memory browser: a filtered, keyset-paginated list and a detail page with history.

Thin: items come from apps.memory.selectors (out of grant → 404), rollback goes
through apps.memory.services. Pages never COUNT the table: they fetch one row more
than they show to know whether a next page exists.
"""

import json
import uuid

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.views import View

from apps.core.pagination import KeysetPager
from apps.memory.filters import MemoryItemFilter
from apps.memory.forms import RollbackForm
from apps.memory.models import MemoryStatus, MemoryVersion, category_band
from apps.memory.scoring import effective_score
from apps.memory.selectors import items_visible_to, user_has_perm_on
from apps.memory.services import RollbackRefused, rollback_to_version
from apps.tenancy.permissions import Perm

PAGE_SIZE = 50
CONFLICT_RESOLVED = "conflict.resolved"


# Newest first, on the (created_at, id) index; the memory browser's pages.
MEMORY_PAGES = KeysetPager(("-created_at", "-id"), size=PAGE_SIZE)


def _optional_reverse(name: str, *args) -> str:
    """The URL of another app's action, or "" while that app has not published it."""
    try:
        return reverse(name, args=args)
    except NoReverseMatch:
        return ""


class MemoryListView(LoginRequiredMixin, View):
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
        page = MEMORY_PAGES.page(
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
        can_review = user_has_perm_on(request.user, Perm.REVIEW_MEMORIES, scope=item.scope)
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
        item = get_object_or_404(items_visible_to(request.user, Perm.REVIEW_MEMORIES), pk=pk)
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
