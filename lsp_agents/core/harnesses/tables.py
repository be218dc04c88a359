"""What the rest of the code base knows about harnesses, derived from their specs.

Discovery, tool folders, the folders and files watched (in a workspace and in the home
directory), and the client's lists all come from here, so adding a harness to the registry
(`HARNESSES`) is enough for all of them. The tables are computed once; whoever changes the
registry afterwards (a test) calls `tables.cache_clear()`.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from lsp_agents.core.harnesses import HARNESSES
from lsp_agents.core.harnesses.spec import HarnessSpec, Place

# Config files a workspace holds (the others are per user).
WORKSPACE_PLACES = (Place.ROOT, Place.ANY_DIRECTORY)


@dataclass(frozen=True, slots=True)
class HarnessTables:
    # Discovery, in gitignore syntax: every instruction file name, the files of the tool folders,
    # the files one step off where a harness looks, then what is left out (`!`, last: it wins).
    instruction_patterns: tuple[str, ...]
    instruction_names: frozenset[str]  # the patterns without a folder: a cheap first test
    tool_folders: frozenset[str]  # a file in one belongs to the directory holding the folder
    in_tool_folder: re.Pattern[str]  # matches a path below a tool folder
    # `**/` globs of every file a harness reads in a workspace (instruction files, rule folders,
    # agents, skills, commands, config files): what the editor watches.
    workspace_globs: tuple[str, ...]
    global_names: frozenset[str]  # file names the harnesses read in their per-user folders
    global_subfolders: frozenset[str]  # folders there whose files they read (rules, skills…)
    in_mode_folder: re.Pattern[str]  # matches a '/'-separated relative path below a mode folder


def specs() -> list[HarnessSpec]:
    """The specs of the registry, in its order."""
    return [harness.spec for harness in HARNESSES.values()]


@functools.cache
def tables() -> HarnessTables:
    return derive(specs())


def derive(all_specs: list[HarnessSpec]) -> HarnessTables:
    names = _unique(n for s in all_specs for n in s.instruction_names)
    rule_files = [r for s in all_specs for r in s.rule_files]
    patterns = (
        *names,
        *_unique(r.pattern for r in rule_files),
        *_unique(p for s in all_specs for p in s.misplaced),
        *_unique(f"!{p}" for s in all_specs for p in s.excluded),
    )
    tool_folders = frozenset(r.tool_folder for r in rule_files)
    separator = re.escape(os.sep)
    in_tool_folder = re.compile(separator + "(?:" + "|".join(re.escape(f) for f in sorted(tool_folders)) + ")" + separator)
    folders = [f"{r.folder}/**" for r in rule_files if r.is_folder] + [f"{f}/**" for s in all_specs for f in s.project_folders]
    configs = [c.path for s in all_specs for c in s.config_files if c.place in WORKSPACE_PLACES]
    globs = _unique(p if p.startswith("**/") else f"**/{p}" for p in (*patterns, *configs, *folders) if not p.startswith("!"))
    per_user = [c for s in all_specs for c in s.config_files if c.place not in WORKSPACE_PLACES]
    mode_folders = sorted({f for s in all_specs for f in s.mode_folders})
    in_mode_folder = re.compile(
        "(?:^|/)(?:" + "|".join(re.escape(f).replace(r"\*", "[^/]*") for f in mode_folders) + ")/" if mode_folders else "(?!)"
    )
    return HarnessTables(
        instruction_patterns=patterns,
        instruction_names=frozenset(names),
        tool_folders=tool_folders,
        in_tool_folder=in_tool_folder,
        workspace_globs=_without_covered(globs),
        global_names=frozenset([*(n for s in all_specs for n in s.global_files), *(os.path.basename(c.path) for c in per_user)]),
        global_subfolders=frozenset(f for s in all_specs for f in s.global_subfolders),
        in_mode_folder=in_mode_folder,
    )


def global_folders(home: str, env: Mapping[str, str]) -> list[str]:
    """Every harness's per-user folders as `env` places them, existing or not, without repeats."""
    folders = [folder for s in specs() for folder in (s.home, *s.global_folders) if folder is not None]
    return list(dict.fromkeys(path for folder in folders if (path := folder.resolve(home, env)) is not None))


def _unique(items: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))


def _without_covered(globs: tuple[str, ...]) -> tuple[str, ...]:
    """The globs less those inside a folder another one watches whole (`**/.claude/rules/*.md`
    under `**/.claude/**`)."""
    whole = [g[:-2] for g in globs if g.endswith("/**")]
    return tuple(g for g in globs if not any(g.startswith(folder) and g != f"{folder}**" for folder in whole))
