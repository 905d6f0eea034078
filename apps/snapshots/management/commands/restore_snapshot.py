"""`restore_snapshot FILE --tenant T [--map OLD=NEW …] [--passphrase-env VAR] [--dry-run]
[--on-conflict skip|keep_both|review]`: validates everything, reports, applies atomically."""

import json

from django.core.management.base import BaseCommand, CommandError

from apps.core.errors import ServiceError
from apps.core.progress import ProgressBar
from apps.snapshots.management.commands.export_snapshot import passphrase_from_env
from apps.snapshots.models import OnConflict
from apps.snapshots.services import restore_snapshot
from apps.snapshots.services.mapping import parse_mapping_args
from apps.tenancy.models import Tenant


def report_lines(report: dict) -> list[str]:
    """The dry-run report as text: totals, then per scope (never a denylisted one)."""
    package, totals = report["package"], report["totals"]
    lines = [
        f"package: version {package['version']}, from tenant {package['tenant']}, "
        f"{package['items']} items in {package['scopes']} scopes",
        "totals: " + ", ".join(f"{name} {count}" for name, count in totals.items()),
    ]
    for row in report["scopes"]:
        counts = ", ".join(f"{k} {v}" for k, v in row.items() if k != "scope")
        lines.append(f"  {row['scope']}: {counts}")
    if report["scopes_not_listed"]:
        lines.append(f"  … and {report['scopes_not_listed']} more scopes")
    return lines


class Command(BaseCommand):
    help = "Validate a MemoryPackage fully, report per scope, then restore it atomically."

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--tenant", required=True, help="Target tenant slug.")
        parser.add_argument("--map", action="append", default=[], help="OLD=NEW (repeatable).")
        parser.add_argument("--passphrase-env")
        parser.add_argument("--dry-run", action="store_true", help="Report only; write nothing.")
        parser.add_argument(
            "--on-conflict",
            choices=OnConflict.values,
            default=OnConflict.SKIP,
            help="An incoming value that contradicts an active one: skip it, keep both, "
            "or open a conflict for review (default: skip).",
        )
        parser.add_argument("--json", action="store_true", help="Print the result as JSON.")

    def handle(self, *args, file: str, tenant: str, **options):
        found = Tenant.objects.filter(slug=tenant).first()
        if found is None:
            raise CommandError(f"No tenant {tenant!r}.")
        bar = ProgressBar(total=0, stream=self.stderr, label="validate")
        try:
            mapping = parse_mapping_args(options["map"])
            with open(file, "rb") as handle:
                result = restore_snapshot(
                    stream=handle,
                    tenant=found,
                    actor="restore_snapshot",
                    mapping=mapping,
                    on_conflict=options["on_conflict"],
                    passphrase=passphrase_from_env(options.get("passphrase_env")),
                    dry_run=options["dry_run"],
                    reference=f"snapshot:{file}"[-64:],
                    progress=bar,
                )
        except ServiceError as error:
            raise CommandError(
                f"refusing to restore, nothing was written: {error.message}"
            ) from error
        except OSError as error:
            raise CommandError(f"cannot read {file}: {error}") from error
        bar.close()
        if options["json"]:
            self.stdout.write(json.dumps({"report": result.report, "outcome": result.outcome}))
            return
        for line in report_lines(result.report):
            self.stdout.write(line)
        if result.outcome is None:
            self.stdout.write("dry run: nothing was written")
        else:
            self.stdout.write(
                "restored: " + ", ".join(f"{k} {v}" for k, v in result.outcome.items())
            )
