"""The 推倒胡 table: what multiplies a win and the rules that decide who pays, one row each.

Every win is worth the same base (推倒胡: any complete hand wins, 鸡胡); rows with a value above 1
multiply it, the others are shown so a client can say why the payments look as they do. The value of a
row here is its default; options change some (options.py), and the row scored carries the value used.
Ids are this rule set's own.
"""

from __future__ import annotations

from enum import IntEnum

from engine.rules.model import FanRow, FanTable, Scope


class Fan(IntEnum):
    WIN = 1
    SELF_DRAWN = 2
    NO_GHOSTS = 3
    SEVEN_PAIRS = 4
    KONG_BLOOM = 5
    FOUR_GHOSTS = 6
    ROBBING_KONG = 7
    KONG_BURST = 8
    HORSES = 9
    FOLLOW_DEALER = 10
    DISCARD_WIN = 11
    ALL_PUNGS = 12
    ONE_SUIT = 13
    LUXURY_SEVEN_PAIRS = 14
    THIRTEEN_ORPHANS = 15
    HORSE_KONGS = 16
    STREAK = 17


TABLE = FanTable("multiplier", (
    FanRow(Fan.WIN, "Win", "推倒胡", 1, description="any complete hand (four sets and a pair, or an allowed "
           "special shape) wins; the base of every payment"),
    FanRow(Fan.SELF_DRAWN, "Self-drawn", "自摸", 1, scope=Scope.SITUATION,
           description="every other player pays 2 x the hand's points"),
    FanRow(Fan.DISCARD_WIN, "Win on a discard", "点炮", 1, scope=Scope.SITUATION,
           description="only with self_draw_only off: the discarder alone pays 1 x the hand's points"),
    FanRow(Fan.NO_GHOSTS, "No ghosts", "无鬼", 2, description="ghosts are played and the hand holds none "
           "(option no_ghost_double)"),
    FanRow(Fan.SEVEN_PAIRS, "Seven pairs", "七对", 2, description="seven pairs (option seven_pairs_double)"),
    FanRow(Fan.KONG_BLOOM, "Win on a kong's replacement tile", "杠上开花", 2, scope=Scope.SITUATION,
           description="self-drawn on the replacement tile (option kong_bloom_multiplier)"),
    FanRow(Fan.FOUR_GHOSTS, "Four ghosts", "四鬼胡牌", 1, description="four ghosts held (option "
           "four_ghosts_multiplier); with four_ghosts_win it wins whatever the other tiles"),
    FanRow(Fan.ROBBING_KONG, "Robbing a kong", "抢杠胡", 1, scope=Scope.SITUATION,
           description="scored as a self-draw; with rob_kong_pays_all the robbed player pays for everyone "
           "(抢杠全包)"),
    FanRow(Fan.KONG_BURST, "Kong burst, the feeder pays all", "杠爆全包", 1, scope=Scope.SITUATION,
           description="won on the replacement tile of a kong whose fourth tile was discarded: that "
                       "discarder pays for everyone (option kong_burst_pays_all)"),
    FanRow(Fan.HORSES, "Horses", "中马", 1, scope=Scope.BONUS,
           description="each horse tile naming the winner's seat adds the hand's multiple once more (买马, "
                       "马跟底分), or option horse_value (the value shown) with a fixed horse; count = horses hit"),
    FanRow(Fan.FOLLOW_DEALER, "Following the dealer", "跟庄", 1, scope=Scope.BONUS,
           description="an input fact: the dealer pays every other player follow_dealer_points x base"),
    FanRow(Fan.ALL_PUNGS, "All pungs", "碰碰胡", 1, description="four pungs or kongs and a pair; shown when "
           "option all_pungs_multiplier is above 1, with that value"),
    FanRow(Fan.ONE_SUIT, "One suit", "清一色", 1, description="one suit, no honours (ghosts as what they stand "
           "for); shown when option one_suit_multiplier is above 1, with that value"),
    FanRow(Fan.LUXURY_SEVEN_PAIRS, "Luxury seven pairs", "豪华七对", 1, description="seven pairs counting a four "
           "of a kind; shown, in place of 七对, when option luxury_seven_pairs_multiplier is set, with that value"),
    FanRow(Fan.THIRTEEN_ORPHANS, "Thirteen orphans", "十三幺", 1, description="shown when option "
           "thirteen_orphans_multiplier is above 1, with that value"),
    FanRow(Fan.HORSE_KONGS, "Horses on kongs", "马跟杠", 1, scope=Scope.BONUS,
           description="option horse_kongs: each horse hit adds the winner's kongs (concealed 2, exposed or "
                       "added 1: the value shown) to the multiple; count = horses hit"),
    FanRow(Fan.STREAK, "Streak", "节节高", 1, scope=Scope.BONUS,
           description="option streak_value: each consecutive dealer win before this one (context.streak, the "
                       "count) adds streak_value (the value shown) to the multiple"),
))
