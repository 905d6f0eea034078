"""Demo data for the console (CONTRACT: `seed_demo [--password P]`); idempotent.

Three tenants, ~60 scopes (users, their sessions, agents, a global scope) and ~2,100
memories in English and Chinese: plain memories of every type, injection attempts,
contradicting facts and sensitive data, plus the demo users with their grants.

The interesting writes (injections, contradictions, sensitive data) go through the
remember gate (apps.memory.services.remember), so they are quarantined, opened as
conflicts, superseded, redacted or encrypted exactly as an agent's write would be.
The bulk of plain memories is written with create_item for speed; to send them
through the gate as well, set PLAIN_WRITES_THROUGH_GATE = True.

Running it twice changes nothing: users, tenants and grants are created only when
missing, and memories are written only when no seeded memory exists yet.
"""

import itertools
import random
import time
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from apps.access.models import TenantUserObjectPermission
from apps.access.roles import ROLE_PERMISSIONS, Role
from apps.access.services import ensure_service_account, grant_role
from apps.audit.models import Action
from apps.audit.services import record
from apps.conflicts.models import Conflict
from apps.conflicts.services import resolve_conflict
from apps.memory.api.remember_body import new_memory_from_request
from apps.memory.demo import (
    CONFLICTING_FACTS,
    DEMO_TENANTS,
    INJECTION_MEMORIES,
    PLAIN_MEMORIES,
    SENSITIVE_MEMORIES,
    SOURCES,
    synthetic_templates,
)
from apps.memory.gate import GateRejected
from apps.memory.models import MemoryItem, MemoryStatus
from apps.memory.scoring import default_half_life
from apps.memory.services import create_item, forget_item, remember
from apps.privacy.demo import seed_deletion_requests
from apps.tenancy.models import Scope, SensitivePolicy, Tenant

DEMO_PASSWORD = "memory-console-demo"  # noqa: S105 - documented demo password (README)
SEED_RUN_ID = "seed-demo"
AGENT_USERNAME = "demo-agent"
PLAIN_WRITES_THROUGH_GATE = False  # the one-line switch: True sends every write through remember
PLAIN_ITEMS_PER_TENANT = 650
ARCHIVED_SHARE = 0.04
USERS_PER_TENANT = 12
SESSIONS_PER_TENANT = 6
AGENT_SCOPES = ("agent:triage", "agent:planner")
GLOBAL_SCOPE = "global:policies"
TENANT_POLICIES = {
    "support-bot-prod": SensitivePolicy.REDACT,
    "shop-assistant-cn": SensitivePolicy.ENCRYPT,
    "internal-hr-agent": SensitivePolicy.ENCRYPT,
}
FIRST_CONTACT = [
    "First contact: the agent opened this memory scope.",
    "首次接触：智能体创建了这个记忆空间。",
]
ALL_TENANTS = [slug for slug, _ in DEMO_TENANTS]
# username → (role, tenant slugs); admin is a superuser in the admin group.
DEMO_USERS: dict[str, tuple[Role, list[str]]] = {
    "admin": (Role.ADMIN, []),
    "operator": (Role.OPERATOR, ["support-bot-prod", "shop-assistant-cn"]),
    "officer": (Role.COMPLIANCE_OFFICER, ALL_TENANTS),
    "officer2": (Role.COMPLIANCE_OFFICER, ALL_TENANTS),
    "analyst": (Role.ANALYST, ALL_TENANTS),
}


def scope_keys(tenant_slug: str) -> list[tuple[str, str]]:
    """(scope key, subject) for one tenant: users, sessions sharing a user's subject, agents."""
    prefix = {"support-bot-prod": "u", "shop-assistant-cn": "cn", "internal-hr-agent": "emp"}
    users = [f"{prefix[tenant_slug]}_{1001 + n}" for n in range(USERS_PER_TENANT)]
    keys = [(f"user:{user}", user) for user in users]
    keys += [(f"session:{user}-s1", user) for user in users[:SESSIONS_PER_TENANT]]
    keys += [(key, "") for key in (*AGENT_SCOPES, GLOBAL_SCOPE)]
    return keys


