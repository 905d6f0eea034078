"""`replay_erasures FILE`: after restoring a database backup, re-apply every erasure of the
signed erasure log that the restored database lacks, and report what was erased."""

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from apps.privacy.services.errors import ErasureLogError
from apps.privacy.services.log import replay_erasure_log


class Command(BaseCommand):
    help = "Re-apply the erasures of an exported erasure log to this (restored) database."

    def add_arguments(self, parser):
        parser.add_argument("file", help="A file written by export_erasure_log.")

    def handle(self, *args, file: str, **options):
        try:
            document = json.loads(Path(file).read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise CommandError(f"cannot read {file}: {error}", 2) from error
        try:
            outcomes, lifts = replay_erasure_log(document, actor="replay_erasures")
        except ErasureLogError as error:
            raise CommandError(f"refusing to replay: {error.message}") from error
        for outcome in outcomes:
            if outcome.skipped:
                self.stdout.write(
                    f"skipped {outcome.reference} ({outcome.tenant}): {outcome.skipped}"
                )
            elif outcome.changed:
                tables = ", ".join(
                    f"{table} {count}" for table, count in sorted(outcome.counts.items())
                )
                self.stdout.write(
                    f"replayed {outcome.reference} ({outcome.tenant}): {outcome.erased} rows "
                    f"erased ({tables or 'none'}), {outcome.denylisted} denylist entries restored"
                    + (", request closed" if outcome.request_closed else "")
                )
            else:
                self.stdout.write(f"already applied {outcome.reference} ({outcome.tenant})")
        changed = sum(1 for outcome in outcomes if outcome.changed)
        self.stdout.write(
            f"replay done: {changed} of {len(outcomes)} erasures re-applied, {lifts} lifts"
        )
