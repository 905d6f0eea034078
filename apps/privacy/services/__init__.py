"""The privacy app's operations (every write): the request workflow, erasure, denylist,
receipts and the erasure log kept outside the database."""

from apps.privacy.services.denylist import add_to_denylist, lift_entry
from apps.privacy.services.erasure import execute_erasure, start_erasure
from apps.privacy.services.errors import (
    ErasureIncomplete,
    ErasureLogError,
    PrivacyError,
    SecondApproverRequired,
    StepNotAllowed,
    TenantNotPermitted,
)
from apps.privacy.services.preview import preview_request
from apps.privacy.services.requests import (
    approve_request,
    create_request,
    hold_request,
    reject_request,
    release_hold,
    verify_request,
)

__all__ = [
    "ErasureIncomplete",
    "ErasureLogError",
    "PrivacyError",
    "SecondApproverRequired",
    "StepNotAllowed",
    "TenantNotPermitted",
    "add_to_denylist",
    "approve_request",
    "create_request",
    "execute_erasure",
    "hold_request",
    "lift_entry",
    "preview_request",
    "reject_request",
    "release_hold",
    "start_erasure",
    "verify_request",
]
