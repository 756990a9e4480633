"""Sichuan's Analyze: shanten, waits and discard advice under 缺一门, and the wall's-end value (查大叫).

A Sichuan hand wins only if it holds no tile of the void suit (or, without a void suit, at most two
suits), so readiness is counted against the suits the hand may keep, not over all 27 tiles:

* The kept suits S: the two suits other than the void suit; without one, each pair of suits. A
  declared meld outside S rules S out (it can never leave the hand).
* For a 13-tile hand, shanten over S is max(f, k): f the shared shanten (engine.analysis, Sichuan's
  shapes) of the concealed tiles of S, the other k concealed tiles counted as junk; every one of the k
  must go before the hand is ready, one per exchange, and while f > k each exchange that lowers f can
  throw one of them. For 14 tiles the first discard is free: max(f, k - 1).
* Shanten 0 means ready: at least one tile completes a legal win (the waits, each checked by the
  rule set's own `score`, a tile held four times excluded). A hand the count calls 0 whose only
  completions are a fifth copy is not ready; its shanten is found by trying every discard and draw.
* The hand's shanten is the least over its possible S; its useful tiles are those of every S at that
  least (the shared useful tiles of S's tiles; when k > f any tile of S, as the exchange throws a
  junk tile); discard advice gives the 13-tile shanten after each discard.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine import analysis
from engine.errors import BadMeldError, TileCountError
from engine.hand import ClaimedFrom, Hand, Suit, WinContext, make_hand
from engine.registry import REGISTRY
from engine.results import Analysis, DiscardOption, TileCount
from engine.rules.sichuan.context import check_hand
from engine.rules.sichuan.facts import SUITED
from engine.rules.sichuan.options import SichuanOptions
from engine.rules.sichuan.scoring import SHAPES, score
from engine.shapes import ShapeKind, is_complete_counts
from engine.tiles import NUM_KINDS, suit_of, to_counts

SUITS = (int(Suit.CHARACTERS), int(Suit.DOTS), int(Suit.BAMBOO))
_KINDS_OF = {s: tuple(t for t in SUITED if suit_of(t) == s) for s in SUITS}
_WALL_END = WinContext(discarded_by=ClaimedFrom.LEFT)  # a plain win on a discard: no situation fans


def kept_suit_choices(hand: Hand, void: Suit | None) -> list[frozenset[int]]:
    """The suit pairs the hand may keep: those avoiding `void` (or any pair without one) that hold
    every declared meld."""
    pairs = [frozenset(SUITS) - {int(void)}] if void is not None else \
        [frozenset(SUITS) - {s} for s in reversed(SUITS)]
    meld_suits = {suit_of(m.tiles[0]) for m in hand.melds}
    return [p for p in pairs if meld_suits <= p]


def _held(hand: Hand) -> list[int]:
    held = to_counts(hand.all_concealed())
    for m in hand.melds:
        for t in m.tiles:
            held[t] += 1
    return held


class _Reader:
    """One hand's melds, held counts, options and the choices of kept suits, shared by the 13-tile
    hands Analyze looks at (the hand itself, or each discard of a 14-tile hand)."""

    def __init__(self, hand: Hand, opts: SichuanOptions) -> None:
        self.hand = hand
        self.opts = opts
        self.m = len(hand.melds)
        self.choices = kept_suit_choices(hand, opts.void_suit)
        self.values: dict[tuple[tuple[int, ...], int], int] = {}  # (counts, wait) -> wall's-end value
        # Per kept counts: the shared shanten by shape, and the useful tiles. A discard outside a choice's
        # suits leaves its kept counts as they were, so the discards of a 14-tile hand share most of these.
        self._shapes: dict[tuple[int, ...], tuple[tuple[ShapeKind, int], ...]] = {}
        self._useful: dict[tuple[int, ...], tuple[int, ...]] = {}

    def kept_shapes(self, kept: list[int]) -> tuple[tuple[ShapeKind, int], ...]:
        key = tuple(kept)
        got = self._shapes.get(key)
        if got is None:
            got = tuple((kind, v) for kind, v in analysis.shanten_by_shape(kept, self.m) if kind in SHAPES)
            self._shapes[key] = got
        return got

    def kept_useful(self, kept: list[int]) -> tuple[int, ...]:
        key = tuple(kept)
        got = self._useful.get(key)
        if got is None:
            got = analysis.useful_for(kept, self.m, SHAPES)
            self._useful[key] = got
        return got

    def by_suits(self, c: Sequence[int], size: int) -> list[tuple[frozenset[int], tuple[tuple[ShapeKind, int], ...],
                                                                      int, int]]:
        """Per kept-suit choice: (suits, shanten by shape, junk k, the count f) of concealed counts `c`."""
        out = []
        free = 0 if size == 13 else 1
        for suits in self.choices:
            kept = _kept(c, suits)
            k = sum(c) - sum(kept)
            shapes = self.kept_shapes(kept)
            f = min(v for _, v in shapes)
            out.append((suits, tuple((kind, max(v, k - free)) for kind, v in shapes), k, f))
        return out

    def waits(self, c: Sequence[int], held: Sequence[int]) -> tuple[int, ...]:
        """The tiles that complete a legal Sichuan win of the 13 concealed counts `c` (with the melds)."""
        out = []
        for suits in self.choices:
            if any(c[t] for t in SUITED if suit_of(t) not in suits):
                continue
            for s in sorted(suits):
                for t in _KINDS_OF[s]:
                    if held[t] >= 4 or t in out:
                        continue
                    c2 = list(c)
                    c2[t] += 1
                    if is_complete_counts(c2, self.m, True) and self.wins(c, t):
                        out.append(t)
        return tuple(sorted(out))

    def wins(self, c: Sequence[int], t: int) -> bool:
        """Does tile `t` complete a legal win of the concealed counts `c`? Its wall's-end value is kept
        (`values`) for Analyze's max_value."""
        ev = score(make_hand(_tiles(c), self.hand.melds, t), _WALL_END, self.opts)
        if ev.is_win and ev.best is not None:
            self.values[(tuple(c), t)] = ev.best.points
            return True
        return False

    def shanten13(self, c: Sequence[int], held: Sequence[int]) -> tuple[int, tuple[tuple[ShapeKind, int], ...],
                                                                         tuple[int, ...], tuple[int, ...]]:
        """(shanten, shanten by shape, waits, useful tiles) of 13 concealed counts."""
        rows = self.by_suits(c, 13)
        best = min(min(v for _, v in shapes) for _, shapes, _, _ in rows)
        by_shape = tuple((kind, min(dict(shapes)[kind] for _, shapes, _, _ in rows)) for kind, _ in rows[0][1])
        if best == 0:
            w = self.waits(c, held)
            if w:
                return 0, by_shape, w, w
            best = self.exchange_shanten(c, held)  # only a fifth copy would complete: not ready
            by_shape = tuple((kind, max(v, best)) for kind, v in by_shape)
            return best, by_shape, (), self.useful_by_trial(c, held, best)
        useful: set[int] = set()
        for suits, shapes, k, f in rows:
            if min(v for _, v in shapes) != best:
                continue
            if k > f:
                useful.update(t for s in suits for t in _KINDS_OF[s])
            else:
                useful.update(self.kept_useful(_kept(c, suits)))
        return best, by_shape, (), tuple(sorted(t for t in useful if held[t] < 4))

    def ready(self, c: Sequence[int], held: Sequence[int]) -> bool:
        rows = self.by_suits(c, 13)
        if not rows or min(min(v for _, v in shapes) for _, shapes, _, _ in rows) > 0:
            return False
        return bool(self.waits(c, held))

    def exchanges(self, c: Sequence[int], held: Sequence[int]) -> Iterable[tuple[list[int], list[int]]]:
        """Every 13-tile hand one exchange away: a concealed tile thrown, a tile of a kept suit drawn."""
        draws = sorted({t for suits in self.choices for s in suits for t in _KINDS_OF[s]})
        for d in range(NUM_KINDS):
            if not c[d]:
                continue
            for t in draws:
                if t == d or held[t] >= 4:
                    continue
                c2, h2 = list(c), list(held)
                c2[d] -= 1
                h2[d] -= 1
                c2[t] += 1
                h2[t] += 1
                yield c2, h2

    def exchange_shanten(self, c: Sequence[int], held: Sequence[int]) -> int:
        """Shanten of a hand the count calls ready whose completions are all fifth copies: 1 if one
        exchange makes it ready (always so far: throw the blocked tile, keep any free tile as the
        pair's wait), else 2 (a lower bound; never met in the tests)."""
        return 1 if any(self.ready(c2, h2) for c2, h2 in self.exchanges(c, held)) else 2

    def useful_by_trial(self, c: Sequence[int], held: Sequence[int], shanten: int) -> tuple[int, ...]:
        """Tiles whose draw, with the best discard, leaves a ready hand (for a shanten-1 hand found by
        `exchange_shanten`)."""
        if shanten != 1:
            return ()
        out = set()
        for c2, h2 in self.exchanges(c, held):
            if self.ready(c2, h2):
                out.add(next(t for t in range(NUM_KINDS) if c2[t] > c[t]))
        return tuple(sorted(out))


