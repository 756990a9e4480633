"""mcr2p: two-player Chinese Official Mahjong (二人麻将), from seed 001_3096accfa750e5a7.

Tiles: characters 1-9 (indices 0-8) and the seven honours (27-33); any dot or bamboo tile, in the
concealed tiles, a meld or the winning tile, is a BAD_TILE naming the tile and the field.

The package contract (engine/rules/model.py): the fan table is the seed's (61 fans, points as given), in
`fans.py` as data, with this rule set's own ids 1-61 in the table's order (88 points first, 二五八将 = 61);
`predicates.py` holds one predicate per fan (`@fan(Fan.X)`), `facts.py` what they read, `scoring.py` the
entry point `score`, `options.py` the one option (ruling 11), `context.py` the context checks (rulings 10
and 11). The exclusions (不计) are the table's, applied by one mechanism in `scoring.py` (the MCR principles):

* non-repeat: a counted fan removes the fans its row excludes. For fans counted per set
  (幺九刻, 箭刻, 门风刻, 四归一, 一般高, 连六, 老少副) only the occurrences inside the excluding
  fan's sets go, so 小四喜 waives 幺九刻 on its wind pungs but a 999m pung still scores it;
* non-separation: every decomposition from engine.shapes is scored as a whole; no set is split;
* non-identical: the same fan on sets of the same contents counts once (123 123 456: one 连六);
* highest first: fans are tried from the most points down, so an excluding fan always comes
  before what it excludes, and combination fans take the bigger reading first;
* account-once: combination fans (同顺, 节高, 步高, 清龙, 双龙会, 一般高, 连六, 老少副) may only join
  sets not yet joined to each other, so the counted combinations form a forest over the sets
  (123 123 456 456: 一般高 x2 + 连六 x1; 清龙 plus a fourth chow: one more pair fan at most).

Every decomposition is scored; the best has the highest total, ties keep engine.shapes' order.

Rulings (where the table is silent or its code disagrees with it):

1. Minimum: the seed states none; 8 points as in MCR; meets_minimum is total >= 8. There is no flower
   fan in the table (the seed's table and code have none), so `flowers` and `flower_tiles` are not read:
   they are not in `context_fields` (a field a rule set does not read is refused, not ignored).
2. Seven pairs may use a four of a kind as two pairs (allow_quad_pairs): the table's 一色四同顺
   waives 七对, which only makes sense if 111122223333 + pair can be read as seven pairs.
3. Names: 大于五 / 小于五 as in the seed's code and the issue (the table row writes 大于5 / 小于5).
   English names follow pymahjonggb's MCR names where the fan exists there.
4. Exclusions naming fans absent from this table (圈风刻, 三元七对, 四喜七对) are dropped; there is no
   prevalent-wind fan, so a prevalent-wind pung scores 幺九刻 only.
5. Exclusions added by the non-repeat principle where the table omits them:
   - 幺九刻 is not counted on a pung already scored as 箭刻 / 门风刻 / 双箭刻 / 大三元 / 小三元 /
     三风刻 (the table's 幺九刻 includes dragons; the seed's code counts winds only);
   - 三暗刻 waives 双暗刻 (the table says so inside the 一色三步高 row);
   - 双暗杠 waives 暗杠 and 双暗刻 (concealed kongs are 暗刻, the table's 四暗刻 says so);
   - the kong ladder: 三杠 waives 双明杠, 明杠, 双暗杠, 暗杠; 四杠 also waives 双暗杠, 暗杠 and
     碰碰胡 (four kongs and a pair are necessarily all pungs);
   - 九莲宝灯, 大七星, 连七对 waive 不求人 (the table waives both its parts, 门前清 and 自摸);
   - 不求人 waives 自摸 (MCR; 门前清 needs a win on a discard by the table's definition, so the two
     never meet);
   - 地胡 waives 自摸 and 不求人, as 天胡 does (a first draw, necessarily concealed and self-drawn);
   - 天听 waives 报听 (it is a ready declaration);
   - 一色双龙会 waives 二五八将 (its pair is always the 5).
   No fan waives a bigger one: 大于五 / 小于五 keep 清一色 although only characters run 6-9 here.
   九莲宝灯 keeps 幺九刻 on its terminal pungs (table silent; MCR waives one, not adopted).
6. Definitions that follow the table, not the seed's code: 一色三同顺 is three identical chows
   (the table's text repeats 一色三节高's); 小于五 is ranks 1-4 (the code counts 5); 大于五 is 6-9;
   连七对 is seven consecutive pairs (the code demands all nine); 大三元 needs the three dragon pungs
   (the code looks at one position); 全带幺 needs a terminal or honour in every set and the pair.
7. Shapes: 混幺九, 全带幺, 平胡, 碰碰胡, 二五八将 need a standard hand (four sets and a pair, as
   the table defines them); 字一色, 清一色, 混一色, 断幺, 大于五, 小于五 judge the tiles of any shape
   (the table's 大七星 waives 字一色, so seven honour pairs are 字一色).
8. Waits (边张, 坎张, 单钓将): counted only when the 13 tiles before the win wait on that one tile
   (the table: 12345+3 is not 边张, 45567+6 not 坎张, 4556+5 is 坎张); a tile whose four copies are
   all held is no wait. The decomposition decides which: the pair -> 单钓将, middle of a chow ->
   坎张, the 3 of 123 or the 7 of 789 -> 边张.
9. 暗刻 counts concealed pungs and concealed kongs; a concealed pung completed by a claimed tile is
   melded. 门前清 and 不求人 allow concealed kongs; 全求人 needs four claimed sets (chow, pung or
   melded kong) and a win on a discard. 明杠 covers exposed and added kongs; 暗杠, 明杠, 双暗杠,
   双明杠, 三杠 and 四杠 count kongs of the hand (at least one / two).
10. Context checks, beyond engine.hand.validate_context (CONTRADICTORY_CONTEXT): 天胡 and 地胡 have
   no declared set (the table voids 天胡 after a concealed kong); 地胡 is self-drawn (the first
   draw); 天胡 is the dealer's (seat East), 地胡 a non-dealer's (seat not East); 天胡 with a ready
   declaration and a first-turn win on the last wall tile are refused. 海底捞月 is a win on the last
   discard (last_wall_tile and not self-drawn), 妙手回春 the self-drawn last wall tile. 天听 is declared
   on the deal, so a hand holding it has claimed no tile (a meld other than a concealed kong with 天听
   is CONTRADICTORY_CONTEXT).
11. Seats: two players, the dealer at East (the seed's code: 庄为东, 闲家为西). The non-dealer's seat wind
   is the one the table gives them; it decides 门风刻 only. By default any of South, West and North is
   accepted for the non-dealer; the option `non_dealer_seat` (west, south or north) names the one seat
   a table uses, and then a seat wind that is neither East nor that one is BAD_CONTEXT naming
   `seat_wind`. There is no prevalent-wind fan, so `prevalent_wind` is not read.
12. Payments (Scoring.payments): the seed's write-up names no payment rule, so the MCR competition rule's
   base of 8 applies between the two players (engine.rules.mcr.payments.two_player): the other player pays
   the total + 8, whether the win is self-drawn or on their discard (there is no third player, so no
   discarder to name: `discarded_by` is not read). Two entries, East first, summing to zero. The other
   player's seat: East when the non-dealer wins; when the dealer wins, the seat `non_dealer_seat` names, or
   West when it is "any" (the seed's code seats the non-dealer West: 闲家为西). A hand below the minimum
   has no payments.
"""

from __future__ import annotations

from engine.rules.mcr2p.context import check_context
from engine.rules.mcr2p.facts import TILE_KINDS
from engine.rules.mcr2p.fans import TABLE
from engine.rules.mcr2p.options import TwoPlayerOptions
from engine.rules.mcr2p.referee import REFEREE
from engine.rules.mcr2p.scoring import ALLOW_QUAD_PAIRS, MIN_POINTS, score
from engine.rules.model import RuleSet
from engine.shapes import ShapeKind

RULE_SET = RuleSet(
    name="mcr2p",
    title="Two-player Chinese Official (二人麻将)",
    table=TABLE,
    tiles=TILE_KINDS,
    shapes=frozenset({ShapeKind.STANDARD, ShapeKind.SEVEN_PAIRS}),
    options_type=TwoPlayerOptions,
    context_fields=("self_drawn", "last_of_kind", "replacement_tile", "robbing_kong", "last_wall_tile",
                    "seat_wind", "heavenly", "earthly", "ready_declared", "heavenly_ready"),
    minimum=MIN_POINTS,
    score=score,
    check_context=check_context,
    allow_quad_pairs=ALLOW_QUAD_PAIRS,
    tiles_note="which uses characters and honours only",
    referee=REFEREE,
)
