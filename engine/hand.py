"""Melds, hands and the situation of a win, with their validation.

Everything here is immutable; validation happens in the constructors' `validate` helpers so
that every interface (CLI, batch, gRPC) applies the same rules and raises the same codes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import IntEnum

from engine.errors import (
    BadContextError,
    BadMeldError,
    BadTileError,
    ContradictoryContextError,
    MissingWinningTileError,
    TileCountError,
    TooManyCopiesError,
)
from engine.tiles import (
    NUM_FLOWERS,
    check_tile,
    check_tiles,
    format_tile,
    format_tiles,
    is_honor,
    same_suit,
    to_counts,
)


class MeldKind(IntEnum):
    CHOW = 1
    PUNG = 2
    KONG = 3


class ClaimedFrom(IntEnum):
    """Seat a claimed tile came from, relative to the player. NONE: not claimed."""

    NONE = 0
    LEFT = 1
    ACROSS = 2
    RIGHT = 3


class Wind(IntEnum):
    EAST = 0
    SOUTH = 1
    WEST = 2
    NORTH = 3


class Flower(IntEnum):
    """The eight bonus tiles: flowers 1-4 (梅兰菊竹) then seasons 1-4 (春夏秋冬). Number n of either
    group (value % 4) belongs to the seat wind of the same number (East 1 ... North 4)."""

    PLUM = 0
    ORCHID = 1
    CHRYSANTHEMUM = 2
    BAMBOO = 3
    SPRING = 4
    SUMMER = 5
    AUTUMN = 6
    WINTER = 7

    @property
    def seat(self) -> Wind:
        return Wind(self % 4)

    @property
    def is_season(self) -> bool:
        return self >= Flower.SPRING


class Suit(IntEnum):
    """The three suits, numbered as `engine.tiles.suit_of` numbers them."""

    CHARACTERS = 0
    DOTS = 1
    BAMBOO = 2


class PriorKong(IntEnum):
    """Sichuan: the kong whose money a win unwinds (WinContext.prior_kong): the discarder's kong just
    before a 杠上炮, or the added kong a 抢杠 robs. What each kind collected is the rule set's to say."""

    NONE = 0  # not given: no kong money moves
    CONCEALED = 1  # 暗杠 (下雨)
    EXPOSED = 2  # 直杠 on a discard (刮风); prior_kong_claimed_from names who discarded the fourth tile
    ADDED = 3  # 加杠 / 补杠 of a freshly drawn fourth tile
    ADDED_LATER = 4  # 加杠 of a fourth tile held since an earlier turn


@dataclass(frozen=True, slots=True)
class Meld:
    """A declared set. Chows and pungs are always exposed; a kong is exposed, concealed or added.

    `claimed_index` says which of `tiles` was claimed (for a chow it decides nothing in MCR
    scoring but clients show it); None when not claimed or not known.
    """

    kind: MeldKind
    tiles: tuple[int, ...]
    concealed: bool = False
    added: bool = False
    claimed_from: ClaimedFrom = ClaimedFrom.NONE
    claimed_index: int | None = None

    @property
    def first(self) -> int:
        return self.tiles[0]

    @property
    def is_kong(self) -> bool:
        return self.kind == MeldKind.KONG

    def __str__(self) -> str:
        tag = {MeldKind.CHOW: "chow", MeldKind.PUNG: "pung", MeldKind.KONG: "kong"}[self.kind]
        if self.kind == MeldKind.KONG:
            tag = "concealed kong" if self.concealed else ("added kong" if self.added else "exposed kong")
        return f"{tag} {format_tiles(self.tiles)}"


