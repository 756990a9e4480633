"""Builds the per-suit tables file: the engine's own search run on every part key, written once.

    python -m tablebuild [PATH] [--if-stale]

PATH defaults to `suits.bin` in the `engine.tables` package (where the engine looks for it); `--if-stale` keeps a
file whose recorded source digest matches the sources the tables are computed from (setup.py's build
passes it). Rewriting a file whose per-suit part is current (its `parts` digest, format.py) copies
that part's sections from it and computes the MCR part only (tablebuild.mcr: a few seconds
instead of minutes); the result is the same bytes as a build from nothing. The output is
deterministic: the same sources give the same bytes (keys in lexicographic order, class ids in the
order the search first meets them, JSON header with sorted keys), and its SHA-256 is recorded in the
header and checked by every process that maps it.

The search must not read an existing tables file while it builds one: the build runs with
`MJSVC_SUIT_TABLES=off` (`main` re-runs itself that way if needed).
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
import subprocess
import sys
import time
from array import array
from itertools import product

from engine.tables import DEFAULT_PATH
from engine.tables import format as F
from engine.tables.loader import ENV, read_header
from tablebuild.sources import part_digest, source_digest

__all__ = ["build", "is_current", "main", "part_keys", "source_digest", "write", "write_stamp"]

PACKAGE_DIR = os.path.dirname(DEFAULT_PATH)  # engine/tables: where the engine looks for the file
STAMP = "built.py"  # the build stamp, beside the tables file in the package


def part_keys(ranks: int) -> list[tuple[int, ...]]:
    """Every tabled key of a part with this many ranks, in dense-index (lexicographic) order."""
    return [k for k in product(range(5), repeat=ranks) if sum(k) <= F.MAX_TILES]


def key_index_lists(ranks: int) -> tuple[array, array]:
    """The two index lists of `KeyIndex`: the dense index of the first key of each high half, and the
    rank of each low half among those that fit with a high half holding `t` tiles (-1: none)."""
    lows = list(product(range(5), repeat=ranks - F.HI_RANKS))
    span = len(lows)
    low_rank = array("i", [-1] * ((F.MAX_TILES + 1) * span))
    for t in range(F.MAX_TILES + 1):
        n = 0
        for j, lo in enumerate(lows):
            if sum(lo) <= F.MAX_TILES - t:
                low_rank[t * span + j] = n
                n += 1
    offsets = array("i")
    start = 0
    for hi in product(range(5), repeat=F.HI_RANKS):
        offsets.append(start)
        t = sum(hi)
        if t <= F.MAX_TILES:
            start += sum(1 for lo in lows if sum(lo) <= F.MAX_TILES - t)
    return offsets, low_rank


def _mask(ranks: tuple[int, ...]) -> int:
    return sum(1 << r for r in ranks)


def _pack_summary(info: tuple[int, ...]) -> int:
    cid, pairs_quad, pairs, orphans, orphan_pair, k0, k1, k2, r0, r1, r2 = info
    assert cid <= F.MASK8 and pairs_quad <= F.MASK4 and pairs <= F.MASK4 and orphans <= F.MASK4
    return (cid | pairs_quad << F.PAIRS_QUAD_SHIFT | pairs << F.PAIRS_SHIFT | orphans << F.ORPHANS_SHIFT
            | orphan_pair << F.ORPHAN_PAIR_SHIFT | k0 << F.KNIT_SHIFT | k1 << (F.KNIT_SHIFT + 2)
            | k2 << (F.KNIT_SHIFT + 4) | r0 << F.KNIT_REST_SHIFT | r1 << (F.KNIT_REST_SHIFT + 8)
            | r2 << (F.KNIT_REST_SHIFT + 16))


def build(previous: str | None = None) -> tuple[bytes, dict]:
    """The file's bytes, and its header. `previous`: an existing file whose per-suit part is reused
    if its recorded digest is current (else, or None: computed)."""
    from tablebuild import mcr as mcr_tables

    reused = _current_suit_part(previous) if previous else None
    sections, counts = reused if reused is not None else _suit_part()
    sections.update(mcr_tables.build_sections())
    return _assemble(sections, counts)


def _current_suit_part(path: str) -> tuple[dict[str, tuple[str, bytes]], dict[str, int]] | None:
    """The per-suit sections (name -> (type code, bytes), in the order a build writes them) and counts
    of an existing file, if it is intact and its per-suit part was computed from the current sources."""
    try:
        with open(path, "rb") as f:
            data = f.read()
        header, start = read_header(data)
    except Exception:  # missing, unreadable, or not a tables file of this format
        return None
    if header.get("parts", {}).get(F.PART_SUITS) != part_digest(F.PART_SUITS):
        return None
    if hashlib.sha256(data[start:]).hexdigest() != header["sha256"]:
        return None
    layout = header["sections"]
    names = sorted((n for n in layout if F.part_of(n) == F.PART_SUITS), key=lambda n: layout[n]["offset"])
    sections = {n: (layout[n]["type"], data[start + layout[n]["offset"]:start + layout[n]["offset"]
                                          + layout[n]["length"]]) for n in names}
    return sections, dict(header["counts"])


def _suit_part() -> tuple[dict[str, tuple[str, bytes]], dict[str, int]]:
    """The per-suit sections (name -> (type code, bytes)) and counts, computed by the engine's search."""
    from engine import analysis as A
    from engine import shapes as S
    from engine import wildcards as W

    if os.environ.get(ENV, "").lower() != "off" or A._VECS:
        raise RuntimeError(f"build with {ENV}=off: the search must not start from a mapped tables file")
    groups_pool = array("H")
    group_starts: dict[tuple[int, ...], int] = {}
    split_pool = bytearray()
    split_starts: dict[tuple[tuple[tuple[int, int], ...], ...], int] = {}
    sections: dict[str, tuple[str, bytes]] = {}
    for part, ranks in ((F.SUIT, F.SUIT_RANKS), (F.HONOR, F.HONOR_RANKS)):
        keys = part_keys(ranks)
        offsets, low_rank = key_index_lists(ranks)
        summary, waits, additions = array("Q"), array("Q"), array("I")
        for key in keys:
            summary.append(_pack_summary(A._info_dfs(key)))
            status, to_sets, to_pair = A._completions_dfs(key)
            odd, single = A._pair_masks(key)
            word = ((F.STATUS_OPEN if status is None else status) | _mask(to_sets) << F.TO_SETS_SHIFT
                    | _mask(to_pair) << F.TO_PAIR_SHIFT | odd << F.ODD_SHIFT | single << F.SINGLE_SHIFT)
            if part == F.SUIT and key in S.COMPLETE_SUITS:  # other keys have no split (the tests check all)
                splits = S._suit_splits_dfs(key)  # type: ignore[arg-type]
                start = split_starts.get(splits)
                if start is None:
                    start = split_starts[splits] = len(split_pool) // F.SPLIT_WIDTH
                    for split in splits:
                        code = bytes(int(k) * 9 + r for k, r in split)
                        split_pool += code + bytes([F.PAD]) * (F.SPLIT_WIDTH - len(code))
                assert len(splits) < 64 and start < 1 << 20
                word |= len(splits) << F.SPLIT_COUNT_SHIFT | start << F.SPLIT_START_SHIFT
            waits.append(word)
            if sum(key) < F.MAX_TILES:  # useful tiles are asked of 13-tile hands: parts of 13 tiles at most
                groups = tuple(cid << 9 | _mask(rs) for cid, rs in A._plus_dfs(key))
                start = group_starts.get(groups)
                if start is None:
                    start = group_starts[groups] = len(groups_pool)
                    groups_pool.extend(groups)
                assert len(groups) <= F.MASK4 and start < 1 << (32 - F.GROUP_COUNT_BITS)
                additions.append(start << F.GROUP_COUNT_BITS | len(groups))
            else:
                additions.append(F.NOT_TABLED)
        sections[F.section_name(part, F.KEY_OFFSET)] = ("i", offsets.tobytes())
        sections[F.section_name(part, F.KEY_LOW_RANK)] = ("i", low_rank.tobytes())
        sections[F.section_name(part, F.SUMMARY)] = ("Q", summary.tobytes())
        sections[F.section_name(part, F.WAITS)] = ("Q", waits.tobytes())
        sections[F.section_name(part, F.ADDITIONS)] = ("I", additions.tobytes())
    # Every class two parts can combine into, so that combining never meets a new one at run time.
    n = 0
    while n != len(A._VECS):
        n = len(A._VECS)
        for a in range(n):
            for b in range(n):
                A._c(a, b)
    n = len(A._VECS)
    assert n <= F.MASK8 + 1
    sections[F.VECTORS] = ("b", array("b", [v for vec in A._VECS for v in vec]).tobytes())
    sections[F.COMBINE] = ("B", bytes(A._c(a, b) for a in range(n) for b in range(n)))
    sections[F.ADDITION_GROUPS] = ("H", groups_pool.tobytes())
    sections[F.SPLIT_SETS] = ("B", bytes(split_pool))
    # The wildcard need tables: engine.wildcards' own builders (what a process without them builds).
    sections[F.WILD_SUIT_NEED] = ("B", W.build_suit_need_table())
    sections[F.WILD_HONOR_NEED] = ("B", W.build_honor_need_table())
    return sections, {"classes": n, "suit_keys": len(part_keys(F.SUIT_RANKS)),
                      "honor_keys": len(part_keys(F.HONOR_RANKS))}


