"""Forms of the snapshot screens: start an export, upload a package, choose the restore's
mapping (typed OLD=NEW lines or a CSV) and what happens on a conflict."""

from django import forms

from apps.core.errors import ServiceError
from apps.snapshots.models import OnConflict
from apps.snapshots.services.mapping import (
    Mapping,
    parse_mapping_args,
    parse_mapping_csv,
)

_MAX_CSV = 1024 * 1024


def _tenant_choices(tenants) -> list[tuple[str, str]]:
    return [(tenant.slug, tenant.name or tenant.slug) for tenant in tenants]


class ExportForm(forms.Form):
    tenant = forms.ChoiceField()
    scopes = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Scope keys, one per line (e.g. user:u_1024); empty exports the whole tenant.",
    )
    passphrase = forms.CharField(
        required=False,
        widget=forms.PasswordInput(render_value=False),
        help_text=(
            "To restore on another installation; empty seals it with this installation's keys."
        ),
    )

    def __init__(self, *args, tenants, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["tenant"].choices = _tenant_choices(tenants)

    def clean_scopes(self) -> list[str]:
        return [line.strip() for line in self.cleaned_data["scopes"].splitlines() if line.strip()]


class MappingMixin(forms.Form):
    mapping = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="OLD=NEW, one pair per line (scope keys, or subject:OLD=subject:NEW).",
    )
    mapping_csv = forms.FileField(required=False, help_text="Or a CSV of old,new rows.")
    on_conflict = forms.ChoiceField(choices=OnConflict.choices, initial=OnConflict.SKIP)

    def clean(self):
        cleaned = super().clean()
        try:
            typed = parse_mapping_args((cleaned.get("mapping") or "").splitlines())
            upload = cleaned.get("mapping_csv")
            if upload is not None:
                if upload.size > _MAX_CSV:
                    raise ServiceError("The mapping CSV is larger than 1 MiB.")
                text = upload.read().decode("utf-8-sig", errors="strict")
                uploaded = parse_mapping_csv(text)
                typed = Mapping(
                    scopes={**typed.scopes, **uploaded.scopes},
                    subjects={**typed.subjects, **uploaded.subjects},
                )
        except UnicodeDecodeError:
            self.add_error("mapping_csv", "The CSV must be UTF-8 text.")
        except ServiceError as error:
            self.add_error("mapping", error.message)
        else:
            cleaned["parsed_mapping"] = typed
        return cleaned


class UploadForm(MappingMixin):
    tenant = forms.ChoiceField(help_text="The tenant to restore into.")
    package = forms.FileField(help_text="A .mcpkg file.")
    passphrase = forms.CharField(
        required=False,
        widget=forms.PasswordInput(render_value=False),
        help_text="If the package was exported with a passphrase.",
    )
    field_order = ["tenant", "package", "passphrase", "mapping", "mapping_csv", "on_conflict"]

    def __init__(self, *args, tenants, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["tenant"].choices = _tenant_choices(tenants)


class DecisionForm(MappingMixin):
    """The validated restore's choices, before dry-running again or applying."""
