"""Which directories of a workspace are projects: where a harness is plausibly launched, and which
instruction files are test data rather than instructions of this repository.

A harness is launched where people work: the workspace root, a nested repository, a package
holding its own AGENTS.md / CLAUDE.md / GEMINI.md. Nobody launches one inside a tool folder
(`.claude/`, `.github/`, `.agents/`), a documentation or skill folder, a vendored dependency, a
project template, an archive or backup of old files, or an example, so instruction files there
are not launch points (a harness still reaches them when the agent reads a file there). An
example or a template is written to stand alone once copied out, manifest and all: its files
repeat or override the enclosing repository's only while it sits inside it (the `launchDirectories`
setting names one that is worked in). A scaffolder's template, marked by a `_gitignore`, is one
wherever it lies. Test data — instruction files inside fixture folders, or
tool folders below a test directory — is never analysed: such files are examples, often broken on
purpose. Paths here are '/'-separated and relative to the workspace root.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable

from lsp_agents.core.harnesses.tables import tables

# Folders nobody launches a harness in: documentation, skills, dependencies, project templates
# (by name, or by a template placeholder in the name: `_is_placeholder`), archives and backups. Names of one job match whole (`skills`, `vendor`); the words of the others
# match in any name made of words (`agent_templates`, `docs-archive`, `project-starter`), and so does
# a word ending in "docs" (`apidocs`). Dots do not part words: `azure.ai.skills` is a package's name.
NOT_PROJECT_NAMES = frozenset({"skills", "node_modules", "vendor", "third_party", "third-party", "assets"})
NOT_PROJECT_WORDS = frozenset(
    {
        "doc",
        "docs",
        "documentation",
        "template",
        "templates",
        "starter",
        "starters",
        "boilerplate",
        "boilerplates",
        "scaffold",
        "scaffolds",
        "skeleton",
        "archive",
        "archives",
        "archived",
        "backup",
        "backups",
        "bak",
        "attic",
        "deprecated",
        "obsolete",
    }
)
# Folders of examples: no launch directories either, whatever manifest the example holds.
EXAMPLE_WORDS = frozenset({"example", "examples", "sample", "samples", "cookbook", "cookbooks", "demo", "demos"})
_WORD_BREAK = re.compile(r"[-_ ]+")
# Files that make a directory a project of its own: an example holding one is complete, its files
# are there (what its rules' globs match can be checked), though nobody works in it.
MANIFESTS = (
    "package.json",
    "pyproject.toml",
    "setup.py",
    "go.mod",
    "Cargo.toml",
    "pom.xml",
    "build.gradle",
    "build.gradle.kts",
    "Gemfile",
    "composer.json",
    "mix.exs",
    "pubspec.yaml",
    "deno.json",
    "Package.swift",
)
# Words that name a coding tool: a folder holding sub-folders named after several of them
# (`integrations/{codex,cursor,claude-code}/`) is a kit of per-tool files to copy into projects.
# Every modelled harness is among them (tests/core/test_layout.py), and tools not modelled too.
TOOL_WORDS = frozenset(
    {
        "aider",
        "amp",
        "antigravity",
        "auggie",
        "augment",
        "claude",
        "cline",
        "codex",
        "continue",
        "copilot",
        "crush",
        "cursor",
        "droid",
        "gemini",
        "goose",
        "junie",
        "kilo",
        "kilocode",
        "kiro",
        "opencode",
        "opencode2",
        "openhands",
        "pi",
        "qwen",
        "roo",
        "trae",
        "windsurf",
        "zed",
    }
)
KIT_TOOLS = 3  # sub-folders named after tools that make a folder a kit
# Folders whose instruction files are test data.
FIXTURE_FOLDERS = frozenset(
    {"fixtures", "fixture", "__fixtures__", "testdata", "test-data", "test_data", "__snapshots__", "__mocks__"}
)
TEST_FOLDERS = frozenset({"test", "tests", "__tests__", "spec", "specs", "e2e"})
# Files that mark a project template a scaffolder copies out (npm drops a published `.gitignore`, so
# create-* tools ship it as `_gitignore` and rename it when they copy): nobody works in the template
# itself, whatever manifest it holds.
TEMPLATE_MARKERS = ("_gitignore",)


def _folders(relative: str) -> list[str]:
    """The directory segments of a relative file path."""
    return relative.split("/")[:-1]


def is_test_data(relative: str) -> bool:
    """An instruction file inside a fixture folder, or inside a tool folder (`.cursor/`,
    `.claude/`…) that lies below a test folder: an example, not an instruction of this repository."""
    folders = _folders(relative)
    if any(f in FIXTURE_FOLDERS for f in folders):
        return True
    in_tests = False
    for folder in folders:
        if in_tests and folder.startswith("."):
            return True
        in_tests = in_tests or folder in TEST_FOLDERS
    return False


@functools.lru_cache(maxsize=4096)  # asked of the same few folder names for every file and unit
def _words(folder: str) -> tuple[str, ...]:
    """The words of a folder name, lower-cased: `Agent_Templates` -> agent, templates."""
    return tuple(w for w in _WORD_BREAK.split(folder.lower()) if w)


def _is_not_project(folder: str) -> bool:
    return (
        folder.lower() in NOT_PROJECT_NAMES
        or any(w in NOT_PROJECT_WORDS or w.endswith("docs") for w in _words(folder))
        or _is_placeholder(folder)
    )


def _is_placeholder(folder: str) -> bool:
    """A folder named by a template's placeholder (`{{cookiecutter.project_slug}}`, Copier's
    `{{ project_name }}`, `{% if docs %}docs{% endif %}`): part of a project template, renamed
    when a scaffolder renders it."""
    return ("{{" in folder and "}}" in folder) or ("{%" in folder and "%}" in folder)


def _is_example(folder: str) -> bool:
    return any(w in EXAMPLE_WORDS for w in _words(folder))


def _worked_in(folders: list[str], is_template: Callable[[str], bool]) -> bool:
    """In no tool folder (a dot folder), no documentation, skill, dependency, template, archive or
    fixture folder, and no scaffolder's template (`is_template`: a directory holding one of
    TEMPLATE_MARKERS)."""
    if any(f.startswith(".") or f in FIXTURE_FOLDERS or _is_not_project(f) for f in folders):
        return False
    return not any(is_template("/".join(folders[: depth + 1])) for depth in range(len(folders)))


def is_launch_directory(relative_dir: str, is_template: Callable[[str], bool] = lambda directory: False) -> bool:
    """Whether a directory holding instruction files is a plausible launch directory: a folder
    people work in (`_worked_in`) and in no example folder."""
    folders = relative_dir.split("/") if relative_dir else []
    return _worked_in(folders, is_template) and not any(_is_example(f) for f in folders)


def is_complete_example(relative_dir: str, is_project: Callable[[str], bool], is_template: Callable[[str], bool]) -> bool:
    """An example project in an example folder with a package manifest of its own (`is_project`):
    its source files are there, unlike a template's, which are made when it is copied out."""
    folders = relative_dir.split("/") if relative_dir else []
    return any(_is_example(f) for f in folders) and _worked_in(folders, is_template) and is_project(relative_dir)


