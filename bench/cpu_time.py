"""CPU time read from /proc: a server's process tree (the supervisor, its fork server and workers) and the
whole machine. The benches read it before and after a window to price a call in server CPU."""

from __future__ import annotations

import os
from pathlib import Path

from mjsvc.launcher import descendants


def process_tree_cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process and the processes below it that are still running."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    pids = [pid, *descendants(pid)]  # a server's workers are its fork server's children
    for p in pids:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
    return total


def machine_busy_seconds() -> float:
    """CPU seconds all cores have spent busy since boot (/proc/stat: everything but idle and iowait)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    return (sum(fields) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")
