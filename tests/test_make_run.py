"""`make run` on a fresh clone: creates .venv, installs, migrates, seeds, serves /login/."""

import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[1]
STARTUP_BUDGET_SECONDS = 360
# The clone runs as on a bare machine: none of this process's settings, broker or virtualenv.
SCRUBBED_ENV = (
    "DATABASE_URL",
    "CELERY_BROKER_URL",
    "DEBUG",
    "DJANGO_SETTINGS_MODULE",
    "VIRTUAL_ENV",
    "PYTHONPATH",
    "MEMORY_CONSOLE_SNAPSHOT_DIR",
)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _clean_environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in SCRUBBED_ENV}
    venv_bin = str(REPO / ".venv" / "bin")
    env["PATH"] = os.pathsep.join(p for p in env["PATH"].split(os.pathsep) if p != venv_bin)
    return env


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:  # noqa: S310 - our own server
            return response.status == 200
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return False


def test_make_run_on_a_fresh_clone_serves_login_and_prints_demo_logins(tmp_path):
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "--quiet", str(REPO), str(clone)], check=True)
    assert not (clone / ".venv").exists()
    port = _free_port()
    log_path = tmp_path / "make-run.log"
    with log_path.open("w") as log:
        process = subprocess.Popen(
            ["make", "run", f"HOST=127.0.0.1:{port}"],
            cwd=clone,
            env=_clean_environment(),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + STARTUP_BUDGET_SECONDS
        served = False
        while time.monotonic() < deadline:
            if _answers(f"http://127.0.0.1:{port}/login/"):
                served = True
                break
            assert process.poll() is None, log_path.read_text()[-4000:]
            time.sleep(2)
        output = log_path.read_text()
        assert served, output[-4000:]
        assert (clone / ".venv" / "bin" / "python").exists()
        for login in ("admin", "operator", "officer", "officer2", "analyst"):
            assert login in output
        assert "memory-console-demo" in output
        assert f"http://127.0.0.1:{port}/login/" in output
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
