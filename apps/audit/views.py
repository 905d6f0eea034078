"""The audit log viewer (/audit/): filters, keyset pages, streamed CSV, chain status."""

import csv
import json
from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.views import View
from django.views.generic import TemplateView

from apps.audit.filters import AuditEventFilter
from apps.audit.models import EVENT_COLUMNS, Action, ActorKind, AuditEvent, action_label
from apps.audit.selectors import (
    events_visible_to,
    latest_checkpoint,
    latest_verification,
    may_verify_chain,
    newest_sequence,
)
from apps.audit.services import flush_denials, record, verify_chain
from apps.audit.targets import target_label, target_links
from apps.audit.verification import SignedHead
from apps.core.pagination import KeysetPage, KeysetPager
from apps.tenancy.models import Scope, Tenant

PAGE_SIZE = 50
CSV_CHUNK = 2000


# Newest first by sequence (unique, indexed): flat cost however long the log.
AUDIT_PAGES = KeysetPager(("-sequence",), size=PAGE_SIZE)


@dataclass(frozen=True)
class FilterField:
    """One filter as the template draws it (choices None for a text or date input)."""

    name: str
    label: str
    value: str
    errors: list
    choices: list | None = None
    empty_label: str = ""
    input_type: str = "text"


def filter_fields(filterset: AuditEventFilter) -> list[FilterField]:
    """The filter form's fields as plain data: drawing 60 <option>s through form widget
    templates costs more than the whole query, so the page draws them itself."""
    fields = []
    for name, field in filterset.form.fields.items():
        value = filterset.data.get(name, "")
        errors = filterset.form.errors.get(name, [])
        label = str(field.label or name)
        if hasattr(field, "queryset"):  # the tenant choice: slugs the user may see
            choices = [(t.slug, t.name) for t in field.queryset.only("slug", "name")]
            fields.append(FilterField(name, label, value, errors, choices, "All tenants"))
        elif hasattr(field, "choices"):
            choices = [(str(v), str(text)) for v, text in field.choices if v != ""]
            empty = next((str(text) for v, text in field.choices if v == ""), "Any")
            fields.append(FilterField(name, label, value, errors, choices, empty))
        else:
            input_type = field.widget.attrs.get("type", "text")
            fields.append(FilterField(name, label, value, errors, input_type=input_type))
    return fields


def _query_without(request, *names: str) -> str:
    params = request.GET.copy()
    for name in names:
        params.pop(name, None)
    return params.urlencode()


class AuditListView(LoginRequiredMixin, TemplateView):
    """The filtered log, newest first, with the latest verification of the chain."""

    section = "audit:list"

    template_name = "audit/list.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        request = self.request
        flush_denials()  # counted denials of closed minutes join the chain before it is read
        filterset = AuditEventFilter(
            request.GET, queryset=events_visible_to(request.user), request=request
        )
        page = KeysetPage()
        if filterset.is_valid():  # a malformed filter shows its error, not the whole log
            page = AUDIT_PAGES.page(
                filterset.qs,
                after=request.GET.get("after", ""),
                before=request.GET.get("before", ""),
            )
        describe_events(page.rows, user=request.user)
        may_verify = may_verify_chain(request.user)
        context.update(
            filter=filterset,
            filter_fields=filter_fields(filterset),
            page=page,
            base_query=_query_without(request, "before", "after"),
            verification=latest_verification(),
            newest_sequence=newest_sequence(),
            may_verify=may_verify,
            checkpoint=latest_checkpoint() if may_verify else None,
        )
        return context


