"""Navigation for templates/base.html: the sections a user can use, with pending counts."""

from django.urls import NoReverseMatch, reverse

from apps.access.navigation import COUNTS, SECTIONS
from apps.access.selectors import grants_of


def navigation(request) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"nav_sections": []}
    held = grants_of(user).held_permissions
    sections = []
    for label, url_name, needs in SECTIONS:
        if needs is not None and held is not None and not needs & held:
            continue  # nothing there this user may see
        try:
            url = reverse(url_name)
        except NoReverseMatch:
            continue  # not built yet: not linked
        count = COUNTS[url_name](user) if url_name in COUNTS else None
        active = request.path == url if url == "/" else request.path.startswith(url)
        sections.append(
            {
                "label": label,
                "url": url,
                "count": count,
                "counted": url_name in COUNTS,
                "key": url_name.replace(":", "-"),
                "active": active,
            }
        )
    return {"nav_sections": sections}
