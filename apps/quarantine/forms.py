"""Forms for quarantine decisions; every decision carries the reviewer's reason."""

from django import forms

from apps.quarantine.services import BLAST_DIMENSIONS, MAX_REASON_LENGTH


class DecisionForm(forms.Form):
    """Release, reject or escalate one entry."""

    reason = forms.CharField(max_length=MAX_REASON_LENGTH, strip=True)


class EditReleaseForm(DecisionForm):
    """Release with corrected content (a JSON object; validated again by the service)."""

    content = forms.CharField(widget=forms.Textarea)


class BulkDecisionForm(forms.Form):
    """One decision applied to a checkbox selection of entries."""

    decision = forms.ChoiceField(
        choices=[("release", "Release"), ("reject", "Reject"), ("escalate", "Escalate")],
        widget=forms.Select(attrs={"class": "form-select form-select-sm"}),
    )
    reason = forms.CharField(max_length=MAX_REASON_LENGTH, strip=True)
    entry = forms.TypedMultipleChoiceField(coerce=int, choices=(), required=True)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Any integer id may be posted; the view keeps only ids inside the user's grant.
        self.fields["entry"].valid_value = lambda value: str(value).isdigit()


BLAST_WINDOWS = [
    (1, "Last hour"),
    (24, "Last 24 hours"),
    (24 * 7, "Last 7 days"),
    (24 * 30, "Last 30 days"),
]


class BlastRadiusForm(forms.Form):
    """Which writer to trace (source, run or API key) and how far back."""

    by = forms.ChoiceField(
        choices=[(key, key.replace("_", " ")) for key in BLAST_DIMENSIONS], initial="source"
    )
    hours = forms.TypedChoiceField(choices=BLAST_WINDOWS, coerce=int, initial=24)


class BlastRadiusActionForm(BlastRadiusForm):
    """Quarantine or reject everything the blast radius found."""

    decision = forms.ChoiceField(
        choices=[("quarantine", "Quarantine"), ("reject", "Reject")],
        widget=forms.Select(attrs={"class": "form-select form-select-sm"}),
    )
    reason = forms.CharField(max_length=MAX_REASON_LENGTH, strip=True)
