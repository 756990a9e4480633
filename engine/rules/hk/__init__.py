"""hk: Hong Kong (Cantonese) faan scoring, 香港麻雀 / 广东牌, on the fan-table model.

All 34 kinds and the eight flowers; standard hands (four sets and a pair) and thirteen orphans; seven
pairs only where the room prices it (option seven_pairs_faan). The table is `fans.py` (faan per fan),
the options `options.py` (minimum 3 or 0, limit 8/10/13, half-doubling or plain-doubling points,
payments, 包, the optional hands), what each fan's rule is `predicates.py` (over `facts.py`), scoring
`scoring.py`, the context checks `context.py`, the referee `referee.py`. A win's faan is the
sum of its counted fans, capped at the limit; a limit hand scores the limit and nothing else.
`meets_minimum` is judged without the flower fans (无花, 正花, 一台花): bonus tiles do not count toward
the agreed minimum (Wikipedia, "Mahjong", Old Hong Kong rules, Scoring).

The oracle is the npm package hk-mahjong 3.2.0 (MIT; tests/support/node_hk). Published Hong Kong tables differ
among themselves; where hk-mahjong differs from the ones cited here, this rule set follows the
published table and its test says so (tests/unit/test_hk_rules.py):

1. 大三元 is 8 faan, not a limit; 小四喜 10, not a limit; 字一色 10 and 清幺九 10, not limits (the
   廣東麻雀番數表 of at99play.com: 大三元 8, 小四喜 10; tilebuddy.app's Mixed Terminals page: 清么九 10,
   字一色 10). hk-mahjong answers all four as limit hands.
2. 混幺九 is 4 faan with its 对对胡 included (tilebuddy.app: "Mixed Terminals 4 faan ... includes the 3
   faan that would otherwise come from All Triplets"); hk-mahjong counts 混幺 1 plus 对对胡 3. The
   totals agree; the fans listed differ.
3. 四暗刻 (坎坎胡): four pungs formed in the hand, concealed kongs included, won by self-draw or on a
   discard that completes the pair. hk-mahjong needs a self-draw and no kong at all.
4. 杠上开花 is 1 faan and 自摸 is counted with it (redmahjong.com: "Out on Replacement Tile 1" beside
   "Win by self-drawn 1"); hk-mahjong lists one 2-faan "win by kong". The totals agree.
5. 九莲宝灯 is a limit hand and must be concealed (no declared meld); hk-mahjong checks the tiles only.
6. 地胡: a non-dealer's win on the dealer's first discard (hk-mahjong's and at99play's reading) or on
   the first own draw; both are accepted, nothing declared. 天胡 is the dealer's (East), nothing declared.
7. The cap: no hand scores more than the limit (爆棚); hk-mahjong adds without a cap.
8. 海底捞月 is the last tile of the wall, self-drawn or discarded (context.last_wall_tile either way).
9. Optional, off by default as in the traditional table, each valued by its option (sources in options.py
   and tests/unit/test_hk_options.py): 七对 (seven different pairs; 4 faan in Kimeiga/hkos docs/scoring.md and
   dbrudnicki's notes), 杠上杠 (context.kong_on_kong, 8 faan in Kimeiga/hkos docs/scoring_2.md, in place of
   杠上开花), and with flower_hand the flower hands 八仙过海 (eight flowers, the eighth self-drawn, 8 faan) and
   七抢一 (seven flowers and the eighth robbed from the player who drew it: a win not self-drawn, that player
   as context.discarded_by, 3 faan). The client says the win is a flower hand with context.flower_win (a
   player may decline it and win on the tiles later, so the flowers held do not say it). A flower hand wins
   whatever the tiles: Evaluate still takes a 14-tile hand (give the tiles held; for 七抢一 any tile as
   winning_tile), the answer lists them unjudged (melds as sets, the rest in `knitted`) and always meets
   the minimum.
10. 包 (option liability, default true): context.liable names who let the winner complete 大三元, 大四喜
   or 十二张落地 (four exposed melds; a concealed kong is not exposed). That player pays all three shares
   of a self-draw and, on a discard by anyone, alone pays what the discard costs (options.py). liable on a
   hand with none of the three is CONTRADICTORY_CONTEXT; with liability false, BAD_CONTEXT.

Context (CONTRADICTORY_CONTEXT / BAD_CONTEXT beyond engine.hand.validate_context): `flower_tiles` says
which flowers the winner holds; `flowers`, if set, must equal their number; flowers in a game played
without them (options.hk.flowers false) are refused; a self-draw names no discarder; 天胡 / 地胡 have no
declared set, 天胡 is East's, 地胡 is not, neither is on the last tile, a replacement tile or a robbed kong;
liable as in 10; kong_on_kong needs kong_on_kong_faan (else BAD_CONTEXT), replacement_tile and two declared
kongs; flower_win needs flower_hand (else BAD_CONTEXT) and eight flowers self-drawn or seven not
self-drawn, not on a robbed kong or a replacement tile. docs/rules/hk.md lists every option.
"""

from engine.rules.hk.context import check_context
from engine.rules.hk.fans import TABLE
from engine.rules.hk.options import HkOptions
from engine.rules.hk.referee import REFEREE
from engine.rules.hk.scoring import SHAPES, analyze, score
from engine.rules.model import ALL_TILES, RuleSet

CONTEXT_FIELDS = ("self_drawn", "replacement_tile", "robbing_kong", "last_wall_tile", "seat_wind", "prevalent_wind",
                  "flowers", "flower_tiles", "heavenly", "earthly", "discarded_by", "liable", "kong_on_kong",
                  "flower_win")

RULE_SET = RuleSet(
    name="hk",
    title="Hong Kong (Cantonese) faan",
    table=TABLE,
    tiles=ALL_TILES,
    shapes=SHAPES,
    options_type=HkOptions,
    context_fields=CONTEXT_FIELDS,
    minimum=HkOptions().min_faan,
    score=score,
    check_context=check_context,
    allow_quad_pairs=False,
    analyze=analyze,
    referee=REFEREE,
)
