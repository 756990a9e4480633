"""The file format of the precomputed per-suit tables (`suits.bin`), in one place.

Layout: `MAGIC` (8 bytes), the header length (4 bytes, little-endian), the header (UTF-8 JSON), zero
padding to a 64-byte boundary, then the sections, each starting on a 64-byte boundary. The header
names every section (offset from the start of the sections, length in bytes, item type as a
`memoryview.cast` code), the format version, the SHA-256 of everything after the header (checked when the
file is mapped), the digest of the sources the tables were computed from (the build skips a file
that is already current) and, in `parts`, the digest of each part's own sources (`PART_SUITS`: every
section but the MCR ones; `PART_MCR`: the sections named `mcr.*`, engine.rules.mcr.tables describes
them). Integers are little-endian: the file is mapped and read in place, so a big-endian machine
refuses it (`loader` checks the byte order).

A part key is the nine counts (0-4) of one suit, or the seven counts of the honours. Only keys with at
most `MAX_TILES` tiles are tabled (more never occur in a hand); each has a dense index: its position
among the tabled keys in lexicographic order, `index = offset[hi] + low_rank[sum(hi) * LOW_SPAN + lo]`
where `hi` is the base-5 number of the first four counts and `lo` that of the rest (see `KeyIndex`).

Packed per-key words (bit fields named below):
- `<part>.summary` (u64): what shanten reads, the analysis's `_info` tuple;
- `<part>.waits` (u64): completeness and the ranks that complete the part, pair masks, and where its
  splits are in `splits.sets`;
- `<part>.additions` (u32): where the part's additions (the ranks that change its class, grouped by
  the class they lead to) are in `additions.groups`, or `NOT_TABLED`.

The wildcard need tables (`wild.*`, engine.wildcards) are indexed differently, by the plain base-5
number of the counts (first rank most significant) over every key with counts 0-4, tabled or not
(5 ** 9 and 5 ** 7 bytes): the wildcard win check reads them at an index it computes with a few
multiplications and moves by place values, which a dense index would not allow. A byte holds the
wildcards a part needs to become sets only (low 4 bits) and sets and the pair (high 4 bits), each capped
at 15; a key of more than `MAX_TILES` tiles holds 0xFF. A file without these sections (written before
they existed) is still read: the engine then builds them per process.
"""

from __future__ import annotations

from typing import Final

MAGIC: Final = b"MJSVCTB\x01"
FORMAT_VERSION: Final = 1
ALIGN: Final = 64
FILE_NAME: Final = "suits.bin"

# The file's two parts (tablebuild.sources.PART_SOURCES): a section belongs to the MCR part when its name
# starts with `MCR_PREFIX`, else to the per-suit part.
PART_SUITS: Final = "suits"
PART_MCR: Final = "mcr"
MCR_PREFIX: Final = "mcr."

MAX_TILES: Final = 14  # most tiles one part of a hand can hold
HI_RANKS: Final = 4  # counts in the high half of a key's index
SUIT_RANKS: Final = 9
HONOR_RANKS: Final = 7

# Section names. `suit.*` and `honor.*` are per part key (dense index); the pools are shared.
SUIT: Final = "suit"
HONOR: Final = "honor"
KEY_OFFSET: Final = "key_offset"  # i32[5 ** HI_RANKS]: dense index of the first key with this high half
KEY_LOW_RANK: Final = "key_low_rank"  # i32[(MAX_TILES + 1) * 5 ** low ranks]: -1 where the key is not tabled
SUMMARY: Final = "summary"
WAITS: Final = "waits"
ADDITIONS: Final = "additions"
ADDITION_GROUPS: Final = "additions.groups"  # u16 pool: class id << 9 | rank mask, per group
SPLIT_SETS: Final = "splits.sets"  # u8 pool: SPLIT_WIDTH set codes per split, PAD after the last set
VECTORS: Final = "vectors"  # i8[n * VECTOR_LEN]: the group vector of each class id
COMBINE: Final = "combine"  # u8[n * n]: class id of the combination of two class ids
VECTOR_LEN: Final = 10
WILD_SUIT_NEED: Final = "wild.suit_need"  # u8[5 ** SUIT_RANKS]: wildcards a suit key needs, by base-5 index
WILD_HONOR_NEED: Final = "wild.honor_need"  # u8[5 ** HONOR_RANKS]: the same for the honours

# `summary` word: the analysis's per-part tuple (class id, pairs counting a four as two, pairs, orphan
# kinds present, orphan pair, knitted ranks present per residue 0/1/2, class id of the rest per residue).
CLASS_SHIFT: Final = 0  # 8 bits
PAIRS_QUAD_SHIFT: Final = 8  # 4 bits
PAIRS_SHIFT: Final = 12  # 4 bits
ORPHANS_SHIFT: Final = 16  # 4 bits
ORPHAN_PAIR_SHIFT: Final = 20  # 1 bit
KNIT_SHIFT: Final = 21  # 3 x 2 bits
KNIT_REST_SHIFT: Final = 27  # 3 x 8 bits

# `waits` word.
STATUS_SHIFT: Final = 0  # 2 bits: STATUS_SETS, STATUS_PAIR or STATUS_OPEN
TO_SETS_SHIFT: Final = 2  # 9-bit rank mask: one more copy leaves sets only
TO_PAIR_SHIFT: Final = 11  # 9-bit rank mask: one more copy leaves sets and one pair
ODD_SHIFT: Final = 20  # 9-bit rank mask: held an odd number of times
SINGLE_SHIFT: Final = 29  # 9-bit rank mask: held once
SPLIT_COUNT_SHIFT: Final = 38  # 6 bits
SPLIT_START_SHIFT: Final = 44  # 20 bits, in splits
STATUS_SETS: Final = 0
STATUS_PAIR: Final = 2
STATUS_OPEN: Final = 3

# `additions` word.
GROUP_COUNT_BITS: Final = 4
NOT_TABLED: Final = 0xFFFFFFFF

# A split set's code: kind * SET_CODE_BASE + rank offset (kinds as engine.shapes.SetKind: chow 1 ... pair 4).
SET_CODE_BASE: Final = 9
SPLIT_WIDTH: Final = 5
PAD: Final = 0xFF

MASK4: Final = 0xF
MASK8: Final = 0xFF
MASK9: Final = 0x1FF


def part_of(section: str) -> str:
    """Which part of the file a section belongs to."""
    return PART_MCR if section.startswith(MCR_PREFIX) else PART_SUITS


def low_span(ranks: int) -> int:
    return 5 ** (ranks - HI_RANKS)


def section_name(part: str, what: str) -> str:
    return f"{part}.{what}"