def kits(relative_paths: Iterable[str]) -> frozenset[str]:
    """The folders holding instruction files in sub-folders named after KIT_TOOLS or more coding
    tools (`integrations/` with `codex/AGENTS.md`, `cursor/.cursorrules`, `claude-code/CLAUDE.md`):
    kits of ready-made files for each tool, copied into other projects. Every sub-folder of a kit
    is a template, the tool-named ones and the rest alike."""
    tools_below: dict[str, set[str]] = {}
    for relative in relative_paths:
        folders = _folders(relative)
        for depth, folder in enumerate(folders):
            if any(w in TOOL_WORDS for w in _words(folder)):
                tools_below.setdefault("/".join(folders[:depth]), set()).add(folder)
    return frozenset(folder for folder, tools in tools_below.items() if len(tools) >= KIT_TOOLS)


def owner_directory(relative: str) -> str:
    """The directory an instruction file belongs to: a file in a tool folder (`.claude/`,
    `.github/`, `.cursor/`, `.qwen/`…: the harness specs' rule folders) belongs to the directory
    holding that folder, its launch directory."""
    folders = _folders(relative)
    tool_folders = tables().tool_folders
    for index, folder in enumerate(folders):
        if folder in tool_folders:
            return "/".join(folders[:index])
    return "/".join(folders)
