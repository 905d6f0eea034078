"""docs/agent-integration.md's complete agent loop runs as written against a live server:
the block after the `agent-loop` marker is extracted and executed as a script, so the
example cannot drift from the API it documents."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from apps.memory.models import MemoryItem, MemoryStatus
from tests.memory.live_api import live_agent  # noqa: F401

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

DOC = Path(__file__).resolve().parents[2] / "docs" / "agent-integration.md"
MARKER = "<!-- agent-loop: tested by tests/docs/test_agent_integration_doc.py -->"


def agent_loop_code() -> str:
    text = DOC.read_text()
    assert MARKER in text, "the tested example lost its marker"
    block = re.search(r"```python\n(.*?)\n```", text[text.index(MARKER) :], re.DOTALL)
    assert block is not None
    return block.group(1)


def test_the_documented_agent_loop_runs_against_a_live_server(live_agent, tmp_path):  # noqa: F811
    base_url, api_key = live_agent
    script = tmp_path / "agent_loop.py"
    script.write_text(agent_loop_code())
    environment = {**os.environ, "MC_URL": base_url, "MC_KEY": api_key, "MC_SCOPE": "user:u_42"}
    run = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        timeout=120,
        env=environment,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == "stored active | held back: quarantined"
    assert lines[1].startswith("first turn:") and lines[1].endswith("learned active")
    assert lines[2] == "second turn: Booked an aisle seat."
    assert re.fullmatch(r"corrected address.city to Chaoyang version \d+", lines[3])
    assert re.fullmatch(r"stale edit refused: 412 version_conflict current \d+", lines[4])
    assert lines[5] == "batch 207 stored 2 refused 1"
    assert lines[6] == "  item 2 refused: invalid"
    # What the loop wrote is really there: the fact, the turn notes, the held-back write.
    items = MemoryItem.objects.filter(scope__external_id="u_42")
    assert items.filter(key="address.city", status=MemoryStatus.ACTIVE).get().content == {
        "city": "Chaoyang"
    }
    assert items.filter(memory_type="episodic").count() == 2
    assert items.filter(status=MemoryStatus.QUARANTINED).count() == 1
