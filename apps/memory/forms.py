"""Forms of the memory browser."""

from django import forms

from apps.memory.models import MemoryItem


class RollbackForm(forms.Form):
    """Which earlier version of an item to restore, and why (required, like every decision)."""

    version = forms.IntegerField(min_value=1)
    reason = forms.CharField(max_length=2000, strip=True)

    def __init__(self, *args, item: MemoryItem, **kwargs):
        super().__init__(*args, **kwargs)
        self.item = item

    def clean_version(self) -> int:
        version = self.cleaned_data["version"]
        if version == self.item.version:
            raise forms.ValidationError("That is already the current version.")
        if not self.item.versions.filter(version=version).exists():
            raise forms.ValidationError(f"Version {version} does not exist.")
        return version
