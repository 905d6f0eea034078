"""Granting and revoking roles on tenants and scopes; creating service accounts."""

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction
from guardian.shortcuts import assign_perm, remove_perm

from apps.access.models import ServiceAccount
from apps.access.roles import ROLE_PERMISSIONS, Role
from apps.audit.models import Action
from apps.audit.services import record
from apps.core.types import Actor


def grant_role(*, user, role: Role | str, target, actor: Actor) -> None:
    """Give a user a role's permissions on a tenant or scope (and the role's group)."""
    role = Role(role)
    with transaction.atomic():
        if role != Role.AGENT:
            group, _ = Group.objects.get_or_create(name=role.value)
            user.groups.add(group)
        for codename in ROLE_PERMISSIONS[role]:
            assign_perm(codename, user, target)
        record(
            actor=actor,
            action=Action.ACCESS_GRANTED,
            target=user,
            tenant=getattr(target, "tenant_id", target.pk),
            scope=target.pk if hasattr(target, "tenant_id") else None,
            data={"role": role.value, "on": target._meta.model_name},
        )


def revoke_role(*, user, role: Role | str, target, actor: Actor) -> None:
    """Take a role's permissions on a tenant or scope away from a user."""
    role = Role(role)
    with transaction.atomic():
        for codename in ROLE_PERMISSIONS[role]:
            remove_perm(codename, user, target)
        record(
            actor=actor,
            action=Action.ACCESS_REVOKED,
            target=user,
            tenant=getattr(target, "tenant_id", target.pk),
            scope=target.pk if hasattr(target, "tenant_id") else None,
            data={"role": role.value, "on": target._meta.model_name},
        )


def ensure_service_account(*, username: str, description: str = "") -> "ServiceAccount":
    """Return the service account with this username, creating its user when missing."""
    with transaction.atomic():
        user, created = get_user_model().objects.get_or_create(username=username)
        if created:
            user.set_unusable_password()
            user.save(update_fields=["password"])
        account, _ = ServiceAccount.objects.get_or_create(
            user=user, defaults={"description": description}
        )
    return account


def record_login(*, user) -> None:
    """Audit a successful login (console or admin)."""
    record(actor=user, action=Action.AUTH_LOGIN, target=user)


def note_failed_login(*, address: str | None) -> None:
    """Count a failed login against the client's address; the chain gets one event per
    address and minute (apps.audit.services.flush_denials), so failures cannot flood it."""
    from apps.audit.services import denial_actor, note_denial

    note_denial(
        actor=denial_actor(address=address),
        target_kind="auth.user",
        action=Action.AUTH_LOGIN_FAILED,
    )


def record_lockout(*, username: str, address: str | None, failures: int) -> None:
    """Audit that a login lockout began (once per lockout); names only as keyed hashes."""
    from apps.audit.hashing import keyed_hash

    record(
        actor="anonymous",
        action=Action.AUTH_LOCKED_OUT,
        target_type="auth.user",
        data={
            "username_hmac": keyed_hash((username or "")[:150]),
            "address_hmac": keyed_hash(address or "unknown"),
            "failures": failures,
        },
    )


def unlock_logins(*, attempts, actor) -> int:
    """Lift login lockouts (django-axes attempts) and audit each lifted one."""
    from apps.audit.hashing import keyed_hash

    lifted = 0
    with transaction.atomic():
        for attempt in attempts.select_for_update():
            record(
                actor=actor,
                action=Action.AUTH_UNLOCKED,
                target_type="auth.user",
                data={
                    "username_hmac": keyed_hash((attempt.username or "")[:150]),
                    "address_hmac": keyed_hash(attempt.ip_address or "unknown"),
                },
            )
            attempt.delete()
            lifted += 1
    return lifted


def record_logout(*, user) -> None:
    """Audit a logout."""
    record(actor=user, action=Action.AUTH_LOGOUT, target=user)
