"""`verify_receipt FILE`: check an erasure receipt's signature (CONTRACT); exit 0 when genuine."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from apps.privacy.services.errors import ErasureLogError
from apps.privacy.services.receipts import load_receipt


class Command(BaseCommand):
    help = "Check that an erasure receipt (JSON) was signed with this installation's key."

    def add_arguments(self, parser):
        parser.add_argument("file", help="The receipt, as downloaded from the request page.")

    def handle(self, *args, file: str, **options):
        try:
            receipt = load_receipt(Path(file).read_text(encoding="utf-8"))
        except OSError as error:
            raise CommandError(f"cannot read {file}: {error}", 2) from error
        except ErasureLogError as error:
            raise CommandError(f"receipt NOT genuine: {error.message}") from error
        zero = all(count == 0 for count in receipt.get("verification", {}).values())
        self.stdout.write(
            f"receipt OK: request {receipt['request_id']} ({receipt['reference']}) in "
            f"{receipt['tenant']}, completed {receipt['completed_at']}, "
            f"{sum(receipt['tables'].values())} rows erased, verification "
            f"{'all zero' if zero else 'NOT zero'}"
        )
        if not zero:
            raise CommandError("the receipt records rows left after the erasure")
