"""What the Sichuan predicates read: one decomposition of a winning hand, its situation and options.

Hand-wide counts are computed once per hand (`HandFacts`) and shared by its decompositions, so each
predicate in `predicates.py` is a line or two.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import tile_kinds as K
from engine.hand import ClaimedFrom, Hand, MeldKind, WinContext
from engine.rules.sichuan.options import KongBloomPayer, SichuanOptions
from engine.shapes import Decomposition, SetKind, ShapeKind, TileSet

SUITED = frozenset(K.SUITED)  # the 108-tile set: characters, dots, bamboo
TWO_FIVE_EIGHT = frozenset(t for t in SUITED if K.rank_of(t) in (2, 5, 8))


def bloom_as_discard(ctx: WinContext, opts: SichuanOptions) -> bool:
    """点杠花当炮: a self-draw on the replacement tile of a kong fed by a discard (kong_fed_by), scored and
    paid as a win on the feeder's discard (option kong_bloom_payer = FEEDER)."""
    return (opts.kong_bloom_payer == KongBloomPayer.FEEDER and ctx.self_drawn and ctx.replacement_tile
            and ctx.kong_fed_by != ClaimedFrom.NONE)


@dataclass(frozen=True, slots=True)
class HandFacts:
    """Counts over all of a 14-tile hand's tiles: concealed, winning tile and melds (a kong's four)."""

    counts: tuple[int, ...]  # 27 suited kinds
    suits: frozenset[int]  # 0 characters, 1 dots, 2 bamboo
    kongs: int  # declared kongs (exposed, added or concealed)
    fours: int  # kinds held four times, in a kong or not
    melds: int
    has_pung_or_kong_meld: bool  # a declared set (Chengdu's 门清 needs none)

    @property
    def undeclared_fours(self) -> int:
        """Fours of a kind that are not a declared kong (MIL's Root)."""
        return self.fours - self.kongs

    def all_tiles(self, kinds: frozenset[int]) -> bool:
        return all(self.counts[t] == 0 for t in range(27) if t not in kinds)


def hand_facts(hand: Hand) -> HandFacts:
    counts = [0] * 27
    for t in hand.concealed:
        counts[t] += 1
    if hand.winning_tile is not None:
        counts[hand.winning_tile] += 1
    kongs = 0
    for m in hand.melds:
        counts[m.tiles[0]] += len(m.tiles)
        kongs += m.kind == MeldKind.KONG
    return HandFacts(
        counts=tuple(counts),
        suits=frozenset(s for s in (0, 1, 2) if any(counts[9 * s:9 * s + 9])),
        kongs=kongs,
        fours=counts.count(4),
        melds=len(hand.melds),
        has_pung_or_kong_meld=bool(hand.melds),
    )


class Facts:
    """One decomposition seen through the Sichuan tables' eyes. What most rows read is worked out once
    here: the shape, whether all sets are pungs or kongs (对对胡)."""

    __slots__ = ("hand", "ctx", "opts", "dec", "h", "sets", "standard", "seven_pairs", "all_pungs")

    def __init__(self, hand: Hand, ctx: WinContext, opts: SichuanOptions, dec: Decomposition, h: HandFacts) -> None:
        self.hand = hand
        self.ctx = ctx
        self.opts = opts
        self.dec = dec
        self.h = h
        self.sets: tuple[TileSet, ...] = dec.sets
        self.standard = dec.kind == ShapeKind.STANDARD
        self.seven_pairs = dec.kind == ShapeKind.SEVEN_PAIRS
        self.all_pungs = self.standard and not any(s.kind == SetKind.CHOW for s in dec.sets)

    @property
    def won_on_pair(self) -> bool:
        """The winning tile completed the pair in this decomposition."""
        pair = self.dec.pair
        return pair is not None and pair.win_offset is not None

    @property
    def single_after_four_melds(self) -> bool:
        """Four declared melds and one standing tile, paired by the winning tile (金钩钓)."""
        return self.h.melds == 4

    @property
    def full_flush(self) -> bool:
        return len(self.h.suits) == 1

    @property
    def terminal_in_every_set(self) -> bool:
        """Every set and the pair hold a 1 or a 9 (带幺九)."""
        return self.standard and all(any(K.is_terminal(t) for t in s.tiles) for s in self.sets)

    @property
    def all_two_five_eight(self) -> bool:
        return self.h.all_tiles(TWO_FIVE_EIGHT)

    @property
    def no_terminals(self) -> bool:
        return not any(self.h.counts[t] for t in K.TERMINALS)
