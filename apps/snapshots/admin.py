from django.contrib import admin

from apps.core.admin import ReadOnlyAdmin
from apps.snapshots.models import SnapshotJob


@admin.register(SnapshotJob)
class SnapshotJobAdmin(ReadOnlyAdmin):
    list_display = ("id", "kind", "tenant", "status", "processed", "total", "created_at")
    list_filter = ("kind", "status")
    exclude = ("passphrase_sealed",)
