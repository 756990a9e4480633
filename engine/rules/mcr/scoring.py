"""The scoring mechanism: every decomposition scored, the five principles applied, the best chosen.

How the five principles of the MCR rules are applied (as mechanism, not per-fan cases):
- non-repeat (不重复) and highest-first (就高不就低): the mechanism every rule set shares
  (engine.rules.principles) over fans.py's data: a counted fan removes every fan in its
  `excludes`; fans are visited from the highest value down, and a fan that was itself excluded
  removes nothing (so Nine Gates removing Fully Concealed Hand leaves Self-Drawn counted).
  `excludes_on_sets` applies the same per set: a prevalent-wind pung is no longer a pung of terminals.
- non-separation (不拆移) and non-identical (不得相同): combination fans are looked for from four
  sets down to two (`combinations`): a four-set fan ends the search for that family; a three-set
  fan takes its three sets, and the set left over may join one of them once.
- account-once (套算一次): among two-set fans, each set may be combined with the others only as a
  chain, so at most (sets taking part - 1) two-set fans count; over that cap, repeats go first, from
  the least specific fan (Two Terminal Chows, Short Straight, Mixed Double Chow, Pure Double Chow).

Speed (see the package docstring): the exclusions are table reads by fan id (engine.rules.principles);
combination fans are read by the sorted tiles of the family's sets (`_combinations_by_position`): chows
from a dict built at import (`_CHOW_COMBINATIONS`, from the tables file), pungs from the install-time
tables file (engine.rules.mcr.tables) in place, both answering every key. The search behind them
(`_search_combinations`, and below it `_matching` per two to four set tiles) runs when the file is built,
and otherwise only in a process without it (the chows at import, the pungs memoized as they come). No
memo is keyed on a whole hand: that is the service cache's job.

Decompositions tie on total rarely; the tie-break is documented in `rank` and follows the
oracle's own order so that fan names agree: special shapes first, then standard decompositions in
canonical order of their concealed sets (suits in the order characters, bamboo, dots, honours;
a pung before a chow on the same tile), then edge > closed > single wait, then the position of
the winning tile.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from itertools import combinations as _subsets
from itertools import combinations_with_replacement as _multisets
from math import comb
from typing import Any, Final

from engine.errors import BadContextError, ContradictoryContextError
from engine.hand import ClaimedFrom, Hand, WinContext
from engine.registry import REGISTRY
from engine.results import Evaluation, FanHit, Scoring
from engine.rules.mcr import predicates as P
from engine.rules.mcr import rulebook
from engine.rules.mcr import tables as mcr_tables
from engine.rules.mcr.facts import STANDARD, HandFacts, SetFacts
from engine.rules.mcr.fans import BY_ID, TABLE, Fan
from engine.rules.mcr.options import McrConvention, McrOptions
from engine.rules.model import Scope
from engine.rules.principles import Principles
from engine.shapes import Decomposition, ShapeKind, decompositions
from engine.tile_kinds import DRAGONS, NUM_KINDS, SUITED, WINDS, is_suited, offset_in_suit, rank_of, suit_of

# The exclusions of the table, applied by the mechanism every rule set shares.
PRINCIPLES: Final = Principles(TABLE.rows)
# The fan table read by fan id where every decomposition is scored: lists indexed by id (a list read
# costs less than a dict look-up once compiled); None / 0 at ids the table does not use.
_ID_RANGE: Final = range(max(BY_ID) + 1)
_DEF_OF: Final = [BY_ID.get(fid) for fid in _ID_RANGE]
_POINTS_OF: Final = [BY_ID[fid].points if fid in BY_ID else 0 for fid in _ID_RANGE]
# Fans about the situation rather than the tiles: they point at the winning tile.
_SITUATIONAL: Final = frozenset([int(row.id) for row in TABLE.rows if row.scope is Scope.SITUATION])
# Sort key of a tile in the oracle's order (characters, bamboo, dots, honours).
_SUIT_ORDER: Final = (0, 2, 1, 3)
TILE_KEY: Final = tuple(_SUIT_ORDER[suit_of(t)] * 16 + offset_in_suit(t) for t in range(NUM_KINDS))
# `combinations` sorts a family's sets as ints: the tile's key, then the set index in the low bits.
KEY_TILE: Final = tuple(TILE_KEY.index(k) if k in TILE_KEY else -1 for k in range(max(TILE_KEY) + 1))
_INDEX_BITS: Final = 4  # a decomposition has at most 14 sets
_INDEX_MASK: Final = (1 << _INDEX_BITS) - 1
_WAIT_RANK: Final = {int(Fan.EDGE_WAIT): 0, int(Fan.CLOSED_WAIT): 1, int(Fan.SINGLE_WAIT): 2}
CHICKEN: Final = int(Fan.CHICKEN_HAND)
_FLOWER_TILES: Final = int(Fan.FLOWER_TILES)
_PURE_TERMINAL_CHOWS: Final = int(Fan.PURE_TERMINAL_CHOWS)
_THREE_SUITED_TERMINAL_CHOWS: Final = int(Fan.THREE_SUITED_TERMINAL_CHOWS)
_PURE_TRIPLE_CHOW: Final = int(Fan.PURE_TRIPLE_CHOW)
_TRIPLE_PUNG: Final = int(Fan.TRIPLE_PUNG)

Hits = list[tuple[int, ...]]


def _pung_partners(t: int) -> int:
    """Bit mask of the other tiles whose pung can form a pung fan with a pung of `t`: every pung fan
    is made of suited pungs at most two ranks apart, of winds, or of dragons."""
    out = 0
    for u in range(34):
        if u == t:
            continue
        suited = is_suited(t) and is_suited(u) and abs(rank_of(t) - rank_of(u)) <= 2
        if suited or (t in WINDS and u in WINDS) or (t in DRAGONS and u in DRAGONS):
            out |= 1 << u
    return out


_PUNG_PARTNERS: Final = tuple(_pung_partners(t) for t in range(34))


def combinations(family: str, members: list[tuple[int, int]]) -> list[tuple[int, tuple[int, ...]]]:
    """Combination fans among one family's sets. members: (tile, set index). Returns (fan id, set indices)."""
    if len(members) < 2:
        return []
    if family == "pung":
        # A pung with no possible partner takes part in no pung fan and changes nothing for the
        # others (the search keeps their relative order), so it leaves the memo key: fewer keys.
        held = 0
        for t, _ in members:
            held |= 1 << t
        members = [m for m in members if _PUNG_PARTNERS[m[0]] & held]
        if len(members) < 2:
            return []
    # by the oracle's tile order, equal tiles in set order; the memo is keyed on the sorted tiles.
    # Each member as one int (tile key, then set index: `_ORDERED`), so the sort compares plain ints.
    ordered = [TILE_KEY[t] << _INDEX_BITS | i for t, i in members]
    ordered.sort()
    key = tuple([KEY_TILE[m >> _INDEX_BITS] for m in ordered])
    found = _CHOW_COMBINATIONS.get(key, ()) if family == "chow" else _combinations_by_position(family, key)
    if not found:
        return []
    return [(fid, tuple(sorted([ordered[p] & _INDEX_MASK for p in pos]))) for fid, pos in found]


