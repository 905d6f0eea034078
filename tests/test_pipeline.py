"""The composition root (memory_console/pipeline.py): the wiring between apps is code,
listed by import, installed once; `memory` stays below the apps that extend it."""

import ast
from pathlib import Path

from django.conf import settings

from apps.access import navigation
from apps.conflicts.gate import ConflictStage
from apps.conflicts.services import apply_conflict_policy
from apps.memory import wiring
from apps.privacy.gate import DenylistStage
from apps.quarantine.gate import InjectionStage
from apps.quarantine.selectors import pending_count_for
from apps.quarantine.services import withdraw_forgotten
from memory_console import pipeline

ROOT = Path(__file__).resolve().parents[1]


def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, at the top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def imports_under(folder: str) -> dict[str, set[str]]:
    return {
        str(path.relative_to(ROOT)): imported_modules(path)
        for path in (ROOT / folder).rglob("*.py")
        if "migrations" not in path.parts
    }


def test_the_gate_runs_the_stages_listed_in_the_pipeline_in_order():
    installed = wiring.current()
    assert installed is pipeline.MEMORY_WIRING
    names = [stage.name for stage in installed.gate_stages]
    assert names == ["validate", "denylist", "sensitive_data", "injection", "dedupe", "conflict"]
    assert isinstance(installed.gate_stages[1], DenylistStage)
    assert isinstance(installed.gate_stages[3], InjectionStage)
    assert isinstance(installed.gate_stages[-1], ConflictStage)
    assert [stage.name for stage in installed.content_stages] == ["sensitive_data", "injection"]


def test_hooks_and_navigation_counts_are_the_imported_callables():
    installed = wiring.current()
    assert installed.after_release == (apply_conflict_policy,)
    assert installed.after_edit == (apply_conflict_policy,)
    assert installed.after_forget == (withdraw_forgotten,)
    assert navigation.COUNTS["quarantine:queue"] is pending_count_for
    assert set(navigation.COUNTS) == set(pipeline.NAV_COUNTS)


def test_grep_finds_who_calls_the_conflict_policy():
    callers = [
        path
        for path in ("memory_console/pipeline.py", *imports_under("apps"))
        if "apply_conflict_policy" in (ROOT / path).read_text()
    ]
    assert "memory_console/pipeline.py" in callers


def test_settings_hold_no_dotted_paths_of_wiring_only_what_operators_configure():
    for name in (
        "MEMORY_CONSOLE_GATE_STAGES",
        "MEMORY_CONSOLE_AFTER_RELEASE_HOOKS",
        "MEMORY_CONSOLE_AFTER_EDIT_HOOKS",
        "MEMORY_CONSOLE_AFTER_FORGET_HOOKS",
        "MEMORY_CONSOLE_NAV_COUNTS",
    ):
        assert not hasattr(settings, name), name
    assert settings.MEMORY_CONSOLE_INJECTION_DETECTORS
    assert settings.INSTALLED_APPS[-1] == "memory_console.apps.PipelineConfig"


def test_memory_never_imports_the_apps_built_on_it():
    for path, modules in imports_under("apps/memory").items():
        if "/management/" in path:
            continue  # seed_demo seeds every app's demo data (a command, run from the top)
        above = {m for m in modules if m.startswith(("apps.quarantine", "apps.conflicts"))}
        assert not above, f"{path} imports {above}"
        assert "memory_console.pipeline" not in modules, path


def test_a_quarantine_release_does_not_detour_through_the_gate_package():
    for path, modules in imports_under("apps/quarantine/services").items():
        assert not {m for m in modules if m.startswith("apps.memory.gate")}, path


def test_recall_and_tasks_do_not_import_each_other_in_a_cycle():
    tasks = imported_modules(ROOT / "apps/memory/tasks.py")
    assert not {m for m in tasks if m.startswith("apps.memory.recall")}
    for path, modules in imports_under("apps/memory/services").items():
        assert not {m for m in modules if m.startswith("apps.memory.recall")}, path
