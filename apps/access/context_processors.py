"""Navigation for templates/base.html: the sections a user can use, with pending counts."""

from django.conf import settings
from django.urls import NoReverseMatch, reverse
from django.utils.module_loading import import_string

from apps.access.navigation import SECTIONS
from apps.access.selectors import held_permissions


def navigation(request) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"nav_sections": []}
    counters = getattr(settings, "MEMORY_CONSOLE_NAV_COUNTS", {})
    held = held_permissions(user)
    sections = []
    for label, url_name, needs in SECTIONS:
        if needs is not None and held is not None and not needs & held:
            continue  # nothing there this user may see
        try:
            url = reverse(url_name)
        except NoReverseMatch:
            continue  # not built yet: not linked
        count = import_string(counters[url_name])(user) if url_name in counters else None
        active = request.path == url if url == "/" else request.path.startswith(url)
        sections.append(
            {
                "label": label,
                "url": url,
                "count": count,
                "counted": url_name in counters,
                "key": url_name.replace(":", "-"),
                "active": active,
            }
        )
    return {"nav_sections": sections}
