"""DRF authentication for agents: `Authorization: Api-Key <key>` → the service account.

request.user becomes the key's service-account user (so guardian grants bound every
read and write) and request.auth the AgentAPIKey (so throttling and provenance can use
its prefix). Revoked or expired keys and inactive users are refused with 401.
"""

from datetime import timedelta
from functools import cache

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Q
from django.utils import timezone
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions

from apps.access.known_keys import keep_row, kept_row, replace_row, revoked_marker
from apps.access.models import AgentAPIKey, ServiceAccount
from apps.access.selectors import in_admin_group, note_admin_membership
from apps.core.cache import rate_limit_cache
from memory_console.db import Parameter, PrecompiledQuery

KEYWORD = "Api-Key"
# Writing last_used_at on every request would turn each read into a write; once a minute
# per key is precise enough for "when was this key last used".
LAST_USED_RESOLUTION = timedelta(minutes=1)


def touch_last_used(key: AgentAPIKey) -> bool:
    """Record that the key was used, at most once per LAST_USED_RESOLUTION; whether it
    was time to."""
    now = timezone.now()
    if key.last_used_at and now - key.last_used_at < LAST_USED_RESOLUTION:
        return False
    AgentAPIKey.objects.filter(pk=key.pk).filter(
        Q(last_used_at__isnull=True) | Q(last_used_at__lt=now - LAST_USED_RESOLUTION)
    ).update(last_used_at=now)
    key.last_used_at = now
    return True


@cache
def _key_with_its_agent() -> PrecompiledQuery:
    """One query answers everything a request asks of its agent later: the unrevoked key,
    its account (audit events name it) and whether it is an admin (grant checks)."""
    User = get_user_model()
    keys = AgentAPIKey.objects.filter(prefix=Parameter("prefix"), revoked=False).annotate(
        user_is_admin=in_admin_group("user")
    )
    return PrecompiledQuery(
        keys,
        models=[(AgentAPIKey, ""), (User, "user__"), (ServiceAccount, "user__service_account__")],
        extra=["user_is_admin"],
    )


def find_unrevoked_key(prefix: str) -> AgentAPIKey | None:
    """The unrevoked key with this prefix, its user and service account loaded."""
    return _key_of_row(_unrevoked_key_row(prefix))


def _unrevoked_key_row(prefix: str) -> tuple | None:
    with connection.cursor() as cursor:
        cursor.execute(*_key_with_its_agent().bound(prefix=prefix))
        return cursor.fetchone()


def _key_of_row(row: tuple | None) -> AgentAPIKey | None:
    """The key of a row of _key_with_its_agent, as new instances (a kept row serves many
    requests; nothing one request learns about its agent may reach another)."""
    if row is None:
        return None
    key, user, account, user_is_admin = _key_with_its_agent().loaded(row)
    # The account is a reverse one-to-one: cache it, or its absence, as select_related does.
    type(user).service_account.related.set_cached_value(
        user, account if account.pk is not None else None
    )
    note_admin_membership(user, user_is_admin)
    key.user = user
    return key


# Invalid API keys are counted per client address over this window; past the configured
# number (MEMORY_CONSOLE_BAD_KEY_LIMIT) the address is answered 429 without checking keys.
BAD_KEY_WINDOW_SECONDS = 60


def _bad_key_counter(request) -> str:
    return f"bad-api-key:{request.META.get('REMOTE_ADDR', '')}"


def refuse_if_guessing(request, counted: int | None) -> None:
    """429 for an address that sent too many invalid keys in the current window (`counted`:
    its counter, as read from the shared cache)."""
    limit = settings.MEMORY_CONSOLE_BAD_KEY_LIMIT
    if limit and (counted or 0) >= limit:
        raise exceptions.Throttled(wait=BAD_KEY_WINDOW_SECONDS)


def shared_facts(request, prefix: str) -> tuple[int | None, bool]:
    """The address's bad-key counter and whether the key was revoked (known_keys), read
    from the shared cache in one round trip."""
    counter, marker = _bad_key_counter(request), revoked_marker(prefix)
    names = [counter, marker] if settings.MEMORY_CONSOLE_BAD_KEY_LIMIT else [marker]
    found = rate_limit_cache.get_many(names)
    return found.get(counter), bool(found.get(marker))


def key_for_request(prefix: str, *, revoked: bool) -> AgentAPIKey | None:
    """The unrevoked key with this prefix: from the row this process kept (known_keys),
    or found in the database and kept."""
    row = kept_row(prefix, revoked=revoked)
    if row is None:
        row = _unrevoked_key_row(prefix)
        if row is not None:
            keep_row(prefix, row)
    return _key_of_row(row)


def count_bad_key(request) -> None:
    counter = _bad_key_counter(request)
    if not rate_limit_cache.add(counter, 1, BAD_KEY_WINDOW_SECONDS):
        try:
            rate_limit_cache.incr(counter)
        except ValueError:  # expired between add and incr
            rate_limit_cache.add(counter, 1, BAD_KEY_WINDOW_SECONDS)


class AgentAPIKeyAuthentication(authentication.BaseAuthentication):
    """Authenticate `Authorization: Api-Key <prefix>.<secret>` against the hashed keys."""

    def authenticate(self, request):
        header = authentication.get_authorization_header(request).decode("latin-1")
        keyword, _, plaintext = header.partition(" ")
        if keyword.lower() != KEYWORD.lower():
            return None
        plaintext = plaintext.strip()
        prefix = plaintext.partition(".")[0]
        counted, revoked = shared_facts(request, prefix)
        refuse_if_guessing(request, counted)
        if not plaintext or " " in plaintext:
            count_bad_key(request)
            raise exceptions.AuthenticationFailed("Malformed Api-Key header.")
        key = key_for_request(prefix, revoked=revoked)
        if key is None or key.has_expired or not key.is_valid(plaintext):
            count_bad_key(request)
            raise exceptions.AuthenticationFailed("Invalid, revoked or expired API key.")
        if not key.user.is_active:
            raise exceptions.AuthenticationFailed("The key's service account is disabled.")
        if touch_last_used(key):
            row = _unrevoked_key_row(prefix)  # as written: the next minute writes nothing
            if row is not None:
                replace_row(prefix, row)
        return key.user, key

    def authenticate_header(self, request) -> str:
        return KEYWORD


class AgentAPIKeySchemaExtension(OpenApiAuthenticationExtension):
    """Describe the Api-Key header in the OpenAPI schema (drf-spectacular)."""

    target_class = "apps.access.authentication.AgentAPIKeyAuthentication"
    name = "ApiKeyAuth"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": 'Send "Api-Key <key>" (from `manage.py create_api_key`).',
        }
