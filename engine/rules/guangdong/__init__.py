"""guangdong: Guangdong 推倒胡 ("push down and win"), with ghost tiles (鬼牌) as wildcards.

The hand: 136 tiles (option `honors` off: 108, an honour anywhere is BAD_TILE naming the field). Pungs
and kongs may be declared, a chow only with `chow_melds` (BAD_MELD otherwise). Any complete hand wins
(鸡胡): four sets and a pair, seven pairs (a four of a kind counts as two pairs; option), thirteen
orphans (option); the ghosts (`ghosts`: the wild kinds; empty, white, red, or the one or two kinds after
a flipped indicator: the client names them) stand for any tile, their own kind included, even a fifth
copy (engine.wildcards); with `four_ghosts_win` four ghosts in hand win whatever the rest.

Wins only by self-draw or robbing a kong unless `self_draw_only` is off (a discard win asked for while
it is on is CONTRADICTORY_CONTEXT naming context.self_drawn). Multipliers: 无鬼 x2, 七对 x2, 杠上开花
x2 (or x1), 四鬼胡牌 x1 (or x2), and the big hands a room prices (碰碰胡, 清一色, 豪华七对, 十三幺: x1 by
default); 抢杠全包 and 杠爆全包 decide who pays (a robbed kong is scored as a self-draw: without 抢杠全包
every other player pays its share, S1); horses (买马, the drawn tiles in WinContext.horse_tiles) naming
the winner's seat add the hand's multiple once more each (马跟底分) or a fixed horse_value, and with
马跟杠 the winner's kongs (concealed 2, else 1) once more each; 节节高 (WinContext.streak, option
streak_value) adds per consecutive dealer win; 跟庄 (WinContext.follow_dealer) has the dealer pay everyone.
`Scoring.total` is the multiple (multipliers + horses hit x (multipliers or horse_value) + 马跟杠 + 节节高),
`Scoring.points` = base_points x total, `Scoring.payments` every seat's change (payments.py). Options,
defaults and the rule sheets they follow: options.py and docs/rules/guangdong.md. Kong money itself
(明杠 / 暗杠 payments when a kong is declared) is a referee matter, not a win's: 马跟杠 here only adds to
the win.

Rulings: a ghost inside a declared meld is its own kind (only concealed ghosts are wild), but it is
held, so the hand is not 无鬼; a drawn ghost as winning tile is wild; 四鬼胡牌 scores whenever four
ghosts are concealed (and wins on its own only with four_ghosts_win); a four-ghost win whose other
tiles make no shape is listed with the melds as sets and every concealed tile in `knitted`.
Every decomposition scores the same except seven pairs, so the best is a seven-pairs reading where
there is one (x2).

The files (engine/rules/model.py: the package contract): fans.py (the rows), facts.py (what the
predicates read of a hand and one reading of it), predicates.py (one `@fan` per row a hand earns or not),
scoring.py (`score`: the readings, the rows it scores itself, the multiple), options.py, context.py (the
checks of the hand and context), payments.py (who pays), referee.py (kong money and the settled hand);
and, this rule set's own, analysis.py (Analyze with the ghosts as wildcards and 四鬼胡牌's route:
RULE_SET.analyze).
"""

from __future__ import annotations

from engine.rules.guangdong.analysis import analyze
from engine.rules.guangdong.context import check_context
from engine.rules.guangdong.fans import TABLE
from engine.rules.guangdong.options import GuangdongOptions
from engine.rules.guangdong.referee import REFEREE
from engine.rules.guangdong.scoring import SHAPES, score
from engine.rules.model import ALL_TILES, RuleSet

CONTEXT_FIELDS = ("self_drawn", "replacement_tile", "robbing_kong", "seat_wind", "discarded_by", "follow_dealer",
                  "horse_tiles", "kong_fed_by", "streak")

RULE_SET = RuleSet(
    name="guangdong",
    title="Guangdong 推倒胡",
    table=TABLE,
    tiles=ALL_TILES,
    shapes=SHAPES,
    options_type=GuangdongOptions,
    context_fields=CONTEXT_FIELDS,
    minimum=0,
    score=score,
    check_context=check_context,
    allow_quad_pairs=True,
    analyze=analyze,
    referee=REFEREE,
)
