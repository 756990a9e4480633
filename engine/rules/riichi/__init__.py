"""riichi: Japanese Riichi Mahjong, four players, 136 tiles with red fives (standard competitive rules).

yaku.py holds the yaku as a fan table (Tenhou ids 0-54, English and Japanese names, han closed and
open, exclusions), predicates.py one predicate per yaku, facts.py what they read, fu.py the fu with
their parts, payments.py base points, limits, payments, honba, sticks and pao, scoring.py the rest.
Options (options.py) default to majiang-core's default rule, whose scored cases are an oracle.

Rulings (where rule books differ or the contract is silent):

1. Shapes: four sets and a pair, seven pairs of seven different kinds (four of a kind is not two
   pairs), thirteen orphans. The highest-paying decomposition wins: most points to the winner, then
   most han, then most fu.
2. A complete hand without a yaku is not a win: `is_win` false, and `best` is the decomposition scored
   with its `reason` ("no yaku ..."); dora alone are no yaku.
3. A pung completed by a discard is an open pung (fu, sanankou, suuankou); concealed kongs keep the hand
   closed. Pinfu needs a closed hand of four chows, a pair that is no value tile and a two-sided wait in
   the decomposition scored; self-drawn pinfu is 20 fu, an open hand of 20 fu is 30.
4. Yakuman exclude every other yaku and the dora; several yakuman add up (`yakuman_stacking`); the
   13-sided kokushi, suuankou tanki, junsei chuuren and daisuushii are double (`double_yakuman`); 13+ han
   is a counted yakuman paid 8,000 base but reported with `yakuman` 0, as majiang-core reports it.
5. Dora: each indicator names the next tile (9 -> 1, N -> E, white -> green -> red -> white); the dora
   are counted over all 14+ tiles (kongs count 4); red fives (`Hand.red_fives`, one per suit at most)
   count one each while the option `red_fives` is on. Ura dora need riichi.
6. Pao: the seat that fed the last dragon set of a daisangen or the last wind set of a daisuushii (the
   last such meld in `Hand.melds` order, claimed, not concealed) pays that yakuman on a self-draw, half
   of it on another player's discard (payments.py).
7. Context checks (CONTRADICTORY_CONTEXT unless said): riichi or double riichi with a claimed meld;
   ippatsu without riichi, or with a replacement tile (a kong after riichi ends ippatsu); ura dora
   without riichi; tenhou by a non-dealer, chiihou by the dealer, either with any meld (a concealed kong
   too) or with riichi; a replacement tile on the last wall tile (no kong once the wall is empty); a win
   on a discard without `discarded_by` (BAD_CONTEXT), a self-drawn one with it; flowers (BAD_CONTEXT: the
   game has none); more than 5 dora or ura dora indicators, honba or riichi sticks outside 0..100
   (BAD_CONTEXT); an indicator that would be a fifth copy of a tile with the hand's (TOO_MANY_COPIES); all
   four copies of a 5 held without its red five while the option red_fives is on (field red_fives).
"""

from __future__ import annotations

from engine.errors import BadContextError, ContradictoryContextError, TooManyCopiesError
from engine.hand import FIVES, ClaimedFrom, Hand, WinContext, Wind
from engine.rules.model import ALL_TILES, RuleSet
from engine.rules.riichi.options import RiichiOptions
from engine.rules.riichi.scoring import SHAPES, evaluate
from engine.rules.riichi.yaku import TABLE
from engine.tiles import format_tile

MAX_INDICATORS = 5
MAX_COUNTERS = 100


def _clash(field: str, why: str) -> None:
    raise ContradictoryContextError(f"{field}: {why}", field)


