"""The compliance officers' screens: requests (list, create, page, steps, receipt) and
the denylist (entries, "is this subject erased?", lift by an admin).

Thin: selectors choose what the user may see (404 otherwise, and for whoever holds no
privacy permission at all: operators and analysts see none of it), services do the work.
"""

import json

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views import View

from apps.audit.hashing import keyed_hash
from apps.core.errors import ServiceError
from apps.privacy import services
from apps.privacy.forms import (
    CreateRequestForm,
    DenylistCheckForm,
    ExecuteForm,
    ReasonForm,
    RequestFilterForm,
)
from apps.privacy.models import DeletionRequest
from apps.privacy.selectors import (
    REQUEST_PAGER,
    available_steps,
    denylist_visible_to,
    filter_by_sla,
    is_denylisted,
    may_handle_privacy,
    may_lift_denylist,
    privacy_tenants_for,
    request_timeline,
    requests_visible_to,
    sla_state,
)
from apps.privacy.services.preview import preview_request


class OfficerRequired(LoginRequiredMixin):
    """Only holders of the privacy permission; everyone else is told there is nothing here."""

    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated and not may_handle_privacy(request.user):
            raise Http404
        return super().dispatch(request, *args, **kwargs)


def _visible(request: HttpRequest, pk: int) -> DeletionRequest:
    return get_object_or_404(
        requests_visible_to(request.user).select_related(
            "tenant", "created_by", "verified_by", "approved_by", "executed_by"
        ),
        pk=pk,
    )


class RequestListView(OfficerRequired, View):
    """Requests of the officer's tenants, newest first, with SLA badges and filters."""

    def get(self, request: HttpRequest) -> HttpResponse:
        tenants = privacy_tenants_for(request.user).only("slug", "name")
        form = RequestFilterForm(request.GET or None, tenants=tenants)
        filters = form.filters()
        queryset = requests_visible_to(request.user).select_related("tenant")
        if filters.get("tenant"):
            queryset = queryset.filter(tenant__slug=filters["tenant"])
        if filters.get("status"):
            queryset = queryset.filter(status=filters["status"])
        if filters.get("sla"):
            queryset = filter_by_sla(queryset, filters["sla"])
        page = REQUEST_PAGER.page(
            queryset, after=request.GET.get("after", ""), before=request.GET.get("before", "")
        )
        query = request.GET.copy()
        query.pop("after", None)
        query.pop("before", None)
        context = {
            "form": form,
            "page": page,
            "rows": [(row, sla_state(row)) for row in page.rows],
            "query": query.urlencode(),
        }
        return render(request, "privacy/list.html", context)


class RequestCreateView(OfficerRequired, View):
    def _form(self, request, data=None):
        return CreateRequestForm(data, tenants=privacy_tenants_for(request.user))

    def get(self, request: HttpRequest) -> HttpResponse:
        return render(request, "privacy/create.html", {"form": self._form(request)})

    def post(self, request: HttpRequest) -> HttpResponse:
        form = self._form(request, request.POST)
        if not form.is_valid():
            return render(request, "privacy/create.html", {"form": form}, status=400)
        tenant = get_object_or_404(
            privacy_tenants_for(request.user), slug=form.cleaned_data["tenant"]
        )
        try:
            created = services.create_request(
                tenant=tenant,
                subject=form.cleaned_data["subject"],
                identifiers=form.cleaned_data["identifiers"],
                reason=form.cleaned_data["reason"],
                actor=request.user,
            )
        except ServiceError as error:
            form.add_error(None, error.message)
            return render(request, "privacy/create.html", {"form": form}, status=error.status)
        messages.success(request, f"Request {created.public_id} recorded.")
        return redirect("privacy:detail", pk=created.pk)


def _detail(request, deletion_request, *, execute_form=None, status=200) -> HttpResponse:
    preview = preview_request(deletion_request) if deletion_request.is_open else None
    steps = available_steps(deletion_request, request.user)
    context = {
        "req": deletion_request,
        "sla": sla_state(deletion_request),
        "steps": steps,
        "preview": preview,
        "execute_form": execute_form or ExecuteForm(residue=preview.residue if preview else ()),
        "timeline": request_timeline(deletion_request),
        "chosen_residue": set(deletion_request.residue_ids),
    }
    return render(request, "privacy/detail.html", context, status=status)


