"""Train the learned layer of the injection detectors and write its artefact."""

from django.core.management.base import BaseCommand

from apps.quarantine.detectors import training


class Command(BaseCommand):
    help = "Train the n-gram model (corpus, dev sets, synthetic texts) deterministically."

    def add_arguments(self, parser):
        parser.add_argument(
            "--check", action="store_true", help="fail if the stored artefact differs"
        )

    def handle(self, *args, check: bool = False, **options):
        artefact = training.train()
        text = training.serialise(artefact)
        if check:
            stored = training.MODEL_PATH.read_text(encoding="utf-8")
            if stored != text:
                raise SystemExit("the stored model differs from a retraining on its data")
            self.stdout.write("the stored model matches a retraining on its data")
            return
        training.write(artefact)
        self.stdout.write(
            f"trained on {artefact['texts']} texts ({artefact['malicious']} malicious), "
            f"{len(artefact['weights'])} weights, data sha256 {artefact['data_sha256']}"
        )
