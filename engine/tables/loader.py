"""Maps the per-suit tables file read-only and answers look-ups from it in place.

The file is opened once per process (at the first import of `engine.tables`) and mapped with `mmap`
read-only and shared: every worker process of a server maps the same file, so the operating system
keeps one physical copy of its pages for all of them, and nothing is built or copied per process
but a few small index lists. Its SHA-256 is checked when it is mapped; a file that is missing, of
another format version or damaged is not used (the engine then fills its per-process memos by search
as before, and `status()` says why).

Which file: `$MJSVC_SUIT_TABLES` if set (a path, or `off` to run without tables), else `suits.bin`
in the `engine.tables` package (written there by the build: setup.py). This module may be compiled, so
the package's `__init__` (interpreted) names that path, not this module's `__file__`.
"""

from __future__ import annotations

import hashlib
import json
import mmap
import os
import struct
import sys
from typing import Final

from engine.tables import format as F

ENV: Final = "MJSVC_SUIT_TABLES"

# The ranks set in each 9-bit mask, ascending.
MASK_RANKS: Final = tuple(tuple(r for r in range(9) if m >> r & 1) for m in range(512))


class SuitTable:
    """The tabled facts of one kind of part (the nine-rank suits or the seven honours), by key."""

    def __init__(self, ranks: int, offsets: list[int], low_ranks: list[int], summary: memoryview,
                 waits: memoryview, additions: memoryview, groups: memoryview, split_sets: bytes) -> None:
        self.ranks = ranks
        self.low_span = F.low_span(ranks)
        self.offsets = offsets
        self.low_ranks = low_ranks
        self.summary = summary
        self.waits = waits
        # The low 32 bits of each waits word (status and the completing-rank masks: format `waits`), at
        # 2 * index: a read that stays a small int in compiled code (the whole word may exceed 62 bits).
        self.waits_low: memoryview = waits.cast("B").cast("I")
        self.additions = additions
        self.groups = groups
        self.split_sets = split_sets
        self.size = len(summary)

    def index(self, key: tuple[int, ...]) -> int:
        """Dense index of a part key, or -1 if the key is not tabled (a count outside 0-4, more than
        MAX_TILES tiles, or a key of another length)."""
        n = len(key)
        if n != self.ranks:
            return -1
        hi = 0
        tiles = 0
        for r in range(F.HI_RANKS):
            c = key[r]
            if c < 0 or c > 4:
                return -1
            hi = hi * 5 + c
            tiles += c
        lo = 0
        for r in range(F.HI_RANKS, n):
            c = key[r]
            if c < 0 or c > 4:
                return -1
            lo = lo * 5 + c
        if tiles > F.MAX_TILES:
            return -1
        low = self.low_ranks[tiles * self.low_span + lo]
        if low < 0:
            return -1
        return self.offsets[hi] + low

    def index_at(self, counts: list[int], start: int) -> int:
        """`index` of the key `counts[start:start + ranks]`, read in place (no tuple built): -1 if not
        tabled (a count outside 0-4, more than MAX_TILES tiles, or fewer counts than ranks)."""
        if start < 0 or start + self.ranks > len(counts):
            return -1
        hi = 0
        tiles = 0
        end = start + F.HI_RANKS
        for r in range(start, end):
            c = counts[r]
            if c < 0 or c > 4:
                return -1
            hi = hi * 5 + c
            tiles += c
        lo = 0
        for r in range(end, start + self.ranks):
            c = counts[r]
            if c < 0 or c > 4:
                return -1
            lo = lo * 5 + c
        if tiles > F.MAX_TILES:
            return -1
        low = self.low_ranks[tiles * self.low_span + lo]
        if low < 0:
            return -1
        return self.offsets[hi] + low

    def part_summary(self, key: tuple[int, ...]) -> tuple[int, ...] | None:
        """The analysis's per-part summary (see format `summary`), or None if not tabled."""
        i = self.index(key)
        if i < 0:
            return None
        w: int = self.summary[i]
        return (w & F.MASK8, w >> F.PAIRS_QUAD_SHIFT & F.MASK4, w >> F.PAIRS_SHIFT & F.MASK4,
                w >> F.ORPHANS_SHIFT & F.MASK4, w >> F.ORPHAN_PAIR_SHIFT & 1,
                w >> F.KNIT_SHIFT & 3, w >> (F.KNIT_SHIFT + 2) & 3, w >> (F.KNIT_SHIFT + 4) & 3,
                w >> F.KNIT_REST_SHIFT & F.MASK8, w >> (F.KNIT_REST_SHIFT + 8) & F.MASK8,
                w >> (F.KNIT_REST_SHIFT + 16) & F.MASK8)

    def completions(self, key: tuple[int, ...]) -> tuple[int | None, tuple[int, ...], tuple[int, ...]] | None:
        """(status: 0 sets only, 2 sets and a pair, None not complete; ranks whose one more copy leaves
        sets only; ranks whose one more copy leaves sets and a pair), or None if not tabled."""
        i = self.index(key)
        if i < 0:
            return None
        w: int = self.waits[i]
        status = w & 3
        return (None if status == F.STATUS_OPEN else status, MASK_RANKS[w >> F.TO_SETS_SHIFT & F.MASK9],
                MASK_RANKS[w >> F.TO_PAIR_SHIFT & F.MASK9])

    def status(self, key: tuple[int, ...]) -> int:
        """STATUS_SETS, STATUS_PAIR, STATUS_OPEN, or -1 if not tabled."""
        i = self.index(key)
        if i < 0:
            return -1
        w: int = self.waits[i]
        return w & 3

    def completing_ranks(self, key: tuple[int, ...]) -> tuple[int, int] | None:
        """(rank mask leaving sets only, rank mask leaving sets and a pair) after one more copy."""
        i = self.index(key)
        if i < 0:
            return None
        w: int = self.waits[i]
        return (w >> F.TO_SETS_SHIFT & F.MASK9, w >> F.TO_PAIR_SHIFT & F.MASK9)

    def pair_masks(self, key: tuple[int, ...]) -> tuple[int, int] | None:
        """(rank mask of counts that are odd, rank mask of counts that are one), or None."""
        i = self.index(key)
        if i < 0:
            return None
        w: int = self.waits[i]
        return (w >> F.ODD_SHIFT & F.MASK9, w >> F.SINGLE_SHIFT & F.MASK9)

    def additions_of(self, key: tuple[int, ...]) -> tuple[int, tuple[tuple[int, tuple[int, ...]], ...]] | None:
        """(id shared by every key with the same groups, ((class id, ranks), ...)): the ranks whose one
        more copy changes the part's class, grouped by the class they lead to; None if not tabled."""
        i = self.index(key)
        if i < 0:
            return None
        w: int = self.additions[i]
        if w == F.NOT_TABLED:
            return None
        start = w >> F.GROUP_COUNT_BITS
        out = []
        for j in range(start, start + (w & F.MASK4)):
            g: int = self.groups[j]
            out.append((g >> 9, MASK_RANKS[g & F.MASK9]))
        return w, tuple(out)  # the word is unique to the groups' content (the pool is deduplicated)

    def split_codes(self, key: tuple[int, ...]) -> list[bytes] | None:
        """The part's splits into sets (one pair at most), each as its set codes (kind * 9 + rank),
        in the order `engine.shapes.suit_splits` gives them; None if not tabled."""
        i = self.index(key)
        if i < 0:
            return None
        w: int = self.waits[i]
        count = w >> F.SPLIT_COUNT_SHIFT & 0x3F
        start = (w >> F.SPLIT_START_SHIFT) * F.SPLIT_WIDTH
        sets = self.split_sets
        out = []
        for j in range(count):
            code = sets[start + j * F.SPLIT_WIDTH:start + (j + 1) * F.SPLIT_WIDTH]
            end = code.find(F.PAD)
            out.append(code if end < 0 else code[:end])
        return out


