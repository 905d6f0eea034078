"""Fixtures for tests that call the API over HTTP, as an agent would: a live server and
an agent key on tenant A, and a typed client generated from the schema (once per run)."""

import importlib
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from django.core.management import call_command

from apps.access.api_keys import create_api_key

GENERATED_PACKAGE = "mc_api_client"


@pytest.fixture
def live_agent(live_server, transactional_db, tenant_a) -> tuple[str, str]:
    """(base URL, plaintext API key) of an agent writing to tenant A on a live server."""
    _key, plaintext = create_api_key(
        username="live-agent", tenant=tenant_a, name="live", actor="test-setup"
    )
    return live_server.url, plaintext


@pytest.fixture(scope="session")
def generated_client(tmp_path_factory) -> ModuleType:
    """The package openapi-python-client generates from /api/schema/, imported.

    Generation is offline (no template or hook fetches anything) and takes a few seconds,
    so it runs once per test session.
    """
    workdir = Path(tmp_path_factory.mktemp("generated_client"))
    schema = workdir / "schema.json"
    call_command("spectacular", "--format", "openapi-json", "--file", str(schema))
    config = workdir / "config.yaml"
    config.write_text("post_hooks: []\n")
    generator = Path(sys.executable).with_name("openapi-python-client")
    result = subprocess.run(
        [
            str(generator),
            "generate",
            "--path",
            str(schema),
            "--meta",
            "none",
            "--output-path",
            str(workdir / GENERATED_PACKAGE),
            "--config",
            str(config),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "Warning" not in output, output  # every schema piece became code
    sys.path.insert(0, str(workdir))
    try:
        yield importlib.import_module(GENERATED_PACKAGE)
    finally:
        sys.path.remove(str(workdir))
