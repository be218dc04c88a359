"""What GitHub Copilot in VS Code and the Copilot CLI share: `*.instructions.md` files and their
`applyTo` patterns, and the always-on `copilot-instructions.md`.
"""

from __future__ import annotations

from dataclasses import dataclass

from lsp_agents.core.frontmatter import ParsedFile, find_rule_files, pattern_list
from lsp_agents.core.fs import FileSystem
from lsp_agents.core.harnesses.spec import FolderFiles
from lsp_agents.core.model import Cascade, Role

INSTRUCTIONS_SUFFIX = ".instructions.md"
COPILOT_INSTRUCTIONS = "copilot-instructions.md"
ALWAYS_PATTERNS = frozenset({"*", "**", "**/*"})
# The files both read in a project directory's `.github`.
GITHUB_FILES = (FolderFiles(".github", COPILOT_INSTRUCTIONS), FolderFiles(".github/instructions", f"**/*{INSTRUCTIONS_SUFFIX}"))


@dataclass(frozen=True, slots=True)
class Instruction:
    """An instructions file and the patterns of the header field that scopes it."""

    file: ParsedFile
    role: Role
    patterns: tuple[str, ...]

    @property
    def always(self) -> bool:
        return any(p in ALWAYS_PATTERNS for p in self.patterns)

    @property
    def description(self) -> str | None:
        value = self.file.fields.get("description")
        return value if isinstance(value, str) else None


def instructions_in(
    fs: FileSystem,
    directory: str,
    role: Role,
    cascade: Cascade,
    *,
    suffix: str = INSTRUCTIONS_SUFFIX,
    key: str = "applyTo",
    default: str | None = None,
    string_only: bool = False,
) -> list[Instruction]:
    """The instructions files anywhere under `directory`, in path order, with their patterns.
    `string_only`: a value that is not a string counts as absent (VS Code reads applyTo so)."""
    found = []
    for file in find_rule_files(fs, directory, suffix, role, cascade):
        value = file.fields.get(key) or default
        if string_only and not isinstance(value, str):
            value = None
        found.append(Instruction(file, role, tuple(pattern_list(value))))
    return found
