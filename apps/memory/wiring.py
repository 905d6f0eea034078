"""What the apps built on `memory` plug into it: gate stages and state-change hooks.

`memory` never imports quarantine or conflicts. The composition root
`memory_console/pipeline.py` imports everything and installs one `Wiring` here when the
project's app registry is ready (memory_console.apps); the services read it back. So
grep finds every stage and hook where it is listed, by import, and `memory` stays below
the apps that extend it.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace

from django.core.exceptions import ImproperlyConfigured

from apps.memory.gate import Hook, Stage


@dataclass(frozen=True)
class Wiring:
    """The gate's stages, in order, and the hooks run after memory state changes."""

    # Every new write (remember, import, restore), in ARCHITECTURE §4 order.
    gate_stages: tuple[Stage, ...] = ()
    # New content for an existing item (edit, merge): the stages that judge content.
    content_stages: tuple[Stage, ...] = ()
    # An item released from quarantine: the checks its held write skipped.
    after_release: tuple[Hook, ...] = ()
    # An edit gave an active item a new value or key.
    after_edit: tuple[Hook, ...] = ()
    # An agent forgot an item.
    after_forget: tuple[Hook, ...] = ()


# The one process-wide registry, set at app-ready time.
_installed: dict[str, Wiring] = {}


def install(wiring: Wiring) -> None:
    """Make `wiring` the process's wiring (called once, by the composition root)."""
    _installed["wiring"] = wiring


def current() -> Wiring:
    """The installed wiring; refuses to run a gate that nobody wired."""
    if "wiring" not in _installed:
        raise ImproperlyConfigured(
            "The memory pipeline is not installed: add 'memory_console.apps.PipelineConfig' "
            "to INSTALLED_APPS (memory_console/pipeline.py lists the stages and hooks)."
        )
    return _installed["wiring"]


@contextmanager
def overridden(**changes) -> Iterator[Wiring]:
    """Run with some parts of the wiring replaced (tests, benchmarks)."""
    before = current()
    install(replace(before, **changes))
    try:
        yield current()
    finally:
        install(before)


def run_hooks(hooks: tuple[Hook, ...], *, item_id, actor) -> None:
    """Call each hook with the item and the actor, in order."""
    for hook in hooks:
        hook(item_id=item_id, actor=actor)
