"""The analysis in a process of its own, which the front end can stop at any moment.

Hostile content can keep one step of the analysis busy far past its budget, in places no
watchdog reaches (C code holding the interpreter lock). So the analysis never runs in the
process that answers the editor or prints the report: `AnalysisWorker` (parent side, `pool`)
starts a worker process (`host`), hands it each folder's index, settings and unsaved buffers,
and asks it for findings. The worker says which step it is starting; a worker silent for too
long is killed with the helpers it forked, and restarted with that step marked as stopped (a
`not-evaluated` finding names it). The language server and `check` use it alike.
"""

from lsp_agents.workers.messages import FolderSpec, Opened, Outcome
from lsp_agents.workers.pool import AnalysisWorker, WorkerError, usable_cpus

__all__ = ["AnalysisWorker", "FolderSpec", "Opened", "Outcome", "WorkerError", "usable_cpus"]
