"""Agents, skills and session reminders, byte for byte against captures of the real CLIs.

Each golden `<run>.session.json` (written by `session_extract.py` from a capture's raw request
bodies) holds what the workspace's own agents, skills and commands add to the first request:
the agent prompt in place of the base prompt, the skills and agents listings (built-in entries
as lsp-agents' placeholders), and which reminders appear where. The test rebuilds the scenario
tree and compares it with `compare.session_difference` (differential.py judges generated runs with it too).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from compare import build_scenario, session_difference
from test_conformance import GOLDEN, SCENARIOS


def _sessions():
    for extract in sorted(GOLDEN.glob("*/*.session.json")):
        scenario = SCENARIOS / extract.parent.name
        config = json.loads((scenario / "scenario.json").read_text())
        run = next(r for r in config["runs"] if r["id"] == extract.name.removesuffix(".session.json"))
        yield pytest.param(scenario, config, run, extract, id=f"{extract.parent.name}/{run['id']}")


@pytest.mark.parametrize(("scenario", "config", "run", "extract"), list(_sessions()))
def test_session(tmp_path: Path, scenario: Path, config: dict, run: dict, extract: Path) -> None:
    golden = json.loads(extract.read_text(encoding="utf-8"))
    ws, home, env = build_scenario(tmp_path, scenario, config, run)
    assert session_difference(ws, home, env, run, golden) is None