@REGISTRY.memo("mcr.scoring.matching")
@cache
def _matching(family: str, tiles: tuple[int, ...]) -> tuple[int, ...]:
    """The combination fans of this family and arity that hold for these sets, in the order tried.
    Keyed on two, three or four set tiles, so it fills quickly and is shared by many hands."""
    return tuple(fid for fid, rule in P.COMBOS[family][len(tiles)] if rule(tiles))


Combinations = tuple[tuple[int, tuple[int, ...]], ...]  # (fan id, positions among the sorted set tiles)

# The pung combinations of the tables file (engine.rules.mcr.tables), None without it.
_PUNG_TABLE: Final = mcr_tables.PUNG_COMBINATION_TABLE
_KINDS: Final = 34
# A tile's position in the oracle's order (`TILE_KEY` ascending), 0-33.
_ORACLE_POSITION: Final = tuple(sorted(TILE_KEY).index(TILE_KEY[t]) for t in range(_KINDS))
# C(p, k) at [k * _KINDS + p], k 1-4; and where the combinations of n tiles start, n 2-4.
_BINOMIAL: Final = [comb(p, k) for k in range(5) for p in range(_KINDS)]
_FIRST_OF_SIZE: Final = (0, 0, 0, comb(_KINDS, 2), comb(_KINDS, 2) + comb(_KINDS, 3))