def check_context(hand: Hand, ctx: WinContext, options: RiichiOptions) -> None:
    """The Riichi context checks beyond engine.hand.validate_context (ruling 7)."""
    if type(ctx.riichi) is not bool or type(ctx.double_riichi) is not bool or type(ctx.ippatsu) is not bool:
        for name in ("riichi", "double_riichi", "ippatsu"):
            if type(getattr(ctx, name)) is not bool:
                raise BadContextError(f"{name}: expected true or false, got {getattr(ctx, name)!r}", name)
    if ctx.flowers or ctx.flower_tiles:
        name = "flowers" if ctx.flowers else "flower_tiles"
        raise BadContextError(f"{name}: Riichi is played without flowers", name)
    honba, sticks = ctx.honba, ctx.riichi_sticks
    if type(honba) is not int or type(sticks) is not int or not (0 <= honba <= MAX_COUNTERS
                                                                 and 0 <= sticks <= MAX_COUNTERS):
        for name in ("honba", "riichi_sticks"):
            value = getattr(ctx, name)
            if type(value) is not int or not 0 <= value <= MAX_COUNTERS:
                raise BadContextError(f"{name}: {value!r} is out of range 0..{MAX_COUNTERS}", name)
    counts = hand.counts()
    for name in ("dora_indicators", "ura_dora_indicators"):
        tiles = getattr(ctx, name)
        if len(tiles) > MAX_INDICATORS:
            raise BadContextError(f"{name}: at most {MAX_INDICATORS} indicators (one and one per kong), "
                                  f"got {len(tiles)}", name)
        for t in tiles:
            counts[t] += 1
            if counts[t] > 4:
                raise TooManyCopiesError(f"{name}: {format_tile(t)} would be a fifth copy with the hand's tiles "
                                         "and the other indicators", name)
    if options.red_fives:
        for five in FIVES:
            if counts[five] - ctx.dora_indicators.count(five) - ctx.ura_dora_indicators.count(five) == 4 \
                    and five not in hand.red_fives:
                raise ContradictoryContextError(
                    f"red_fives: the hand holds all four {format_tile(five)}, so one is the red five (option "
                    "red_fives on): list it in red_fives", "red_fives")
    declared = ctx.riichi or ctx.double_riichi
    claimed = [m for m in hand.melds if not m.concealed]
    if declared and claimed:
        _clash("riichi" if ctx.riichi else "double_riichi", "riichi is declared with a closed hand, and this hand "
               "has claimed a meld")
    if ctx.ippatsu and not declared:
        _clash("ippatsu", "ippatsu is a win right after a riichi declaration; riichi is not set")
    if ctx.ippatsu and ctx.replacement_tile:
        _clash("ippatsu", "declaring a kong after riichi ends the ippatsu, so no ippatsu on a replacement tile")
    if ctx.ura_dora_indicators and not declared:
        _clash("ura_dora_indicators", "ura dora are revealed for a riichi hand only")
    for name, dealer in (("heavenly", True), ("earthly", False)):
        if getattr(ctx, name):
            if (ctx.seat_wind == Wind.EAST) != dealer:
                _clash(name, "tenhou is the dealer's (East) win on the deal" if dealer
                       else "chiihou is a non-dealer's win on the first draw; East is the dealer")
            if hand.melds:
                _clash(name, "a first-turn win has declared nothing, not even a concealed kong")
            if declared:
                _clash(name, "a first-turn win comes before any riichi")
            if not ctx.self_drawn:
                _clash(name, "a first-turn win is self-drawn")
    if ctx.replacement_tile and ctx.last_wall_tile:
        _clash("replacement_tile", "no kong can be declared on the last wall tile, so no replacement tile follows")
    if ctx.self_drawn and ctx.discarded_by != ClaimedFrom.NONE:
        _clash("discarded_by", "a self-drawn win has no discarder")
    if not ctx.self_drawn and ctx.discarded_by == ClaimedFrom.NONE:
        raise BadContextError("discarded_by: a win on a discard (or a robbed kong) needs the seat that "
                              "discarded: left, across or right", "discarded_by")


RULE_SET = RuleSet(
    name="riichi",
    title="Japanese Riichi (リーチ麻雀)",
    table=TABLE,
    tiles=ALL_TILES,
    shapes=SHAPES,
    options_type=RiichiOptions,
    context_fields=("self_drawn", "replacement_tile", "robbing_kong", "last_wall_tile", "seat_wind",
                    "prevalent_wind", "flowers", "flower_tiles", "heavenly", "earthly", "riichi", "double_riichi",
                    "ippatsu", "dora_indicators", "ura_dora_indicators", "honba", "riichi_sticks", "discarded_by"),
    minimum=1,
    score=evaluate,
    check_context=check_context,
    allow_quad_pairs=False,
)
