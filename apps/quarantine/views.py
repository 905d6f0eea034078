"""The operators' review queue (ARCHITECTURE §11): thin views over selectors and services.

Decisions are htmx posts: the answer is the next entry's panel (plus an out-of-band
removal of the decided row), so the queue advances without a page load. Plain POSTs
fall back to a redirect. Objects outside the user's grant answer 404.
"""

import json
from datetime import timedelta
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views import View

from apps.access.selectors import tenants_visible_to
from apps.core.errors import ServiceError
from apps.core.htmx import is_partial
from apps.core.pagination import KeysetPage
from apps.quarantine import selectors, services
from apps.quarantine.filters import QuarantineEntryFilter
from apps.quarantine.forms import (
    BlastRadiusActionForm,
    BlastRadiusForm,
    BulkDecisionForm,
    DecisionForm,
    EditReleaseForm,
)
from apps.quarantine.models import EntryStatus, QuarantineEntry
from apps.tenancy.permissions import Perm

PAST_TENSE = {
    "release": "released",
    "edit": "edited and released",
    "reject": "rejected",
    "escalate": "escalated",
}
PAGE_SIZE = 50
COUNT_CAP = 100


def _is_reviewer(user) -> bool:
    return tenants_visible_to(user, Perm.REVIEW_MEMORIES).exists()


def entry_panel_context(request: HttpRequest, entry: QuarantineEntry | None) -> dict:
    """What the entry panel shows: highlighted text, pretty JSON, provenance, same-key items."""
    if entry is None:
        return {"entry": None}
    item = entry.item
    text = item.text if item is not None else ""
    return {
        "entry": entry,
        "item": item,
        "fragments": selectors.highlight_fragments(text, entry.spans),
        "pretty_content": (
            json.dumps(item.content, indent=2, ensure_ascii=False, sort_keys=True) if item else ""
        ),
        "same_key_items": selectors.same_key_items(entry),
        "edit_form": EditReleaseForm(
            initial={"content": json.dumps(item.content, indent=2, ensure_ascii=False)}
            if item
            else {}
        ),
    }


def _panel_entry(pk: int) -> QuarantineEntry:
    """An entry already known to be visible, loaded with what its panel shows."""
    return QuarantineEntry.objects.select_related("tenant", "scope", "item", "decided_by").get(
        pk=pk
    )


class QueueView(LoginRequiredMixin, View):
    """Pending (or escalated) entries by risk then age, filterable, keyset-paginated."""

    section = "quarantine:queue"

    def get(self, request: HttpRequest) -> HttpResponse:
        status = request.GET.get("status", EntryStatus.PENDING)
        if status not in (EntryStatus.PENDING, EntryStatus.ESCALATED):
            status = EntryStatus.PENDING
        entries = selectors.queue_for(request.user, status)
        entry_filter = QuarantineEntryFilter(request.GET or None, queryset=entries, request=request)
        entries = entry_filter.qs if entry_filter.is_bound else entries
        filtered = entries
        position = selectors.QUEUE_PAGES.position(QuarantineEntry, request.GET.get("after", ""))
        if position is None:
            # First page: the ids fetched for it also give the capped count.
            page, total = selectors.queue_page(entries, size=PAGE_SIZE + 1, lookahead=COUNT_CAP + 1)
        else:
            entries = selectors.QUEUE_PAGES.following(entries, position)
            page, _ = selectors.queue_page(entries, size=PAGE_SIZE + 1, lookahead=PAGE_SIZE + 1)
            total = selectors.capped_count(filtered, COUNT_CAP + 1)
        if not page and not _is_reviewer(request.user):
            # An empty queue still 404s for people with no part in it; compliance
            # officers land on the entries escalated to them.
            if not tenants_visible_to(request.user, Perm.MANAGE_PRIVACY).exists():
                raise Http404
            if status == EntryStatus.PENDING:
                return redirect(f"{reverse('quarantine:queue')}?status=escalated")
        has_next = len(page) > PAGE_SIZE
        page = page[:PAGE_SIZE]
        selected = None
        if page:
            # page[0] came from the permission-filtered queue: no second grant check needed.
            selected = _panel_entry(page[0].pk) if status == "pending" else None
        params = request.GET.copy()
        params.pop("after", None)
        next_cursor = selectors.QUEUE_PAGES.cursor(page[-1]) if has_next else ""
        return render(
            request,
            "quarantine/queue.html",
            {
                "status": status,
                "filter": entry_filter,
                "entries": page,
                "total_label": f"{COUNT_CAP}+" if total > COUNT_CAP else str(total),
                "page": KeysetPage(page, next_cursor=next_cursor),
                "query": params.urlencode(),
                "bulk_form": BulkDecisionForm(),
                **entry_panel_context(request, selected),
            },
        )


class EntryView(LoginRequiredMixin, View):
    """One entry: the whole page, or just its panel for htmx."""

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        entry = _entry_for_reader(request.user, pk)
        context = entry_panel_context(request, entry)
        if is_partial(request):
            return render(request, "quarantine/partials/entry_panel.html", context)
        return render(request, "quarantine/entry.html", context)


def _entry_for_reader(user, pk: int) -> QuarantineEntry:
    """Reviewers see their entries; compliance officers also see escalated ones."""
    readable = selectors.entries_readable_by(user)
    return get_object_or_404(
        readable.select_related("tenant", "scope", "item", "decided_by"), pk=pk
    )


