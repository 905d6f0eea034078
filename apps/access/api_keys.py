"""Issuing and revoking agents' API keys (the service layer for AgentAPIKey).

A key belongs to a service-account user; the grants of that user, not anything on the
key, decide what the agent may read and write. Only the hash of a key is stored: the
plaintext is returned once, at creation.
"""

from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.db import transaction

from apps.access.known_keys import forget_revoked_key
from apps.access.models import AgentAPIKey
from apps.access.roles import Role
from apps.access.services import ensure_service_account, grant_role
from apps.audit.models import Action
from apps.audit.services import audited_change, record
from apps.core.errors import ServiceError

_USERNAME_MAX_LENGTH = 150


class InvalidUsername(ServiceError):
    code = "invalid_username"


def validate_service_username(username: str) -> str:
    """Service-account names follow Django's username rules (letters, digits, @.+-_)."""
    if not username or len(username) > _USERNAME_MAX_LENGTH:
        raise InvalidUsername(f"A username has 1 to {_USERNAME_MAX_LENGTH} characters.")
    try:
        UnicodeUsernameValidator()(username)
    except ValidationError as exc:
        raise InvalidUsername(" ".join(exc.messages)) from None
    return username


def create_api_key(*, username: str, tenant, name: str = "", actor) -> tuple[AgentAPIKey, str]:
    """Create (if needed) the service account `username`, grant it the agent role on
    `tenant`, and issue a new key for it; returns the key row and its plaintext."""
    validate_service_username(username)
    with transaction.atomic():
        account = ensure_service_account(username=username, description="agent")
        grant_role(user=account.user, role=Role.AGENT, target=tenant, actor=actor)
        key_obj, plaintext = AgentAPIKey.objects.create_key(
            name=(name or f"{username}@{tenant.slug}")[:50], user=account.user
        )
        record(
            actor=actor,
            action=Action.API_KEY_CREATED,
            target=key_obj,
            target_id=key_obj.prefix,
            tenant=tenant.pk,
            data={"prefix": key_obj.prefix, "service_account": account.user.pk},
        )
    return key_obj, plaintext


def revoke_api_key(*, key_id: str, actor) -> AgentAPIKey:
    """Revoke a key for good (the library refuses to un-revoke); accepts its id or prefix."""
    with audited_change():
        # The primary key is "<prefix>.<hash>"; the prefix alone is unique too.
        prefix = key_id.partition(".")[0]
        key_obj = AgentAPIKey.objects.select_for_update(no_key=True).get(prefix=prefix)
        if not key_obj.revoked:
            key_obj.revoked = True
            key_obj.save(update_fields=["revoked"])
        # Processes that kept the key stop using it (apps.access.known_keys).
        transaction.on_commit(lambda: forget_revoked_key(key_obj.prefix))
        record(
            actor=actor,
            action=Action.API_KEY_REVOKED,
            target=key_obj,
            target_id=key_obj.prefix,
            data={"prefix": key_obj.prefix, "service_account": key_obj.user_id},
        )
    return key_obj
