"""differential.py's tally of captures: a typed line the CLI refused (no request, a non-zero exit) is
compared with the model, which must say that nothing is sent; any other capture without a request stays
a failure."""

from __future__ import annotations

import json
from pathlib import Path

from differential import tally


def _capture(captures: Path, run: dict, exit_code: int) -> None:
    raw = captures / "raw" / run["id"]
    (raw / "bodies").mkdir(parents=True)
    (raw / "job.json").write_text(json.dumps({"harness": run["harness"], "args": [], "env": run["env"]}))
    (captures / f"{run['id']}.json").write_text(json.dumps({"harness": run["harness"], "eager": [], "exit": exit_code}))


def test_a_refused_typed_line_is_compared_with_the_model(tmp_path: Path) -> None:
    scenario = tmp_path / "scenarios" / "gen-cline-1-00"
    (scenario / "ws" / ".git").mkdir(parents=True)
    (scenario / "home").mkdir()
    lines = {"one-word": "/look", "two-words": "/look here", "untyped": None}
    runs = [
        {"id": name, "harness": "cline", "cwd": ".", "env": {"ORACLE_TYPED": line} if line else {}}
        for name, line in lines.items()
    ]
    (scenario / "scenario.json").write_text(json.dumps({"git": True, "runs": runs}))
    for run in runs:
        _capture(tmp_path / "captures" / scenario.name, run, 1)
    result = tally([scenario], tmp_path / "captures")
    assert result.exact == 1  # the model says Cline refuses `/look`
    assert [d.split(":")[0] for d in result.differences] == [f"{scenario.name}/two-words"]  # the model sends it
    assert result.failures == [f"{scenario.name}/untyped: the CLI exited 1"]
