"""The facts of one instruction file that the hover, the code lens and the editor's tree and views
all show: the core's `file_uses`, asked with this server's enabled harnesses, the launch
directories that matter for the file and its workspace root."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from lsp_agents.core.file_uses import FileUses, file_uses, launch_directories
from lsp_agents.core.harnesses import HARNESSES
from lsp_agents.core.workspace import INSTRUCTION_NAMES

if TYPE_CHECKING:
    from lsp_agents.server.server import AgentsLanguageServer


def is_instruction(ls: AgentsLanguageServer, path: str) -> bool:
    folder = ls.folder_for(path)
    if folder is not None:
        return folder.index.is_instruction_path(path)
    return os.path.basename(path) in INSTRUCTION_NAMES


def uses_of(ls: AgentsLanguageServer, path: str) -> FileUses:
    """Who sends `path`, launched in the configured launch directory, the file's own directory or
    the workspace root."""
    folder = ls.folder_for(path)
    configured = ls.launch_directory(path)
    root = ls.fs.realpath(folder.root) if folder is not None else configured
    cwds = launch_directories(ls.fs, path, configured, root)
    harnesses = [HARNESSES[h] for h in ls.enabled_harnesses(path)]
    return file_uses(harnesses, {cwd: ls.context(path, cwd) for cwd in cwds}, path, root)
