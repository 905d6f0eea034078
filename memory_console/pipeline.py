"""The composition root: how the apps are wired together, listed by import.

`memory` is the base the other apps build on and never imports them; what they plug
into it — the remember gate's stages, the hooks run after a memory is released from
quarantine, edited or forgotten — is listed here, and so are the navigation's pending
counts. memory_console.apps.PipelineConfig installs it once every app is ready, so the
web process, Celery workers and management commands all run the same wiring.

Grep finds every caller here: e.g. `apply_conflict_policy` runs after a release and
after an edit. Operators configure the injection detectors (a setting); the wiring is
code, reviewed like code.
"""

from apps.access import navigation
from apps.audit.selectors import broken_chain_alert_for
from apps.conflicts.gate import ConflictStage
from apps.conflicts.selectors import open_count_for
from apps.conflicts.services import apply_conflict_policy
from apps.memory import wiring
from apps.memory.gate.sensitive import SensitiveDataStage
from apps.memory.gate.stages import DedupeStage, ValidateStage
from apps.privacy.gate import DenylistStage
from apps.quarantine.gate import InjectionStage
from apps.quarantine.selectors import pending_count_for
from apps.quarantine.services import withdraw_forgotten

# The remember gate, in order (ARCHITECTURE §4).
GATE_STAGES = (
    ValidateStage(),
    # An erased subject (or scope key) is refused before anything looks at the content.
    DenylistStage(),
    SensitiveDataStage(),
    InjectionStage(),
    DedupeStage(),
    ConflictStage(),
)
# The stages that judge content, for new content of an existing item (edit, merge).
CONTENT_STAGES = (SensitiveDataStage(), InjectionStage())

MEMORY_WIRING = wiring.Wiring(
    gate_stages=GATE_STAGES,
    content_stages=CONTENT_STAGES,
    # A released item skipped the conflict stage while it was held.
    after_release=(apply_conflict_policy,),
    # A new value (or key) is checked against the other values of its key like a write.
    after_edit=(apply_conflict_policy,),
    # A forgotten item leaves the review queue for good.
    after_forget=(withdraw_forgotten,),
)

# Pending counts shown in the navigation: {url name: callable(user) -> int | None}.
NAV_COUNTS = {
    "conflicts:list": open_count_for,
    "quarantine:queue": pending_count_for,
    "audit:list": broken_chain_alert_for,
}


def install() -> None:
    """Wire the apps together (once per process, when the app registry is ready)."""
    wiring.install(MEMORY_WIRING)
    navigation.install_counts(NAV_COUNTS)