def _refuse_melds(hand: Hand, void: Suit | None) -> None:
    """No suit pair holds every declared meld: the hand can never win, so it has no shanten."""
    seen: set[int] = set()
    for i, m in enumerate(hand.melds):
        s = suit_of(m.tiles[0])
        seen.add(s)
        if (void is not None and s == int(void)) or len(seen) > 2:
            why = "is of the void suit" if void is not None and s == int(void) else "is of a third suit"
            raise BadMeldError(f"melds[{i}]: {why}; a Sichuan hand that declared it can never win (缺一门), "
                               "so it has no shanten", f"melds[{i}]")
    raise BadMeldError("melds: no two suits hold every declared meld", "melds")  # not reached


def _kept(c: Sequence[int], suits: frozenset[int]) -> list[int]:
    """The concealed counts of the kept suits (the other suits' and the honours' zeroed)."""
    out = [0] * NUM_KINDS
    for s in suits:
        lo, hi = _KINDS_OF[s][0], _KINDS_OF[s][-1] + 1
        out[lo:hi] = c[lo:hi]
    return out


def _tiles(c: Sequence[int]) -> list[int]:
    return [t for t, n in enumerate(c) for _ in range(n)]


def _tile_counts(tiles: Iterable[int], held: Sequence[int], seen: Sequence[int]) -> tuple[TileCount, ...]:
    return tuple(TileCount(t, max(0, 4 - held[t] - seen[t]), held[t] >= 4) for t in sorted(tiles))


