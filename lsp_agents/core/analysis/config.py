"""Which harnesses to analyse ("auto" detection) and `invalid-config` for their config files,
both from the harness specs.

A config file that does not parse makes its harness fall back to its defaults (the models already
do so); the finding sits on the file when it is in the workspace, else it is reported once for the
workspace, as a finding on the file's absolute path and a warning.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping

from lsp_agents.core.analysis.base import finding
from lsp_agents.core.config_files import load_jsonc, load_toml, load_yaml
from lsp_agents.core.harnesses import HARNESSES, LaunchContext
from lsp_agents.core.harnesses.spec import Detection, Place
from lsp_agents.core.harnesses.tables import specs
from lsp_agents.core.model import Finding, Role, Span
from lsp_agents.core.walk import is_within
from lsp_agents.core.workspace import WorkspaceIndex

_LOADERS = {".toml": load_toml, ".yaml": load_yaml}  # anything else is JSON with comments


def detect_harnesses(index: WorkspaceIndex, home: str | None = None) -> list[str]:
    """The "auto" rule: the harnesses whose detection markers (their specs') the workspace shows:
    the instruction files present and the folders they lie in, folders in the root, and files a
    CLI keeps in the workspace root or (when given) the home directory.

    A folder of files that a detected harness's config loads by name (opencode.json's
    `instructions: [".github/instructions/*.md"]`) holds that harness's files: it is no sign of
    the harness whose folder name it has (Copilot)."""
    bases = [index.root] + ([home] if home else [])
    # Through the index's file system: a revision (`diff`) answers from its own tree; a change on
    # disk invalidates the paths it touches and the folders above them.
    found = _detected(index, bases, index.instruction_files)
    claimed = _loaded_through_config(index, home, found) if home else set()
    if claimed:
        found = _detected(index, bases, set(index.instruction_files) - claimed)
    return found


def _detected(index: WorkspaceIndex, bases: list[str], foldered: Iterable[str]) -> list[str]:
    """The harnesses whose markers the workspace shows, the folders of the instruction files
    `foldered` counting as markers."""
    names = {os.path.basename(p) for p in index.instruction_files}
    parts = {part for p in foldered for part in index.relative(p).split("/")[:-1]}
    found = {spec.id for spec in specs() if _shows(spec.detection, names, parts, index, bases)}
    return [spec.id for spec in specs() if spec.id in found]


def _shows(detection: Detection, names: set[str], parts: set[str], index: WorkspaceIndex, bases: list[str]) -> bool:
    fs = index.fs
    return (
        any(name in names for name in detection.names)
        or any(folder in parts for folder in detection.folders)
        or (bool(detection.folders_together) and all(folder in parts for folder in detection.folders_together))
        or any(fs.is_dir(os.path.join(index.root, folder)) for folder in detection.root_folders)
        or any(fs.exists(os.path.join(base, *own.split("/"))) for base in bases for own in detection.own_files)
    )


def _loaded_through_config(index: WorkspaceIndex, home: str, harnesses: list[str]) -> set[str]:
    """The workspace files that a harness of `harnesses`, launched from the root, loads because
    its config names them."""
    loaded: set[str] = set()
    for spec in specs():
        if spec.id in harnesses and spec.config_names(Place.ANY_DIRECTORY):
            context = LaunchContext(cwd=index.root, home=home, fs=index.fs, index=index)
            cascade = HARNESSES[spec.id].eager(context, keep=False)
            loaded |= {c.path for c in cascade.loaded if c.role is Role.CONFIG and index.contains(c.path)}
    return loaded


def config_candidates(
    index: WorkspaceIndex, harnesses: list[str], home: str, env: Mapping[str, str], *, workspace_scan: bool = True
) -> list[tuple[str, str]]:
    """(harness, path) of every config file the enabled harnesses read (their specs'), existing or
    not, the per-user ones where the harness's environment puts them.

    Without `workspace_scan`, the config files read in any directory (opencode.json) are left out
    (recognised by name instead: `is_config`).
    """
    candidates: list[tuple[str, str]] = []
    for spec in specs():
        if spec.id not in harnesses:
            continue
        for config in spec.config_files:
            path = spec.config_path(config, home, env, index.root)
            if path is not None:
                candidates.append((spec.id, path))
        names = spec.config_names(Place.ANY_DIRECTORY)
        if workspace_scan and names:
            suffixes = tuple(os.sep + name for name in names)  # a C-level test on 100,000s of paths
            candidates += [(spec.id, p) for p in sorted(p for p in index.files if p.endswith(suffixes))]
    return list(dict.fromkeys(candidates))


def is_config(path: str, index: WorkspaceIndex, harnesses: list[str], home: str, env: Mapping[str, str]) -> bool:
    name = os.path.basename(path)
    if any(spec.id in harnesses and name in spec.config_names(Place.ANY_DIRECTORY) for spec in specs()):
        return True
    return any(p == path for _h, p in config_candidates(index, harnesses, home, env, workspace_scan=False))


def config_findings(
    index: WorkspaceIndex, harnesses: list[str], home: str, env: Mapping[str, str]
) -> tuple[list[Finding], list[str]]:
    findings: list[Finding] = []
    warnings: list[str] = []
    for harness, path in config_candidates(index, harnesses, home, env):
        if not index.fs.exists(path):
            continue
        warning = _LOADERS.get(os.path.splitext(path)[1], load_jsonc)(index.fs, path).warning
        if not warning:
            continue
        problem = warning.problem or warning
        line = max(0, warning.line - 1) if warning.line and is_within(path, index.root) else 0
        message = f"{harness} cannot parse this config file and {HARNESSES[harness].spec.invalid_config}: {problem}"
        findings.append(finding("invalid-config", path, Span(line, 0, line, 0), message, harnesses=[harness]))
        if not is_within(path, index.root):
            warnings.append(warning)
    return findings, warnings
