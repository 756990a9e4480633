"""Per-suit tables computed once at build time and mapped read-only by every process.

A suit's part of a hand depends only on its nine counts (the honours' on seven), so everything the
engine derives from one part alone is computed for every key a hand can hold (405,350 suit keys,
43,130 honour keys) by the same search the engine runs (`builder`), written into one binary file
(`format`), and read in place from a shared read-only mapping (`loader`): shanten summaries and group
classes, the ranks that change a part's class (useful tiles), completeness and the ranks that complete
a part (waits, the single-wait fan), pair masks, and every split of a complete suit (decompositions);
and the wildcard need tables of `engine.wildcards` (how many wildcards a part needs). The same file
holds the MCR scoring tables (`engine.rules.mcr.tables`: the tile fans of every packed tile-facts key,
the pung combination fans of every two to four pung tiles), in sections of their own.

The file's content comes in two parts, each with the digest of the sources it is computed from
(`PART_SOURCES`, `part_digest`): the per-suit part (minutes to build) and the MCR part (seconds). The
build reuses a part whose digest is current (`builder`), so a change to the MCR scoring code rebuilds
the MCR sections only; the MCR tables are read only when their digest matches the sources this
process runs (checked at import, a hash of a few source files).

`TABLES` is the mapped file, loaded once at the first import (no I/O after that), or None when the
file is missing, switched off (`MJSVC_SUIT_TABLES=off`) or fails its checks; `PROBLEM` then says why
and the engine answers from its search and per-process memos instead (same answers, slower first
touches). Where the file comes from: setup.py's build writes `engine/tables/suits.bin` into the
package (`python -m engine.tables.builder PATH` writes one anywhere).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType

from engine.tables.format import FILE_NAME, PART_MCR, PART_SUITS
from engine.tables.loader import ENV, TableError, Tables, configured_path, open_tables

DEFAULT_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), FILE_NAME)  # inside the package

# The sources whose code decides each part's content (paths from the repository root; the encoding and
# the builder belong to both).
_COMMON_SOURCES = ("engine/tables/format.py", "engine/tables/builder.py")
PART_SOURCES: Mapping[str, tuple[str, ...]] = MappingProxyType({
    # the search, the wildcard need builders
    PART_SUITS: ("engine/tiles.py", "engine/shapes.py", "engine/analysis.py", "engine/wildcards.py",
                 *_COMMON_SOURCES),
    # the fan rules and what they read, the combination search, the fan ids, the MCR table encoding
    PART_MCR: ("engine/rules/mcr/predicates.py", "engine/rules/mcr/facts.py", "engine/rules/mcr/scoring.py",
               "engine/rules/mcr/fans.py", "engine/rules/mcr/tables.py", "engine/rules/mcr/tables_build.py",
               *_COMMON_SOURCES),
})


def part_digest(part: str) -> str:
    """SHA-256 over the sources of one part of the file (`PART_SOURCES`), names and contents."""
    root = Path(__file__).resolve().parent.parent.parent  # this __init__ is never compiled
    h = hashlib.sha256()
    for name in PART_SOURCES[part]:
        h.update(name.encode() + b"\0" + (root / name).read_bytes() + b"\0")
    return h.hexdigest()


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
