"""riichi: Japanese Riichi Mahjong, four players, 136 tiles with red fives (standard competitive rules), or
three (option players=3, sanma: 108 tiles).

The package contract's files (engine/rules/model.py): fans.py holds the yaku as a fan table (Tenhou ids
0-54 and our 55, kita; English and Japanese names, han closed and open, exclusions), predicates.py one
predicate per yaku, facts.py what they read, scoring.py `score` (the decompositions scored, the dora,
the best chosen), payments.py base points, limits, payments, honba, sticks and pao, context.py the context
checks, referee.py the hand's log replayed. The rule set's own module: fu.py, the fu with their parts
(read by scoring.py). Options (options.py) default to majiang-core's default rule, whose scored cases are
an oracle.

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
   too) or with riichi (a replacement tile that is the last wall tile is allowed: ruling 11); a win
   on a discard without `discarded_by` (BAD_CONTEXT), a self-drawn one with it; flowers are refused by the
   engine's unread-field check (BAD_CONTEXT: the game has none); more than 5 dora or ura dora indicators,
   honba or riichi sticks outside 0..100
   (BAD_CONTEXT); an indicator that would be a fifth copy of a tile with the hand's (TOO_MANY_COPIES); all
   four copies of a 5 held without its red five while the option red_fives is on (field red_fives).
8. Three players (players=3; riichi.wiki "Sanma", and its "Majsoul" page: Mahjong Soul's sanma follows
   Tenhou's): 2m-8m are BAD_TILE (hand, melds, winning tile, indicators, Analyze's hand and visible tiles)
   and never offered as waits or useful tiles; a chow meld is BAD_MELD; seats and rounds are East, South,
   West (seat_wind or prevalent_wind North is BAD_CONTEXT), so North is a guest wind, never a value tile;
   left is the player before in turn, right the one after, and ACROSS (melds' claimed_from, discarded_by,
   liable) is refused. 1m indicates 9m (9m indicates 1m, as in four-player). `kita` (0-4, BAD_CONTEXT
   otherwise or with four players; TOO_MANY_COPIES with the North tiles held) counts one dora each (the
   row "North Dora (kita)", id 55, ours) and counts as North tiles for the dora and ura indicators (a West
   indicator makes each kita a second dora); dora only, no yaku. A kita before a first-turn win voids it; a
   win on the tile drawn after a kita is rinshan kaihou (replacement_tile without a kong, kita > 0).
   Payments: a discard as in four-player but for its honba (200 a counter with tsumo loss); a self-draw per
   `tsumo_loss` (payments.py). Red fives: unset
   red_fives_per_suit means 5p and 5s (Tenhou's sanma set); a red 5m is BAD_OPTION.
9. Renhou (option renhou; riichi.wiki "Renhou", "Rule variations"): `earthly` with self_drawn false, a
   non-dealer's win on a discard in the first uninterrupted go-around (no meld, no kita, no riichi, not a
   robbed kong, not the last tile: CONTRADICTORY_CONTEXT). Off (Tenhou, majiang-core): BAD_CONTEXT on
   earthly, since the flag would mean nothing. Yakuman: the Tenhou id 36 row, a yakuman like chiihou.
   Mangan: the hand is paid a mangan (reported as renhou, 5 han) unless its own yaku and dora make 6 han or
   more (or a yakuman), then it is scored as it stands without renhou; it is a win even without a yaku.
10. Red fives per suit (red_fives_per_suit: three counts m p s, 0-2; unset: one each while red_fives is
   on): more red fives of a suit than the set has is TOO_MANY_COPIES on red_fives; holding more 5s of a suit
   than its plain ones is CONTRADICTORY_CONTEXT (list the red ones); a wrong length or a count outside 0-2,
   or a red five counted while red_fives is off, is BAD_OPTION naming the field.
11. counted_double_yakuman (default off, majiang-core's rule): 26+ counted han is paid as two yakuman
   (16,000 base), still reported with `yakuman` 0. A replacement tile that is also the last wall tile scores
   rinshan kaihou alone, no haitei (Tenhou; riichi.wiki "Rinshan kaihou" and "Haitei raoyue and houtei
   raoyui": after a kan on the second-to-last tile the last tile is the replacement, not a live-wall draw).
12. Pao and `liable`: the liable seat comes from the melds (ruling 6); a `liable` that names another seat
   than the melds do, or one where the last dragon (wind) set was not claimed (held, or a concealed kong), or
   on a hand not scored with daisangen or daisuushii, is CONTRADICTORY_CONTEXT; where the last set's meld
   is claimed but says no claimed_from, `liable` names the seat. Three players: on a self-draw the liable
   seat pays what the payers would have (with tsumo loss: 2 shares, not 3).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import analysis
from engine.errors import BadMeldError, BadTileError
from engine.hand import Hand, MeldKind
from engine.results import Analysis
from engine.rules.model import ALL_TILES, RuleSet
from engine.rules.riichi.context import SANMA_TILES, check_context
from engine.rules.riichi.fans import TABLE
from engine.rules.riichi.options import RiichiOptions
from engine.rules.riichi.referee import REFEREE
from engine.rules.riichi.scoring import SHAPES, score
from engine.tiles import format_tile, tile_name


def analyze(hand: Hand, visible: Sequence[int], options: RiichiOptions) -> Analysis:
    """Analyze over the tiles the table plays: three players offer no 2m-8m as waits or useful tiles, and
    such a tile (or a declared chow) in the hand or `visible` is refused."""
    if options.players == 4:
        return analysis.analyze(hand, visible, tile_kinds=ALL_TILES, allow_quad_pairs=False, shapes=SHAPES)
    where = [("concealed", t) for t in hand.concealed]
    for i, m in enumerate(hand.melds):
        if m.kind == MeldKind.CHOW:
            raise BadMeldError(f"melds[{i}]: three-player Riichi has no chow (options.riichi.players = 3)",
                               f"melds[{i}]")
        where += [(f"melds[{i}].tiles", t) for t in m.tiles]
    if hand.winning_tile is not None:
        where.append(("winning_tile", hand.winning_tile))
    where += [("visible", t) for t in visible]
    for name, t in where:
        if t not in SANMA_TILES:
            raise BadTileError(f"{name}: {format_tile(t)} ({tile_name(t)}) is not played in three-player Riichi "
                               "(options.riichi.players = 3: no 2m-8m)", name)
    return analysis.analyze(hand, visible, tile_kinds=SANMA_TILES, allow_quad_pairs=False, shapes=SHAPES)


RULE_SET = RuleSet(
    name="riichi",
    title="Japanese Riichi (リーチ麻雀)",
    table=TABLE,
    tiles=ALL_TILES,
    shapes=SHAPES,
    options_type=RiichiOptions,
    context_fields=("self_drawn", "replacement_tile", "robbing_kong", "last_wall_tile", "seat_wind",
                    "prevalent_wind", "heavenly", "earthly", "riichi", "double_riichi",
                    "ippatsu", "dora_indicators", "ura_dora_indicators", "honba", "riichi_sticks", "discarded_by",
                    "liable", "kita"),
    minimum=1,
    red_fives=True,
    score=score,
    check_context=check_context,
    allow_quad_pairs=False,
    analyze=analyze,
    referee=REFEREE,
)
