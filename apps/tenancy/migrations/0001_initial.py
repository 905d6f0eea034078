"""Tenant and Scope move here from apps.memory without touching their tables.

State only: `memory_tenant` and `memory_scope` keep their names, rows, constraints and the
foreign keys pointing at them. Their content types are relabelled so that the permission
rows (and every guardian grant referring to them) stay attached to the moved models.
"""

import django.db.models.deletion
from django.db import migrations, models

import apps.tenancy.models

MOVED_MODELS = ("tenant", "scope")


def relabel_content_types(from_label: str, to_label: str):
    """Point the moved models' content types (and so their permissions) at the new app."""

    def relabel(apps, schema_editor) -> None:
        content_type = apps.get_model("contenttypes", "ContentType")
        db = schema_editor.connection.alias
        for model in MOVED_MODELS:
            if content_type.objects.using(db).filter(app_label=to_label, model=model).exists():
                continue  # already there (a database migrated before contenttypes ran)
            content_type.objects.using(db).filter(app_label=from_label, model=model).update(
                app_label=to_label
            )

    return relabel


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("memory", "0006_dedupe_lock_and_twin_function"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Tenant",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("slug", models.SlugField(max_length=64, unique=True)),
                        ("name", models.CharField(max_length=200)),
                        (
                            "sensitive_policy",
                            models.CharField(
                                choices=[
                                    ("redact", "Redact"),
                                    ("encrypt", "Encrypt at rest"),
                                    ("reject", "Reject the write"),
                                ],
                                default="redact",
                                max_length=16,
                            ),
                        ),
                        (
                            "recall_alpha",
                            models.FloatField(default=0.5, help_text="Weight of similarity."),
                        ),
                        (
                            "recall_beta",
                            models.FloatField(default=0.25, help_text="Weight of recency."),
                        ),
                        (
                            "recall_gamma",
                            models.FloatField(
                                default=0.25, help_text="Weight of the decayed importance."
                            ),
                        ),
                        ("archive_threshold", models.FloatField(default=0.1)),
                        (
                            "lww_key_patterns",
                            models.JSONField(
                                blank=True,
                                default=apps.tenancy.models.default_lww_patterns,
                                help_text="Fact keys (glob patterns) where the newest write supersedes the old one.",
                            ),
                        ),
                        (
                            "half_life_overrides",
                            models.JSONField(
                                blank=True,
                                default=dict,
                                help_text='Half-lives in days by memory type or category band, e.g. {"procedural": 120}.',
                            ),
                        ),
                        ("erasure_sla_hours", models.PositiveIntegerField(blank=True, null=True)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                    ],
                    options={
                        "db_table": "memory_tenant",
                        "ordering": ["slug"],
                        "permissions": [
                            ("view_memories", "Read memory content"),
                            ("write_memories", "Write memories (agents)"),
                            ("review_memories", "Review quarantine and conflicts"),
                            ("release_quarantine", "Release memories from quarantine"),
                            ("view_audit", "Read the audit log"),
                            ("manage_privacy", "Run GDPR erasure requests"),
                            ("export_snapshots", "Export and restore snapshots"),
                            ("view_reports", "Read health reports and aggregate figures"),
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="Scope",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "kind",
                            models.CharField(
                                choices=[
                                    ("user", "User"),
                                    ("session", "Session"),
                                    ("agent", "Agent"),
                                    ("global", "Global"),
                                ],
                                max_length=16,
                            ),
                        ),
                        ("external_id", models.CharField(max_length=200)),
                        (
                            "subject",
                            models.CharField(
                                blank=True,
                                default="",
                                help_text="The data subject this scope is about.",
                                max_length=200,
                            ),
                        ),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        (
                            "tenant",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="scopes",
                                to="tenancy.tenant",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "memory_scope",
                        "ordering": ["tenant_id", "kind", "external_id"],
                        "permissions": [
                            ("view_memories", "Read memory content"),
                            ("write_memories", "Write memories (agents)"),
                            ("review_memories", "Review quarantine and conflicts"),
                            ("release_quarantine", "Release memories from quarantine"),
                            ("view_audit", "Read the audit log"),
                            ("manage_privacy", "Run GDPR erasure requests"),
                            ("export_snapshots", "Export and restore snapshots"),
                            ("view_reports", "Read health reports and aggregate figures"),
                        ],
                        "indexes": [
                            models.Index(fields=["tenant", "subject"], name="scope_tenant_subject")
                        ],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("tenant", "kind", "external_id"),
                                name="scope_unique_key_per_tenant",
                            )
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(
            relabel_content_types("memory", "tenancy"),
            relabel_content_types("tenancy", "memory"),
        ),
    ]
