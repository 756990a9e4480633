"""Scoring a Riichi win: every decomposition scored, the highest-paying one chosen.

Per decomposition: the predicates find the yaku, the shared mechanism (engine.rules.principles) applies
the table's exclusions (a yakuman excludes every other yaku and the dora), the han of an open hand are
the table's `open_value`; no yaku, no win. Then dora, ura dora, red fives and kita (the rows predicates.py
leaves to this module: `PREDICATES.in_scoring`), fu, base points, payments. Renhou as a mangan (option
renhou) is scored here too. Best first: the most the winner is paid, then a yakuman before a counted
yakuman of the same points, then more han, then more fu, then engine.shapes' order.

`score` is the entry point (`RULE_SET.score`). What is asked of each shape, in which order and under which
`needs`, is derived once at import from the one registry, predicates.PREDICATES.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from engine.errors import ContradictoryContextError
from engine.hand import ClaimedFrom, Hand, MeldKind, WinContext
from engine.registry import REGISTRY
from engine.results import Evaluation, FanDef, FanHit, Scoring
from engine.rules.model import Scope
from engine.rules.principles import Principles
from engine.rules.riichi.facts import Facts, TileFacts
from engine.rules.riichi.fans import TABLE, Fan
from engine.rules.riichi.fu import fu as fu_of
from engine.rules.riichi.options import Renhou, RiichiOptions
from engine.rules.riichi.payments import base_points, pay, seat_of
from engine.rules.riichi.predicates import PREDICATES, Hits
from engine.shapes import Decomposition, ShapeKind, decompositions
from engine.tiles import DRAGONS, GREEN, M1, NORTH, RANKS, RED, SUITED, WHITE, WINDS, offset_in_suit, suit_first

SHAPES: Final = frozenset({ShapeKind.STANDARD, ShapeKind.SEVEN_PAIRS, ShapeKind.THIRTEEN_ORPHANS})
PRINCIPLES: Final = Principles(TABLE.rows)


def _needs(hints: Mapping[str, Any], name: str) -> int:
    """A registration's `needs` (bits of Facts.have; 0: always asked), the one hint Riichi's predicates take."""
    unknown = sorted(set(hints) - {"needs"})
    if unknown:
        raise ValueError(f"{name}: hints {unknown} mean nothing to Riichi's scoring (only needs)")
    needs = hints.get("needs", 0)
    if type(needs) is not int:
        raise ValueError(f"{name}: needs is a bit mask of Facts.have, not {needs!r}")
    return needs


# Every predicate, by yaku id, as the registry holds it: (needs, predicate).
_REGISTERED: Final[dict[int, tuple[int, Callable[[Facts], Hits]]]] = {
    p.id: (_needs(p.hints, p.row.name), p.find) for p in PREDICATES}
_ORDER: Final = sorted(_REGISTERED, key=lambda y: PRINCIPLES.rank[y])


class Rules:
    """The predicates one shape asks, in rank order, as parallel lists (compiled, read by index, not unpacked):
    the yaku, what each needs (its registration's `needs`), its predicate."""

    def __init__(self, keep: Callable[[int], bool]) -> None:
        ids = [y for y in _ORDER if keep(y)]
        self.yaku: list[int] = ids
        self.needs: list[int] = [_REGISTERED[y][0] for y in ids]
        self.rules: list[Callable[[Facts], Hits]] = [_REGISTERED[y][1] for y in ids]


# Which predicates can hold for a shape: a yaku scored on sets needs four sets and a pair (the table's
# `scope` says where each is scored), kokushi has only its own and the situation's.
_RULES_FOR: Final[dict[ShapeKind, Rules]] = {
    ShapeKind.STANDARD: Rules(lambda y: True),
    ShapeKind.SEVEN_PAIRS: Rules(lambda y: TABLE.by_id[y].scope is not Scope.SETS),
    ShapeKind.THIRTEEN_ORPHANS: Rules(lambda y: TABLE.by_id[y].scope is Scope.SITUATION
                                      or y in (int(Fan.KOKUSHI_MUSOU), int(Fan.KOKUSHI_MUSOU_13))),
}
_DEFS: Final[dict[int, FanDef]] = TABLE.def_by_id
# An open hand's yaku worth one han less (kuisagari) are reported with the han they count for.
_OPEN_DEFS: dict[int, FanDef] = {
    int(r.id): FanDef(int(r.id), r.name, r.native, r.open_value, TABLE.def_by_id[int(r.id)].excludes, r.description)
    if r.open_value else TABLE.def_by_id[int(r.id)] for r in TABLE.rows}
# A double yakuman counted once (option double_yakuman off) is reported at 13.
_SINGLE_DEFS: Final[dict[int, FanDef]] = {
    int(r.id): FanDef(int(r.id), r.name, r.native, 13, TABLE.def_by_id[int(r.id)].excludes, r.description)
    for r in TABLE.rows if r.limit}
NO_YAKU: Final = "no yaku: a complete hand needs at least one yaku to win (dora are not yaku)"

# Dora: the tile after the indicator, within its suit (9 -> 1), the winds (N -> E) and the dragons
# (white -> green -> red -> white).
_NEXT_OF = {**{t: suit_first(t) + (offset_in_suit(t) + 1) % RANKS for t in SUITED},
            **{w: WINDS[(i + 1) % 4] for i, w in enumerate(WINDS)},
            WHITE: GREEN, GREEN: RED, RED: WHITE}
_NEXT: Final[list[int]] = [_NEXT_OF[t] for t in range(34)]  # by tile index
# Three players (no 2m-8m): 1m indicates 9m, 9m indicates 1m (riichi.wiki "Sanma"; Tenhou, Mahjong Soul).
M9: Final = M1 + 8
_NEXT_3: Final[list[int]] = [M9 if t == M1 else _NEXT_OF[t] for t in range(34)]
_LIABLE: Final = {int(Fan.DAISANGEN): DRAGONS, int(Fan.DAISUUSHII): WINDS}
_N_IDS: Final = max(int(r.id) for r in TABLE.rows) + 1
# By yaku id (lists: an index, not a hashed key; an id the table lacks reads 0 / False / None).
_CLOSED_VALUE: Final[list[int]] = [0] * _N_IDS
_OPEN_VALUE: Final[list[int]] = [0] * _N_IDS
_LIMIT: Final[list[bool]] = [False] * _N_IDS
for _r in TABLE.rows:
    _CLOSED_VALUE[int(_r.id)] = _r.value
    _OPEN_VALUE[int(_r.id)] = _r.value_for(False)
    _LIMIT[int(_r.id)] = _r.limit
_PINFU: Final = int(Fan.PINFU)
_DORA: Final = int(Fan.DORA)
_URA_DORA: Final = int(Fan.URA_DORA)
_AKA_DORA: Final = int(Fan.AKA_DORA)
_KITA: Final = int(Fan.KITA)
_RENHOU: Final = int(Fan.RENHOU)
# The rows predicates.py leaves to this module (PREDICATES.in_scoring) are the dora `_score` counts.
if PREDICATES.in_scoring != frozenset((_DORA, _URA_DORA, _AKA_DORA, _KITA)) or PREDICATES.missing():
    raise ValueError("riichi: the rows without a predicate are not the dora scoring.py counts")
_MANGAN: Final = 2000
# Renhou as a mangan (option renhou = mangan) is reported at 5 han, the least a mangan has.
_RENHOU_MANGAN: Final = FanHit(FanDef(_RENHOU, TABLE.by_id[_RENHOU].name, TABLE.by_id[_RENHOU].native, 5,
                                      TABLE.def_by_id[_RENHOU].excludes, TABLE.by_id[_RENHOU].description))


_NO_SETS: Final[list[tuple[int, ...]]] = [()]
# FanHits are immutable and recur: one per yaku (closed and open values) by id, dora by count.
_HIT: Final[list[FanHit | None]] = [FanHit(_DEFS[y]) if y in _DEFS else None for y in range(_N_IDS)]
_OPEN_HIT: Final[list[FanHit | None]] = [FanHit(_OPEN_DEFS[y]) if y in _OPEN_DEFS else None for y in range(_N_IDS)]
_DORA_HITS: Final[dict[tuple[int, int], FanHit]] = {}


def _dora_hit(kind: int, n: int) -> FanHit:
    hit = _DORA_HITS.get((kind, n))
    if hit is None:
        hit = _DORA_HITS.setdefault((kind, n), FanHit(_DEFS[kind], n, (), ()))
    return hit


def dora_of(indicator: int, players: int = 4) -> int:
    return (_NEXT if players == 4 else _NEXT_3)[indicator]


def _count_dora(counts: list[int], indicators: tuple[int, ...], players: int, kita: int) -> int:
    """Dora the indicators make of the hand's tiles and of the North tiles set aside (kita)."""
    nexts = _NEXT if players == 4 else _NEXT_3
    n = 0
    for i in indicators:
        d = nexts[i]
        n += counts[d]
        if d == NORTH:
            n += kita
    return n


_NO_PAO: Final = -1  # the last such set was not claimed (held concealed, or fewer sets than needed in melds)
_UNSAID: Final = -2  # claimed, but its claimed_from is NONE: the context's `liable` says who


def _liable_seat(hand: Hand, ctx: WinContext, tiles: tuple[int, ...], players: int) -> int:
    """The seat wind of the player who fed the last of the three dragon (four wind) sets, if it was claimed."""
    sets = [m for m in hand.melds if m.kind != MeldKind.CHOW and m.tiles[0] in tiles]
    if len(sets) < len(tiles) or sets[-1].concealed:
        return _NO_PAO
    if sets[-1].claimed_from == ClaimedFrom.NONE:
        return _UNSAID
    return seat_of(ctx.seat_wind, sets[-1].claimed_from, players)


def _pao(hand: Hand, ctx: WinContext, tiles: tuple[int, ...], players: int) -> int | None:
    """The pao seat for a daisangen (daisuushii) counted: the melds' claimed_from, or the context's `liable`
    where the melds do not say; a `liable` that disagrees, or names a seat where no claim made one liable,
    is CONTRADICTORY_CONTEXT."""
    seat = _liable_seat(hand, ctx, tiles, players)
    given = ctx.liable
    if given == ClaimedFrom.NONE:
        return seat if seat >= 0 else None
    if seat == _NO_PAO:
        raise ContradictoryContextError("liable: no pao here, the last of the sets was not claimed from anyone",
                                        "liable")
    named = seat_of(ctx.seat_wind, given, players)
    if seat != _UNSAID and seat != named:
        raise ContradictoryContextError("liable: the melds' claimed_from make another seat liable", "liable")
    return named


# The exclusions applied to a set of yaku found depend on that set alone (Riichi scores no yaku on sets and
# uses no forest). A yaku that no other yaku found excludes, and that excludes none of them, is counted and
# changes nothing for the others (engine.rules.principles: only a counted yaku excludes, and only what its
# row names); so `Principles.apply` is asked about the rest only (usually nothing, or two or three yaku),
# and its answer is kept per such set, as a bit mask: bounded. tests/unit/test_riichi.py checks `counted_yaku`
# against `plain_counted_yaku` (the mechanism on the whole set) on every set of yaku the generated and
# majiang-core hands find and on random sets.
_COUNTED: Final[dict[int, int]] = {}
COUNTED_MAX: Final = 16384
_IDS: Final[list[int]] = sorted(_REGISTERED)
# Per yaku id: the yaku it excludes or is excluded by, outright or on sets (bit per id).
_TIED: Final[list[int]] = [0] * _N_IDS
for _y in _IDS:
    _bits = PRINCIPLES.exclude_bits.get(_y, 0)
    for _x in PRINCIPLES.on_sets.get(_y, ()):
        _bits |= 1 << _x
    _bits &= ~(1 << _y)
    _TIED[_y] |= _bits
    for _x in _IDS:
        if _bits >> _x & 1:
            _TIED[_x] |= 1 << _y


def plain_counted_yaku(found: int) -> tuple[int, ...]:
    """The yaku that count, in id order, of those found (bit per id): engine.rules.principles applied to all."""
    raw: dict[int, list[tuple[int, ...]]] = {}
    for y in _IDS:
        if found >> y & 1:
            raw[y] = _NO_SETS
    return tuple(PRINCIPLES.apply(raw))


# The bits set in each byte value, ascending: bit i of byte n of a mask stands for yaku 8 * n + i.
_BYTE_BITS: Final[list[list[int]]] = [[i for i in range(8) if v >> i & 1] for v in range(256)]


def _ids_of(mask: int) -> list[int]:
    """The yaku ids of a mask (bit per id), ascending."""
    out: list[int] = []
    base = 0
    while mask:
        byte = mask & 0xFF
        if byte:
            for i in _BYTE_BITS[byte]:
                out.append(base + i)
        mask >>= 8
        base += 8
    return out


def counted_yaku(found: int) -> tuple[int, ...]:
    """`plain_counted_yaku`, asking the mechanism only about the yaku tied to another one found."""
    ids = _ids_of(found)
    tied = 0
    for y in ids:
        if _TIED[y] & found:
            tied |= 1 << y
    if not tied:
        return tuple(ids)
    kept = _COUNTED.get(tied)
    if kept is None:
        kept = 0
        for y in plain_counted_yaku(tied):
            kept |= 1 << y
        if len(_COUNTED) < COUNTED_MAX:
            _COUNTED[tied] = kept
    return tuple(_ids_of(found & ~tied | kept))


def score_decomposition(f: Facts) -> Scoring:
    scored = _score(f)
    ctx = f.ctx
    if ctx.earthly and not ctx.self_drawn and f.options.renhou == Renhou.MANGAN:
        return _renhou_mangan(f, scored)
    return scored


def _score(f: Facts) -> Scoring:
    opts = f.options
    found = 0  # bit per yaku id
    have = f.have
    rules = _RULES_FOR[f.kind]
    ids = rules.yaku
    needs = rules.needs
    predicate = rules.rules
    for i in range(len(ids)):
        if not needs[i] & ~have and predicate[i](f):  # a predicate is asked only when the hand has what it needs
            found |= 1 << ids[i]
    counted = counted_yaku(found)
    closed = f.closed
    hits: list[FanHit] = []
    yakuman = 0
    han = 0
    values = _CLOSED_VALUE if closed else _OPEN_VALUE
    pinfu = False
    for y in counted:
        if y == _PINFU:
            pinfu = True
        value = values[y]
        if not value:
            continue
        hit = _HIT[y]
        assert hit is not None
        if _LIMIT[y]:
            multiple = value // 13 if opts.double_yakuman else 1
            yakuman = yakuman + multiple if opts.yakuman_stacking else max(yakuman, multiple)
            hits.append(hit if 13 * multiple == value else FanHit(_SINGLE_DEFS[y]))
            value = 13 * multiple
        else:
            if not closed:
                hit = _OPEN_HIT[y]
                assert hit is not None
            hits.append(hit)
        han += value
    if not hits:
        return Scoring((), 0, False, f.dec, reason=NO_YAKU)
    if yakuman and not opts.yakuman_stacking:  # only the largest counts
        best = max(hits, key=lambda h: (h.fan.points, -h.fan.id))
        hits = [best]
        han = best.fan.points if opts.double_yakuman else 13
    fu = 0
    fu_parts: tuple[tuple[str, int], ...] = ()
    if yakuman:
        han = 13 * yakuman
    else:
        counts = f.tiles.counts
        ctx = f.ctx
        players = opts.players
        kita = ctx.kita
        n = _count_dora(counts, ctx.dora_indicators, players, kita)
        if n:
            hits.append(_dora_hit(_DORA, n))
            han += n
        n = _count_dora(counts, ctx.ura_dora_indicators, players, kita)
        if n:
            hits.append(_dora_hit(_URA_DORA, n))
            han += n
        n = len(f.hand.red_fives) if opts.red_fives else 0
        if n:
            hits.append(_dora_hit(_AKA_DORA, n))
            han += n
        if kita:
            hits.append(_dora_hit(_KITA, kita))
            han += kita
        fu, fu_parts = fu_of(f, pinfu)
    base = base_points(han, fu, yakuman, opts.counted_yakuman, opts.kiriage_mangan, opts.counted_double_yakuman)
    ctx = f.ctx
    liable = None
    liable_base = 0
    if yakuman:
        for y, tiles in _LIABLE.items():
            if y in counted and (opts.yakuman_stacking or hits[0].fan.id == y):
                seat = _pao(f.hand, ctx, tiles, opts.players)
                if seat is not None:
                    liable = seat
                    liable_base = 8000 * min(_CLOSED_VALUE[y] // 13 if opts.double_yakuman else 1, 2)
    return _paid(f, tuple(hits), han, fu, yakuman, base, fu_parts, liable, liable_base)


def _paid(f: Facts, hits: tuple[FanHit, ...], han: int, fu: int, yakuman: int, base: int,
          fu_parts: tuple[tuple[str, int], ...], liable: int | None = None, liable_base: int = 0) -> Scoring:
    """The Scoring of a win worth `base` points, with its payments."""
    ctx = f.ctx
    opts = f.options
    players = opts.players
    winner = ctx.seat_wind
    discarder = None if f.self_drawn else seat_of(winner, ctx.discarded_by, players)
    points, change = pay(base, winner, discarder, ctx.honba, ctx.riichi_sticks, liable, liable_base, players,
                         opts.tsumo_loss)
    if players == 4:
        payments: tuple[tuple[int, int], ...] = ((0, change[0]), (1, change[1]), (2, change[2]), (3, change[3]))
    else:
        payments = ((0, change[0]), (1, change[1]), (2, change[2]))
    return Scoring(hits, han, True, f.dec, han, fu, yakuman, points, payments, fu_parts)


def _renhou_mangan(f: Facts, normal: Scoring) -> Scoring:
    """Renhou as a mangan (option renhou = mangan): the hand is paid a mangan on renhou alone unless its own
    yaku and dora pay more (riichi.wiki "Renhou": the higher of the two; dora alone do not count)."""
    if normal.meets_minimum and (normal.yakuman or normal.han >= 6):
        return normal
    return _paid(f, (_RENHOU_MANGAN,), 5, 0, 0, _MANGAN, ())


def _rank(s: Scoring) -> tuple[int, int, int, int]:
    """Most paid first; at equal points a yakuman before a counted one (13+ han, kazoe), as majiang-core's
    hule() keeps a result without fanshu; then more han, then more fu."""
    return (-s.points, 0 if s.yakuman else 1, -s.han, -s.fu)


def score(hand: Hand, ctx: WinContext, options: RiichiOptions) -> Evaluation:
    """The entry point (RULE_SET.score): every decomposition of a Riichi shape scored, the best first."""
    decs: list[Decomposition] = [d for d in decompositions(hand, False) if d.kind in SHAPES]
    if not decs:
        return Evaluation(False)
    tiles = TileFacts(hand, ctx)
    scored = [score_decomposition(Facts(hand, ctx, options, tiles, d)) for d in decs]
    wins = [s for s in scored if s.meets_minimum]
    if not wins:
        _check_liable(ctx, None)
        return Evaluation(False, scored[0], tuple(scored[1:]))
    if len(wins) == 1:  # the usual case: nothing to rank
        _check_liable(ctx, wins[0])
        return Evaluation(True, wins[0], ())
    order = sorted(range(len(wins)), key=lambda i: (_rank(wins[i]), i))
    _check_liable(ctx, wins[order[0]])
    return Evaluation(True, wins[order[0]], tuple(wins[i] for i in order[1:]))


def _check_liable(ctx: WinContext, best: Scoring | None) -> None:
    """A `liable` seat needs a win scored with big three dragons or big four winds (the pao yakuman)."""
    if ctx.liable == ClaimedFrom.NONE:
        return
    if best is None or not any(h.fan.id in _LIABLE for h in best.fans):
        raise ContradictoryContextError("liable: pao is for big three dragons or big four winds, and this hand "
                                        "is not scored with either", "liable")


# Built at import and never written after: the registry lists them (engine.registry).
REGISTRY.frozen("riichi.scoring", _REGISTERED=_REGISTERED, _ORDER=_ORDER, _RULES_FOR=_RULES_FOR, _DEFS=_DEFS,
                _OPEN_DEFS=_OPEN_DEFS, _SINGLE_DEFS=_SINGLE_DEFS, _NEXT_OF=_NEXT_OF, _NEXT=_NEXT, _NEXT_3=_NEXT_3,
                _LIABLE=_LIABLE, _CLOSED_VALUE=_CLOSED_VALUE, _OPEN_VALUE=_OPEN_VALUE, _LIMIT=_LIMIT, _NO_SETS=_NO_SETS,
                _HIT=_HIT, _OPEN_HIT=_OPEN_HIT, _DORA_HITS=_DORA_HITS, _COUNTED=_COUNTED, _IDS=_IDS,
                _TIED=_TIED, _BYTE_BITS=_BYTE_BITS)