class DecideView(LoginRequiredMixin, View):
    """Release, reject, edit-and-release or escalate one entry, then show the next one."""

    def post(self, request: HttpRequest, pk: int, decision: str) -> HttpResponse:
        if decision not in selectors.DECISION_PERMS:
            raise Http404
        entry = get_object_or_404(selectors.decidable_entries(request.user, decision), pk=pk)
        form_class = EditReleaseForm if decision == "edit" else DecisionForm
        form = form_class(request.POST)
        if not form.is_valid():
            error = "Give a reason for the decision."
            if "content" in form.errors:
                error = "Give the edited content as a JSON object."
        else:
            error = self._apply(request, entry, decision, form.cleaned_data)
        if error:
            return self._answer_error(request, entry, error)
        verb = PAST_TENSE[decision]
        notice = f"Entry {entry.pk} {verb}."
        if not is_partial(request):
            messages.success(request, notice)
            return redirect(_back_to_queue(request))
        following = selectors.next_entry(request.user, after=entry)
        if following is not None:
            following = _entry_for_reader(request.user, following.pk)
        context = {
            **entry_panel_context(request, following),
            "notice": notice,
            "removed": entry,
            **_queue_counts(request.user, entry.status),
        }
        return render(request, "quarantine/partials/entry_panel.html", context)

    def _apply(self, request, entry, decision: str, data: dict) -> str:
        """Call the service; return a message for the reviewer when it refused."""
        try:
            if decision == "edit":
                services.edit_and_release(
                    entry_id=entry.pk,
                    actor=request.user,
                    reason=data["reason"],
                    content=data["content"],
                )
            else:
                services.DECISIONS[decision](
                    entry_id=entry.pk, actor=request.user, reason=data["reason"]
                )
        except ServiceError as refused:
            return refused.message
        return ""

    def _answer_error(self, request, entry, error: str) -> HttpResponse:
        if not is_partial(request):
            messages.error(request, error)
            return redirect(reverse("quarantine:detail", args=[entry.pk]))
        entry = _entry_for_reader(request.user, entry.pk)
        context = {**entry_panel_context(request, entry), "error": error}
        return render(request, "quarantine/partials/entry_panel.html", context)


def _queue_counts(user, decided_status: str) -> dict:
    """The queue's counter and the nav badge, fresh after a decision (swapped out of band)."""
    # `decided_status` is the status the entry had before the decision: its queue.
    status = EntryStatus.ESCALATED if decided_status == EntryStatus.ESCALATED else "pending"
    total = selectors.capped_count(selectors.queue_for(user, status), COUNT_CAP + 1)
    return {
        "status": status,
        "total_label": f"{COUNT_CAP}+" if total > COUNT_CAP else str(total),
        "nav_count": selectors.pending_count_for(user),
    }


def _back_to_queue(request: HttpRequest) -> str:
    query = request.POST.get("queue_query", "")
    url = reverse("quarantine:queue")
    return f"{url}?{query}" if query and "\n" not in query else url


class BulkDecideView(LoginRequiredMixin, View):
    """One decision on a checkbox selection; each entry is claimed individually."""

    def post(self, request: HttpRequest) -> HttpResponse:
        form = BulkDecisionForm(request.POST)
        if not form.is_valid():
            messages.error(request, "Choose entries, a decision and give a reason.")
            return redirect(_back_to_queue(request))
        decision = form.cleaned_data["decision"]
        ids = list(
            selectors.decidable_entries(request.user, decision)
            .filter(pk__in=form.cleaned_data["entry"])
            .values_list("pk", flat=True)
        )
        if not ids:
            raise Http404
        outcome = services.bulk_decide(
            entry_ids=ids,
            decision=decision,
            actor=request.user,
            reason=form.cleaned_data["reason"],
        )
        messages.success(request, outcome.message)
        return redirect(_back_to_queue(request))


class BlastRadiusView(LoginRequiredMixin, View):
    """Everything the entry's source, run or API key wrote in a window, and containment."""

    def _entry(self, request, pk: int) -> QuarantineEntry:
        return get_object_or_404(
            selectors.entries_visible_to(request.user).select_related("tenant", "scope"), pk=pk
        )

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        entry = self._entry(request, pk)
        form = BlastRadiusForm(request.GET or None)
        by, hours = ("source", 24)
        if form.is_valid():
            by, hours = form.cleaned_data["by"], form.cleaned_data["hours"]
        since = timezone.now() - timedelta(hours=hours)
        items = services.blast_radius_items(
            entry=entry, dimension=by, since=since, actor=request.user
        )
        context = {
            "entry": entry,
            "form": form if form.is_bound else BlastRadiusForm(initial={"by": by, "hours": hours}),
            "by": by,
            "hours": hours,
            "writer": getattr(entry, services.BLAST_DIMENSIONS[by]),
            "summary": services.blast_radius_summary(items),
            "action_form": BlastRadiusActionForm(initial={"by": by, "hours": hours}),
        }
        template = (
            "quarantine/partials/blast_radius.html"
            if is_partial(request)
            else "quarantine/blast_radius.html"
        )
        return render(request, template, context)

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        entry = self._entry(request, pk)
        form = BlastRadiusActionForm(request.POST)
        url = reverse("quarantine:blast_radius", args=[entry.pk])
        if not form.is_valid():
            messages.error(request, "Choose a decision and give a reason.")
            return redirect(url)
        data = form.cleaned_data
        counts = services.contain_blast_radius(
            entry_id=entry.pk,
            dimension=data["by"],
            since=timezone.now() - timedelta(hours=data["hours"]),
            decision=data["decision"],
            actor=request.user,
            reason=data["reason"],
        )
        summary = ", ".join(f"{value} {key.replace('_', ' ')}" for key, value in counts.items())
        messages.success(request, f"Blast radius contained: {summary}.")
        return redirect(f"{url}?{urlencode({'by': data['by'], 'hours': data['hours']})}")
