"""What the 推倒胡 predicates read: the hand, its situation and options, and one reading of the hand.

A `Facts` holds what is decided by the hand alone (the ghosts held, whether four ghosts are concealed)
once, and one decomposition (`dec`, a reading with the ghosts standing for what they complete:
engine.wildcards); `reading(d)` is the same hand read as another decomposition. The tile checks of the
big hands (a four of a kind among seven pairs, pungs only, one suit) are its properties, so each
predicate in predicates.py is a line.
"""

from __future__ import annotations

from engine.hand import Hand, MeldKind, WinContext
from engine.registry import REGISTRY
from engine.rules.guangdong.options import GuangdongOptions
from engine.shapes import Decomposition, SetKind, ShapeKind, TileSet
from engine.tiles import is_honor, suit_of

_SET_KIND = {MeldKind.CHOW: SetKind.CHOW, MeldKind.PUNG: SetKind.PUNG, MeldKind.KONG: SetKind.KONG}
_PUNGS = (SetKind.PUNG, SetKind.KONG)


def four_ghosts_reading(hand: Hand) -> Decomposition:
    """A four-ghost win on a hand that is not otherwise complete: the melds, the concealed tiles as held."""
    melds = tuple(TileSet(_SET_KIND[m.kind], m.tiles[0], m.concealed, i) for i, m in enumerate(hand.melds))
    return Decomposition(ShapeKind.STANDARD, melds, hand.all_concealed(), hand.winning_tile)


class Facts:
    """One reading of a winning hand, with its situation and the table's options.

    `ghosts_held`: ghosts anywhere in the hand, declared melds included (a hand holding one is not 无鬼);
    `four_ghosts`: four ghosts concealed (only concealed ghosts are wild) at a table playing 四鬼胡牌.
    """

    __slots__ = ("hand", "ctx", "opts", "dec", "ghosts_held", "four_ghosts")

    def __init__(self, hand: Hand, ctx: WinContext, opts: GuangdongOptions, dec: Decomposition) -> None:
        self.hand = hand
        self.ctx = ctx
        self.opts = opts
        self.dec = dec
        self.ghosts_held: int = 0
        self.four_ghosts: bool = False
        if opts.ghosts:
            wild = frozenset(opts.ghosts)
            held = hand.counts()
            self.ghosts_held = sum(held[t] for t in wild)
            self.four_ghosts = opts.four_ghosts_win and four_concealed(hand, wild)

    def reading(self, dec: Decomposition) -> Facts:
        """The same hand read as `dec` (what the hand alone decides is not computed again)."""
        f = Facts.__new__(Facts)
        f.hand, f.ctx, f.opts, f.dec = self.hand, self.ctx, self.opts, dec
        f.ghosts_held, f.four_ghosts = self.ghosts_held, self.four_ghosts
        return f

    @property
    def seven_pairs(self) -> bool:
        return self.dec.kind == ShapeKind.SEVEN_PAIRS

    @property
    def four_sets_and_a_pair(self) -> bool:
        return self.dec.kind == ShapeKind.STANDARD and len(self.dec.sets) == 5

    @property
    def doubled_pair(self) -> bool:
        """Seven pairs counting a four of a kind (two pairs of one kind)."""
        firsts = [s.first for s in self.dec.sets]
        return len(set(firsts)) < len(firsts)

    @property
    def all_pungs(self) -> bool:
        """Four sets and a pair, the four sets pungs or kongs."""
        return self.four_sets_and_a_pair and all(s.kind in _PUNGS for s in self.dec.sets[:4])

    @property
    def one_suit(self) -> bool:
        """A complete shape (four sets and a pair, or seven pairs) of one suit, no honours; the ghosts as what
        they stand for."""
        if not (self.seven_pairs or self.four_sets_and_a_pair):
            return False
        made = [t for s in self.dec.sets for t in s.tiles]
        return not any(is_honor(t) for t in made) and len({suit_of(t) for t in made}) == 1


def four_concealed(hand: Hand, wild: frozenset[int]) -> bool:
    """Four ghosts among the concealed tiles (the winning tile included)."""
    return sum(1 for t in hand.all_concealed() if t in wild) >= 4


# Built at import and never written after: the registry lists them (engine.registry).
REGISTRY.frozen("guangdong.facts", _SET_KIND=_SET_KIND)