def pung_combination_index(tiles: tuple[int, ...]) -> int:
    """The number of a set of two to four distinct tiles sorted in the oracle's order, in
    range(mcr_tables.PUNG_COMBINATION_KEYS); -1 for anything else (repeated or unsorted tiles, another
    size). The combinations of n tiles follow those of fewer, each numbered by its positions
    p0 < p1 < ... in the oracle's order as sum(C(p_i, i + 1)) (the combinatorial number system)."""
    n = len(tiles)
    if n < 2 or n > 4:
        return -1
    index: int = _FIRST_OF_SIZE[n]
    last = -1
    for i in range(n):
        t = tiles[i]
        if t < 0 or t >= _KINDS:
            return -1
        p = _ORACLE_POSITION[t]
        if p <= last:
            return -1
        index += _BINOMIAL[(i + 1) * _KINDS + p]
        last = p
    return index


def pung_combination_keys() -> Iterator[tuple[int, ...]]:
    """Every key of the pung combinations table: two to four distinct tiles, sorted in the oracle's order."""
    ordered = sorted(range(_KINDS), key=TILE_KEY.__getitem__)
    for n in (2, 3, 4):
        yield from _subsets(ordered, n)


def _combinations_by_position(family: str, tiles: tuple[int, ...]) -> Combinations:
    """The combination fans of sorted set tiles (two to four), as positions: pungs from the tables file
    (every set of distinct tiles; a hand holds no two pungs of one kind), otherwise by the search,
    memoized (`_searched_combinations`)."""
    if family == "pung":
        table = _PUNG_TABLE
        if table is not None:
            index = pung_combination_index(tiles)
            if index >= 0:
                return table.answer(index)
    return _searched_combinations(family, tiles)


@REGISTRY.memo("mcr.scoring.searched_combinations")
@cache
def _searched_combinations(family: str, tiles: tuple[int, ...]) -> Combinations:
    """`_search_combinations`, memoized (a process without the tables file)."""
    return _search_combinations(family, tiles)


def _search_combinations(family: str, tiles: tuple[int, ...]) -> Combinations:
    """The combination fans of sorted set tiles, as positions, by search over their subsets."""
    n = len(tiles)
    idx = tuple(range(n))
    if n == 4:
        for fid in _matching(family, tiles)[:1]:
            return ((fid, idx),)
    if n >= 3:
        for trio in _subsets(range(n), 3):
            for fid in _matching(family, tuple(tiles[i] for i in trio))[:1]:
                out = [(fid, tuple(idx[i] for i in trio))]
                rest = [i for i in range(n) if i not in trio]
                if rest:  # the leftover set joins one of the three, once, best fan first
                    j = rest[0]
                    for pid, _ in P.COMBOS[family][2]:
                        partner = next((i for i in trio if pid in _matching(family, _pair(tiles, i, j))), None)
                        if partner is not None:
                            out.append((pid, tuple(sorted((idx[partner], idx[j])))))
                            break
                return tuple(out)
    found: list[tuple[int, tuple[int, ...]]] = []
    for i, j in _subsets(range(n), 2):
        for fid in _matching(family, (tiles[i], tiles[j]))[:1]:
            found.append((fid, (idx[i], idx[j])))
    taking_part = {k for _, pair in found for k in pair}
    return tuple(_account_once(found, len(taking_part) - 1, [fid for fid, _ in P.COMBOS[family][2]]))


