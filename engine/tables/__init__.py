"""Per-suit tables computed once at build time and mapped read-only by every process.

A suit's part of a hand depends only on its nine counts (the honours' on seven), so everything the
engine derives from one part alone is computed for every key a hand can hold (405,350 suit keys,
43,130 honour keys) by the same search the engine runs (`builder`), written into one binary file
(`format`), and read in place from a shared read-only mapping (`loader`): shanten summaries and group
classes, the ranks that change a part's class (useful tiles), completeness and the ranks that complete
a part (waits, the single-wait fan), pair masks, and every split of a complete suit (decompositions);
and the wildcard need tables of `engine.wildcards` (how many wildcards a part needs).

`TABLES` is the mapped file, loaded once at the first import (no I/O after that), or None when the
file is missing, switched off (`MJSVC_SUIT_TABLES=off`) or fails its checks; `PROBLEM` then says why
and the engine answers from its search and per-process memos instead (same answers, slower first
touches). Where the file comes from: setup.py's build writes `engine/tables/suits.bin` into the
package (`python -m engine.tables.builder PATH` writes one anywhere).
"""

from __future__ import annotations

import os

from engine.tables.format import FILE_NAME
from engine.tables.loader import ENV, TableError, Tables, configured_path, open_tables

DEFAULT_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), FILE_NAME)  # inside the package


def _load() -> tuple[Tables | None, str]:
    path = configured_path(DEFAULT_PATH)
    if path is None:
        return None, f"switched off by {ENV}"
    try:
        return open_tables(path), ""
    except FileNotFoundError:
        return None, f"{path} not found (build it: python -m engine.tables.builder {path})"
    except (OSError, ValueError, KeyError, TableError) as e:
        return None, f"{path} not used: {e}"


TABLES, PROBLEM = _load()


def status() -> str:
    """One line for logs (the service logs it at start; the engine itself logs nothing): which tables
    file this process maps, or why none."""
    if TABLES is None:
        return f"suit tables not mapped: {PROBLEM}; the engine fills per-process memos by search instead"
    wild = "" if TABLES.wild_suit_need is not None else "; no wildcard need tables in it (built per process)"
    return (f"suit tables mapped read-only from {TABLES.path} ({TABLES.size / 1e6:.1f} MB, sha256 {TABLES.sha256[:12]})"
            + wild)