class Command(BaseCommand):
    help = "Create demo tenants, scopes, memories and users (idempotent)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--password",
            default=None,
            help=f'Password of the demo users (default "{DEMO_PASSWORD}"); '
            "given explicitly, it also resets existing demo users' passwords.",
        )

    def handle(self, *args, password, **options):
        started = time.perf_counter()
        self.rng = random.Random(2026)
        with transaction.atomic():
            tenants = {slug: self.ensure_tenant(slug, name) for slug, name in DEMO_TENANTS}
            self.ensure_users(password, tenants)
            agent = ensure_service_account(username=AGENT_USERNAME, description="demo agent")
            for tenant in tenants.values():
                self.ensure_grant(agent.user, Role.AGENT, tenant)
        seeded = MemoryItem.objects.filter(tenant__slug__in=ALL_TENANTS, run_id=SEED_RUN_ID)
        if seeded.exists():
            self.stdout.write("Demo memories already present; nothing to add.")
        else:
            with transaction.atomic():
                for tenant in tenants.values():
                    self.seed_tenant(tenant, agent.user)
        self.seed_deletion_requests(tenants)
        self.ensure_reports()
        self.print_summary(password or DEMO_PASSWORD, time.perf_counter() - started)

    def ensure_reports(self) -> None:
        """Last week's and this week's health reports, so the week-over-week view has two
        weeks to compare on a fresh install (a second run adds nothing)."""
        # Imported here: reports builds on every app, this command included.
        from apps.reports.models import HealthReport
        from apps.reports.services import run_weekly_audit
        from apps.reports.services.health import period_for

        now = timezone.now()
        for moment in (now - timedelta(days=7), now):
            week_start = period_for(moment).week_start
            if not HealthReport.objects.filter(tenant=None, week_start=week_start).exists():
                run_weekly_audit(actor="seed_demo", now=moment)

    # --- people and tenants -------------------------------------------------------------

    def ensure_tenant(self, slug: str, name: str) -> Tenant:
        tenant, created = Tenant.objects.get_or_create(
            slug=slug, defaults={"name": name, "sensitive_policy": TENANT_POLICIES[slug]}
        )
        if created:
            record(
                actor="seed_demo",
                action=Action.TENANT_CREATED,
                target=tenant,
                tenant=tenant.pk,
                data={"policy": tenant.sensitive_policy},
            )
        return tenant

    def ensure_users(self, password: str | None, tenants: dict[str, Tenant]) -> None:
        users = get_user_model().objects
        for username, (role, slugs) in DEMO_USERS.items():
            user, created = users.get_or_create(username=username)
            if created or password:
                user.set_password(password or DEMO_PASSWORD)
                user.is_staff = user.is_superuser = role == Role.ADMIN
                user.save()
            if role == Role.ADMIN:
                user.groups.add(Group.objects.get_or_create(name=Role.ADMIN.value)[0])
            for slug in slugs:
                self.ensure_grant(user, role, tenants[slug])

    @staticmethod
    def ensure_grant(user, role: Role, tenant: Tenant) -> None:
        """Grant through the audited service, once: a second run must not re-grant."""
        held = TenantUserObjectPermission.objects.filter(
            user=user, content_object=tenant, permission__codename=ROLE_PERMISSIONS[role][0]
        ).exists()
        if not held:
            grant_role(user=user, role=role, target=tenant, actor="seed_demo")

    # --- memories -----------------------------------------------------------------------

    def seed_tenant(self, tenant: Tenant, agent) -> None:
        keys = scope_keys(tenant.slug)
        user_keys = [(key, subject) for key, subject in keys if key.startswith("user:")]
        for index, (key, subject) in enumerate(keys):  # the agent's first write creates a scope
            first = FIRST_CONTACT[index % len(FIRST_CONTACT)]
            self.through_gate(agent, tenant, key, subject, {"text": first}, 20, "episodic")
        scopes = {s.key: s for s in Scope.objects.filter(tenant=tenant)}
        self.write_plain_items(tenant, agent, [scopes[key] for key, _ in keys])
        for index, content in enumerate(INJECTION_MEMORIES * 3):
            key, subject = keys[(index * 5) % len(keys)]
            source_kind = "external" if index % 2 else "explicit_statement"
            self.through_gate(agent, tenant, key, subject, content, 85, source_kind=source_kind)
        for index, content in enumerate(SENSITIVE_MEMORIES * 3):
            key, subject = user_keys[(index * 3 + 1) % len(user_keys)]
            self.through_gate(agent, tenant, key, subject, content, 4)
        for index, (fact_key, first, second) in enumerate(CONFLICTING_FACTS * 3):
            key, subject = user_keys[index % len(user_keys)]
            self.through_gate(agent, tenant, key, subject, first, 1, fact_key=fact_key)
            self.through_gate(agent, tenant, key, subject, second, 1, fact_key=fact_key)
        self.settle_some_conflicts(tenant)

    def write_plain_items(self, tenant: Tenant, agent, scopes: list[Scope]) -> None:
        """The bulk of harmless memories: every type and band, both languages."""
        now = timezone.now()
        templates = [(t, c, "", content) for t, c, _, content in PLAIN_MEMORIES]
        templates += [
            (t.memory_type, t.category, "", t.content) for t in synthetic_templates() if not t.key
        ]
        pairs = itertools.islice(
            ((template, scope) for scope in scopes for template in templates),
            0,
            None,
            max(1, len(scopes) * len(templates) // PLAIN_ITEMS_PER_TENANT),
        )
        written = []
        for template, scope in itertools.islice(pairs, PLAIN_ITEMS_PER_TENANT):
            memory_type, category, _, content = template
            values = {
                "tenant": tenant,
                "scope": scope,
                "memory_type": memory_type,
                "category": category,
                "content": content,
                "source": self.rng.choice(SOURCES),
                "source_kind": self.rng.choice(["explicit_statement", "inferred", "agent", "tool"]),
                "importance": round(self.rng.uniform(0.2, 0.95), 2),
                "half_life_days": default_half_life(
                    memory_type=memory_type,
                    category=category,
                    overrides=tenant.half_life_overrides,
                ),
                "last_access_at": now - timedelta(days=self.rng.uniform(0, 90)),
                "access_count": self.rng.randint(0, 25),
                "expires_at": (
                    now + timedelta(days=self.rng.uniform(1, 7))
                    if memory_type == "working"
                    else None
                ),
                "run_id": SEED_RUN_ID,
                "created_by": agent,
            }
            if PLAIN_WRITES_THROUGH_GATE:
                item = self.through_gate(
                    agent, tenant, scope.key, scope.subject, content, category, memory_type
                )
            else:
                item = create_item(values=values, actor=agent)
            if item is not None:
                written.append(item)
        for item in self.rng.sample(written, int(len(written) * ARCHIVED_SHARE)):
            forget_item(item_id=item.pk, actor=agent)

    def through_gate(
        self,
        agent,
        tenant: Tenant,
        scope_key: str,
        subject: str,
        content: dict,
        category: int,
        memory_type: str = "semantic",
        *,
        fact_key: str = "",
        source_kind: str = "explicit_statement",
    ) -> MemoryItem | None:
        """Write like an agent: the gate decides active, quarantined, pending or merged."""
        payload = {
            "tenant": tenant.slug,
            "scope": scope_key,
            "subject": subject,
            "memory_type": memory_type,
            "category": category,
            "key": fact_key,
            "content": content,
            "source": self.rng.choice(SOURCES),
            "source_kind": source_kind,
            "importance": round(self.rng.uniform(0.3, 0.9), 2),
            "run_id": SEED_RUN_ID,
        }
        try:
            new = new_memory_from_request(payload, actor=agent, api_key_prefix="demo")
            return remember(new=new, actor=agent).item
        except GateRejected:
            return None  # e.g. a tenant policy that rejects sensitive data

    def settle_some_conflicts(self, tenant: Tenant) -> None:
        """Resolve a few conflicts so the history shows undoable resolutions and rejections."""
        operator = get_user_model().objects.get(username="operator")
        open_conflicts = list(Conflict.objects.filter(tenant=tenant).order_by("pk")[:4])
        for conflict, resolution in zip(open_conflicts, ["keep_old", "keep_new"], strict=False):
            resolve_conflict(
                conflict_id=conflict.pk,
                resolution=resolution,
                actor=operator,
                reason="Confirmed with the customer (demo).",
            )

    def seed_deletion_requests(self, tenants: dict[str, Tenant]) -> None:
        """Erasure requests in several states (one overdue, one on hold, one completed)."""
        users = get_user_model().objects
        seed_deletion_requests(
            tenants=tenants,
            officer=users.get(username="officer"),
            officer2=users.get(username="officer2"),
        )

    def print_summary(self, password: str, seconds: float) -> None:
        counts = {
            status: MemoryItem.objects.filter(tenant__slug__in=ALL_TENANTS, status=status).count()
            for status in MemoryStatus.values
        }
        tenants = Tenant.objects.filter(slug__in=ALL_TENANTS).count()
        scopes = Scope.objects.filter(tenant__slug__in=ALL_TENANTS).count()
        self.stdout.write(
            f"Demo data ready in {seconds:.1f} s: {tenants} tenants, {scopes} scopes, "
            f"{sum(counts.values())} memories ("
            + ", ".join(f"{status} {n}" for status, n in counts.items())
            + ")."
        )
        self.stdout.write(f"\nDemo logins (password for all: {password})")
        for username, (role, slugs) in DEMO_USERS.items():
            where = "all tenants (superuser)" if role == Role.ADMIN else ", ".join(slugs)
            self.stdout.write(f"  {username:<9} {role.label:<20} {where}")
