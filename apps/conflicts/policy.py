"""Which fact keys follow last-write-wins (per tenant glob patterns) and which need a person."""

from fnmatch import fnmatchcase

from apps.tenancy.models import Tenant, default_lww_patterns


def lww_patterns(tenant: Tenant) -> list[str]:
    """The tenant's last-write-wins patterns; the installation defaults when unset."""
    patterns = tenant.lww_key_patterns
    if patterns is None:
        return default_lww_patterns()
    return [str(pattern) for pattern in patterns if pattern]


def is_last_write_wins(tenant: Tenant, key: str) -> bool:
    """A new value for such a key supersedes the old one; others open a conflict."""
    return any(fnmatchcase(key, pattern) for pattern in lww_patterns(tenant))
