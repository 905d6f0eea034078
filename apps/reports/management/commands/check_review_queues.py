"""Report memories waiting for a review no queue shows; `--repair` requeues them."""

from django.core.management.base import BaseCommand, CommandError

from apps.reports.services import check_review_queues


class Command(BaseCommand):
    help = "Check that every pending memory has an open review (conflict or quarantine entry)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--repair", action="store_true", help="Requeue what is found (new conflict or entry)."
        )

    def handle(self, *args, repair: bool = False, **options):
        report = check_review_queues(actor="manage.py check_review_queues", repair=repair)
        for item_id in report.stranded:
            self.stdout.write(f"no open review: mem_{item_id.replace('-', '')}")
        if report.ok:
            self.stdout.write("review queues OK: every pending memory has an open review")
            return
        figures = report.as_dict()
        if repair:
            self.stdout.write(
                "requeued {stranded}: {reopened_conflicts} new conflicts, {reopened_entries} "
                "new quarantine entries, {activated} uncontested and active".format(**figures)
            )
            return
        raise CommandError(f"{figures['stranded']} pending memories have no open review")
