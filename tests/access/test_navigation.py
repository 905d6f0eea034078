"""The navigation links only the sections a user can use."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def nav_links(client, user) -> set[str]:
    client.force_login(user)
    return {section["url"] for section in client.get(reverse("dashboard")).context["nav_sections"]}


def test_analyst_sees_no_link_to_memory_content_or_the_audit_log(client, analyst):
    links = nav_links(client, analyst)
    assert reverse("dashboard") in links
    assert reverse("memory:list") not in links
    assert reverse("quarantine:queue") not in links
    assert reverse("audit:list") not in links


def test_operator_sees_the_review_queues(client, operator_a):
    links = nav_links(client, operator_a)
    assert {reverse("memory:list"), reverse("quarantine:queue"), reverse("conflicts:list")} <= links


def test_admin_sees_every_built_section(client, admin_user):
    links = nav_links(client, admin_user)
    assert {reverse("memory:list"), reverse("audit:list"), reverse("conflicts:list")} <= links