def wall_end_value(hand: Hand, opts: SichuanOptions, candidates: Sequence[int] = tuple(SUITED)
                   ) -> tuple[int, tuple[int, ...]]:
    """For a 13-tile hand: the most any wait would score (Scoring.points of the best decomposition,
    a plain win on a discard: no self-draw, kong or last-tile fan) and the waits that win under
    Sichuan. A tile whose four copies the hand already holds is no wait. (0, ()) when not ready."""
    held = _held(hand)
    void = opts.void_suit
    best, waits = 0, []
    for t in sorted(candidates):
        if t not in SUITED or held[t] >= 4 or (void is not None and suit_of(t) == int(void)):
            continue
        ev = score(make_hand(hand.concealed, hand.melds, t), _WALL_END, opts)
        if ev.is_win and ev.best is not None:
            waits.append(t)
            best = max(best, ev.best.points)
    return best, tuple(waits)


def analyze(hand: Hand, visible: Sequence[int], opts: SichuanOptions) -> Analysis:
    """Shanten, waits and useful tiles of a 13-tile hand, discard advice for a 14-tile one, under the
    void suit (see the module docstring); for a ready 13-tile hand `max_value` is the wall's-end value."""
    check_hand(hand)
    size = hand.size
    if size not in (13, 14):
        raise TileCountError(f"concealed: an analysed hand has 13 or 14 tiles (kongs as 3), got {size}", "concealed")
    reader = _Reader(hand, opts)
    if not reader.choices:
        _refuse_melds(hand, opts.void_suit)
    c = to_counts(hand.all_concealed())
    held = _held(hand)
    seen = to_counts(visible) if visible else [0] * NUM_KINDS
    if size == 13:
        s, by_shape, waits, useful = reader.shanten13(c, held)
        wait_tc = _tile_counts(waits, held, seen)
        useful_tc = wait_tc if s == 0 else _tile_counts(useful, held, seen)
        value = max((reader.values[(tuple(c), t)] for t in waits), default=0)
        return Analysis(s, by_shape, wait_tc, useful_tc, sum(t.remaining for t in useful_tc), (), value)
    options = []
    for d in range(NUM_KINDS):
        if not c[d]:
            continue
        c[d] -= 1
        held[d] -= 1
        s13, _, _, useful = reader.shanten13(c, held)
        seen[d] += 1  # the thrown copy is seen, no longer held
        tc = _tile_counts(useful, held, seen)
        seen[d] -= 1
        c[d] += 1
        held[d] += 1
        options.append(DiscardOption(d, s13, tc, sum(t.remaining for t in tc)))
    options.sort(key=lambda o: (o.shanten, -o.useful_count, o.tile))
    rows = reader.by_suits(c, 14)
    complete = score(make_hand(hand.all_concealed(), hand.melds), _WALL_END, opts).is_win
    best = -1 if complete else min(o.shanten for o in options)
    by_shape = tuple((kind, max(best, min(dict(shapes)[kind] for _, shapes, _, _ in rows))) for kind, _ in rows[0][1])
    return Analysis(best, by_shape, discards=tuple(options))

# Built at import and never written after: the registry lists them (engine.registry).
REGISTRY.frozen("sichuan.ready", _KINDS_OF=_KINDS_OF)
