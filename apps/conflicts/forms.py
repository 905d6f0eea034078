"""Forms of the review screen: queue filters, a resolution, a bulk 'keep newest'."""

from django import forms

from apps.conflicts.models import ConflictStatus, Resolution
from apps.core.validation import InvalidContent, parse_content

KEEP_NEWEST = "keep_newest"
MAX_BULK = 200


class QueueFilterForm(forms.Form):
    """GET filters of the queue; every field optional, bad values simply ignored."""

    # A slug, not a ChoiceField: an unknown or foreign slug filters to nothing, not to all.
    tenant = forms.SlugField(required=False)
    scope = forms.CharField(required=False, max_length=220, label="Scope key")
    key = forms.CharField(required=False, max_length=200, label="Key pattern")
    status = forms.ChoiceField(required=False, choices=ConflictStatus.choices, label="Status")
    older_than = forms.TypedChoiceField(
        required=False,
        coerce=int,
        empty_value=None,
        choices=[("", "any age"), (1, "> 1 day"), (7, "> 7 days"), (30, "> 30 days")],
        label="Age",
    )

    def __init__(self, *args, tenants=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.tenant_choices = [("", "all tenants")] + [(t.slug, t.name) for t in tenants]

    def filters(self) -> dict:
        """Keyword arguments for selectors.open_conflicts_for."""
        if not self.is_valid():
            return {}
        data = self.cleaned_data
        return {
            "tenant": data["tenant"] or "",
            "scope_key": data["scope"].strip(),
            "key_pattern": data["key"].strip(),
            "older_than_days": data["older_than"],
            "status": data["status"] or ConflictStatus.OPEN,
        }


class ResolveForm(forms.Form):
    """One resolution with its reason; merged content is a JSON object ≤ 64 KiB."""

    resolution = forms.ChoiceField(
        choices=[*Resolution.choices, (KEEP_NEWEST, "Keep the newest value")]
    )
    reason = forms.CharField(
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
        error_messages={"required": "Say why: the reason is kept with the resolution."},
    )
    content = forms.CharField(
        required=False,
        strip=False,
        label="Merged content (JSON object)",
        widget=forms.Textarea(attrs={"rows": 8, "class": "font-monospace", "spellcheck": "false"}),
    )

    def clean(self):
        data = super().clean()
        if data.get("resolution") == Resolution.MERGE:
            try:
                data["merged"] = parse_content(data.get("content") or "")
            except InvalidContent as exc:
                self.add_error("content", exc.message)
        return data


class BulkKeepNewestForm(forms.Form):
    """A checkbox selection of conflicts to settle by keeping their newest value."""

    ids = forms.TypedMultipleChoiceField(coerce=int, choices=[], error_messages={
        "required": "Select at least one conflict."
    })  # fmt: skip
    reason = forms.CharField(
        max_length=2000,
        error_messages={"required": "Say why: the reason is kept with each resolution."},
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Any integer is acceptable here; the view keeps only the ones the user may see.
        posted = self.data.getlist("ids") if hasattr(self.data, "getlist") else []
        self.fields["ids"].choices = [(value, value) for value in posted[:MAX_BULK]]
