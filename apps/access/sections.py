"""Sections a role cannot use answer 403 with a page naming whose they are.

A list that a user may never fill (an analyst's memories, conflicts or audit log) must
not read as an empty system. Views name their section (the URL name in
apps.access.navigation.SECTIONS); the same permissions decide the nav link and the door.
"""

from django.contrib.auth.mixins import LoginRequiredMixin
from django.shortcuts import render

from apps.access.navigation import SECTIONS
from apps.access.roles import GROUP_ROLES, ROLE_PERMISSIONS, Role
from apps.access.selectors import held_permissions

_NEEDS = {url_name: (label, needs) for label, url_name, needs in SECTIONS}


def roles_holding(needs: frozenset[str]) -> list[str]:
    """Human names of the roles whose grant opens a section, e.g. ["Operator", "Admin"]."""
    return [Role(role).label for role in GROUP_ROLES if needs & set(ROLE_PERMISSIONS[role])]


def may_use_section(user, url_name: str) -> bool:
    """True when the user holds, somewhere, one of the permissions the section needs."""
    _label, needs = _NEEDS[url_name]
    if needs is None:
        return True
    held = held_permissions(user)
    return held is None or bool(needs & held)


class SectionRequiredMixin(LoginRequiredMixin):
    """Signed-in users without any grant the section needs get a 403 page that says whose
    it is; objects outside a grant still answer 404 in the views (no leak of existence)."""

    section: str = ""

    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated and not may_use_section(request.user, self.section):
            label, needs = _NEEDS[self.section]
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
        return super().dispatch(request, *args, **kwargs)
