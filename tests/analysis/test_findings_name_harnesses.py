"""`check` findings of pi, Droid, Continue, Cline, Qwen, Kilo and the Copilot CLI: the same analyses
(shadowed, duplicates, unreachable) driven by each one's cascades, each finding naming the harnesses
it concerns."""

from __future__ import annotations

from analysis_helpers import check_json

BULLET = "- Run the whole test suite with pnpm before you say a change is done.\n"


def test_findings_name_the_new_harnesses(workspace) -> None:
    ws, home = workspace(
        {
            "AGENTS.md": "# Root\n\n" + BULLET,
            "CLAUDE.md": "# Claude\n\n" + BULLET,
            ".clinerules/style.md": "- Prefer small modules.\n",
            ".clinerules/style.txt": "- Prefer small modules, in a text file.\n",
            "pkg/AGENTS.md": "# Pkg\n\n- Keep the API stable.\n",
        }
    )
    ids = ["pi", "droid", "continue", "cline", "qwen", "kilo", "copilot-cli"]
    _rc, data = check_json(ws, home, *[a for h in ids for a in ("--harness", h)])
    assert data["harnesses"] == ids
    by_code: dict[str, list[dict]] = {}
    for item in data["findings"]:
        by_code.setdefault(item["code"], []).append(item)
    # AGENTS.md wins for pi, continue and kilo; CLAUDE.md, written for Claude Code, is no loss to them.
    assert "CLAUDE.md" not in {f["path"] for f in by_code.get("shadowed-file", [])}
    # One rule per name: whichever of style.md and style.txt the folder lists first wins.
    # No other harness reads .clinerules: the loser is unreachable, with cline's reason.
    loser = [
        f
        for f in data["findings"]
        if f["path"].startswith(".clinerules/style.")
        and "never reach cline: it loads .clinerules/style." in f["message"]
        and "cline launched from the workspace root" in f["message"]
    ]
    assert len(loser) == 1 and "cline" in loser[0]["harnesses"]
    duplicate = next(f for f in by_code["duplicate-instruction"] if f["path"] == "CLAUDE.md")
    assert {"droid", "copilot-cli"} <= set(duplicate["harnesses"])  # both load CLAUDE.md beside AGENTS.md
