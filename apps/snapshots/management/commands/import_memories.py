"""`import_memories --format jsonl|mem0|langgraph FILE --tenant T` (CONTRACT): maps a
foreign export onto memory items through the remember gate, with a progress bar.

Refused records are listed on stdout as they happen (position and reason, never their
content), then the summary. Exit status: 0 when the file was read to its end (refused
records included), 1 when it could not be opened or read (unknown format, missing file,
invalid JSON): what was imported before the stop stays, and the summary says so.
"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from apps.core.progress import ProgressBar
from apps.snapshots.importers.cleaning import Refusal
from apps.snapshots.importers.runner import FORMATS, import_memories
from apps.tenancy.models import Tenant

ACTOR = "import_memories"


class Command(BaseCommand):
    help = "Import a foreign memory export (jsonl, mem0, langgraph) through the remember gate."

    def add_arguments(self, parser):
        parser.add_argument("file", help="The export file to read.")
        parser.add_argument("--format", required=True, help=f"One of: {', '.join(FORMATS)}.")
        parser.add_argument("--tenant", required=True, help="Slug of the tenant to import into.")

    def handle(self, *args, file, format, tenant, **options):
        if format not in FORMATS:
            raise CommandError(f"Unknown format {format!r}: use one of {', '.join(FORMATS)}.")
        try:
            target = Tenant.objects.get(slug=tenant)
        except Tenant.DoesNotExist:
            raise CommandError(f"No tenant with slug {tenant!r}.") from None
        path = Path(file)
        try:
            stream = path.open("rb")
            size = path.stat().st_size
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error.strerror or error}.") from None
        progress = ProgressBar(total=size, stream=self.stderr, label=f"Importing {path.name}")

        def on_record(records: int) -> None:
            progress.update(stream.tell(), note=f"{records:,} record(s)")

        def on_refusal(refusal: Refusal) -> None:
            self.stdout.write(f"refused {refusal.position}: {refusal.reason}")

        with stream:
            summary = import_memories(
                tenant=target,
                format=format,
                stream=stream,
                actor=ACTOR,
                on_refusal=on_refusal,
                on_record=on_record,
            )
        progress.close()
        for line in summary.lines():
            self.stdout.write(line)
        if summary.unreadable:
            raise CommandError(f"{file} could not be read to its end: {summary.unreadable}")
