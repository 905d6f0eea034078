"""is_partial: the one test for an htmx fragment request."""

from django.test import RequestFactory
from django_htmx.middleware import HtmxDetails

from apps.core.htmx import is_partial


def _request(**headers):
    request = RequestFactory().get("/", headers=headers)
    request.htmx = HtmxDetails(request)
    return request


def test_a_plain_request_is_not_partial():
    assert not is_partial(_request())


def test_an_htmx_request_is_partial_unless_boosted():
    assert is_partial(_request(**{"HX-Request": "true"}))
    assert not is_partial(_request(**{"HX-Request": "true", "HX-Boosted": "true"}))


def test_a_target_narrows_it_to_one_swap():
    rows = _request(**{"HX-Request": "true", "HX-Target": "conflict-rows"})
    assert is_partial(rows, target="conflict-rows")
    assert not is_partial(rows, target="panel")