def chow_combination_keys() -> Iterator[tuple[int, ...]]:
    """Every key of the chow combinations table: two to four chows by their first tiles (repeats allowed),
    sorted in the oracle's order, 12,628 keys in a fixed order (the tables file numbers them so)."""
    starts = sorted((t for t in SUITED if rank_of(t) <= 7), key=TILE_KEY.__getitem__)
    for n in (2, 3, 4):
        yield from _multisets(starts, n)  # in `starts` order, so sorted


def _chow_combinations() -> dict[tuple[int, ...], Combinations]:
    """The combination fans of every two to four chows (sorted tiles; keys without a fan left out), built
    once at import like shapes.COMPLETE_SUITS, so no hand ever misses: read from the tables file
    (engine.rules.mcr.tables) where it is, else found by search (~0.3 s)."""
    tabled = mcr_tables.CHOW_COMBINATION_TABLE
    table = {}
    for number, tiles in enumerate(chow_combination_keys()):
        found = tabled.answer(number) if tabled is not None else _search_combinations("chow", tiles)
        if found:
            table[tiles] = found
    return table


def _pair(tiles: tuple[int, ...], i: int, j: int) -> tuple[int, int]:
    return (tiles[i], tiles[j]) if i < j else (tiles[j], tiles[i])


def _account_once(found: list[tuple[int, tuple[int, ...]]], cap: int,
                  priority: list[int]) -> list[tuple[int, tuple[int, ...]]]:
    """Keep at most `cap` two-set fans: drop repeats, then singles, least specific fan first."""
    found = list(found)
    for keep in (1, 0):
        for fid in reversed(priority):
            while len(found) > cap and sum(1 for f, _ in found if f == fid) > keep:
                last = max(k for k, (f, _) in enumerate(found) if f == fid)
                del found[last]
    return found


def _raw_hits(h: HandFacts, hand_hits: tuple[tuple[int, int], ...], sf: SetFacts) -> dict[int, Hits]:
    whole = sf.all_sets
    raw: dict[int, Hits] = {fid: [whole] if n == 1 else [whole] * n for fid, n in hand_hits}
    for fid, rule in P.set_rules_for.get(sf.features):
        hits = rule(h, sf)
        if hits:
            raw[fid] = hits
    if sf.features & STANDARD:
        # the terminal-chow hands are their own chow combination
        if len(sf.chows) >= 2 and not (_PURE_TERMINAL_CHOWS in raw or _THREE_SUITED_TERMINAL_CHOWS in raw):
            for fid, sets in combinations("chow", sf.chows):
                raw.setdefault(fid, []).append(sets)
        if len(sf.pungs) >= 2:
            for fid, sets in combinations("pung", [(p.tile, p.set_index) for p in sf.pungs]):
                raw.setdefault(fid, []).append(sets)
    return raw


# Situational fans scored once point at the winning tile: every such FanHit, built once, by fan id and
# winning tile (None: not a situational fan).
_SITUATION_HITS: Final = [tuple(FanHit(BY_ID[fid], 1, (), (t,)) for t in range(34)) if fid in _SITUATIONAL else None
                          for fid in _ID_RANGE]


