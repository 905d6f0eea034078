"""Sections a role cannot use answer 403 with a page naming whose they are.

A list that a user may never fill (an analyst's memories, conflicts or audit log) must
not read as an empty system. A view names its section with a class attribute
(`section = "memory:list"`, the URL name in apps.access.navigation.SECTIONS) and needs
no import from here: SectionMiddleware reads the attribute before the view runs, so
apps below access (audit) are held to the same rule. The nav link and the door are
decided by the same permissions. Objects outside a grant still answer 404 in the views.
"""

from django.shortcuts import render

from apps.access.navigation import SECTIONS
from apps.access.roles import GROUP_ROLES, ROLE_PERMISSIONS, Role
from apps.access.selectors import grants_of

_NEEDS = {url_name: (label, needs) for label, url_name, needs in SECTIONS}


def roles_holding(needs: frozenset[str]) -> list[str]:
    """Human names of the roles whose grant opens a section, e.g. ["Operator", "Admin"]."""
    return [Role(role).label for role in GROUP_ROLES if needs & set(ROLE_PERMISSIONS[role])]


def may_use_section(user, url_name: str) -> bool:
    """True when the user holds, somewhere, one of the permissions the section needs."""
    _label, needs = _NEEDS[url_name]
    if needs is None:
        return True
    held = grants_of(user).held_permissions
    return held is None or bool(needs & held)


def section_forbidden(request, url_name: str):
    """The 403 page: whose section this is, and the reader's own roles."""
    label, needs = _NEEDS[url_name]
    context = {
        "section_label": label,
        "roles": roles_holding(needs or frozenset()),
        "user_roles": sorted(
            Role(name).label
            for name in request.user.groups.values_list("name", flat=True)
            if name in Role.values
        ),
    }
    return render(request, "access/section_forbidden.html", context, status=403)


class SectionMiddleware:
    """Answers 403 for a view whose `section` the signed-in user holds no permission for
    (anonymous users go on to the view's own login redirect)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        section = getattr(getattr(view_func, "view_class", None), "section", "")
        user = getattr(request, "user", None)
        if not section or user is None or not user.is_authenticated:
            return None
        if may_use_section(user, section):
            return None
        return section_forbidden(request, section)
