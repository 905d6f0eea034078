"""Forms of the privacy screens: create a request, filter the list, give reasons, choose
residue, ask whether a subject is erased."""

from django import forms

from apps.privacy.models import RequestStatus
from apps.privacy.services.identifiers import MAX_IDENTIFIER_LENGTH, MAX_IDENTIFIERS

SLA_CHOICES = [
    ("", "Any deadline"),
    ("open", "Open"),
    ("due_soon", "Due soon"),
    ("overdue", "Overdue"),
    ("on_hold", "On hold"),
]


def _bootstrap(form: forms.Form) -> None:
    """Console styling for every widget (small controls, like the other filters)."""
    for field in form.fields.values():
        widget = field.widget
        css = "form-select form-select-sm" if isinstance(widget, forms.Select) else "form-control"
        if isinstance(widget, forms.TextInput):
            css = "form-control form-control-sm"
        widget.attrs.setdefault("class", css)


class TenantChoiceMixin:
    def _tenants(self, tenants, *, blank: str | None):
        choices = [(tenant.slug, tenant.name or tenant.slug) for tenant in tenants]
        return ([("", blank)] if blank is not None else []) + choices


class CreateRequestForm(TenantChoiceMixin, forms.Form):
    tenant = forms.ChoiceField()
    subject = forms.CharField(
        max_length=MAX_IDENTIFIER_LENGTH,
        help_text="The subject as the agents store it on scopes (e.g. the user id).",
    )
    identifiers = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="Other identifiers given (e-mail, phone, name, account ids), one a line.",
    )
    reason = forms.CharField(
        required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 2})
    )

    def __init__(self, *args, tenants=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["tenant"].choices = self._tenants(tenants, blank=None)
        _bootstrap(self)

    def clean_identifiers(self) -> list[str]:
        lines = [line.strip() for line in self.cleaned_data["identifiers"].splitlines()]
        values = [line for line in lines if line]
        if len(values) > MAX_IDENTIFIERS:
            raise forms.ValidationError(f"At most {MAX_IDENTIFIERS} identifiers.")
        if any(len(value) > MAX_IDENTIFIER_LENGTH for value in values):
            raise forms.ValidationError(f"Each identifier is limited to {MAX_IDENTIFIER_LENGTH}.")
        return values


class RequestFilterForm(TenantChoiceMixin, forms.Form):
    tenant = forms.ChoiceField(required=False)
    status = forms.ChoiceField(required=False, choices=[("", "Any status"), *RequestStatus.choices])
    sla = forms.ChoiceField(required=False, choices=SLA_CHOICES)

    def __init__(self, *args, tenants=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["tenant"].choices = self._tenants(tenants, blank="All tenants")
        _bootstrap(self)

    def filters(self) -> dict:
        if not self.is_valid():
            return {}
        return {name: value for name, value in self.cleaned_data.items() if value}


class ReasonForm(forms.Form):
    reason = forms.CharField(max_length=2000, required=False)


class ExecuteForm(forms.Form):
    residue_ids = forms.MultipleChoiceField(required=False)
    residue_reason = forms.CharField(max_length=2000, required=False)

    def __init__(self, *args, residue=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["residue_ids"].choices = [(row.memory_id, row.memory_id) for row in residue]


class DenylistCheckForm(TenantChoiceMixin, forms.Form):
    tenant = forms.ChoiceField()
    subject = forms.CharField(
        max_length=230, label="Subject or scope key", help_text="e.g. u_1024 or user:u_1024"
    )

    def __init__(self, *args, tenants=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["tenant"].choices = self._tenants(tenants, blank=None)
        _bootstrap(self)
