"""Findings from the cascades and the documents of one workspace: what the CLI's `check` and the
language server's diagnostics report.

The Analyzer computes, once, the eager cascade of every (enabled harness, launch directory) unit
and turns each into facts: its own (shadowed, truncated, imports) and those of the set of files
it loads together (duplicates, redefined sections), shared by every unit loading that set. A
file's findings merge the facts of the units that mention it with what the file earns on its own
(hygiene, frontmatter, size).

After an edit, `analyse_paths` looks only at the units whose cascades read the changed files
(plus those a created or deleted file may enter). When the edit keeps what a unit's harness takes
from the files (`Harness.content_shape`), its cascade is kept and only the text facts are redone,
and only files whose facts changed are reported; otherwise the unit is recomputed and every file
it touches is reported.
"""

from __future__ import annotations

from lsp_agents.core.analysis.cascades import Unit
from lsp_agents.core.analysis.codes import CODES
from lsp_agents.core.analysis.config import detect_harnesses
from lsp_agents.core.analysis.full_analysis import UNITS_PER_WORKER
from lsp_agents.core.analysis.incremental import Analyzer
from lsp_agents.core.analysis.state import Item, Progress

__all__ = ["CODES", "UNITS_PER_WORKER", "Analyzer", "Item", "Progress", "Unit", "detect_harnesses"]
