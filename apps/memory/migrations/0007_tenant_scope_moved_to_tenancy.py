"""Tenant and Scope now live in apps.tenancy (same tables): memory forgets them, state only."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("access", "0004_tenant_scope_moved_to_tenancy"),
        ("conflicts", "0003_tenant_scope_moved_to_tenancy"),
        ("memory", "0006_dedupe_lock_and_twin_function"),
        ("quarantine", "0003_tenant_scope_moved_to_tenancy"),
        ("tenancy", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="memoryitem",
                    name="scope",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="memories",
                        to="tenancy.scope",
                    ),
                ),
                migrations.AlterField(
                    model_name="memoryitem",
                    name="tenant",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="memories",
                        to="tenancy.tenant",
                    ),
                ),
                migrations.DeleteModel(
                    name="Scope",
                ),
                migrations.DeleteModel(
                    name="Tenant",
                ),
            ],
            database_operations=[],
        ),
    ]