def _assemble(sections: dict[str, tuple[str, bytes]], counts: dict[str, int]) -> tuple[bytes, dict]:
    def align(n: int) -> int:
        return -(-n // F.ALIGN) * F.ALIGN

    layout: dict[str, dict[str, int | str]] = {}
    offsets: list[int] = []
    rel = 0
    for name, (code, data) in sections.items():
        layout[name] = {"type": code, "offset": rel, "length": len(data)}
        offsets.append(rel)
        rel = align(rel + len(data))
    payload = bytearray(rel)
    for at, (_, data) in zip(offsets, sections.values(), strict=True):
        payload[at:at + len(data)] = data
    header = {"format": F.FORMAT_VERSION, "sources": source_digest(), "counts": counts,
              "parts": {part: part_digest(part) for part in (F.PART_SUITS, F.PART_MCR)},
              "sha256": hashlib.sha256(payload).hexdigest(), "sections": layout}
    text = json.dumps(header, sort_keys=True, separators=(",", ":")).encode()
    start = align(12 + len(text))
    head = F.MAGIC + struct.pack("<I", len(text)) + text
    return head + bytes(start - len(head)) + bytes(payload), header


def write(path: str) -> dict:
    """Build and write the file atomically (a reader never sees a half-written one); its header. A
    file already at `path` lends its per-suit part if that is current."""
    data, header = build(path)
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)
    return header


