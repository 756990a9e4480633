"""Scoring a Sichuan win and its payments: `score`, the entry point (RULE_SET.score). Context checks are
context.py's; Analyze and the wall's-end value are ready.py's."""

from __future__ import annotations

from collections.abc import Callable

from engine.hand import Hand, PriorKong, Suit, WinContext
from engine.registry import REGISTRY
from engine.results import Evaluation, FanHit, Scoring
from engine.rules.model import Occurrence
from engine.rules.principles import Principles
from engine.rules.sichuan import payments
from engine.rules.sichuan.facts import Facts, HandFacts, bloom_as_discard, hand_facts
from engine.rules.sichuan.fans import CHENGDU_ROWS, MIL_ROWS, TABLE
from engine.rules.sichuan.options import SelfDraw, SichuanOptions, Variant
from engine.rules.sichuan.predicates import PREDICATES
from engine.shapes import Decomposition, ShapeKind, decompositions

SHAPES = frozenset({ShapeKind.STANDARD, ShapeKind.SEVEN_PAIRS})

Find = Callable[[Facts], list[Occurrence]]

# Per variant: its rows' predicates to ask, highest first (then by id), and the exclusion mechanism over
# its rows; derived once from fans.py's rows and the one registry (PREDICATES).
_ROWS = {Variant.MIL: MIL_ROWS, Variant.CHENGDU: CHENGDU_ROWS}
_PRINCIPLES = {v: Principles(rows) for v, rows in _ROWS.items()}
_ORDER: dict[Variant, list[tuple[int, Find]]] = {
    v: [(int(r.id), PREDICATES.by_id[int(r.id)].find) for r in sorted(rows, key=lambda r: (-r.value, int(r.id)))]
    for v, rows in _ROWS.items()}


# ---------------------------------------------------------------------------------------------
# Is it a win at all


def void_suit(ctx: WinContext | None, opts: SichuanOptions) -> Suit | None:
    return ctx.void_suit if ctx is not None and ctx.void_suit is not None else opts.void_suit


def keeps_void(h: HandFacts, void: Suit | None) -> bool:
    """缺一门: no tile of the void suit anywhere (standing, melded or the winning tile); with no void
    suit given, at most two suits."""
    if void is None:
        return len(h.suits) <= 2
    return int(void) not in h.suits


def winning_decompositions(hand: Hand, h: HandFacts, void: Suit | None) -> list[Decomposition]:
    if not keeps_void(h, void):
        return []
    return [d for d in decompositions(hand, True) if d.kind in SHAPES]


# ---------------------------------------------------------------------------------------------
# Fans, value, payments


def _fan_hit(fid: int, occs: list[Occurrence], f: Facts) -> FanHit:
    sets = tuple(sorted({i for o in occs for i in o}))
    tiles = tuple(t for i in sets for t in f.sets[i].tiles)
    return FanHit(TABLE.def_by_id[fid], len(occs), sets, tiles)


def score_decomposition(f: Facts) -> tuple[Scoring, int]:
    """The scoring of one decomposition and its uncapped fan total."""
    variant = f.opts.variant
    raw: dict[int, list[Occurrence]] = {}
    for fid, find in _ORDER[variant]:
        occs = find(f)
        if occs:
            raw[fid] = occs
    counted = _PRINCIPLES[variant].apply(raw)
    hits = sorted((_fan_hit(fid, occs, f) for fid, occs in counted.items()), key=lambda h: (-h.fan.points, h.fan.id))
    uncapped = sum(h.points for h in hits)
    cap = f.opts.cap
    # MIL: a first-turn hand scores the cap itself (no fan row); Chengdu prices 天胡 / 地胡 as rows (x32)
    first_turn = (f.ctx.heavenly or f.ctx.earthly) and f.opts.heavenly_earthly and variant == Variant.MIL
    total = cap if first_turn else min(uncapped, cap)
    value = 2 ** total
    return Scoring(tuple(hits), total, True, f.dec, points=value, payments=settle(f.ctx, f.opts, value)), uncapped


def settle(ctx: WinContext, opts: SichuanOptions, value: int) -> tuple[tuple[int, int], ...]:
    """Every seat's signed change for this win, (seat wind, amount), East first (see payments.py)."""
    winner = ctx.seat_wind
    if bloom_as_discard(ctx, opts):  # 点杠花当炮: the feeder pays as if the win were on its discard
        rows = payments.win_payments(
            winner=winner, value=value, self_drawn=False, add_base=False,
            discarder=payments.seat_from(winner, ctx.kong_fed_by), seats_out=ctx.seats_out, kong=PriorKong.NONE,
            kong_declarer=None, kong_supplier=None, kong_to_winner=False)
        return tuple((int(seat), amount) for seat, amount in rows)
    discarder = None if ctx.self_drawn else payments.seat_from(winner, ctx.discarded_by)
    supplier = None
    if ctx.prior_kong == PriorKong.EXPOSED and discarder is not None:
        supplier = payments.seat_from(discarder, ctx.prior_kong_claimed_from)
    kong = ctx.prior_kong
    if discarder is not None and payments.kong_money_taker(discarder, (winner, *ctx.other_winners)) != winner:
        kong = PriorKong.NONE  # 一炮多响: the kong money moves with another winner's win
    rows = payments.win_payments(
        winner=winner, value=value, self_drawn=ctx.self_drawn,
        add_base=opts.self_draw == SelfDraw.ADD_BASE, discarder=discarder, seats_out=ctx.seats_out,
        kong=kong, kong_declarer=discarder, kong_supplier=supplier,
        kong_to_winner=ctx.after_kong_discard and opts.transfers_kong_money)
    return tuple((int(seat), amount) for seat, amount in rows)


def score(hand: Hand, ctx: WinContext, opts: SichuanOptions) -> Evaluation:
    """Every decomposition scored, best first: the highest capped total, then the highest uncapped,
    then engine.shapes' order."""
    h = hand_facts(hand)
    decs = winning_decompositions(hand, h, void_suit(ctx, opts))
    if not decs:
        return Evaluation(False)
    scored = [score_decomposition(Facts(hand, ctx, opts, d, h)) for d in decs]
    order = sorted(range(len(scored)), key=lambda i: (-scored[i][0].total, -scored[i][1], i))
    ranked = [scored[i][0] for i in order]
    return Evaluation(True, ranked[0], tuple(ranked[1:]))


# Built at import and never written after: the registry lists them (engine.registry).
REGISTRY.frozen("sichuan.scoring", _ROWS=_ROWS, _PRINCIPLES=_PRINCIPLES, _ORDER=_ORDER)