class RequestDetailView(OfficerRequired, View):
    """The request with its timeline, the preview and residue choice, and its steps."""

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        return _detail(request, _visible(request, pk))


class RequestStepView(OfficerRequired, View):
    """One step of the workflow; refusals are shown on the request page."""

    def post(self, request: HttpRequest, pk: int, step: str) -> HttpResponse:
        deletion_request = _visible(request, pk)
        reason = ReasonForm(request.POST)
        reason.is_valid()
        given = reason.cleaned_data.get("reason", "")
        try:
            if step == "verify":
                services.verify_request(request_id=pk, actor=request.user)
            elif step == "approve":
                services.approve_request(request_id=pk, actor=request.user)
            elif step == "reject":
                services.reject_request(request_id=pk, actor=request.user, reason=given)
            elif step == "hold":
                services.hold_request(request_id=pk, actor=request.user, reason=given)
            elif step == "release-hold":
                services.release_hold(request_id=pk, actor=request.user, reason=given)
            elif step == "execute":
                services.start_erasure(
                    request_id=pk,
                    actor=request.user,
                    residue_ids=request.POST.getlist("residue_ids"),
                    residue_reason=request.POST.get("residue_reason", ""),
                )
            else:
                raise Http404
        except ServiceError as error:
            messages.error(request, error.message)
            return _detail(request, _visible(request, deletion_request.pk), status=error.status)
        messages.success(request, f"Done: {step.replace('-', ' ')}.")
        return redirect("privacy:detail", pk=pk)


def _completed(request: HttpRequest, pk: int) -> DeletionRequest:
    deletion_request = _visible(request, pk)
    if deletion_request.receipt is None:
        raise Http404
    return deletion_request


class ReceiptView(OfficerRequired, View):
    """The printable receipt."""

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        deletion_request = _completed(request, pk)
        context = {
            "req": deletion_request,
            "receipt": deletion_request.receipt,
            "receipt_json": json.dumps(deletion_request.receipt, indent=2),
        }
        return render(request, "privacy/receipt.html", context)


class ReceiptJsonView(OfficerRequired, View):
    """The signed receipt as a file, for `verify_receipt FILE`."""

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        deletion_request = _completed(request, pk)
        response = HttpResponse(
            json.dumps(deletion_request.receipt, indent=2), content_type="application/json"
        )
        filename = f"erasure-receipt-{deletion_request.reference}.json"
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response


class DenylistView(OfficerRequired, View):
    """Denylist entries of the officer's tenants and the "is this subject erased?" check."""

    def get(self, request: HttpRequest) -> HttpResponse:
        tenants = privacy_tenants_for(request.user).only("slug", "name")
        check = DenylistCheckForm(request.GET or None, tenants=tenants)
        answer = None
        if request.GET and check.is_valid():
            tenant = get_object_or_404(tenants, slug=check.cleaned_data["tenant"])
            value = check.cleaned_data["subject"].strip()
            answer = {
                "erased": is_denylisted(tenant_id=tenant.pk, subject=value, scope_key=value),
                "digest": keyed_hash(value),
                "tenant": tenant,
            }
        entries = denylist_visible_to(request.user).select_related(
            "tenant", "request", "lifted_by"
        )[:200]
        context = {
            "entries": entries,
            "check": check,
            "answer": answer,
            "may_lift": may_lift_denylist(request.user),
        }
        return render(request, "privacy/denylist.html", context)


class LiftEntryView(OfficerRequired, View):
    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        entry = get_object_or_404(denylist_visible_to(request.user), pk=pk)
        try:
            services.lift_entry(
                entry_id=entry.pk, actor=request.user, reason=request.POST.get("reason", "")
            )
        except ServiceError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, "The entry was lifted.")
        return redirect(reverse("privacy:denylist"))
