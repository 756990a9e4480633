"""Per-suit tables computed once at build time and mapped read-only by every process.

A suit's part of a hand depends only on its nine counts (the honours' on seven), so everything the
engine derives from one part alone is computed for every key a hand can hold (405,350 suit keys, 43,130
honour keys) by the same search the engine runs (by the build code `tablebuild`, outside the engine),
written into one binary file (`format`), and read in place from a shared read-only mapping (`loader`):
shanten summaries and group classes, the ranks that change a part's class (useful tiles), completeness
and the ranks that complete a part (waits, the single-wait fan), pair masks, and every split of a
complete suit (decompositions); and the wildcard need tables of `engine.wildcards` (how many wildcards a
part needs). The same file holds the MCR scoring tables (`engine.rules.mcr.tables`: the tile fans of
every packed tile-facts key, the pung combination fans of every two to four pung tiles), in sections of
their own.

The file's content comes in two parts, each with the digest of the sources it is computed from,
recorded by the build (tablebuild.sources): the per-suit part (minutes to build)
and the MCR part (seconds). The build also writes a stamp beside the file in the package
(`built.py`, `BUILT_PARTS`: the same digests, as constants); the MCR tables are read only when the
mapped file's MCR digest matches the stamp. No process hashes sources: an edited rule is caught by
the tests (tests/unit/test_tables.py compares the file with the sources) and fixed by `make`.

`TABLES` is the mapped file, loaded once at the first import (no I/O after that), or None when the
file is missing, switched off (`MJSVC_SUIT_TABLES=off`) or fails its checks; `PROBLEM` then says why
and the engine answers from its search and per-process memos instead (same answers, slower first
touches). Where the file comes from: setup.py's build writes `engine/tables/suits.bin` into the
package (`python -m tablebuild PATH` writes one anywhere).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from importlib import import_module
from types import MappingProxyType

from engine.tables.format import FILE_NAME
from engine.tables.loader import ENV, TableError, Tables, configured_path, open_tables

DEFAULT_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), FILE_NAME)  # inside the package


def _built_parts() -> Mapping[str, str]:
    """The build stamp (engine/tables/built.py, written by the builder): part -> source digest."""
    try:
        built = import_module(__name__ + ".built")
    except ImportError:
        return MappingProxyType({})
    return MappingProxyType(dict(built.PARTS))


BUILT_PARTS: Mapping[str, str] = _built_parts()


def _load() -> tuple[Tables | None, str]:
    path = configured_path(DEFAULT_PATH)
    if path is None:
        return None, f"switched off by {ENV}"
    try:
        return open_tables(path), ""
    except FileNotFoundError:
        return None, f"{path} not found (build it: python -m tablebuild {path})"
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
