"""Grants point at tenancy.Tenant / tenancy.Scope: state only, the tables and FK constraints are unchanged."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("access", "0003_agent_api_key"),
        ("tenancy", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="scopegroupobjectpermission",
                    name="content_object",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, to="tenancy.scope"
                    ),
                ),
                migrations.AlterField(
                    model_name="scopeuserobjectpermission",
                    name="content_object",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, to="tenancy.scope"
                    ),
                ),
                migrations.AlterField(
                    model_name="tenantgroupobjectpermission",
                    name="content_object",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, to="tenancy.tenant"
                    ),
                ),
                migrations.AlterField(
                    model_name="tenantuserobjectpermission",
                    name="content_object",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, to="tenancy.tenant"
                    ),
                ),
            ],
            database_operations=[],
        ),
    ]