def score_decomposition(h: HandFacts, hand_hits: tuple[tuple[int, int], ...], d: Decomposition,
                        by_rulebook: bool = False) -> Scoring:
    """One decomposition scored, under the Chinese convention or (`by_rulebook`) the English rulebook's
    (engine.rules.mcr.rulebook: its table and one step on the raw hits), with its payments."""
    sf = SetFacts(d, h)
    if by_rulebook:
        fans = rulebook.PRINCIPLES_RULEBOOK.apply(rulebook.adjust(_raw_hits(h, hand_hits, sf)))
        defs = rulebook.DEF_OF
        points = rulebook.POINTS_OF
    else:
        fans = PRINCIPLES.apply(_raw_hits(h, hand_hits, sf))
        defs = _DEF_OF  # a FanHit is built per fan found: a compiled constructor costs less than interning
        points = _POINTS_OF
    if not fans:
        fans = {CHICKEN: [sf.all_sets]}
    win = h.win
    knitted = d.knitted
    has_sets = bool(d.sets)
    situational = _SITUATION_HITS
    out: list[FanHit] = []
    base = 0
    for fid, hits in fans.items():
        n = len(hits)
        fan = defs[fid]
        assert fan is not None
        situation_hits = situational[fid]
        if situation_hits is not None:
            out.append(situation_hits[win] if n == 1 else FanHit(fan, n, (), (win,)))
        elif not has_sets:
            out.append(FanHit(fan, n, (), knitted))
        elif n == 1:  # a hit lists its sets in set order already
            out.append(FanHit(fan, 1, hits[0], knitted))
        else:
            out.append(FanHit(fan, n, tuple(sorted({k for hit in hits for k in hit})), knitted))
        base += points[fid] * n
    flowers = h.flowers
    if flowers:
        out.append(FanHit(BY_ID[_FLOWER_TILES], flowers, (), ()))
    total = base + flowers
    if base < 8:  # below the minimum: not a legal win, nobody pays
        return Scoring(tuple(out), total, False, d)
    ctx = h.ctx
    return Scoring(tuple(out), total, True, d, payments=payments(total, ctx.seat_wind, h.self_drawn, ctx.discarded_by))


# The competition rule's base (engine.rules.mcr.payments), and by ClaimedFrom value (NONE, LEFT, ACROSS, RIGHT)
# how many seats after the winner's, in turn order, the discarder sits.
_BASE: Final = 8
_DISCARDER_OFFSET: Final = (0, 3, 2, 1)


def payments(total: int, winner: int, self_drawn: bool, discarded_by: int) -> tuple[tuple[int, int], ...]:
    """Every seat's signed change for a win worth `total` (flowers included), as (seat wind value, amount),
    East first, summing to zero (the rule and its source: engine.rules.mcr.payments). Self-drawn: each of
    the three pays total + 8; on a discard: the discarder total + 8, the other two 8 each; () when a win on a
    discard names no discarder (`discarded_by` 0)."""
    if self_drawn:
        each = total + _BASE
        return tuple([(w, 3 * each if w == winner else -each) for w in range(4)])
    if discarded_by == 0:
        return ()
    discarder = (winner + _DISCARDER_OFFSET[discarded_by]) % 4
    won = total + 3 * _BASE
    return tuple([(w, won if w == winner else -(total + _BASE) if w == discarder else -_BASE) for w in range(4)])


def _division_key(d: Decomposition) -> tuple[int, ...]:
    """Canonical order of a decomposition's concealed sets (suits m, s, p, honours; pung before chow):
    each set as one int, its tile's key then 1 for a chow (so ints compare as (tile key, chow) pairs)."""
    keys = [TILE_KEY[t.first] << 1 | (1 if t.kind == 1 else 0) for t in d.sets if t.meld_index is None and t.kind != 4]
    keys.sort()
    return tuple(keys)


def _placement_key(s: Scoring) -> tuple[int, int, int]:
    """Within one set structure: highest total, then edge > closed > single > no wait fan, then position."""
    wait = 3
    for f in s.fans:
        wait = min(wait, _WAIT_RANK.get(f.fan.id, 3))
    win_at = -1
    for i, t in enumerate(s.decomposition.sets):
        if t.win_offset is not None and t.meld_index is None:
            win_at = i
            break
    return (-s.total, wait, win_at)


