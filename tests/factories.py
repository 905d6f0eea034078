"""factory-boy factories for the core models; app-specific ones live beside their tests."""

import hashlib

import factory
from django.contrib.auth import get_user_model
from django.utils import timezone

from apps.memory.models import MemoryItem, MemoryType, SourceKind
from apps.memory.vectors import store_vector
from apps.tenancy.models import Scope, ScopeKind, Tenant


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("correct-horse-battery")


class TenantFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tenant
        django_get_or_create = ("slug",)

    slug = factory.Sequence(lambda n: f"tenant-{n}")
    name = factory.LazyAttribute(lambda o: o.slug.replace("-", " ").title())


class ScopeFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Scope

    tenant = factory.SubFactory(TenantFactory)
    kind = ScopeKind.USER
    external_id = factory.Sequence(lambda n: f"u_{n:05d}")
    subject = factory.LazyAttribute(lambda o: o.external_id if o.kind == ScopeKind.USER else "")


class MemoryItemFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = MemoryItem
        skip_postgeneration_save = True

    scope = factory.SubFactory(ScopeFactory)
    tenant = factory.LazyAttribute(lambda o: o.scope.tenant)
    memory_type = MemoryType.SEMANTIC
    category = 0
    content = factory.Sequence(lambda n: {"text": f"The user prefers option {n}."})
    text = factory.LazyAttribute(lambda o: o.content.get("text", ""))
    source = "langgraph@0.2"
    source_kind = SourceKind.EXPLICIT_STATEMENT
    importance = 0.5
    half_life_days = 30.0
    last_access_at = factory.LazyFunction(timezone.now)
    content_hash = factory.LazyAttribute(lambda o: hashlib.sha256(o.text.encode()).hexdigest())

    @factory.post_generation
    def index_embedding(obj, create, extracted, **kwargs):
        """An embedded item gets its vector-index row, as create_item gives it."""
        if create and obj.embedding:
            store_vector(obj)
