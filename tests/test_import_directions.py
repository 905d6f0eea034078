"""Apps import only apps below them (ARCHITECTURE §1), so the graph of apps has no cycle.

    memory_console (settings, urls, celery, pipeline: the composition root)
      ← core ← tenancy ← audit ← access ← memory ← quarantine, conflicts, privacy,
        snapshots (which consults privacy's denylist) ← reports

access and audit sit on one level in the architecture; one of them has to go first.
Audit goes below access: access changes (grants, API keys, logins) are recorded in the
audit log inside the service's own transaction, explicitly (STYLE: audit is explicit,
never signal-driven), so access must import audit's `record`. The other direction was
audit's viewer showing each reader the events their grants cover; it now asks through
`apps.tenancy.grants`, a contract that access fulfils with its one permission filter
when it is ready. The alternative (auditing access through signals in audit) would
hide where grants are audited and split a grant from its audit event.

Every `import apps.X` / `from apps.X …` anywhere in a module counts, function-local
imports included. Apps may import memory_console's plumbing (db, env); memory_console's
plumbing imports no app, and its composition root may import any app.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# What each app may import besides itself. Apps not written yet are listed so that
# they are held to their place from their first line.
ORDER = ["core", "tenancy", "audit", "access", "memory"]
BELOW_MEMORY = set(ORDER)
ALLOWED: dict[str, set[str]] = {app: set(ORDER[:index]) for index, app in enumerate(ORDER)}
ALLOWED.update(
    {
        "quarantine": BELOW_MEMORY,
        "conflicts": BELOW_MEMORY,
        "privacy": BELOW_MEMORY,
        "snapshots": BELOW_MEMORY | {"privacy"},
    }
)
ALLOWED["reports"] = set(ALLOWED) - {"reports"}
# health (/healthz) and metrics (/metrics) read every app's state for operators: they
# are wiring, like urls, not plumbing.
COMPOSITION_ROOT = {"settings", "urls", "api_urls", "celery", "pipeline", "health", "metrics"}


def imported_apps(source: str) -> set[str]:
    """Names of the apps (`apps.<name>`) a module's source imports anywhere."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules = [node.module]
            if node.module == "apps":  # from apps import memory
                modules = [f"apps.{alias.name}" for alias in node.names]
        else:
            continue
        names.update(m.split(".")[1] for m in modules if m.startswith("apps.") and "." in m)
    return names


def wrong_direction_imports(sources: dict[str, str]) -> list[str]:
    """`path: importer -> imported` for every import that points up or sideways."""
    found = []
    for path, source in sorted(sources.items()):
        parts = Path(path).parts
        if parts[0] == "memory_console":
            if Path(path).stem in COMPOSITION_ROOT:
                continue
            importer, allowed = "memory_console", set()
        else:
            importer = parts[1]
            allowed = ALLOWED.get(importer)
            assert allowed is not None, f"{importer} has no place in ALLOWED; give it one"
        for imported in sorted(imported_apps(source) - {importer} - allowed):
            found.append(f"{path}: {importer} -> {imported}")
    return found


def project_sources() -> dict[str, str]:
    paths = [*ROOT.glob("apps/*/**/*.py"), *ROOT.glob("memory_console/*.py")]
    return {str(path.relative_to(ROOT)): path.read_text() for path in paths}


def test_every_app_imports_only_apps_below_it():
    sources = project_sources()
    assert any(path.startswith("apps/memory/") for path in sources)
    assert wrong_direction_imports(sources) == []


def test_the_check_catches_upward_sideways_and_lazy_imports():
    synthetic = {
        "apps/tenancy/models.py": "from apps.memory.models import MemoryItem\n",
        "apps/audit/selectors.py": "def f():\n    import apps.access.selectors\n",
        "apps/quarantine/views.py": "from apps import conflicts\n",
        "apps/snapshots/restore.py": "from apps.privacy.denylist import is_denied\n",
        "memory_console/db.py": "from apps.core.errors import ServiceError\n",
        "memory_console/pipeline.py": "from apps.conflicts.gate import ConflictStage\n",
    }
    assert wrong_direction_imports(synthetic) == [
        "apps/audit/selectors.py: audit -> access",
        "apps/quarantine/views.py: quarantine -> conflicts",
        "apps/tenancy/models.py: tenancy -> memory",
        "memory_console/db.py: memory_console -> core",
    ]