def make_meld(
    kind: MeldKind,
    tiles: Iterable[int],
    *,
    concealed: bool = False,
    added: bool = False,
    claimed_from: ClaimedFrom = ClaimedFrom.NONE,
    claimed_index: int | None = None,
    field: str = "meld",
) -> Meld:
    """Build and validate a meld; raises BadMeldError (or BadTileError) naming `field`."""
    where = f"{field}.tiles"
    tiles = tuple(sorted([check_tile(t, where) for t in tiles]))
    kind = MeldKind(kind) if kind in (1, 2, 3) else kind
    if not isinstance(kind, MeldKind):
        raise BadMeldError(f"{field}.kind: {kind!r} is not chow, pung or kong", f"{field}.kind")
    expected = 4 if kind == MeldKind.KONG else 3
    if len(tiles) != expected:
        raise BadMeldError(
            f"{field}: a {kind.name.lower()} has {expected} tiles, got {len(tiles)} ({format_tiles(tiles)})",
            f"{field}.tiles",
        )
    if kind == MeldKind.CHOW:
        if any(is_honor(t) for t in tiles):
            raise BadMeldError(f"{field}: a chow cannot hold honours ({format_tiles(tiles)})", f"{field}.tiles")
        a, b, c = tiles
        if not (b == a + 1 and c == a + 2 and same_suit(a, c)):
            raise BadMeldError(f"{field}: {format_tiles(tiles)} is not a run of one suit", f"{field}.tiles")
    elif len(set(tiles)) != 1:
        raise BadMeldError(
            f"{field}: a {kind.name.lower()} needs identical tiles, got {format_tiles(tiles)}", f"{field}.tiles"
        )
    for name, flag in (("concealed", concealed), ("added", added)):
        if type(flag) is not bool:
            raise BadMeldError(f"{field}.{name}: expected true or false, got {flag!r}", f"{field}.{name}")
    if kind != MeldKind.KONG and (concealed or added):
        raise BadMeldError(f"{field}: only a kong can be concealed or added", f"{field}.concealed")
    if concealed and added:
        raise BadMeldError(f"{field}: a kong cannot be both concealed and added", f"{field}.added")
    claimed_from = ClaimedFrom(claimed_from) if claimed_from in (0, 1, 2, 3) else claimed_from
    if not isinstance(claimed_from, ClaimedFrom):
        raise BadMeldError(f"{field}.claimed_from: {claimed_from!r} is not a seat", f"{field}.claimed_from")
    if concealed and claimed_from != ClaimedFrom.NONE:
        raise BadMeldError(f"{field}: a concealed kong was not claimed from anyone", f"{field}.claimed_from")
    if claimed_index is not None:
        if not 0 <= claimed_index < len(tiles):
            raise BadMeldError(
                f"{field}.claimed_index: {claimed_index} is out of range 0..{len(tiles) - 1}",
                f"{field}.claimed_index",
            )
        if concealed:
            raise BadMeldError(f"{field}: a concealed kong has no claimed tile", f"{field}.claimed_index")
    return Meld(kind, tiles, concealed, added, claimed_from, claimed_index)


def chow(first: int, claimed_index: int | None = None) -> Meld:
    return make_meld(MeldKind.CHOW, (first, first + 1, first + 2), claimed_from=ClaimedFrom.LEFT,
                     claimed_index=claimed_index)


def pung(tile: int, claimed_from: ClaimedFrom = ClaimedFrom.LEFT) -> Meld:
    return make_meld(MeldKind.PUNG, (tile,) * 3, claimed_from=claimed_from)


def kong(tile: int, *, concealed: bool = False, added: bool = False,
         claimed_from: ClaimedFrom = ClaimedFrom.NONE) -> Meld:
    if not concealed and claimed_from == ClaimedFrom.NONE:
        claimed_from = ClaimedFrom.LEFT
    return make_meld(MeldKind.KONG, (tile,) * 4, concealed=concealed, added=added, claimed_from=claimed_from)


@dataclass(frozen=True, slots=True)
class Hand:
    """Concealed tiles (sorted, without the winning tile), declared melds, and the winning tile if any.

    `red_fives`: one entry per red five among all the hand's tiles (concealed, melds, winning tile),
    sorted; each is a 5 the hand holds (Riichi's aka dora; other rule sets ignore it)."""

    concealed: tuple[int, ...]
    melds: tuple[Meld, ...] = ()
    winning_tile: int | None = None
    red_fives: tuple[int, ...] = ()

    @property
    def size(self) -> int:
        """Tiles counted the MCR way: a kong counts 3, the winning tile counts 1."""
        return len(self.concealed) + 3 * len(self.melds) + (self.winning_tile is not None)

    def all_concealed(self) -> tuple[int, ...]:
        """Concealed tiles plus the winning tile (the part of the hand that is decomposed)."""
        if self.winning_tile is None:
            return self.concealed
        return tuple(sorted(self.concealed + (self.winning_tile,)))

    def counts(self) -> list[int]:
        """Counts of every kind across concealed tiles, melds and the winning tile."""
        tiles = list(self.all_concealed())
        for m in self.melds:
            tiles.extend(m.tiles)
        return to_counts(tiles)

    def __str__(self) -> str:
        parts = [format_tiles(self.concealed)]
        parts += [f"[{m}]" for m in self.melds]
        if self.winning_tile is not None:
            parts.append(f"+{format_tile(self.winning_tile)}")
        return " ".join(p for p in parts if p)


