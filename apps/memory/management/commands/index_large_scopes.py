"""Give each large scope its own HNSW index (apps.memory.vectors.index_large_scopes)."""

from django.core.management.base import BaseCommand

from apps.memory.vectors import SCOPE_INDEX_MIN_ROWS, index_large_scopes


class Command(BaseCommand):
    help = "Build an HNSW index of its own for each scope holding many embedded items."

    def add_arguments(self, parser):
        parser.add_argument(
            "--min-rows",
            type=int,
            default=SCOPE_INDEX_MIN_ROWS,
            help=f"Embedded items a scope needs (default {SCOPE_INDEX_MIN_ROWS:,}).",
        )

    def handle(self, *args, min_rows: int, **options):
        created = index_large_scopes(min_rows=min_rows)
        self.stdout.write(f"Created {len(created)} scope indexes: {', '.join(created) or '-'}")
