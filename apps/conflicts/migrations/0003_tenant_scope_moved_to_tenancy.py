"""Conflicts point at tenancy.Tenant / tenancy.Scope: state only, the tables and FK constraints are unchanged."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("conflicts", "0002_open_queue_index"),
        ("tenancy", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="conflict",
                    name="scope",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="conflicts",
                        to="tenancy.scope",
                    ),
                ),
                migrations.AlterField(
                    model_name="conflict",
                    name="tenant",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="tenancy.tenant",
                    ),
                ),
            ],
            database_operations=[],
        ),
    ]
