"""Which directories of a workspace are projects: where a harness is plausibly launched, and which
instruction files are test data rather than instructions of this repository.

A harness is launched where people work: the workspace root, a nested repository, a package
holding its own AGENTS.md / CLAUDE.md / GEMINI.md. Nobody launches one inside a tool folder
(`.claude/`, `.github/`, `.agents/`), a documentation or skill folder, a vendored dependency, a
project template, an archive or backup of old files, or an example, so instruction files there are not launch points (a harness
still reaches them when the agent reads a file there) — unless an example is a project of its
own, with a package manifest (an example app with its package.json). A template's manifest is
the template's: it is copied out before anyone works in it (a scaffolder's template, marked by a
`_gitignore`, is one wherever it lies). Test data — instruction files inside fixture folders, or
tool folders below a test directory — is never analysed: such files are examples, often broken on
purpose. Paths here are '/'-separated and relative to the workspace root.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from lsp_agents.core.harnesses.tables import tables

# Folders nobody launches a harness in: documentation, skills, dependencies, project templates,
# archives and backups. Names of one job match whole (`skills`, `vendor`); the words of the others
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
# Folders of examples: no launch directories either, except a project of its own in them.
EXAMPLE_WORDS = frozenset({"example", "examples", "sample", "samples", "cookbook", "cookbooks", "demo", "demos"})
_WORD_BREAK = re.compile(r"[-_ ]+")
# Files that make a directory a project of its own.
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


def _words(folder: str) -> list[str]:
    """The words of a folder name, lower-cased: `Agent_Templates` -> agent, templates."""
    return [w for w in _WORD_BREAK.split(folder.lower()) if w]


def _is_not_project(folder: str) -> bool:
    return folder.lower() in NOT_PROJECT_NAMES or any(w in NOT_PROJECT_WORDS or w.endswith("docs") for w in _words(folder))


def _is_example(folder: str) -> bool:
    return any(w in EXAMPLE_WORDS for w in _words(folder))


def is_launch_directory(
    relative_dir: str,
    is_project: Callable[[str], bool] = lambda directory: False,
    is_template: Callable[[str], bool] = lambda directory: False,
) -> bool:
    """Whether a directory holding instruction files is a plausible launch directory: it lies in
    no tool folder (a dot folder), in no documentation, skill, dependency, template, archive or
    fixture folder and in no scaffolder's template (`is_template`: a directory holding one of
    TEMPLATE_MARKERS); in an example folder only a project of its own (`is_project`: it holds a
    package manifest)."""
    folders = relative_dir.split("/") if relative_dir else []
    if any(f.startswith(".") or f in FIXTURE_FOLDERS or _is_not_project(f) for f in folders):
        return False
    if any(is_template("/".join(folders[: depth + 1])) for depth in range(len(folders))):
        return False
    return not any(_is_example(f) for f in folders) or is_project(relative_dir)


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