class Tables:
    """Everything in one mapped file. `wild_suit_need` / `wild_honor_need`: engine.wildcards' need
    tables (one byte per key, base-5 index: see format), read in place; None in a file written before
    they were part of it. `parts`: the source digest of each part of the file (format `PART_*`; empty
    in a file written before parts had their own); `mcr_sections`: the MCR part's sections by name,
    read in place (engine.rules.mcr.tables reads them)."""

    def __init__(self, path: str, size: int, sha256: str, sources: str, suits: SuitTable, honors: SuitTable,
                 vectors: list[tuple[int, ...]], combine: bytes, wild_suit_need: memoryview | None = None,
                 wild_honor_need: memoryview | None = None, parts: dict[str, str] | None = None,
                 mcr_sections: dict[str, memoryview] | None = None) -> None:
        self.path = path
        self.size = size
        self.sha256 = sha256
        self.sources = sources
        self.suits = suits
        self.honors = honors
        self.vectors = vectors
        self.combine = combine
        self.wild_suit_need = wild_suit_need
        self.wild_honor_need = wild_honor_need
        self.parts: dict[str, str] = parts or {}
        self.mcr_sections: dict[str, memoryview] = mcr_sections or {}


class TableError(Exception):
    """The file is not a usable tables file (says why)."""