def rank(scored: list[Scoring]) -> list[Scoring]:
    """Best first. Totals decide; ties are broken as pymahjonggb breaks them, so fan names agree:

    1. each set structure is represented by its best winning-tile position (`_placement_key`);
    2. a knitted, thirteen-orphans or honours-and-knitted shape comes before standard ones;
       seven pairs comes after the standard decompositions of the same total;
    3. standard decompositions in canonical order (`_division_key`), except that one holding
       Pure Triple Chow or Triple Pung (or any, when the hand is also seven pairs) is preferred,
       the later such one first.
    """
    groups: dict[tuple[Any, ...], list[Scoring]] = {}
    for s in scored:
        d = s.decomposition
        key = (d.kind != ShapeKind.STANDARD, d.kind, _division_key(d))  # the kind compares as its value
        groups.setdefault(key, []).append(s)
    heads: list[tuple[tuple[Any, ...], Scoring, list[Scoring]]] = []
    for group, members in groups.items():
        if len(members) > 1:
            members.sort(key=_placement_key)
        heads.append((group, members[0], members[1:]))
    standard = sorted(k for k, _, _ in heads if not k[0])
    position = {k: n for n, k in enumerate(standard)}
    seven_pairs = any(s.decomposition.kind == ShapeKind.SEVEN_PAIRS for s in scored)

    def order(item: tuple[tuple[Any, ...], Scoring, list[Scoring]]) -> tuple[Any, ...]:
        k, best, _ = item
        kind = best.decomposition.kind
        if kind == ShapeKind.SEVEN_PAIRS:
            return (-best.total, 3, 0)
        if kind != ShapeKind.STANDARD:
            return (-best.total, 0, 0)
        ids = {f.fan.id for f in best.fans}
        if seven_pairs or _PURE_TRIPLE_CHOW in ids or _TRIPLE_PUNG in ids:
            return (-best.total, 1, -position[k])
        return (-best.total, 2, position[k])

    heads.sort(key=order)
    out = [best for _, best, _ in heads]
    rest = [s for _, _, others in heads for s in others]
    if len(rest) > 1:
        rest.sort(key=lambda s: -s.total)  # stable: keeps the order above among equals
    tail = out[1:] + rest
    if len(tail) > 1:
        tail.sort(key=lambda s: -s.total)
    return out[:1] + tail


_CHOW_COMBINATIONS: Final = _chow_combinations()


def check_context(ctx: WinContext) -> None:
    """What MCR reads beyond engine.hand.validate_context: `flower_tiles` and `flowers` agree when both are
    given (BAD_CONTEXT naming flower_tiles); a self-drawn tile was discarded by no one (CONTRADICTORY_CONTEXT)."""
    held = ctx.flower_tiles
    if held and ctx.flowers and ctx.flowers != len(held):
        raise BadContextError(f"flower_tiles: flowers says {ctx.flowers} and flower_tiles holds {len(held)}; MCR "
                              "scores one point per flower, give either or both agreeing", "flower_tiles")
    if ctx.self_drawn and ctx.discarded_by != ClaimedFrom.NONE:
        raise ContradictoryContextError("discarded_by and self_drawn: a self-drawn tile was discarded by no one",
                                        "discarded_by")


def score(hand: Hand, ctx: WinContext, options: McrOptions | None = None) -> Evaluation:
    """The entry point (RULE_SET.score): every decomposition of a validated winning hand scored, the best
    first, under the convention of `options` (None: the defaults, the Chinese convention)."""
    if ctx.flower_tiles or ctx.discarded_by:
        check_context(ctx)
    by_rulebook = options is not None and options.convention == McrConvention.RULEBOOK
    decs = decompositions(hand, allow_quad_pairs=True)
    if not decs:
        return Evaluation(False)
    h = HandFacts(hand, ctx)
    hand_hits = P.tile_fans.get(h.tile_key) + P.situation_fans.get(h.situation_key)
    if len(decs) == 1:
        return Evaluation(True, score_decomposition(h, hand_hits, decs[0], by_rulebook), ())
    scored = rank([score_decomposition(h, hand_hits, d, by_rulebook) for d in decs])
    return Evaluation(True, scored[0], tuple(scored[1:]))


# Built at import and never written after: the registry lists them (engine.registry).
REGISTRY.frozen("mcr.scoring", _DEF_OF=_DEF_OF, _POINTS_OF=_POINTS_OF, _WAIT_RANK=_WAIT_RANK, _BINOMIAL=_BINOMIAL,
                _SITUATION_HITS=_SITUATION_HITS, _CHOW_COMBINATIONS=_CHOW_COMBINATIONS)
