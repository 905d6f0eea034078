"""Types shared by every service signature.

An `Actor` is whoever a change is done by, as the audit log records it: a person or a
service account (both users: an agent acts as its service account's user), or a system
job named by a string ("weekly_audit", "recall", "test-setup"). An anonymous visitor is
never an actor: services are called after authentication.
"""

from typing import TypeAlias

from django.contrib.auth.models import User

Actor: TypeAlias = User | str