def read_header(data: bytes | mmap.mmap | memoryview) -> tuple[dict, int]:
    """(header, where the sections start) of a tables file's bytes."""
    if bytes(data[:8]) != F.MAGIC:
        raise TableError("not a suit tables file (bad magic)")
    (length,) = struct.unpack("<I", bytes(data[8:12]))
    header = json.loads(bytes(data[12:12 + length]).decode())
    if header.get("format") != F.FORMAT_VERSION:
        raise TableError(f"format {header.get('format')}, this engine reads format {F.FORMAT_VERSION}")
    start = -(-(12 + length) // F.ALIGN) * F.ALIGN
    return header, start


def _section(view: memoryview, header: dict, start: int, name: str) -> memoryview:
    sec = header["sections"][name]
    part = view[start + sec["offset"]:start + sec["offset"] + sec["length"]]
    return part.cast(sec["type"]) if sec["type"] != "B" else part


def open_tables(path: str) -> Tables:
    """Map a tables file read-only and check it (magic, version, byte order, SHA-256)."""
    if sys.byteorder != "little":
        raise TableError("the tables file is little-endian and mapped in place")
    with open(path, "rb") as f:
        mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    view = memoryview(mm)
    header, start = read_header(mm)
    digest = hashlib.sha256(view[start:]).hexdigest()
    if digest != header["sha256"]:
        raise TableError(f"SHA-256 mismatch: {digest}, header says {header['sha256']}")
    groups = _section(view, header, start, F.ADDITION_GROUPS)
    split_sets = bytes(_section(view, header, start, F.SPLIT_SETS))  # small (~120 kB): a bytes object slices fastest
    parts = []
    for part, ranks in ((F.SUIT, F.SUIT_RANKS), (F.HONOR, F.HONOR_RANKS)):
        parts.append(SuitTable(
            ranks,
            _section(view, header, start, F.section_name(part, F.KEY_OFFSET)).tolist(),
            _section(view, header, start, F.section_name(part, F.KEY_LOW_RANK)).tolist(),
            _section(view, header, start, F.section_name(part, F.SUMMARY)),
            _section(view, header, start, F.section_name(part, F.WAITS)),
            _section(view, header, start, F.section_name(part, F.ADDITIONS)),
            groups, split_sets))
    flat = _section(view, header, start, F.VECTORS).tolist()
    vectors = [tuple(flat[i:i + F.VECTOR_LEN]) for i in range(0, len(flat), F.VECTOR_LEN)]
    combine = bytes(_section(view, header, start, F.COMBINE))
    wild: list[memoryview | None] = []
    for name, ranks in ((F.WILD_SUIT_NEED, F.SUIT_RANKS), (F.WILD_HONOR_NEED, F.HONOR_RANKS)):
        if name not in header["sections"]:  # a file from before the wildcard sections: built per process
            wild.append(None)
            continue
        sec = _section(view, header, start, name)
        if len(sec) != 5 ** ranks:
            raise TableError(f"section {name} holds {len(sec)} bytes, expected {5 ** ranks}")
        wild.append(sec)
    mcr = {name: _section(view, header, start, name) for name in header["sections"] if name.startswith(F.MCR_PREFIX)}
    return Tables(path, len(mm), digest, header["sources"], parts[0], parts[1], vectors, combine, wild[0], wild[1],
                  dict(header.get("parts", {})), mcr)


def configured_path(default: str) -> str | None:
    """The file this process should map (`default`: the package's own), or None when tables are
    switched off (`MJSVC_SUIT_TABLES=off`)."""
    value = os.environ.get(ENV, "")
    if value.lower() in ("off", "0", "none", "false"):
        return None
    return value or default
