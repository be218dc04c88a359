"""The scenario generator (generate.py) runs: it imports what it draws from the models, and a seed
gives every CLI scenarios the oracle can take, the same ones each time. Nothing is captured here
(differential.py does that); this keeps the generator from breaking unseen between its runs."""

from __future__ import annotations

import json
from pathlib import Path

from generate import VOCABULARY, generate


def _written(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): p.read_text(encoding="utf-8", errors="replace")
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_a_seed_gives_every_cli_runnable_scenarios_the_same_each_time(tmp_path: Path) -> None:
    first = generate(7, 2, tmp_path / "a", list(VOCABULARY))
    second = generate(7, 2, tmp_path / "b", list(VOCABULARY))
    assert len(first) == 2 * len(VOCABULARY) >= 20
    for one, other in zip(first, second, strict=True):
        scenario = json.loads((one / "scenario.json").read_text(encoding="utf-8"))
        assert scenario["runs"] and all(run["harness"] and "cwd" in run for run in scenario["runs"]), one.name
        assert _written(one) == _written(other), one.name


def test_kilo_scenarios_at_times_name_a_config_file_by_the_environment(tmp_path: Path) -> None:
    named = set()
    for folder in generate(9960, 15, tmp_path, ["kilo"]):
        runs = json.loads((folder / "scenario.json").read_text(encoding="utf-8"))["runs"]
        for run in runs:
            value = run.get("env", {}).get("KILO_CONFIG")
            if value is None:
                continue
            named.add(value)
            path = folder / (value.replace("{WS}", "ws").replace("{HOME}", "home") if "{" in value else f"ws/{value}")
            assert path.is_file() == ("missing" not in value), (folder.name, value)
            assert "missing" in value or "instructions" in json.loads(path.read_text(encoding="utf-8"))
        contents = {run.get("env", {}).get("KILO_CONFIG_CONTENT") for run in runs} - {None}
        assert all("instructions" in json.loads(content) for content in contents), folder.name
    assert len(named) >= 3
