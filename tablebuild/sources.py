"""The sources each part of the tables file is computed from, and their digests (build code: the builder
and the tests import it, no runtime module does; a serving process never hashes sources).

The file's content comes in two parts, each with the digest of the sources it is computed from: the
per-suit part (the search, the wildcard need builders) and the MCR part (the fan rules and what they
read). The builder records both in the file's header (`parts`) and in the build stamp beside it
(engine/tables/built.py, `engine.tables.BUILT_PARTS`); it reuses a part whose digest is current, so a
change to the MCR scoring code rebuilds the MCR sections only.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType

from engine.tables.format import PART_MCR, PART_SUITS

# The sources whose code decides each part's content (paths from the repository root; the encoding and
# the builder belong to both).
_COMMON_SOURCES = ("engine/tables/format.py", "tablebuild/builder.py")
PART_SOURCES: Mapping[str, tuple[str, ...]] = MappingProxyType({
    # the search, the wildcard need builders
    PART_SUITS: ("engine/tiles.py", "engine/shapes.py", "engine/analysis.py", "engine/wildcards.py",
                 *_COMMON_SOURCES),
    # the fan rules and what they read, the combination search, the fan ids, the MCR table encoding
    PART_MCR: ("engine/rules/mcr/predicates.py", "engine/rules/mcr/facts.py", "engine/rules/mcr/scoring.py",
               "engine/rules/mcr/fans.py", "engine/rules/mcr/tables.py", "tablebuild/mcr.py",
               *_COMMON_SOURCES),
})


def part_digest(part: str) -> str:
    """SHA-256 over the sources of one part of the file (`PART_SOURCES`), names and contents."""
    root = Path(__file__).resolve().parent.parent  # beside engine/, installed or in a checkout
    h = hashlib.sha256()
    for name in PART_SOURCES[part]:
        h.update(name.encode() + b"\0" + (root / name).read_bytes() + b"\0")
    return h.hexdigest()


def source_digest() -> str:
    """The digest of every source the file's content comes from: the digests of its parts, in order."""
    h = hashlib.sha256()
    for part in (PART_SUITS, PART_MCR):
        h.update(part.encode() + b"\0" + part_digest(part).encode() + b"\0")
    return h.hexdigest()
