"""The scheduling policy of every thread of a running process, read from /proc (Linux): what the tests of
`mjsvc.threads`' use in a server worker and in the table simulator look at."""

from __future__ import annotations

import os
from pathlib import Path


def policies(pid: int) -> dict[str, int]:
    """Thread name (with its id, `name/tid`) -> scheduling policy, for every thread of `pid` still running."""
    out = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            name = (task / "comm").read_text().strip()
            out[f"{name}/{task.name}"] = os.sched_getscheduler(int(task.name))
        except (OSError, ProcessLookupError):
            continue
    return out


def main_thread(got: dict[str, int], pid: int) -> str:
    """The key of the process's main thread (its id is the pid) in what `policies` returned."""
    return next(k for k in got if k.endswith(f"/{pid}"))
