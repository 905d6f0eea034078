"""`audit_verify`: walk the audit chain (CONTRACT.md); exit 0 when intact, non-zero otherwise."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from apps.audit.services import verify_chain
from apps.audit.verification import CheckpointError, SignedHead


class Command(BaseCommand):
    help = "Verify the audit log's hash chain; name the first bad sequence number if broken."

    def add_arguments(self, parser):
        parser.add_argument(
            "--from-checkpoint",
            metavar="FILE",
            help="A trusted checkpoint exported by audit_checkpoint --export.",
        )
        parser.add_argument(
            "--full", action="store_true", help="Rehash every event from the genesis."
        )

    def handle(self, *args, from_checkpoint=None, full=False, verbosity=1, **options):
        checkpoint = None
        if from_checkpoint:
            try:
                checkpoint = SignedHead.from_json(Path(from_checkpoint).read_text())
            except (OSError, CheckpointError) as error:
                raise CommandError(
                    f"cannot use checkpoint {from_checkpoint}: {error}", 2
                ) from error
        result = verify_chain(actor="audit_verify", checkpoint=checkpoint, full=full)
        if not result.ok:
            raise CommandError(
                f"audit chain BROKEN at sequence {result.first_bad_sequence}: {result.detail}"
            )
        self.stdout.write(f"audit chain OK: {result.head_sequence} events")
        if verbosity >= 2:
            start = (
                f"checkpoint #{result.checkpoint_sequence}" if result.checkpoint_sequence else ""
            )
            self.stderr.write(
                f"hashed {result.checked} events in {result.duration_ms} ms"
                + (f", resuming from {result.checkpoint_source} {start}" if start else "")
            )
