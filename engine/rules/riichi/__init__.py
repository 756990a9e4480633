"""riichi: Japanese Riichi Mahjong, four players, 136 tiles with red fives (standard competitive rules).

yaku.py holds the yaku as a fan table (Tenhou ids 0-54, English and Japanese names, han closed and
open, exclusions), predicates.py one predicate per yaku, facts.py what they read, fu.py the fu with
their parts, payments.py base points, limits, payments, honba, sticks and pao, scoring.py the rest.
Options (options.py) default to majiang-core's default rule, whose scored cases are an oracle.

Rulings (where rule books differ or the contract is silent):

1. Shapes: four sets and a pair, seven pairs of seven different kinds (four of a kind is not two
   pairs), thirteen orphans. The highest-paying decomposition wins: most points to the winner, then a
   yakuman before a counted yakuman of the same points (majiang-core's rule; `mahjong` and riichienv
   agree: 111222333m + EEE + WW self-drawn with riichi and five dora is suuankou, not 13 counted han of
   sanrenkou-as-chows), then most han, then most fu.
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

from engine.rules.model import ALL_TILES, RuleSet
from engine.rules.riichi.context import check_context
from engine.rules.riichi.options import RiichiOptions
from engine.rules.riichi.scoring import SHAPES, evaluate
from engine.rules.riichi.yaku import TABLE

RULE_SET = RuleSet(
    name="riichi",
    title="Japanese Riichi (リーチ麻雀)",
    table=TABLE,
    tiles=ALL_TILES,
    shapes=SHAPES,
    options_type=RiichiOptions,
    context_fields=("self_drawn", "replacement_tile", "robbing_kong", "last_wall_tile", "seat_wind",
                    "prevalent_wind", "heavenly", "earthly", "riichi", "double_riichi",
                    "ippatsu", "dora_indicators", "ura_dora_indicators", "honba", "riichi_sticks", "discarded_by"),
    minimum=1,
    red_fives=True,
    score=evaluate,
    check_context=check_context,
    allow_quad_pairs=False,
)
