"""`create_api_key --user U --tenant T [--name N]`: issue an agent key, print it once."""

from django.core.management.base import BaseCommand, CommandError

from apps.access.api_keys import InvalidUsername, create_api_key
from apps.tenancy.models import Tenant


class Command(BaseCommand):
    help = (
        "Create the service account U if needed, grant it read/write on tenant T, "
        "and print a new API key (shown only this once)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--user", required=True, help="Service-account username.")
        parser.add_argument("--tenant", required=True, help="Tenant slug.")
        parser.add_argument("--name", default="", help="A label for the key (50 chars max).")

    def handle(self, *args, **options):
        try:
            tenant = Tenant.objects.get(slug=options["tenant"])
        except Tenant.DoesNotExist as exc:
            raise CommandError(f"No tenant with slug {options['tenant']!r}.") from exc
        try:
            key_obj, plaintext = create_api_key(
                username=options["user"],
                tenant=tenant,
                name=options["name"],
                actor="create_api_key",
            )
        except InvalidUsername as exc:
            raise CommandError(exc.message) from exc
        self.stderr.write(
            f"Created key {key_obj.prefix} for {options['user']} on {tenant.slug}. "
            "Store it now: it cannot be shown again."
        )
        self.stdout.write(plaintext)
