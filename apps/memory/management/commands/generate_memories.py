"""Fast synthetic memory items for benchmarks (CONTRACT: `generate_memories`).

The command parses arguments; the work (COPY on PostgreSQL, bulk_create
elsewhere, rows consistent with the remember path) is in apps.memory.generation.
"""

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from apps.memory.generation import generate


class Command(BaseCommand):
    help = "Write N synthetic memory items fast (COPY on PostgreSQL) for benchmarks."

    def add_arguments(self, parser):
        parser.add_argument("--count", type=int, required=True, help="Items to add.")
        parser.add_argument("--tenants", type=int, default=5, help="Tenants (default 5).")
        parser.add_argument(
            "--scopes", type=int, default=200, help="Scopes per tenant (default 200)."
        )
        parser.add_argument(
            "--tenant-prefix",
            default="bench",
            help='Tenant slugs are "<prefix>-000", "<prefix>-001", … (default "bench").',
        )
        parser.add_argument("--seed", type=int, default=None, help="Random seed (repeatable).")
        parser.add_argument(
            "--with-versions",
            action="store_true",
            help="Also write each item's version-1 history row (slower; doubles the rows).",
        )
        parser.add_argument(
            "--index-strategy",
            choices=["auto", "rebuild", "keep"],
            default="auto",
            help="PostgreSQL: drop and rebuild secondary indexes around the load, keep them, "
            "or decide by size (default). Rebuilding locks the items table until the load "
            "commits: use it on benchmark databases, not on a live installation.",
        )

        parser.add_argument(
            "--embedding-model",
            default="",
            help="Give every item a 384-dimension embedding from the deterministic test "
            "embedder (hashed character trigrams) under this model name; indexed by pgvector "
            "where available. Default: no embeddings.",
        )

    def handle(
        self,
        *args,
        count,
        tenants,
        scopes,
        tenant_prefix,
        seed,
        with_versions,
        index_strategy,
        embedding_model,
        **opts,
    ):
        if count < 0 or tenants < 1 or scopes < 1:
            raise CommandError("--count must be ≥ 0, --tenants and --scopes ≥ 1.")
        generated = generate(
            count=count,
            tenants=tenants,
            scopes=scopes,
            tenant_prefix=tenant_prefix,
            seed=seed,
            with_versions=with_versions,
            index_strategy=index_strategy,
            embedding_model=embedding_model,
        )
        versions = ", with versions" if with_versions else ""
        self.stdout.write(
            f"Wrote {count:,} memory items into {generated.scopes:,} scopes of {tenants} tenant(s) "
            f'"{tenant_prefix}-*" in {generated.elapsed:.1f} s ({generated.rate:,.0f} rows/s, '
            f"{connection.vendor}: {generated.strategy}{versions})."
        )