FIVES = (4, 13, 22)  # 5m 5p 5s: the tiles a red five can be


def make_hand(concealed: Iterable[int], melds: Iterable[Meld] = (), winning_tile: int | None = None,
              *, sizes: tuple[int, ...] = (14,), red_fives: Iterable[int] = ()) -> Hand:
    """Build and validate a hand. `sizes` lists the accepted MCR sizes (14 for a win; 13 or 14 to analyse).
    `red_fives`: the red fives among the hand's tiles (a 5 of a suit held, at most two per suit: the rule
    set's options say how many its tile set has)."""
    tiles = check_tiles(concealed, "concealed")
    tiles.sort()
    concealed_t = tuple(tiles)
    if winning_tile is not None:
        check_tile(winning_tile, "winning_tile")
        tiles.append(winning_tile)
    reds = tuple(sorted(check_tiles(red_fives, "red_fives"))) if red_fives else ()
    hand = Hand(concealed_t, tuple(melds), winning_tile, reds)
    n_melds = len(hand.melds)
    if n_melds > 4:
        raise TileCountError(f"melds: a hand has at most 4 melds, got {n_melds}", "melds")
    size = len(tiles) + 3 * n_melds  # Hand.size
    if size not in sizes:
        what = " or ".join(str(s) for s in sizes)
        raise TileCountError(
            f"concealed: {len(concealed_t)} concealed tiles + 3 x {n_melds} melds"
            + (" + the winning tile" if winning_tile is not None else "")
            + f" make {size}, expected {what}",
            "concealed",
        )
    for m in hand.melds:
        tiles.extend(m.tiles)
    counts = to_counts(tiles)  # Hand.counts, from the tiles already at hand
    if max(counts) > 4:  # the loop only to name the first tile over
        for tile, n in enumerate(counts):
            if n > 4:
                raise TooManyCopiesError(f"{format_tile(tile)}: {n} copies across hand, melds and winning tile; "
                                         "there are only 4", "concealed")
    if reds:
        for i, t in enumerate(reds):
            if t not in FIVES:
                raise BadTileError(f"red_fives: {format_tile(t)} is not a five of a suit (5m, 5p, 5s)", "red_fives")
            if i > 1 and reds[i - 2] == t:  # a rule set's options may allow fewer (riichi's red_fives_per_suit)
                raise TooManyCopiesError(f"red_fives: {format_tile(t)} three times; a tile set has at most two red "
                                         "fives per suit", "red_fives")
            if i and reds[i - 1] == t and counts[t] < 2:
                raise BadTileError(f"red_fives: two red {format_tile(t)}, but the hand holds one {format_tile(t)}",
                                   "red_fives")
            if not counts[t]:
                raise BadTileError(f"red_fives: a red {format_tile(t)}, but the hand holds no {format_tile(t)}",
                                   "red_fives")
    return hand


def winning_hand(concealed: Iterable[int], melds: Iterable[Meld], winning_tile: int | None,
                 red_fives: Iterable[int] = ()) -> Hand:
    """A hand that claims to have won: 13 tiles (kongs as 3) plus the winning tile."""
    if winning_tile is None:
        raise MissingWinningTileError("winning_tile: evaluating a win needs the winning tile", "winning_tile")
    return make_hand(concealed, melds, winning_tile, sizes=(14,), red_fives=red_fives)


