"""Factories and helpers for conflict tests: writes through the real gate stage."""

import time

import factory
from django.db import transaction

from apps.conflicts.gate import ConflictStage
from apps.conflicts.models import Conflict
from apps.memory.content import content_hash, render_text
from apps.memory.gate import Draft, NewMemory
from apps.memory.gate.stages import ValidateStage
from apps.memory.models import MemoryType
from apps.memory.services import create_item
from apps.memory.services.gate import item_values
from tests.factories import MemoryItemFactory, ScopeFactory


def fact(scope, key: str, content: dict, **extra):
    """An active item stating `content` for `key`, with its hash derived like the gate does."""
    return MemoryItemFactory(
        scope=scope,
        key=key,
        content=content,
        text=render_text(content),
        content_hash=content_hash(content),
        **extra,
    )


def write_through_conflict_stage(
    *, scope, key: str, content: dict, actor="agent-test", pause_before_callbacks: float = 0.0
):
    """Persist a write the way the remember runner does: stage, create_item, callbacks.

    Runs only the real ConflictStage (no other stage) with the real create_item primitive
    in one transaction, so concurrency tests can widen the race window between them.
    """
    new = NewMemory(
        tenant=scope.tenant,
        scope=scope,
        memory_type=MemoryType.SEMANTIC,
        key=key,
        content=content,
        source="test-agent",
    )
    draft = Draft(memory=new, actor=actor)
    ValidateStage().inspect(draft)
    ConflictStage().inspect(draft)
    with transaction.atomic():
        item = create_item(values=item_values(new, actor=actor, status=draft.status), actor=actor)
        time.sleep(pause_before_callbacks)  # lets concurrency tests widen the race window
        for callback in draft.callbacks:
            callback(item)
    return item


class ConflictFactory(factory.django.DjangoModelFactory):
    """An open conflict between two facts of one scope (the incoming one pending review)."""

    class Meta:
        model = Conflict

    scope = factory.SubFactory(ScopeFactory)
    tenant = factory.LazyAttribute(lambda o: o.scope.tenant)
    key = "preference.drink"
    existing_item = factory.LazyAttribute(lambda o: fact(o.scope, o.key, {"drink": "tea"}))
    incoming_item = factory.LazyAttribute(
        lambda o: fact(o.scope, o.key, {"drink": "coffee"}, status="pending_review")
    )
