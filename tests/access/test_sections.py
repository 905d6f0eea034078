"""Sections a role cannot use are not in its nav and answer 403 naming whose they are."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

CLOSED_TO_ANALYSTS = {
    "memory:list": "Operators, compliance officers and admins",
    "conflicts:list": "operators and admins",
    "audit:list": "operators, compliance officers and admins",
    "quarantine:queue": "operators, compliance officers and admins",
}


@pytest.mark.parametrize("url_name", sorted(CLOSED_TO_ANALYSTS))
def test_analyst_gets_a_403_page_that_says_whose_the_section_is(client, analyst, url_name):
    client.force_login(analyst)
    answer = client.get(reverse(url_name))
    assert answer.status_code == 403
    text = (
        " ".join(answer.content.decode().split()).replace("<strong>", "").replace("</strong>", "")
    )
    assert "is not part of your role" in text
    assert CLOSED_TO_ANALYSTS[url_name].lower() in text.lower()
    assert "Your role: analyst." in text


def test_analyst_nav_links_only_the_sections_it_can_use(client, analyst):
    client.force_login(analyst)
    page = client.get(reverse("dashboard")).content.decode()
    for url_name in CLOSED_TO_ANALYSTS:
        assert f'href="{reverse(url_name)}"' not in page


def test_operator_still_opens_its_sections(client, operator_a):
    client.force_login(operator_a)
    for url_name in ("memory:list", "conflicts:list", "audit:list", "quarantine:queue"):
        assert client.get(reverse(url_name)).status_code == 200, url_name


def test_officer_is_told_conflicts_belong_to_operators(client, officer):
    client.force_login(officer)
    answer = client.get(reverse("conflicts:list"))
    assert answer.status_code == 403
    assert "compliance officer" in answer.content.decode()  # their own role, named
