"""`export_erasure_log --out FILE`: the signed erasure log and denylist, kept with backups."""

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from apps.privacy.services.log import build_erasure_log


class Command(BaseCommand):
    help = "Write the signed log of erasures and the denylist (keyed hashes only) to FILE."

    def add_arguments(self, parser):
        parser.add_argument("--out", required=True, metavar="FILE")

    def handle(self, *args, out: str, **options):
        document = build_erasure_log(actor="export_erasure_log")
        try:
            Path(out).write_text(json.dumps(document, indent=2), encoding="utf-8")
        except OSError as error:
            raise CommandError(f"cannot write {out}: {error}") from error
        self.stdout.write(
            f"erasure log written to {out}: {len(document['erasures'])} erasures, "
            f"{len(document['denylist'])} denylist entries"
        )
