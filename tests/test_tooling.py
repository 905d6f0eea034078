"""The contributor tooling stays wired: mypy covers every service and selector (with an
Actor type for actors), `make test` runs it before pytest, and pre-commit runs the same
checks."""

import re
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


def _mypy_config() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]


def _typed_files() -> set[Path]:
    return {path for pattern in _mypy_config()["files"] for path in ROOT.glob(pattern)}


def test_mypy_covers_every_service_selector_and_the_db_module():
    wanted = {
        *ROOT.glob("apps/*/services.py"),
        *ROOT.glob("apps/*/services/*.py"),
        *ROOT.glob("apps/*/services/**/*.py"),
        *ROOT.glob("apps/*/selectors.py"),
        *ROOT.glob("apps/*/selectors/*.py"),
        ROOT / "memory_console" / "db.py",
    }
    assert sorted(str(p.relative_to(ROOT)) for p in wanted - _typed_files()) == []


def test_mypy_checks_the_bodies_of_untyped_functions_with_the_django_plugin():
    config = _mypy_config()
    assert config["check_untyped_defs"] is True
    assert "mypy_django_plugin.main" in config["plugins"]


def test_no_service_types_its_actor_as_any():
    offenders = [
        str(path.relative_to(ROOT))
        for path in _typed_files()
        if re.search(r"\bactor: Any\b", path.read_text())
    ]
    assert offenders == []


def test_make_test_runs_mypy_before_pytest():
    makefile = (ROOT / "Makefile").read_text()
    recipe = makefile.split("\ntest:", 1)[1].split("\n\n", 1)[0]
    assert "bin/mypy" in recipe and recipe.index("bin/mypy") < recipe.index("bin/pytest")


def test_pre_commit_runs_ruff_migrations_check_and_mypy():
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text())
    entries = [hook["entry"] for repo in config["repos"] for hook in repo["hooks"]]
    for needed in ("ruff check", "ruff format", "makemigrations --check", "mypy"):
        assert any(needed in entry for entry in entries), needed
