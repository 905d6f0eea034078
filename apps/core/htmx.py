"""The one test for "does this request want a fragment?" (django-htmx sets request.htmx)."""

from django.http import HttpRequest


def is_partial(request: HttpRequest, *, target: str | None = None) -> bool:
    """An htmx request that wants a fragment, not a whole page (optionally for one target)."""
    htmx = getattr(request, "htmx", None)
    if not htmx or htmx.boosted:
        return False
    return target is None or htmx.target == target
