"""The harness specs and what is derived from them: a harness is described once, and discovery,
tool folders, detection, the watched folders and the client's lists all follow its spec."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from lsp_agents.core.analysis.config import config_candidates, detect_harnesses
from lsp_agents.core.fs import FileSystem
from lsp_agents.core.harnesses import HARNESSES, Harness, LaunchContext
from lsp_agents.core.harnesses.spec import Detection, EnvDir, FolderFiles, HarnessSpec, Place, Tilde
from lsp_agents.core.harnesses.tables import global_folders, tables
from lsp_agents.core.layout import owner_directory
from lsp_agents.core.model import Cascade
from lsp_agents.core.settings import Settings
from lsp_agents.core.workspace import WorkspaceIndex
from lsp_agents.server.watch import is_global_file, watch_patterns

GENERATOR = Path(__file__).resolve().parents[1] / "scripts" / "generate_harness_lists.py"


def _generator():
    spec = importlib.util.spec_from_file_location("generate_harness_lists", GENERATOR)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("folder", "env", "expected"),
    [
        pytest.param(EnvDir("X_HOME", (".x",)), {}, "/h/.x", id="default"),
        pytest.param(EnvDir("X_HOME", (".x",)), {"X_HOME": ""}, "/h/.x", id="empty-is-unset"),
        pytest.param(EnvDir("X_HOME", (".x",)), {"X_HOME": "~/q"}, "~/q", id="literal-tilde"),
        pytest.param(EnvDir("X_HOME", (".x",), tilde=Tilde.PREFIX_THEN_ABSOLUTE), {"X_HOME": "~/q"}, "/h/q", id="qwen-tilde"),
        pytest.param(EnvDir("X_HOME", (".x",), tilde=Tilde.HOME_OR_HOME_SLASH), {"X_HOME": "~"}, "/h", id="pi-tilde"),
        pytest.param(EnvDir("X_HOME", (".x",), tilde=Tilde.HOME_OR_HOME_SLASH), {"X_HOME": "~q"}, "~q", id="pi-other"),
        pytest.param(EnvDir("XDG", (".config",), below=("tool",)), {"XDG": "/c"}, "/c/tool", id="below"),
        pytest.param(EnvDir("ONLY_SET", None), {}, None, id="no-default"),
    ],
)
def test_env_dir_resolves_as_the_harness_reads_its_variable(folder: EnvDir, env: dict, expected: str | None) -> None:
    assert folder.resolve("/h", env) == expected


def test_every_harness_with_a_home_folder_resolves_it_like_its_model(tmp_path: Path) -> None:
    """The model (`home_dir`) and the analysis (`config_candidates`) read one description."""
    env = {
        "QWEN_HOME": "~/q",
        "CODEX_HOME": str(tmp_path / "c"),
        "PI_CODING_AGENT_DIR": "~/p",
        "XDG_CONFIG_HOME": str(tmp_path / "x"),
    }
    ctx = LaunchContext(cwd=str(tmp_path), home=str(tmp_path / "home"), fs=FileSystem(), env=env)
    index = WorkspaceIndex(str(tmp_path), ctx.fs)
    for harness in HARNESSES.values():
        if harness.spec.home is None:
            continue
        folder = harness.home_dir(ctx)
        assert folder in global_folders(ctx.home, env)
        configs = [p for h, p in config_candidates(index, [harness.id], ctx.home, env) if p.startswith(folder + "/")]
        assert len(configs) == len(harness.spec.config_names(Place.HOME_FOLDER)), harness.id
    assert HARNESSES["qwen"].home_dir(ctx) == str(tmp_path / "home" / "q")


def test_the_client_globs_and_the_watch_list_cover_every_harness_s_files() -> None:
    globs = tables().workspace_globs
    for glob in (
        "**/QWEN.md",
        "**/QWEN.local.md",
        "**/.kilo/rules/**",
        "**/.kilocode/rules/**",
        "**/.kilocoderules",
        "**/.clinerules",
        "**/.clinerules/**",
        "**/.continue/rules/**",
        "**/AGENT.md",
        "**/CODEX.md",
        "**/.qwen/settings.json",
        "**/.claude/**",
        "**/.opencode/**",
        "**/kilo.json",
    ):
        assert glob in globs
    assert len(globs) == len(set(globs))
    assert "**/.claude/rules/**/*.md" not in globs  # inside a folder watched whole
    assert set(globs) <= set(watch_patterns(Settings()))


def test_discovery_leaves_the_subfolders_of_clinerules_out(tmp_path: Path) -> None:
    for relative in ("AGENTS.md", ".clinerules/a.md", ".clinerules/sub/b.md", ".clinerules/sub/.cursor/c.mdc", ".cursor/d.mdc"):
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text("x\n")
    index = WorkspaceIndex(str(tmp_path), FileSystem())
    index.scan()
    assert {index.relative(p) for p in index.instruction_files} == {"AGENTS.md", ".clinerules/a.md", ".cursor/d.mdc"}


@pytest.mark.parametrize(
    ("path", "watched"),
    [
        ("/h/.qwen/QWEN.md", True),
        ("/h/.continue/rules/a.md", True),
        ("/h/Documents/Cline/Rules/a.txt", True),
        ("/h/.copilot/copilot-instructions.md", True),
        ("/h/.claude/skills/s/SKILL.md", True),
        ("/h/.continue/config.yaml", True),
        ("/h/.continue/rules", True),
        ("/h/.claude/skills", True),
        ("/h/.claude/todos/x.json", False),
        ("/h/.codex/sessions/log.jsonl", False),
    ],
)
def test_a_change_in_a_per_user_folder_counts_when_a_harness_reads_the_file(path: str, watched: bool) -> None:
    assert is_global_file(path) is watched


# -- a harness added to the registry is seen everywhere --------------------------------------
TOY = HarnessSpec(
    "toy",
    "Toy CLI",
    verified=False,
    version="1",
    home=EnvDir("TOY_HOME", (".toy",)),
    global_files=("TOY.md",),
    global_subfolders=("lessons",),
    instruction_names=("TOY.md",),
    rule_files=(FolderFiles(".toy/rules", "*.md"),),
    detection=Detection(names=("TOY.md",)),
)


class Toy(Harness):
    spec = TOY

    def load_eager(self, ctx: LaunchContext) -> Cascade:
        return Cascade(self.id, ctx.cwd)


@pytest.fixture
def toy_registered(monkeypatch):
    monkeypatch.setitem(HARNESSES, "toy", Toy())
    tables.cache_clear()
    yield
    monkeypatch.undo()
    tables.cache_clear()


def test_a_new_harness_spec_reaches_every_derived_list(toy_registered, tmp_path: Path) -> None:
    ws, home = tmp_path / "ws", tmp_path / "home"
    for relative in ("TOY.md", "pkg/.toy/rules/a.md", "pkg/.toy/rules/deep/b.md"):
        (ws / relative).parent.mkdir(parents=True, exist_ok=True)
        (ws / relative).write_text("x\n")
    index = WorkspaceIndex(str(ws), FileSystem())
    index.scan()
    assert {index.relative(p) for p in index.instruction_files} == {"TOY.md", "pkg/.toy/rules/a.md"}  # discovery
    assert owner_directory("pkg/.toy/rules/a.md") == "pkg"  # a tool folder
    assert "toy" in detect_harnesses(index)  # detection
    assert str(tmp_path / "elsewhere") in global_folders(str(home), {"TOY_HOME": str(tmp_path / "elsewhere")})  # the watch list
    assert is_global_file(str(home / ".toy" / "TOY.md")) and is_global_file(str(home / ".toy" / "lessons" / "x.md"))
    assert "**/TOY.md" in watch_patterns(Settings()) and "**/.toy/rules/**" in watch_patterns(Settings())
    generator = _generator()  # the generated client list and pre-commit pattern
    assert '"toy",' in generator.typescript() and '"**/TOY.md",' in generator.typescript()
    assert re.search(generator.files_pattern(), "pkg/.toy/rules/a.md") and re.search(generator.files_pattern(), "TOY.md")
    assert set(generator.stale()) == set(generator.GENERATED)  # every generated file is now out of date
