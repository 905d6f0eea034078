"""`export_snapshot --tenant T [--scope KEY …] --out FILE [--passphrase-env VAR]`."""

import os
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from apps.core.errors import ServiceError
from apps.core.progress import ProgressBar
from apps.snapshots.services import export_snapshot
from apps.tenancy.models import Tenant


def passphrase_from_env(name: str | None) -> str | None:
    """The passphrase held in environment variable `name` (never on the command line)."""
    if not name:
        return None
    value = os.environ.get(name)
    if not value:
        raise CommandError(f"The environment variable {name} is not set or empty.")
    return value


class Command(BaseCommand):
    help = "Write a tenant's memory (or chosen scopes) as an encrypted MemoryPackage (.mcpkg)."

    def add_arguments(self, parser):
        parser.add_argument("--tenant", required=True, help="Tenant slug.")
        parser.add_argument("--scope", action="append", default=[], help="kind:id (repeatable).")
        parser.add_argument("--out", required=True, help="The .mcpkg file to write.")
        parser.add_argument(
            "--passphrase-env",
            help="Encrypt with the passphrase in this environment variable instead of the "
            "installation's keys (to restore on another installation).",
        )

    def handle(self, *args, tenant: str, scope: list[str], out: str, **options):
        found = Tenant.objects.filter(slug=tenant).first()
        if found is None:
            raise CommandError(f"No tenant {tenant!r}.")
        passphrase = passphrase_from_env(options.get("passphrase_env"))
        target = Path(out)
        partial = target.with_name(target.name + ".part")
        bar = ProgressBar(total=0, stream=self.stderr, label="export")
        try:
            with partial.open("wb") as handle:
                result = export_snapshot(
                    tenant=found,
                    out=handle,
                    actor="export_snapshot",
                    scope_keys=scope,
                    passphrase=passphrase,
                    progress=bar,
                )
            partial.replace(target)
        except ServiceError as error:
            partial.unlink(missing_ok=True)
            raise CommandError(error.message) from error
        except OSError as error:
            partial.unlink(missing_ok=True)
            raise CommandError(f"cannot write {out}: {error}") from error
        bar.close()
        self.stdout.write(
            f"exported {result.items} items in {result.scopes} scopes of {tenant} to {out} "
            f"({result.bytes:,} bytes, key: {result.key})"
        )
