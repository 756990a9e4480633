"""The 81 MCR fans (plus the oracle's combined-kong fan) as data.

Each entry: official id, English name exactly as pymahjonggb prints it in verbose mode, Chinese
name, points per occurrence, `excludes` (fans not counted when this one is: the rules' 不计 lists)
and `consumes` (fans not counted *on the sets this fan was scored on*, the non-repeat principle
applied per set, e.g. a prevalent-wind pung is not also a pung of terminals or honours).

Id 82 "Concealed Kong and Melded Kong" (明暗杠, 5 points) is not one of the 81: pymahjonggb scores one
concealed plus one melded kong as this single fan instead of Concealed Kong (2) + Melded Kong (1).
We follow it so totals agree; it sits outside 1-81 so official ids stay official.
"""

from __future__ import annotations

from engine.results import FanDef

# (id, English, Chinese, points, excludes, consumes)
_ROWS: tuple[tuple[int, str, str, int, tuple[int, ...], tuple[int, ...]], ...] = (
    # 88 points
    (1, "Big Four Winds", "大四喜", 88, (38, 48, 60, 61, 73), ()),
    (2, "Big Three Dragons", "大三元", 88, (54, 59), ()),
    (3, "All Green", "绿一色", 88, (49, 75), ()),
    (4, "Nine Gates", "九莲宝灯", 88, (22, 56, 62, 75, 76), (73,)),
    (5, "Four Kongs", "四杠", 88, (17, 48, 53, 57, 67, 74, 79, 82), ()),
    (6, "Seven Shifted Pairs", "连七对", 88, (19, 22, 56, 62, 75, 76, 79), ()),
    (7, "Thirteen Orphans", "十三幺", 88, (18, 51, 56, 62, 79), ()),
    # 64
    (8, "All Terminals", "清幺九", 64, (18, 48, 55, 65, 73, 76), ()),
    (9, "Little Four Winds", "小四喜", 64, (38, 73), ()),
    (10, "Little Three Dragons", "小三元", 64, (54, 59), ()),
    (11, "All Honors", "字一色", 64, (18, 48, 55, 73, 75), ()),
    (12, "Four Concealed Pungs", "四暗刻", 64, (48, 56, 62), ()),
    (13, "Pure Terminal Chows", "一色双龙会", 64, (22, 63, 69, 72, 75, 76), ()),
    # 48
    (14, "Quadruple Chow", "一色四同顺", 48, (23, 24, 64, 69), ()),
    (15, "Four Pure Shifted Pungs", "一色四节高", 48, (24, 48), ()),
    # 32
    (16, "Four Pure Shifted Chows", "一色四步高", 32, (30, 71, 72), ()),
    (17, "Three Kongs", "三杠", 32, (53, 57, 67, 74, 82), ()),
    (18, "All Terminals and Honors", "混幺九", 32, (48, 55, 73), ()),
    # 24
    (19, "Seven Pairs", "七对", 24, (56, 62, 79), ()),
    (20, "Greater Honors and Knitted Tiles", "七星不靠", 24, (34, 51, 56, 62, 79), ()),
    (21, "All Even Pungs", "全双刻", 24, (48, 68, 76), ()),
    (22, "Full Flush", "清一色", 24, (75, 76), ()),
    (23, "Pure Triple Chow", "一色三同顺", 24, (24, 69), ()),
    (24, "Pure Shifted Pungs", "一色三节高", 24, (), ()),
    (25, "Upper Tiles", "全大", 24, (36, 76), ()),
    (26, "Middle Tiles", "全中", 24, (68, 76), ()),
    (27, "Lower Tiles", "全小", 24, (37, 76), ()),
    # 16
    (28, "Pure Straight", "清龙", 16, (71, 72), ()),
    (29, "Three-Suited Terminal Chows", "三色双龙会", 16, (63, 70, 72, 76), ()),
    (30, "Pure Shifted Chows", "一色三步高", 16, (), ()),
    (31, "All Five", "全带五", 16, (68, 76), ()),
    (32, "Triple Pung", "三同刻", 16, (), ()),
    (33, "Three Concealed Pungs", "三暗刻", 16, (), ()),
    # 12
    (34, "Lesser Honors and Knitted Tiles", "全不靠", 12, (51, 56, 62, 79), ()),
    (35, "Knitted Straight", "组合龙", 12, (), ()),
    (36, "Upper Four", "大于五", 12, (76,), ()),
    (37, "Lower Four", "小于五", 12, (76,), ()),
    (38, "Big Three Winds", "三风刻", 12, (), (73,)),
    # 8
    (39, "Mixed Straight", "花龙", 8, (), ()),
    (40, "Reversible Tiles", "推不倒", 8, (75,), ()),
    (41, "Mixed Triple Chow", "三色三同顺", 8, (), ()),
    (42, "Mixed Shifted Pungs", "三色三节高", 8, (), ()),
    (43, "Chicken Hand", "无番和", 8, (), ()),
    (44, "Last Tile Draw", "妙手回春", 8, (80,), ()),
    (45, "Last Tile Claim", "海底捞月", 8, (), ()),
    (46, "Out with Replacement Tile", "杠上开花", 8, (80,), ()),
    (47, "Robbing The Kong", "抢杠和", 8, (58,), ()),
    # 6
    (48, "All Pungs", "碰碰和", 6, (), ()),
    (49, "Half Flush", "混一色", 6, (75,), ()),
    (50, "Mixed Shifted Chows", "三色三步高", 6, (), ()),
    (51, "All Types", "五门齐", 6, (), ()),
    (52, "Melded Hand", "全求人", 6, (79,), ()),
    (53, "Two Concealed Kongs", "双暗杠", 6, (66, 67), ()),
    (54, "Two Dragons Pungs", "双箭刻", 6, (59,), ()),
    # 4
    (55, "Outside Hand", "全带幺", 4, (), ()),
    (56, "Fully Concealed Hand", "不求人", 4, (80,), ()),
    (57, "Two Melded Kongs", "双明杠", 4, (74,), ()),
    (58, "Last Tile", "和绝张", 4, (), ()),
    # 2
    (59, "Dragon Pung", "箭刻", 2, (), ()),
    (60, "Prevalent Wind", "圈风刻", 2, (), (73,)),
    (61, "Seat Wind", "门风刻", 2, (), (73,)),
    (62, "Concealed Hand", "门前清", 2, (), ()),
    (63, "All Chows", "平和", 2, (76,), ()),
    (64, "Tile Hog", "四归一", 2, (), ()),
    (65, "Double Pung", "双同刻", 2, (), ()),
    (66, "Two Concealed Pungs", "双暗刻", 2, (), ()),
    (67, "Concealed Kong", "暗杠", 2, (), ()),
    (68, "All Simples", "断幺", 2, (76,), ()),
    # 1
    (69, "Pure Double Chow", "一般高", 1, (), ()),
    (70, "Mixed Double Chow", "喜相逢", 1, (), ()),
    (71, "Short Straight", "连六", 1, (), ()),
    (72, "Two Terminal Chows", "老少副", 1, (), ()),
    (73, "Pung of Terminals or Honors", "幺九刻", 1, (), ()),
    (74, "Melded Kong", "明杠", 1, (), ()),
    (75, "One Voided Suit", "缺一门", 1, (), ()),
    (76, "No Honors", "无字", 1, (), ()),
    (77, "Edge Wait", "边张", 1, (), ()),
    (78, "Closed Wait", "嵌张", 1, (), ()),
    (79, "Single Wait", "单钓将", 1, (), ()),
    (80, "Self-Drawn", "自摸", 1, (), ()),
    (81, "Flower Tiles", "花牌", 1, (), ()),
    # pymahjonggb's extra fan, see the module docstring
    (82, "Concealed Kong and Melded Kong", "明暗杠", 5, (67, 74), ()),
)

FANS: tuple[FanDef, ...] = tuple(
    FanDef(id=i, name=en, name_zh=zh, points=pts, excludes=exc) for i, en, zh, pts, exc, _ in _ROWS
)
BY_ID: dict[int, FanDef] = {f.id: f for f in FANS}
# Fans dropped only on the sets the consuming fan names (per-set non-repeat).
CONSUMES: dict[int, tuple[int, ...]] = {i: cons for i, _, _, _, _, cons in _ROWS if cons}
EXCLUDES: dict[int, frozenset[int]] = {f.id: frozenset(f.excludes) for f in FANS}

FLOWER_TILES = 81
COMBINED_KONGS = 82
