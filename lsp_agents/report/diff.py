"""`lsp-agents diff`: what a change does to every harness's prompt, and the findings it brings or removes.

Both revisions are analysed by the unchanged core (`WorkspaceIndex`, `Analyzer`), one read from
git objects (`revision_fs.RevisionFileSystem`), the other from a revision too or from the work
tree. Both sides share the workspace root's absolute path, so that the files outside it (home
folder, folders above the repository) are the same and a path names the same file on both sides.

What is compared, per enabled harness (enabled on either side: a harness a change turns on has
an empty prompt before) and per launch directory (of either side): the files loaded at start,
in order, with the bytes and ~tokens sent and where a budget cuts them, and the reason each
other candidate is not loaded. Launch directories whose prompt changes the same way are
reported together. Findings are matched by code, file, harnesses and message with its numbers
left out: line numbers and byte counts move with any edit, and a finding that only moved is not
new. The answer is a plain JSON-ready dict (the README's contract); `diff_render` shows it.
"""

from __future__ import annotations

import dataclasses
import gc
import json
import os
import re
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from lsp_agents.core.analysis import Analyzer
from lsp_agents.core.analysis.cascades import REACHABLE, Unit, root_only
from lsp_agents.core.analysis.config import detect_harnesses
from lsp_agents.core.compose import file_entry
from lsp_agents.core.fs import FileSystem
from lsp_agents.core.harness_ids import HARNESS_IDS, HarnessId
from lsp_agents.core.model import Candidate, Cascade, Finding, Reason
from lsp_agents.core.project_settings import load_project_settings, workspace_root
from lsp_agents.core.real_paths import real_path
from lsp_agents.core.settings import Settings
from lsp_agents.core.walk import is_within
from lsp_agents.core.workspace import WorkspaceIndex
from lsp_agents.git_objects import GitError, commit_of, default_base, repository_top
from lsp_agents.report import Report, ordered
from lsp_agents.report.check import FAIL_LEVELS, CheckError, command_line_settings, home_directory
from lsp_agents.report.diff_render import render_markdown, render_text
from lsp_agents.report.render import render_json
from lsp_agents.revision_fs import RevisionFileSystem, WorkTreeFileSystem
from lsp_agents.terminal import Style, wants_colour
from lsp_agents.workers import usable_cpus

SHADOWED = frozenset(
    {Reason.FAMILY_SHADOWED, Reason.NAME_SHADOWED, Reason.OVERRIDE_SHADOWED, Reason.GLOBAL_SHADOWED, Reason.CLAUDE_MD_PRESENT}
)
CUT = frozenset({Reason.BUDGET_EXHAUSTED, Reason.TOO_LARGE})
DUPLICATED = frozenset({Reason.DUPLICATE_PATH, Reason.ALREADY_LOADED, Reason.SAME_TEXT})
_NUMBER = re.compile(r"\d[\d,.]*")
_HEADING = re.compile(rb"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$")
_FENCE = re.compile(rb"^ {0,3}(`{3,}|~{3,})")


@dataclass(frozen=True, slots=True)
class DiffOptions:
    base: str | None  # None: the merge base with the default branch
    head: str | None  # None: the work tree
    harnesses: Sequence[HarnessId]
    home: str | None
    format: str
    fail_on: str
    enable: Sequence[str] = ()
    color: str = "never"


@dataclass
class Side:
    """One revision analysed: its files, its cascades and its findings."""

    name: str  # as the user gave it, or "work tree"
    commit: str | None
    fs: FileSystem
    index: WorkspaceIndex
    settings: Settings = dataclasses.field(default_factory=Settings)
    analyzer: Analyzer | None = None
    findings: list[Finding] = dataclasses.field(default_factory=list)

    def launch_directories(self, harness: str) -> set[str]:
        assert self.analyzer is not None
        store = self.analyzer.store
        units = [u for u in store.cascades if u.harness == harness]
        return {u.cwd for u in units} | {cwd for u in units for cwd in store.aliases.get(u, ())}

    def cascade(self, harness: str, cwd: str) -> Cascade:
        """The eager cascade from `cwd`: the analysis's own, or that of the unit `cwd` is an alias
        of (the same files), or computed (a launch directory of the other side only)."""
        assert self.analyzer is not None
        store = self.analyzer.store
        unit = Unit(harness, cwd)
        if unit in store.cascades:
            return store.cascades[unit]
        above = next((u for u, aliases in store.aliases.items() if u.harness == harness and cwd in aliases), None)
        return store.cascades[above] if above in store.cascades else store.compute(unit)


