"""Auth signal receivers, connected in AccessConfig.ready(): thin calls into services.

Signals are the one hook Django gives for logins on every login page (the console's and
the admin's) and django-axes reports lockouts the same way.
"""

from axes.helpers import get_failure_limit
from axes.signals import user_locked_out
from django.contrib.auth.signals import user_logged_in, user_login_failed

from apps.access.services import note_failed_login, record_lockout, record_login


def on_login(sender, request, user, **kwargs) -> None:
    record_login(user=user)


def on_login_failed(sender, credentials, request=None, **kwargs) -> None:
    address = request.META.get("REMOTE_ADDR") if request is not None else None
    note_failed_login(address=address)


def on_locked_out(sender, request, username, ip_address, **kwargs) -> None:
    # axes signals on every failure at or past the limit; the lockout begins exactly when
    # the count reaches it, so that attempt alone is audited.
    failures = getattr(request, "axes_failures_since_start", None)
    credentials = getattr(request, "axes_credentials", None)
    if failures is not None and failures == get_failure_limit(request, credentials):
        record_lockout(username=username or "", address=ip_address, failures=failures)


def connect() -> None:
    user_logged_in.connect(on_login, dispatch_uid="access.audit_login")
    user_login_failed.connect(on_login_failed, dispatch_uid="access.audit_login_failed")
    user_locked_out.connect(on_locked_out, dispatch_uid="access.audit_lockout")
