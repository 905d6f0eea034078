"""Queue entries point at tenancy.Tenant / tenancy.Scope: state only, the tables and FK constraints are unchanged."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("quarantine", "0002_entry_withdrawn"),
        ("tenancy", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="quarantineentry",
                    name="scope",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="quarantine_entries",
                        to="tenancy.scope",
                    ),
                ),
                migrations.AlterField(
                    model_name="quarantineentry",
                    name="tenant",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="quarantine_entries",
                        to="tenancy.tenant",
                    ),
                ),
            ],
            database_operations=[],
        ),
    ]
