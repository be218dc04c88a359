"""Agents, skills and session reminders, byte for byte against captures of the real CLIs.

Each golden `<run>.session.json` (written by `session_extract.py` from a capture's raw request
bodies) holds what the workspace's own agents, skills and commands add to the first request:
the agent prompt in place of the base prompt, the skills and agents listings (built-in entries
as lsp-agents' placeholders), and which reminders appear where. The test rebuilds the scenario
tree, runs `lsp-agents prompt --layers all` and `lsp-agents reminders --session` (as compare.py runs the CLI)
with the run's agent or plan mode, and compares.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from compare import HARNESS_IDS, build_scenario, placeholders, run_lsp_agents
from test_conformance import GOLDEN, SCENARIOS


def _sessions():
    for extract in sorted(GOLDEN.glob("*/*.session.json")):
        scenario = SCENARIOS / extract.parent.name
        config = json.loads((scenario / "scenario.json").read_text())
        run = next(r for r in config["runs"] if r["id"] == extract.name.removesuffix(".session.json"))
        yield pytest.param(scenario, config, run, extract, id=f"{extract.parent.name}/{run['id']}")


# The message of every run; opencode wraps it in double quotes.
PROMPT = '"USER-PROMPT-MARKER: reply with the single word hi"'


def _options(args: list[str]) -> tuple[str | None, bool, list[str]]:
    """The agent (`--agent NAME`), plan mode (`--permission-mode plan`) and command (`--command
    NAME`, the run's message as its arguments) of a captured run."""
    agent = args[args.index("--agent") + 1] if "--agent" in args else None
    plan = "--permission-mode" in args and args[args.index("--permission-mode") + 1] == "plan"
    command = ["--command", args[args.index("--command") + 1], "--arguments", PROMPT] if "--command" in args else []
    return agent, plan, command


@pytest.mark.parametrize(("scenario", "config", "run", "extract"), list(_sessions()))
def test_session(tmp_path: Path, scenario: Path, config: dict, run: dict, extract: Path) -> None:
    golden = json.loads(extract.read_text(encoding="utf-8"))
    ws, home, env = build_scenario(tmp_path, scenario, config, run)
    common = ["--harness", HARNESS_IDS[run["harness"]], "--cwd", str(ws / run.get("cwd", ".")), "--home", str(home)]
    agent, plan, command = _options(golden["args"])
    # The plan agent is opencode's plan mode; lsp-agents runs it as that agent.
    agent_args = ["--agent", agent] if agent else []

    prompt = run_lsp_agents(["prompt", *common, "--layers", "all", *agent_args], env)
    layers = [{**layer, "text": placeholders(layer["text"], ws, home)} for layer in prompt["layers"]]
    names = [layer["name"] for layer in layers]
    for expected in golden["layers"]:
        assert expected["name"] in names, f"no {expected['name']} layer"
        actual = layers[names.index(expected["name"])]
        assert (actual["placement"], actual["text"]) == (expected["placement"], expected["text"]), expected["name"]
    expected_order = [layer["name"] for layer in golden["layers"]]
    assert [n for n in names if n in expected_order] == expected_order
    # A listing the capture does not show (an agent without the Skill tool) is not shown either.
    assert not ({"skills", "agents"} - set(expected_order)) & set(names)

    session = run_lsp_agents(["reminders", "--session", *common, *agent_args, *(["--plan"] if plan else []), *command], env)
    first_request = [
        e for e in session["timeline"] if e["trigger"] in ("start", "command") or (e["trigger"] == "step" and e["step"] == 1)
    ]
    sent = [(r["name"], r["placement"]) for event in first_request for r in event["reminders"] if r["name"] != "instructions"]
    assert sent == [(r["name"], r["placement"]) for r in golden["reminders"]]
    texts = {r["name"]: r["text"] for event in first_request for r in event["reminders"]}
    for expected in golden["reminders"]:
        if "text" in expected:  # the user's own text (a command's template)
            assert placeholders(texts[expected["name"]], ws, home) == expected["text"]
