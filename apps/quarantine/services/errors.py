"""The refusals of quarantine decisions (safe to show to the reviewer)."""

from apps.core.errors import ServiceError


class QuarantineError(ServiceError):
    """A decision that cannot be applied; the message is safe to show to the reviewer."""


class AlreadyDecided(QuarantineError):
    """Another reviewer decided the entry first."""

    code = "already_decided"
    status = 409
