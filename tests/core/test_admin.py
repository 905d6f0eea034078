"""The admin as an administrator meets it: schedules present after `migrate`, one place
for API keys, and the grant tables named and grouped under access."""

import pytest
from django.conf import settings
from django.contrib import admin
from django.core.management import call_command
from django.urls import reverse
from django_celery_beat.models import CrontabSchedule, IntervalSchedule, PeriodicTask
from rest_framework_api_key.models import APIKey

from apps.core.jobs import sync_beat_schedule

pytestmark = pytest.mark.django_db


def test_every_beat_schedule_is_in_the_database_after_migrate():
    # The test database was built by `migrate`; beat has never run here.
    stored = {task.name: task for task in PeriodicTask.objects.all()}
    for name, entry in settings.CELERY_BEAT_SCHEDULE.items():
        task = stored[name]
        assert task.task == entry["task"] and task.enabled
        assert '"trigger": "scheduled"' in task.kwargs
        assert task.expire_seconds == entry["options"]["expires"]
        assert task.crontab is not None or task.interval is not None


def test_syncing_the_schedules_again_changes_nothing():
    counts = (PeriodicTask.objects.count(), CrontabSchedule.objects.count())
    intervals = IntervalSchedule.objects.count()
    sync_beat_schedule()
    call_command("migrate", verbosity=0)
    assert (PeriodicTask.objects.count(), CrontabSchedule.objects.count()) == counts
    assert IntervalSchedule.objects.count() == intervals


def test_a_schedule_deleted_in_the_database_comes_back_with_the_next_migrate():
    PeriodicTask.objects.filter(name="weekly-conflict-scan").delete()
    call_command("migrate", verbosity=0)
    assert PeriodicTask.objects.filter(name="weekly-conflict-scan").exists()


def _admin_index_apps(client, admin_user) -> dict[str, list[str]]:
    client.force_login(admin_user)
    response = client.get(reverse("admin:index"))
    assert response.status_code == 200
    return {
        app["app_label"]: [model["name"] for model in app["models"]]
        for app in response.context["app_list"]
    }


def test_the_admin_has_one_api_key_section(client, admin_user):
    assert not admin.site.is_registered(APIKey)
    apps = _admin_index_apps(client, admin_user)
    key_sections = [
        (label, name) for label, names in apps.items() for name in names if "API key" in name
    ]
    assert key_sections == [("access", "Agent API keys")]


def test_the_grant_tables_are_named_and_grouped_under_access(client, admin_user):
    apps = _admin_index_apps(client, admin_user)
    assert [name for name in apps["access"] if name.startswith("Grants")] == [
        "Grants: roles on scopes",
        "Grants: roles on tenants",
        "Grants: users on scopes",
        "Grants: users on tenants",
    ]
    assert "guardian" not in apps
    assert apps["django_celery_beat"]  # "Periodic tasks" and the schedules it points to