def is_current(path: str) -> bool:
    try:
        with open(path, "rb") as f:
            header, _ = read_header(f.read(1 << 16))
    except Exception:  # missing, unreadable, or not a tables file of this format
        return False
    return header.get("sources") == source_digest()


def write_stamp(path: str) -> str | None:
    """The build stamp (`engine.tables.BUILT_PARTS`): the part digests recorded in the file at `path`,
    written as a module beside it when that is the package's own file (elsewhere, a file named by
    MJSVC_SUIT_TABLES, no stamp: the package's stamp, if any, is what that file is compared with).
    Returns the stamp's path, or None."""
    if os.path.dirname(os.path.abspath(path)) != PACKAGE_DIR:
        return None
    with open(path, "rb") as f:
        header, _ = read_header(f.read(1 << 16))
    parts = sorted(header.get("parts", {}).items())
    target = os.path.join(PACKAGE_DIR, STAMP)
    text = ('"""Written by tablebuild with suits.bin beside it (git-ignored): the digest of the sources\n'
            'each part of that file was computed from, compared at import with the digests the file records."""\n\n'
            f"PARTS = {tuple(parts)!r}\n")
    if os.path.exists(target):
        with open(target) as f:
            if f.read() == text:
                return target  # unchanged: its time stays (make compares it with the build's)
    tmp = f"{target}.tmp{os.getpid()}"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, target)
    return target


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if_stale = "--if-stale" in args
    rest = [a for a in args if a != "--if-stale"]
    path = os.path.abspath(rest[0] if rest else DEFAULT_PATH)
    if if_stale and is_current(path):
        write_stamp(path)
        print(f"suit tables: {path} is current")
        return 0
    if os.environ.get(ENV, "").lower() != "off":  # the search must start empty: a fresh interpreter
        env = dict(os.environ, **{ENV: "off"})
        return subprocess.call([sys.executable, "-m", "tablebuild", path], env=env)
    t0 = time.perf_counter()
    header = write(path)
    write_stamp(path)
    print(f"suit tables: wrote {path} ({os.path.getsize(path) / 1e6:.1f} MB, {header['counts']['classes']} classes, "
          f"sha256 {header['sha256'][:12]}) in {time.perf_counter() - t0:.1f} s")
    return 0