def describe_events(events: list[AuditEvent], *, user) -> None:
    """Words for the officer instead of ids: action, tenant, scope and target names, and
    links to targets the reader may open. A fixed number of queries (tenants, scopes, one
    per target type), however many events the page shows."""
    tenants = Tenant.objects.only("slug", "name").in_bulk({e.tenant_id for e in events} - {None})
    scopes = Scope.objects.only("kind", "external_id").in_bulk(
        {e.scope_id for e in events} - {None}
    )
    links = target_links(user, ((e.target_type, e.target_id) for e in events))
    kinds = dict(ActorKind.choices)
    for event in events:  # plain strings: template date filters cost more than the query
        event.metadata_json = json.dumps(event.metadata, sort_keys=True, ensure_ascii=False)
        event.occurred_iso = event.occurred_at.isoformat()
        event.occurred_text = event.occurred_at.strftime("%Y-%m-%d %H:%M:%S")
        event.actor_kind_label = kinds.get(event.actor_kind, event.actor_kind)
        event.action_label = action_label(event.action)
        event.hash_prefix = event.hash[:12]
        event.tenant = tenants.get(event.tenant_id)
        event.scope = scopes.get(event.scope_id)
        event.target_label = target_label(event.target_type) if event.target_type else ""
        event.target_url = links.get((event.target_type, event.target_id), "")


class _Echo:
    """A file-like object whose write returns the line, for streaming csv.writer output."""

    def write(self, value: str) -> str:
        return value


_FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")


def _cell(value) -> str:
    """Text for a CSV cell; a leading formula character is defused for spreadsheets."""
    if value is None:
        return ""
    if isinstance(value, dict):
        text = json.dumps(value, sort_keys=True, ensure_ascii=False)
    elif hasattr(value, "isoformat"):
        text = value.isoformat()
    else:
        text = str(value)
    return "'" + text if text.startswith(_FORMULA_PREFIXES) else text


class AuditExportView(LoginRequiredMixin, View):
    """The filtered set as CSV, streamed in sequence order; the export itself is audited."""

    section = "audit:list"

    def get(self, request):
        filterset = AuditEventFilter(
            request.GET, queryset=events_visible_to(request.user), request=request
        )
        events = filterset.qs if filterset.is_valid() else AuditEvent.objects.none()
        with transaction.atomic():
            record(
                actor=request.user,
                action=Action.AUDIT_EXPORTED,
                data={"format": "csv", "filters": filterset.active_names()},
            )
        rows = (
            events.order_by("sequence").values_list(*EVENT_COLUMNS).iterator(chunk_size=CSV_CHUNK)
        )
        writer = csv.writer(_Echo())

        def lines():
            yield writer.writerow(EVENT_COLUMNS)
            for row in rows:
                yield writer.writerow([_cell(value) for value in row])

        response = StreamingHttpResponse(lines(), content_type="text/csv; charset=utf-8")
        stamp = timezone.now().strftime("%Y%m%dT%H%M%SZ")
        response["Content-Disposition"] = f'attachment; filename="audit-{stamp}.csv"'
        return response


class _OfficersOnly(LoginRequiredMixin):
    """Verification and checkpoints: compliance officers and admins (others: 403)."""

    section = "audit:list"

    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated and not may_verify_chain(request.user):
            raise PermissionDenied("Only compliance officers and admins verify the chain.")
        return super().dispatch(request, *args, **kwargs)


class AuditVerifyView(_OfficersOnly, View):
    """ "Verify now": walk the chain (resuming at the latest checkpoint), show the outcome."""

    def post(self, request):
        verification = verify_chain(actor=request.user)
        if verification.ok:
            messages.success(
                request,
                f"Chain verified up to event #{verification.head_sequence or 0}: "
                f"{verification.checked} events hashed in {verification.duration_ms} ms.",
            )
        else:
            messages.error(
                request,
                f"Chain BROKEN at event #{verification.first_bad_sequence}: {verification.detail}",
            )
        return redirect("audit:list")


class AuditCheckpointView(_OfficersOnly, View):
    """The latest signed checkpoint as a file, to keep outside the database (audited)."""

    def get(self, request):
        checkpoint = latest_checkpoint()
        if checkpoint is None:
            raise Http404("No checkpoint has been signed yet.")
        with transaction.atomic():
            record(
                actor=request.user,
                action=Action.AUDIT_EXPORTED,
                target=checkpoint,
                data={"format": "checkpoint", "sequence": checkpoint.sequence},
            )
        response = HttpResponse(
            SignedHead.from_model(checkpoint).to_json() + "\n", content_type="application/json"
        )
        name = f"audit-checkpoint-{checkpoint.sequence}.json"
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response
