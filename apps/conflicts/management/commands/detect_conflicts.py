"""Run the bulk contradiction scan now (the weekly job runs the same service)."""

from django.core.management.base import BaseCommand, CommandError

from apps.conflicts.services import detect_conflicts
from apps.tenancy.models import Scope, Tenant


class Command(BaseCommand):
    help = "Find contradicting active memories (e.g. after an import) and apply the policy."

    def add_arguments(self, parser):
        parser.add_argument("--tenant", help="tenant slug (default: every tenant)")
        parser.add_argument("--scope", action="append", default=[], help="scope key, repeatable")

    def handle(self, *args, tenant=None, scope=(), **options):
        tenant_obj = None
        if tenant:
            tenant_obj = Tenant.objects.filter(slug=tenant).first()
            if tenant_obj is None:
                raise CommandError(f"No tenant {tenant!r}.")
        scope_ids = None
        if scope:
            if tenant_obj is None:
                raise CommandError("--scope needs --tenant.")
            scope_ids = []
            for key in scope:
                kind, _, external_id = key.partition(":")
                found = Scope.objects.filter(tenant=tenant_obj, kind=kind, external_id=external_id)
                if not found.exists():
                    raise CommandError(f"No scope {key!r} in {tenant}.")
                scope_ids.extend(found.values_list("pk", flat=True))
        report = detect_conflicts(tenant=tenant_obj, scope_ids=scope_ids)
        self.stdout.write(
            f"groups={report.groups} superseded={report.superseded} opened={report.opened}"
        )
