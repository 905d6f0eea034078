"""The admin shows requests without their sealed subject and changes nothing."""

import pytest
from django.urls import reverse

from tests.privacy.factories import received_request

pytestmark = pytest.mark.django_db


def test_the_admin_lists_requests_read_only_and_never_shows_the_sealed_subject(
    client, admin_user, tenant_a, officer
):
    made = received_request(tenant=tenant_a, subject="u_admin_seen", by=officer)
    client.force_login(admin_user)
    listing = client.get(reverse("admin:privacy_deletionrequest_changelist"))
    assert listing.status_code == 200 and made.subject_masked in listing.content.decode()
    page = client.get(reverse("admin:privacy_deletionrequest_change", args=[made.pk]))
    assert page.status_code == 200
    assert made.subject_sealed not in page.content.decode()
    assert client.get(reverse("admin:privacy_deletionrequest_add")).status_code == 403
