"""What the privacy workflow refuses; every refusal is a ServiceError (apps.core.errors)."""

from apps.core.errors import ServiceError


class PrivacyError(ServiceError):
    """Bad input to a privacy operation (400)."""

    code = "invalid"
    status = 400


class StepNotAllowed(PrivacyError):
    """The request is not in a state where this step may be taken now (409)."""

    code = "step_not_allowed"
    status = 409


class SecondApproverRequired(PrivacyError):
    """Four eyes: the approver must differ from whoever created or verified (403)."""

    code = "second_approver_required"
    status = 403


class TenantNotPermitted(PrivacyError):
    """An unknown tenant, or one the officer holds no privacy grant on (404: no leak)."""

    code = "not_found"
    status = 404


class ErasureIncomplete(PrivacyError):
    """The verification queries found rows left after the erasure (500: must not happen)."""

    code = "erasure_incomplete"
    status = 500


class ErasureLogError(PrivacyError):
    """An erasure log or receipt that is unreadable or whose signature does not match."""

    code = "bad_signature"
    status = 400
