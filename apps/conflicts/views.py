"""The review screen: queue, side-by-side review, resolutions, bulk, undo, reinstate.

Thin: selectors pick what the user may see (404 otherwise), services do the work.
htmx requests get partials (the next conflict, an updated row); others get redirects.
"""

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views import View

from apps.access.selectors import tenants_visible_to
from apps.conflicts.forms import KEEP_NEWEST, BulkKeepNewestForm, QueueFilterForm, ResolveForm
from apps.conflicts.models import Conflict, Resolution
from apps.conflicts.selectors import (
    conflict_review,
    conflicts_visible_to,
    next_open_conflict,
    open_conflicts_for,
    queue_page,
)
from apps.conflicts.services import (
    bulk_keep_newest,
    newest_resolution,
    reinstate_item,
    resolve_conflict,
    revert_resolution,
)
from apps.core.errors import ServiceError
from apps.core.htmx import is_partial
from apps.memory.selectors import items_visible_to
from apps.tenancy.permissions import Perm


def _safe_next(request: HttpRequest, fallback: str) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return fallback


def _visible_conflict(request: HttpRequest, pk: int) -> Conflict:
    return get_object_or_404(
        conflicts_visible_to(request.user).select_related("tenant", "scope", "resolved_by"), pk=pk
    )


def _panel(request, conflict, *, form=None, notice="", error="", status=200) -> HttpResponse:
    """The side-by-side panel of one conflict (the detail page's swappable part)."""
    context = {
        "review": conflict_review(conflict) if conflict else None,
        "conflict": conflict,
        "form": form or _initial_form(conflict),
        "notice": notice,
        "error": error,
    }
    return render(request, "conflicts/partials/panel.html", context, status=status)


def _initial_form(conflict: Conflict | None) -> ResolveForm:
    return ResolveForm(initial={"resolution": Resolution.KEEP_NEW})


class QueueView(LoginRequiredMixin, View):
    """Open conflicts, oldest first, filtered, keyset-paginated (no COUNT)."""

    section = "conflicts:list"

    def get(self, request: HttpRequest) -> HttpResponse:
        tenants = tenants_visible_to(request.user, Perm.REVIEW_MEMORIES).only("slug", "name")
        form = QueueFilterForm(request.GET or None, tenants=tenants)
        queryset = open_conflicts_for(request.user, **form.filters())
        page = queue_page(
            queryset, after=request.GET.get("after", ""), before=request.GET.get("before", "")
        )
        query = request.GET.copy()
        query.pop("after", None)
        query.pop("before", None)
        context = {"form": form, "page": page, "query": query.urlencode()}
        template = "conflicts/list.html"
        if is_partial(request, target="conflict-rows"):
            template = "conflicts/partials/rows.html"
        return render(request, template, context)


class DetailView(LoginRequiredMixin, View):
    """Side-by-side review of one conflict."""

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        conflict = _visible_conflict(request, pk)
        context = {
            "conflict": conflict,
            "review": conflict_review(conflict),
            "form": _initial_form(conflict),
        }
        return render(request, "conflicts/detail.html", context)


class ResolveView(LoginRequiredMixin, View):
    """Apply a resolution; htmx gets the next conflict's panel (or the updated row)."""

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        conflict = _visible_conflict(request, pk)
        form = ResolveForm(request.POST)
        as_row = request.POST.get("context") == "row"
        if not form.is_valid():
            message = " ".join(e for errors in form.errors.values() for e in errors)
            return self._refused(request, conflict, form, message, as_row=as_row, status=400)
        resolution = form.cleaned_data["resolution"]
        if resolution == KEEP_NEWEST:
            resolution = newest_resolution(conflict)
        try:
            resolve_conflict(
                conflict_id=conflict.pk,
                resolution=resolution,
                actor=request.user,
                reason=form.cleaned_data["reason"],
                content=form.cleaned_data.get("merged"),
            )
        except ServiceError as exc:
            conflict.refresh_from_db()
            return self._refused(request, conflict, form, exc.message, as_row=as_row, status=409)
        conflict.refresh_from_db()
        notice = f"Conflict {conflict.pk} resolved: {conflict.get_resolution_display()}."
        if as_row:
            return render(request, "conflicts/partials/row.html", {"conflict": conflict})
        following = next_open_conflict(request.user, after=conflict)
        if is_partial(request):
            response = _panel(request, following, notice=notice)
            # The URL follows the panel (the breadcrumb and title are inside it).
            response["HX-Push-Url"] = (
                reverse("conflicts:detail", args=[following.pk])
                if following is not None
                else reverse("conflicts:list")
            )
            return response
        messages.success(request, notice)
        if following is not None:
            return redirect("conflicts:detail", pk=following.pk)
        return redirect("conflicts:list")

    def _refused(self, request, conflict, form, message, *, as_row, status) -> HttpResponse:
        # htmx swaps only 2xx answers by default, so the partial carries the error with 200.
        if as_row:
            context = {"conflict": conflict, "row_error": message}
            return render(request, "conflicts/partials/row.html", context)
        if is_partial(request):
            return _panel(request, conflict, form=form, error=message)
        context = {
            "conflict": conflict,
            "review": conflict_review(conflict),
            "form": form,
            "error": message,
        }
        return render(request, "conflicts/detail.html", context, status=status)


class BulkKeepNewestView(LoginRequiredMixin, View):
    """Keep the newest value in every selected conflict the user may review."""

    def post(self, request: HttpRequest) -> HttpResponse:
        form = BulkKeepNewestForm(request.POST)
        back = _safe_next(request, reverse("conflicts:list"))
        if not form.is_valid():
            for errors in form.errors.values():
                for error in errors:
                    messages.error(request, error)
            return redirect(back)
        selected = list(
            conflicts_visible_to(request.user)
            .filter(pk__in=form.cleaned_data["ids"])
            .select_related("existing_item", "incoming_item")
            .order_by("created_at", "id")
        )
        result = bulk_keep_newest(
            conflicts=selected, actor=request.user, reason=form.cleaned_data["reason"]
        )
        if result.resolved:
            messages.success(request, f"Kept the newest value in {len(result.resolved)} conflicts.")
        for pk, reason in result.skipped.items():
            messages.warning(request, f"Skipped conflict {pk}: {reason}")
        return redirect(back)


class RevertView(LoginRequiredMixin, View):
    """Undo a resolution (posted from the conflict page or the item's history page)."""

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        conflict = _visible_conflict(request, pk)
        try:
            revert_resolution(
                conflict_id=conflict.pk, actor=request.user, reason=request.POST.get("reason", "")
            )
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, f"Resolution of conflict {conflict.pk} undone; it is open.")
        return redirect(_safe_next(request, reverse("conflicts:detail", args=[conflict.pk])))


class ReinstateView(LoginRequiredMixin, View):
    """Bring a superseded memory back (posted from the memory's page)."""

    def post(self, request: HttpRequest, item_id) -> HttpResponse:
        item = get_object_or_404(items_visible_to(request.user, Perm.REVIEW_MEMORIES), pk=item_id)
        try:
            reinstate_item(
                item_id=item.pk, actor=request.user, reason=request.POST.get("reason", "")
            )
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, f"{item.public_id} reinstated; its successor is superseded.")
        try:
            fallback = reverse("memory:detail", args=[item.pk])
        except NoReverseMatch:
            fallback = reverse("conflicts:list")
        return redirect(_safe_next(request, fallback))