def run_diff(options: DiffOptions, out: TextIO = sys.stdout, err: TextIO = sys.stderr) -> int:
    try:
        answer = compare(options, err)
    except GitError as exc:
        raise CheckError(str(exc)) from None
    if options.format == "json":
        out.write(json.dumps(answer, indent=2, ensure_ascii=False) + "\n")
    elif options.format == "markdown":
        out.write(render_markdown(answer) + "\n")
    else:
        out.write(render_text(answer, Style(wants_colour(options.color, out))) + "\n")
    failing = FAIL_LEVELS[options.fail_on]
    return 1 if any(f["severity"] in failing for f in answer["findings"]["introduced"]) else 0


def compare(
    options: DiffOptions, err: TextIO, directory: str | None = None, unsaved: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """The comparison of the two revisions the options name, as the JSON contract, run in
    `directory` (default: the current one). `unsaved` (path: text, the editor's buffers) overrides
    the disk's files of the work tree; it never changes a revision, nor a file outside the repository."""
    cwd = real_path(directory or os.getcwd())
    top = repository_top(cwd)
    root = workspace_root(cwd)
    root = root if is_within(root, top) else top
    home = home_directory(options.home)
    base_name, base_commit = (options.base, commit_of(top, options.base)) if options.base else default_base(top)
    head_commit = commit_of(top, options.head) if options.head else None
    sides = [_side(root, top, base_name, base_commit)]
    unsaved_here = {path: text for path, text in (unsaved or {}).items() if is_within(path, top)}
    sides.append(_side(root, top, options.head, head_commit) if options.head and head_commit else _work_tree(root, unsaved_here))
    gc.set_threshold(100_000, 50, 100)  # as `check`: the analysis keeps millions of objects alive
    try:
        harnesses = _harnesses(sides, options, home, err)
        for side in sides:
            _analyse(side, options, harnesses, home, err)
    finally:
        for side in sides:
            if isinstance(side.fs, RevisionFileSystem):
                side.fs.close()
    report = Report(root, harnesses, [])
    changes = [change for harness in harnesses for change in _harness_changes(sides, harness, report)]
    introduced, resolved = _finding_changes(sides, report)
    return {
        "root": root,
        "base": {"name": sides[0].name, "commit": sides[0].commit},
        "head": {"name": sides[1].name, "commit": sides[1].commit},
        "harnesses": harnesses,
        "summary": {
            "prompts_changed": sum(len(c["launch_directories"]) for c in changes),
            "harnesses_changed": list(dict.fromkeys(c["harness"] for c in changes)),
            "findings_introduced": len(introduced),
            "findings_resolved": len(resolved),
        },
        "changes": changes,
        "findings": {"introduced": introduced, "resolved": resolved},
    }


def _side(root: str, top: str, name: str, commit: str) -> Side:
    fs = RevisionFileSystem(top, commit)
    return Side(name, commit, fs, WorkspaceIndex(root, fs))


def _work_tree(root: str, unsaved: Mapping[str, str]) -> Side:
    fs = WorkTreeFileSystem()
    for path, text in unsaved.items():
        fs.set_overlay(path, text)
    return Side("work tree", None, fs, WorkspaceIndex(root, fs))


def _harnesses(sides: list[Side], options: DiffOptions, home: str, err: TextIO) -> list[HarnessId]:
    """`--harness`, else the harnesses each side's settings enable (or detection finds), together."""
    found: set[str] = set(options.harnesses)
    for side in sides:
        side.settings, messages = load_project_settings(side.index.root, side.fs)
        for message in messages:
            print(f"{side.name}: {message}", file=err)
        side.index = WorkspaceIndex(side.index.root, side.fs, exclude=side.settings.exclude)
        side.index.scan()
        if not options.harnesses:
            enabled = side.settings.harnesses
            found |= set(detect_harnesses(side.index, home) if enabled == "auto" else enabled)
    return [h for h in HARNESS_IDS if h in found]


def _analyse(side: Side, options: DiffOptions, harnesses: list[HarnessId], home: str, err: TextIO) -> None:
    settings = command_line_settings(side.settings, harnesses, options.enable, fetch_remote=False)
    side.analyzer = Analyzer(side.index, settings, home=os.path.abspath(home), env=dict(os.environ))
    found = side.analyzer.analyse_all(workers=usable_cpus())
    side.findings = ordered(found)
    for warning in dict.fromkeys([*side.index.warnings, *side.analyzer.warnings]):
        print(f"{side.name}: {warning}", file=err)
    if isinstance(side.fs, RevisionFileSystem) and not side.fs.complete:
        print(f"{side.name}: warning: the tree has too many entries; only the first ones are compared", file=err)


# -- prompts ------------------------------------------------------------------------------------
def _harness_changes(sides: list[Side], harness: str, report: Report) -> list[dict[str, Any]]:
    """The harness's prompt changes, launch directories changing the same way together."""
    before, after = sides
    directories = before.launch_directories(harness) | after.launch_directories(harness)
    if root_only(harness):
        directories &= {report.root}
    groups: dict[str, dict[str, Any]] = {}
    for cwd in sorted(directories):
        change = _prompt_change(_states(before, harness, cwd, report), _states(after, harness, cwd, report))
        if change is not None:
            key = json.dumps(change, sort_keys=True)
            group = groups.setdefault(key, {"harness": harness, "launch_directories": [], **change})
            group["launch_directories"].append(report.relative(cwd))
    return list(groups.values())


def _states(side: Side, harness: str, cwd: str, report: Report) -> dict[str, dict[str, Any]]:
    """Every candidate by root-relative path, loaded ones first in load order (each path once)."""
    assert side.analyzer is not None
    ctx = side.analyzer.store.context(cwd)
    candidates: list[Candidate] = side.cascade(harness, cwd).files
    loaded = {c.path for c in candidates if c.loaded}
    states: dict[str, dict[str, Any]] = {}
    for candidate in sorted(candidates, key=lambda c: not c.loaded):
        path = report.relative(candidate.path)
        if path in states or (not candidate.loaded and candidate.path in loaded):
            continue
        entry = file_entry(ctx, candidate)
        state = {
            "path": path,
            "role": entry["role"],
            "loaded": candidate.loaded,
            "bytes": entry["bytes"],
            "tokens": entry["tokens"],
        }
        if candidate.loaded:
            state["cut"] = _cut(side.fs, candidate) if candidate.truncated_at is not None else None
        else:
            state["reason"] = entry["reason"]
            state["kind"] = kind_of(candidate.reason)
            state["related"] = report.relative(candidate.related) if candidate.related else None
        states[path] = state
    return states


def kind_of(reason: Reason | None) -> str:
    """What a reason means to a reviewer: shadowed, cut, duplicated, on-demand (reachable later) or unreachable."""
    if reason in SHADOWED:
        return "shadowed"
    if reason in CUT:
        return "cut"
    if reason in DUPLICATED:
        return "duplicated"
    return "on-demand" if reason in REACHABLE else "unreachable"


def _cut(fs: FileSystem, candidate: Candidate) -> dict[str, Any]:
    """Where a budget cuts a loaded file: the byte, the 1-based line, the section the cut falls
    in and the headings of the sections left out whole."""
    at = candidate.truncated_at or 0
    data = fs.read(candidate.path).data or b""
    section, dropped = None, []
    fence = None
    offset = 0
    for line in data.splitlines(keepends=True):
        if (opened := _FENCE.match(line)) and (fence is None or opened.group(1)[0] == fence[0]):
            fence = None if fence else opened.group(1)
        elif fence is None and (heading := _HEADING.match(line.rstrip(b"\r\n"))):
            title = f"{heading.group(1).decode()} {heading.group(2).decode('utf-8', 'replace')}"
            if offset < at:
                section = title
            else:
                dropped.append(title)
        offset += len(line)
    return {"at": at, "line": data.count(b"\n", 0, at) + 1, "section": section, "sections_dropped": dropped}


def _prompt_change(before: dict[str, dict[str, Any]], after: dict[str, dict[str, Any]]) -> dict[str, Any] | None:
    """What changes between two cascades from one launch directory; None when nothing does."""
    loaded_before = [p for p, s in before.items() if s["loaded"]]
    loaded_after = [p for p, s in after.items() if s["loaded"]]
    added = [after[p] for p in loaded_after if p not in loaded_before]
    removed = [{**before[p], "now": _now(after.get(p))} for p in loaded_before if p not in loaded_after]
    resized = [
        _resized(p, before[p], after[p]) for p in loaded_after if p in loaded_before and _sent(before[p]) != _sent(after[p])
    ]
    common = [p for p in loaded_after if p in loaded_before]
    reordered = common if common != [p for p in loaded_before if p in loaded_after] else []
    skipped = [
        {"path": p, "before": _now(before.get(p)), "after": _now(after.get(p))}
        for p in dict.fromkeys([*before, *after])
        if not before.get(p, {}).get("loaded")
        and not after.get(p, {}).get("loaded")
        and _now(before.get(p)) != _now(after.get(p))
    ]
    if not (added or removed or resized or reordered or skipped):
        return None
    return {
        "before": _totals(before, loaded_before),
        "after": _totals(after, loaded_after),
        "added": added,
        "removed": removed,
        "resized": resized,
        "reordered": reordered,
        "skipped": skipped,
    }


def _resized(path: str, before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """A file loaded on both sides whose bytes sent or cut changed, with the sections a cut newly
    leaves out (`sections_lost`) or no longer does (`sections_regained`)."""
    dropped_before = before["cut"]["sections_dropped"] if before["cut"] else []
    dropped_after = after["cut"]["sections_dropped"] if after["cut"] else []
    return {
        "path": path,
        "before": _sent(before),
        "after": _sent(after),
        "sections_lost": [s for s in dropped_after if s not in dropped_before],
        "sections_regained": [s for s in dropped_before if s not in dropped_after],
    }


def _sent(state: dict[str, Any]) -> dict[str, Any]:
    return {"bytes": state["bytes"], "tokens": state["tokens"], "cut": state["cut"]}


def _now(state: dict[str, Any] | None) -> dict[str, Any] | None:
    """A file's standing when not loaded: its reason, kind and the file that explains it; None
    when the harness does not consider it at all."""
    if state is None:
        return None
    if state["loaded"]:
        return {"reason": None, "kind": "loaded", "related": None}
    return {"reason": state["reason"], "kind": state["kind"], "related": state["related"]}


def _totals(states: dict[str, dict[str, Any]], loaded: list[str]) -> dict[str, int]:
    return {
        "files": len(loaded),
        "bytes": sum(states[p]["bytes"] for p in loaded),
        "tokens": sum(states[p]["tokens"] for p in loaded),
    }


# -- findings -----------------------------------------------------------------------------------
def _finding_changes(sides: list[Side], report: Report) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The findings only the head has (introduced) and only the base has (resolved)."""
    before, after = ([_finding_key(f) for f in side.findings] for side in sides)
    only_after = Counter(after) - Counter(before)
    only_before = Counter(before) - Counter(after)
    introduced = _take(sides[1].findings, after, only_after)
    resolved = _take(sides[0].findings, before, only_before)
    as_json = render_json(dataclasses.replace(report, findings=introduced + resolved))["findings"]
    return as_json[: len(introduced)], as_json[len(introduced) :]


FindingKey = tuple[str, str, str, tuple[str, ...]]


def _finding_key(finding: Finding) -> FindingKey:
    return finding.code, finding.path, _NUMBER.sub("#", finding.message), tuple(finding.harnesses)


def _take(findings: list[Finding], keys: list[FindingKey], wanted: Counter[FindingKey]) -> list[Finding]:
    """The findings whose keys `wanted` counts, as many of each as it counts, in order."""
    left = Counter(wanted)
    taken = []
    for finding, key in zip(findings, keys, strict=True):
        if left[key] > 0:
            left[key] -= 1
            taken.append(finding)
    return taken
