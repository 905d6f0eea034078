"""What conflict operations refuse, with a message meant for the person who asked."""

from apps.core.errors import ServiceError


class ConflictError(ServiceError):
    """A conflict operation that cannot be done; `message` is shown to the person."""


class AlreadyResolved(ConflictError):
    code = "already_resolved"
    status = 409


class NotResolved(ConflictError):
    code = "not_resolved"
    status = 409


class RevertBlocked(ConflictError):
    code = "changed_since"
    status = 409


class NotSuperseded(ConflictError):
    code = "not_superseded"
    status = 409
