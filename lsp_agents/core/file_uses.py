"""Who sends an instruction file: for each harness and each directory it may be launched in, whether
the file goes at start, on a read or not at all (and why), where a byte budget cuts it, which files
it keeps out, and which of its `@` imports the harness expands.

The hover, the code lens and the editor's tree and views all show these facts, in the words of
`FileUses.summary`, so they cannot disagree. The harness models answer every question: the file is
looked up among the candidates of the eager load from each launch directory, and of a read of a
file next to it.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from lsp_agents.core.analysis.globs import rule_type
from lsp_agents.core.fs import FileSystem
from lsp_agents.core.harnesses import Harness, LaunchContext
from lsp_agents.core.model import Candidate, JsonObject, Role
from lsp_agents.core.vocabulary import cut_note, explain
from lsp_agents.core.walk import is_within

AT_START, ON_READ = "at start", "on read"
_PROBE = "__lsp_agents_probe__"  # a file the agent reads "next to" the instruction file


@dataclass(frozen=True, slots=True)
class Use:
    """What one harness launched in `cwd` does with the file: sends it `when`, or not (`reason`)."""

    harness: str
    cwd: str
    when: str | None  # AT_START, ON_READ, or None: weighed and not sent
    size: int = 0
    truncated_at: int | None = None
    reason: str | None = None
    related: str | None = None


@dataclass(frozen=True, slots=True)
class Shadow:
    """A file the harness launched in `cwd` does not send because of this one."""

    harness: str
    cwd: str
    path: str
    reason: str


@dataclass(slots=True)
class FileUses:
    """Every use of `path`; `root` (the workspace root) is what launch directories are named against."""

    path: str
    root: str
    cwds: list[str] = field(default_factory=list)  # the launch directories asked
    uses: list[Use] = field(default_factory=list)
    shadows: list[Shadow] = field(default_factory=list)
    imports: dict[str, list[str]] = field(default_factory=dict)  # imported file -> the harnesses that expand it here

    def harnesses(self) -> list[str]:
        """The harnesses that weigh the file, in the order they were asked."""
        return list(dict.fromkeys(u.harness for u in self.uses))

    def sends(self, harness: str) -> bool:
        return any(u.harness == harness and u.when for u in self.uses)

    def verdict(self, use: Use) -> str:
        """`at start from the workspace root (cut at byte 500 of 578)`, `not loaded from pkg: <why> (the file)`."""
        where = directory_words(use.cwd, self.root)
        if use.when:
            return f"{use.when} from {where}{cut_note({'truncated_at': use.truncated_at, 'size': use.size})}"
        related = f" ({shown(use.related, self.root)})" if use.related else ""
        return f"not loaded from {where}: {explain(use.reason)}{related}"

    def summary(self, harness: str) -> str:
        """What `harness` does with the file, from every launch directory: the words every front end shows."""
        return "; ".join(self.verdict(u) for u in self.uses if u.harness == harness)

    def to_json(self) -> JsonObject:
        """The facts as the editor's views take them: per harness its summary and uses, then the shadows."""
        return {
            "file": self.path,
            "harnesses": [
                {
                    "harness": harness,
                    "sends": self.sends(harness),
                    "summary": self.summary(harness),
                    "uses": [_use_json(u) for u in self.uses if u.harness == harness],
                }
                for harness in self.harnesses()
            ],
            "shadows": [
                {"harness": s.harness, "cwd": s.cwd, "path": s.path, "reason": s.reason, "explanation": explain(s.reason)}
                for s in dict.fromkeys(self.shadows)
            ],
        }


def directory_words(directory: str, root: str) -> str:
    """A launch directory as people read it: `the workspace root`, else its path from the root."""
    if directory == root:
        return "the workspace root"
    return shown(directory, root)


def shown(path: str, root: str) -> str:
    """A path relative to the workspace root when inside it, else as it is."""
    return os.path.relpath(path, root) if is_within(path, root) else path


def _use_json(use: Use) -> JsonObject:
    entry = {"cwd": use.cwd, "when": use.when, "size": use.size, "truncated_at": use.truncated_at, "reason": use.reason}
    if use.reason:
        entry["explanation"] = explain(use.reason)
    if use.related:
        entry["related"] = use.related
    return entry


def owner_directory(path: str) -> str:
    """The directory an instruction file speaks for: a rule's is the one holding .claude/rules etc."""
    typed = rule_type(path)
    if typed:
        return typed[1]
    directory = os.path.dirname(path)
    return os.path.dirname(directory) if os.path.basename(directory) == ".claude" else directory  # .claude/CLAUDE.md


def launch_directories(fs: FileSystem, path: str, configured: str, root: str | None) -> list[str]:
    """Where a harness started could send this file: the configured launch directory, the file's
    own directory (where it goes at start) and the workspace root (where a nested file goes on a read)."""
    chosen = [configured, owner_directory(path), *([root] if root else [])]
    return list(dict.fromkeys(fs.realpath(d) for d in chosen))


def _match(candidates: Iterable[Candidate], path: str) -> Candidate | None:
    return next((c for c in candidates if c.path == path), None)


def _use(
    harness: str, cwd: str, path: str, at_start: list[Candidate], on_read: list[Candidate], candidates: list[Candidate]
) -> Use | None:
    """What one cascade does with `path`; None when it does not weigh it at all."""
    if (sent := _match(at_start, path)) is not None:
        return Use(harness, cwd, AT_START, sent.bytes, sent.truncated_at)
    if (sent := _match(on_read, path)) is not None:
        return Use(harness, cwd, ON_READ, sent.bytes, sent.truncated_at)
    if (missed := _match(candidates, path)) is not None:
        return Use(harness, cwd, None, missed.bytes, reason=str(missed.reason), related=missed.related)
    return None


def file_uses(harnesses: Sequence[Harness], contexts: Mapping[str, LaunchContext], path: str, root: str) -> FileUses:
    """Every use of `path` by `harnesses`, each launched in every directory of `contexts` (by directory)."""
    found = FileUses(path, root, list(contexts))
    probe = os.path.join(owner_directory(path), _PROBE)
    for harness in harnesses:
        for cwd, ctx in contexts.items():
            eager = harness.eager(ctx)
            read = harness.on_read(ctx, probe) if is_within(probe, cwd) else None
            candidates = eager.files + (read.files if read else [])
            found.shadows += [
                Shadow(harness.id, cwd, c.path, str(c.reason))
                for c in candidates
                if c.related == path and not c.loaded and c.reason
            ]
            use = _use(harness.id, cwd, path, eager.loaded, read.loaded if read else [], candidates)
            if use is None:
                continue
            found.uses.append(use)
            if use.when:
                for imported in (c for c in candidates if c.role == Role.IMPORT and c.related == path):
                    expanders = found.imports.setdefault(imported.path, [])
                    expanders += [] if harness.id in expanders else [harness.id]
    return found
