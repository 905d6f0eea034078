"""`audit_checkpoint [--export FILE]`: verify, sign the chain head, optionally export it."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from apps.audit.services import create_checkpoint
from apps.audit.verification import CheckpointError, SignedHead


class Command(BaseCommand):
    help = "Sign the audit chain's current head; keep the exported file outside the database."

    def add_arguments(self, parser):
        parser.add_argument("--export", metavar="FILE", help="Write the signed checkpoint here.")

    def handle(self, *args, export=None, **options):
        try:
            checkpoint = create_checkpoint(actor="audit_checkpoint")
        except CheckpointError as error:
            raise CommandError(str(error)) from error
        if export:
            Path(export).write_text(SignedHead.from_model(checkpoint).to_json() + "\n")
        self.stdout.write(
            f"audit checkpoint #{checkpoint.sequence} signed: {checkpoint.count} events, "
            f"head {checkpoint.head_hash[:16]}…" + (f", exported to {export}" if export else "")
        )