@dataclass(frozen=True, slots=True)
class WinContext:
    """The situation of a win. Winds are Wind values; `flowers` 0-8.

    Each field is read by the rule sets that declare it (`RuleSet.context_fields`); any other rule set refuses
    it when set (BAD_CONTEXT). heavenly/earthly/ready_declared/heavenly_ready: mcr2p (heavenly/earthly also
    Riichi and Sichuan); riichi ... riichi_sticks, kita: Riichi; void_suit, after_kong_discard, seats_out,
    prior_kong, prior_kong_claimed_from, other_winners: Sichuan; flower_tiles: hk and mcr; liable: Riichi and hk;
    kong_on_kong, flower_win: hk; follow_dealer, horse_tiles, streak: Guangdong; kong_fed_by: Guangdong and Sichuan.
    """

    self_drawn: bool = False
    last_of_kind: bool = False
    replacement_tile: bool = False
    robbing_kong: bool = False
    last_wall_tile: bool = False
    seat_wind: Wind = Wind.EAST
    prevalent_wind: Wind = Wind.EAST
    flowers: int = 0
    heavenly: bool = False
    earthly: bool = False
    ready_declared: bool = False
    heavenly_ready: bool = False
    # Riichi
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    dora_indicators: tuple[int, ...] = ()
    ura_dora_indicators: tuple[int, ...] = ()
    honba: int = 0
    riichi_sticks: int = 0
    # Riichi and Sichuan: who discarded the winning tile (NONE when self-drawn or not given)
    discarded_by: ClaimedFrom = ClaimedFrom.NONE
    # Sichuan
    void_suit: Suit | None = None
    after_kong_discard: bool = False
    seats_out: tuple[Wind, ...] = ()
    prior_kong: PriorKong = PriorKong.NONE
    prior_kong_claimed_from: ClaimedFrom = ClaimedFrom.NONE  # EXPOSED: from whom, seen from the kong's declarer
    other_winners: tuple[Wind, ...] = ()  # 一炮多响: the other seats winning on this discard (kong money moves once)
    # Hong Kong: which flowers the winner holds (the count alone cannot tell the seat's flowers)
    flower_tiles: tuple[Flower, ...] = ()
    # Guangdong 推倒胡
    follow_dealer: bool = False  # 跟庄: the other players all followed the dealer's first discard
    horse_tiles: tuple[int, ...] = ()  # 买马: the horse tiles drawn for this win
    kong_fed_by: ClaimedFrom = ClaimedFrom.NONE  # 杠爆: who discarded the fourth tile of the kong just declared
    # Hong Kong 包 / Riichi pao: the seat liable for this win, relative to the winner (NONE: nobody)
    liable: ClaimedFrom = ClaimedFrom.NONE
    # Riichi, three players: North tiles set aside as bonus tiles (each a dora)
    kita: int = 0
    # Guangdong 节节高: the winner's consecutive dealer wins before this one
    streak: int = 0
    # Hong Kong 杠上杠: the replacement tile of a kong declared on the replacement tile of another kong
    kong_on_kong: bool = False
    # Hong Kong 花胡: the win is the flower hand (八仙过海 or 七抢一), whatever the tiles
    flower_win: bool = False
    extra: dict[str, bool] = field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self) -> None:
        # A wind given as its number (0-3) becomes the Wind it names; anything else is left for
        # validate_context to report.
        for name in ("seat_wind", "prevalent_wind"):
            value = getattr(self, name)
            if type(value) is int and 0 <= value <= 3:
                object.__setattr__(self, name, Wind(value))
        flowers = self.flower_tiles
        if flowers and any(type(f) is int for f in flowers):
            # flowers given as their numbers 0-7 become Flowers; anything else is validate_context's to report
            object.__setattr__(self, "flower_tiles", tuple(
                Flower(f) if type(f) is int and 0 <= f < NUM_FLOWERS else f for f in flowers))


_FLAGS = ("self_drawn", "last_of_kind", "replacement_tile", "robbing_kong", "last_wall_tile", "heavenly",
          "earthly", "ready_declared", "heavenly_ready")


def _flags_are_bools(ctx: WinContext) -> bool:
    """Every flag of `_FLAGS` holds a bool. Spelled out field by field because it runs on every
    evaluation: the interpreter reads each slot and tests `type(...)` with specialized instructions,
    several times cheaper than a loop or a set of types (tests/unit/test_tiles_hand.py checks it names
    exactly `_FLAGS`)."""
    return (type(ctx.self_drawn) is bool and type(ctx.last_of_kind) is bool and type(ctx.replacement_tile) is bool
            and type(ctx.robbing_kong) is bool and type(ctx.last_wall_tile) is bool and type(ctx.heavenly) is bool
            and type(ctx.earthly) is bool and type(ctx.ready_declared) is bool and type(ctx.heavenly_ready) is bool)


