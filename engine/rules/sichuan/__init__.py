"""sichuan: Sichuan 血战到底 (108 tiles, a void suit, no chows, fan doubling to a cap, payments).

The hand: characters, dots and bamboo only (an honour anywhere is BAD_TILE naming the field); pungs
and kongs may be declared, never a chow (BAD_MELD); sequences are fine among the standing tiles. A win
is four sets and a pair, or seven pairs (a four of a kind counts as two pairs), holding no tile of the
void suit anywhere, standing, melded or the winning tile (缺一门). Without a void suit
(WinContext.void_suit unset) the hand may hold at most two suits. The value of a hand is 2 ^ capped
fan (`Scoring.points`; `Scoring.total` is the capped fan); `Scoring.payments` gives every seat's
signed change for the win (payments.py).

Two rule sheets (option `variant`), their tables in fans.py (one predicate per row in predicates.py):

* MIL, the Mahjong International League rules as the open-source engine dcmshi/sichuan-mahjong plays
  them (MIT; 6,508 of its scored cases in /work/shared/oracles/sichuan are checked in the tests): Kong
  +1 per declared kong, Root +1 per four of a kind that is not a declared kong, All Pungs 1, Golden
  Wait 1 (all pungs, won on the pair), Full Flush 2, Seven Pairs 2, Win After Kong 1, Shoot After Kong
  1, Robbing the Kong 1, Under the Sea 1 (the last wall tile, drawn or discarded). All add up.
* Chengdu, the 血战到底 page of a Sichuan mahjong client's rule sheet (QuiQiJingFeng/M2_CLIENT,
  cocosstudio/games/scmj/scmjRuleListLayer.csd, read for its facts): the hand patterns are not added,
  only the largest counts (平胡 0, 对对胡 1, 清一色 / 带幺九 / 七对 / 金钩钓 2, 清对 / 将对 3,
  龙七对 / 清七对 / 清幺九 / 将金钩钓 / 清金钩钓 4, 清龙七对 / 天胡 / 地胡 5, 十八罗汉 6, 清十八罗汉 8, the
  sheet's x1 ... x256 as fan), plus 根 per four of a kind (a kong is one too; 龙七对 and 十八罗汉
  already price theirs), 杠上花, 杠上炮, 抢杠胡 +1 each; the room options 门清 and 中张 (断幺九) +1
  each under `concealed_simples`.

Options (options.py, each with its source in docs/rules/sichuan.md): fan_cap 3-8, unset the variant's:
MIL 4 (the reference engine's default), Chengdu 6 (the sheet's 查花猪 pays "封顶倍数（x64）"); 8 is the
dearest figure the sheet prints (清十八罗汉 x256), so a room can play the sheet's prices uncapped.
heavenly_earthly (default on): MIL scores a heavenly or earthly hand at the cap (the hand's own fans
shown, the capped total); Chengdu prices 天胡 / 地胡 by their rows, 5 fan (x32), capped like any hand.
self_draw: 自摸加底 (default; each payer pays value + 1), 自摸加番 (+1 fan, the Self-Drawn row) or
nothing; call_transfer (呼叫转移, default: Chengdu yes, MIL no); kong_bloom_payer (点杠花, the Chengdu
sheet's room option): ALL (default, 点杠花当自摸: a self-draw) or FEEDER (点杠花当炮: the feeder named by
WinContext.kong_fed_by pays alone, as on a discard: no 自摸加底 / 自摸加番; 杠上花 still counts).

一炮多响 (several players win on one discard): the Chengdu sheet settles each winner with the discarder
alone ("点炮者与每个被点炮者单独结算"), so each win is its own Evaluate; but the discarder's kong money
(呼叫转移's transfer, or a refund) exists once. The sheet does not say who gets it; this engine's rule:
the first winner in turn order after the discarder (its 下家 first), the order in which the discard would
be claimed. Each winner's context lists the others in `other_winners`; only that first winner's win
moves the kong money, so the discarder never pays out more than it took.

Analyze (ready.py) counts 缺一门: shanten is the least number of exchanges to a 13-tile hand with a
legal wait, over the suits the hand may keep; a concealed tile of the void suit (or of a third suit)
costs one exchange; shanten 0 exactly when a tile completes a legal win, a fifth copy being none. A
declared meld of the void suit, or melds in three suits, can never win: BAD_MELD naming the meld.

The package keeps the rule-set contract (engine/rules/model.py: fans.py, facts.py, predicates.py,
scoring.py, options.py, context.py, payments.py, referee.py) and two modules of its own: ready.py
(Analyze under 缺一门 and the wall's-end value) and round_options.py (the options of a whole 血战 round, read
by the referee).

Rulings (where the reference engine departs from the published rules, the rules are followed, and
tested by hand in tests/unit/test_sichuan.py):

1. 杠上炮 on the last tile scores both Shoot After Kong and Under the Sea, and refunds the kong (the
   reference's game logic passes only 海底 in that case; its own scorer, given both, counts both).
2. A void-suit tile inside a declared meld makes the hand a false win, not a win.
3. Five copies of a tile are TOO_MANY_COPIES, never a hand.
4. A heavenly declaration on a hand that is not complete is not a win (the cap is for winning hands).

Context (checks beyond engine.hand.validate_context, CONTRADICTORY_CONTEXT or BAD_CONTEXT): seats are
winds with East the dealer; the winner is `seat_wind`; a win on a discard (or a robbed kong) needs
`discarded_by` (relative to the winner: LEFT plays just before); `seats_out` may not hold the winner,
the discarder or a seat twice, and at most two seats; `other_winners` (一炮多响) only on a discard or a
robbed kong, never the winner, the discarder, a seat out or a seat twice; `kong_fed_by` (点杠花) only on a
self-draw on a replacement tile, never a seat out; 杠上炮 is a win on a discard; `prior_kong` (the
kong whose money moves) only with 杠上炮 or a robbed kong, a robbed kong is an added one, and
`prior_kong_claimed_from` is given exactly for an exposed kong; 天胡 is East's, 地胡 another seat's
self-draw, neither with a declared set nor on the last tile or after a kong.
"""

from __future__ import annotations

from engine.rules.model import RuleSet
from engine.rules.sichuan.context import check_context
from engine.rules.sichuan.facts import SUITED
from engine.rules.sichuan.fans import TABLE
from engine.rules.sichuan.options import SichuanOptions
from engine.rules.sichuan.ready import analyze
from engine.rules.sichuan.referee import REFEREE
from engine.rules.sichuan.scoring import SHAPES, score

CONTEXT_FIELDS = ("self_drawn", "replacement_tile", "robbing_kong", "last_wall_tile", "seat_wind", "heavenly",
                  "earthly", "discarded_by", "void_suit", "after_kong_discard", "seats_out", "prior_kong",
                  "prior_kong_claimed_from", "other_winners", "kong_fed_by")

RULE_SET = RuleSet(
    name="sichuan",
    title="Sichuan 血战到底",
    table=TABLE,
    tiles=SUITED,
    shapes=SHAPES,
    options_type=SichuanOptions,
    context_fields=CONTEXT_FIELDS,
    minimum=0,
    score=score,
    check_context=check_context,
    allow_quad_pairs=True,
    tiles_note="which plays characters, dots and bamboo only",
    analyze=analyze,
    referee=REFEREE,
)
