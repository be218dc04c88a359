"""The language server's process tree and each process's resident set, read from /proc (Linux).

The server runs the analysis in a worker process started from a multiprocessing fork server, so
its memory is the server's plus its descendants': the fork server, the worker it forked (and,
during a full analysis, the helpers the worker forks), and multiprocessing's resource tracker.
Each process is named by its role, so that figures stay comparable between runs.
"""

from __future__ import annotations

import os


def _stat_fields(pid: int) -> list[str] | None:
    """/proc/PID/stat from its third field (state) on; None once the process is gone."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            stat = handle.read()
    except OSError:
        return None
    return stat.rsplit(")", 1)[1].split()  # the command name may hold spaces and parentheses


def _parent(pid: int) -> int | None:
    fields = _stat_fields(pid)
    return int(fields[1]) if fields else None


def _command(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            return handle.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def descendants(pid: int) -> dict[int, int]:
    """Every process below `pid`, as child -> parent (a worker calls setsid, but keeps its parent)."""
    parents = {}
    for name in os.listdir("/proc"):
        if name.isdigit() and (parent := _parent(int(name))) is not None:
            parents[int(name)] = parent
    below: dict[int, int] = {}
    frontier = [pid]
    while frontier:
        current = frontier.pop()
        for child, parent in parents.items():
            if parent == current and child not in below:
                below[child] = parent
                frontier.append(child)
    return below


def roles(pid: int) -> dict[int, str]:
    """The server (`pid`) and its descendants by role: server, forkserver, worker (a child of the
    fork server), helper (a child of the worker), tracker (resource tracker), other."""
    named = {pid: "server"}
    below = descendants(pid)
    for child in sorted(below, key=lambda c: _depth(c, below)):  # parents before their children
        command, parent = _command(child), below[child]
        if "multiprocessing.forkserver" in command and named.get(parent) == "server":
            named[child] = "forkserver"
        elif "resource_tracker" in command:
            named[child] = "tracker"
        elif named.get(parent) == "forkserver":
            named[child] = "worker"
        elif named.get(parent) == "worker":
            named[child] = "helper"
        else:
            named[child] = "other"
    return named


def _depth(pid: int, parents: dict[int, int]) -> int:
    depth = 0
    while pid in parents:
        pid, depth = parents[pid], depth + 1
    return depth


def rss_mib(pid: int, field: str = "VmRSS") -> float | None:
    """The resident set of a process (VmHWM: its peak so far) in MiB; None once it is gone."""
    try:
        with open(f"/proc/{pid}/status") as handle:
            line = next((line for line in handle if line.startswith(f"{field}:")), None)
    except OSError:
        return None
    return int(line.split()[1]) / 1024 if line else None


def cpu_seconds(pid: int) -> float:
    """CPU time (user and system) of a process and all its descendants so far, those that ended
    included: each live process's own time plus what it has of the children it reaped."""
    total = 0
    for process in [pid, *descendants(pid)]:
        if (fields := _stat_fields(process)) is not None:
            total += sum(int(tick) for tick in fields[11:15])  # utime, stime, cutime, cstime
    return total / os.sysconf("SC_CLK_TCK")


def rss_by_role(pid: int, field: str = "VmRSS") -> dict[str, float]:
    """MiB per role (several processes of one role are added up), for the server and its descendants."""
    figures: dict[str, float] = {}
    for process, role in roles(pid).items():
        if (mib := rss_mib(process, field)) is not None:
            figures[role] = figures.get(role, 0.0) + mib
    return figures