def validate_context(ctx: WinContext, hand: Hand) -> WinContext:
    """Reject contexts no real game produces; each fault names the flags involved."""
    seat, prevalent, flowers = ctx.seat_wind, ctx.prevalent_wind, ctx.flowers
    if type(seat) is not Wind or type(prevalent) is not Wind:
        for name in ("seat_wind", "prevalent_wind"):
            value = getattr(ctx, name)
            if type(value) is not Wind:
                raise BadContextError(f"{name}: {value!r} is not a wind (east, south, west, north)", name)
    if not _flags_are_bools(ctx):
        for name in _FLAGS:
            value = getattr(ctx, name)
            if type(value) is not bool:
                raise BadContextError(f"{name}: expected true or false, got {value!r}", name)
    if type(flowers) is not int or not 0 <= flowers <= NUM_FLOWERS:
        raise BadContextError(f"flowers: {ctx.flowers!r} is out of range 0..{NUM_FLOWERS}", "flowers")
    if ctx.flower_tiles:
        _check_flower_tiles(ctx.flower_tiles)
    # Every check below needs one of these flags; the usual context sets none of them.
    if not (ctx.replacement_tile or ctx.robbing_kong or ctx.heavenly or ctx.earthly or ctx.heavenly_ready
            or ctx.last_of_kind):
        return ctx
    if ctx.robbing_kong and ctx.self_drawn:
        _clash("robbing_kong", "self_drawn", "a robbed kong tile is another player's, not drawn")
    if ctx.replacement_tile and not ctx.self_drawn:
        _clash("replacement_tile", "self_drawn", "a replacement tile after a kong is always self-drawn")
    if ctx.replacement_tile and not any(m.is_kong for m in hand.melds) and not ctx.kita:
        raise ContradictoryContextError("replacement_tile: a replacement-tile win needs a kong in the melds "
                                        "(three-player Riichi: or a North set aside, kita)", "replacement_tile")
    if ctx.robbing_kong and ctx.last_wall_tile:
        _clash("robbing_kong", "last_wall_tile", "no kong can be declared once the wall is empty")
    if ctx.robbing_kong and ctx.replacement_tile:
        _clash("robbing_kong", "replacement_tile", "a win is either on a robbed kong or on a replacement tile")
    if ctx.heavenly and ctx.earthly:
        _clash("heavenly", "earthly",
               "the dealer's first-deal win and a non-dealer's first-draw win exclude each other")
    if ctx.heavenly and not ctx.self_drawn:
        _clash("heavenly", "self_drawn", "a heavenly hand is complete on the deal, so self-drawn")
    if (ctx.heavenly or ctx.earthly) and hand.melds and any(not m.concealed for m in hand.melds):
        raise ContradictoryContextError("heavenly/earthly: no tile has been claimed before a first-turn win",
                                        "heavenly" if ctx.heavenly else "earthly")
    if ctx.heavenly_ready and not ctx.ready_declared:
        _clash("heavenly_ready", "ready_declared", "a heavenly ready is a ready declaration")
    win = hand.winning_tile
    if win is not None:
        if ctx.robbing_kong:
            held = hand.counts()[win] - 1  # counted only when asked: the usual win robs no kong
            if held:
                raise ContradictoryContextError(
                    f"robbing_kong: the robbed {format_tile(win)} is the fourth copy, yet the hand holds {held} more",
                    "robbing_kong")
        if ctx.last_of_kind and win in hand.concealed:
            raise ContradictoryContextError(
                f"last_of_kind: {format_tile(win)} is also in the concealed tiles, so three copies are not shown",
                "last_of_kind")
    return ctx


def _check_flower_tiles(flower_tiles: tuple[Flower, ...]) -> None:
    seen: set[Flower] = set()
    for i, f in enumerate(flower_tiles):
        if type(f) is not Flower:
            raise BadContextError(f"flower_tiles[{i}]: {f!r} is not a flower (0-7: plum, orchid, chrysanthemum, "
                                  "bamboo, spring, summer, autumn, winter)", "flower_tiles")
        if f in seen:
            raise BadContextError(f"flower_tiles[{i}]: {f.name.lower()} is given twice; each flower exists once",
                                  "flower_tiles")
        seen.add(f)


def _clash(a: str, b: str, why: str) -> None:
    raise ContradictoryContextError(f"{a} and {b}: {why}", a)
