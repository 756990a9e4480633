"""The Riichi yaku as a fan table (engine.rules.model): Tenhou ids, English and Japanese names, han.

`value` is the han of a closed hand, `open_value` the han once the hand has claimed a tile (None: the
same; 0: closed only). Yakuman rows are `limit=True` with `value` 13 per multiple (26: a double
yakuman, counted as a single one when the option `double_yakuman` is off). Every yakuman excludes
every yaku that is not one (and the dora: a yakuman hand is paid as a yakuman only). The Japanese
names are the ones majiang-core reports (its scored cases are one of our oracles).
"""

from __future__ import annotations

from enum import IntEnum

from engine.rules.model import FanRow, FanTable, Scope


class Yaku(IntEnum):
    """Tenhou's yaku ids (36 renhou: with the option renhou; 55, kita, is ours: Tenhou counts North set
    aside in three-player as a separate bonus)."""

    MENZEN_TSUMO = 0
    RIICHI = 1
    IPPATSU = 2
    CHANKAN = 3
    RINSHAN_KAIHOU = 4
    HAITEI = 5
    HOUTEI = 6
    PINFU = 7
    TANYAO = 8
    IIPEIKOU = 9
    SEAT_WIND_EAST = 10
    SEAT_WIND_SOUTH = 11
    SEAT_WIND_WEST = 12
    SEAT_WIND_NORTH = 13
    ROUND_WIND_EAST = 14
    ROUND_WIND_SOUTH = 15
    ROUND_WIND_WEST = 16
    ROUND_WIND_NORTH = 17
    HAKU = 18
    HATSU = 19
    CHUN = 20
    DOUBLE_RIICHI = 21
    CHIITOITSU = 22
    CHANTA = 23
    ITTSU = 24
    SANSHOKU_DOUJUN = 25
    SANSHOKU_DOUKOU = 26
    SANKANTSU = 27
    TOITOI = 28
    SANANKOU = 29
    SHOUSANGEN = 30
    HONROUTOU = 31
    RYANPEIKOU = 32
    JUNCHAN = 33
    HONITSU = 34
    CHINITSU = 35
    RENHOU = 36
    TENHOU = 37
    CHIIHOU = 38
    DAISANGEN = 39
    SUUANKOU = 40
    SUUANKOU_TANKI = 41
    TSUUIISOU = 42
    RYUUIISOU = 43
    CHINROUTOU = 44
    CHUUREN_POUTOU = 45
    JUNSEI_CHUUREN_POUTOU = 46
    KOKUSHI_MUSOU = 47
    KOKUSHI_MUSOU_13 = 48
    DAISUUSHII = 49
    SHOUSUUSHII = 50
    SUUKANTSU = 51
    DORA = 52
    URA_DORA = 53
    AKA_DORA = 54
    KITA = 55


Y = Yaku
_SIT, _HAND, _SETS, _BONUS = Scope.SITUATION, Scope.HAND, Scope.SETS, Scope.BONUS

YAKUMAN = frozenset({Y.RENHOU, Y.TENHOU, Y.CHIIHOU, Y.DAISANGEN, Y.SUUANKOU, Y.SUUANKOU_TANKI, Y.TSUUIISOU, Y.RYUUIISOU,
                     Y.CHINROUTOU, Y.CHUUREN_POUTOU, Y.JUNSEI_CHUUREN_POUTOU, Y.KOKUSHI_MUSOU, Y.KOKUSHI_MUSOU_13,
                     Y.DAISUUSHII, Y.SHOUSUUSHII, Y.SUUKANTSU})
DORA_KINDS = (Y.DORA, Y.URA_DORA, Y.AKA_DORA, Y.KITA)
# Everything a yakuman excludes: every yaku and dora that is not itself a yakuman.
_NOT_YAKUMAN = tuple(y for y in Yaku if y not in YAKUMAN)

SEAT_WIND = (Y.SEAT_WIND_EAST, Y.SEAT_WIND_SOUTH, Y.SEAT_WIND_WEST, Y.SEAT_WIND_NORTH)
ROUND_WIND = (Y.ROUND_WIND_EAST, Y.ROUND_WIND_SOUTH, Y.ROUND_WIND_WEST, Y.ROUND_WIND_NORTH)


def _yakuman(y: Yaku, en: str, ja: str, multiple: int = 1, scope: Scope = _HAND, also: tuple[Yaku, ...] = (),
             description: str = "") -> FanRow:
    return FanRow(y, en, ja, 13 * multiple, excludes=_NOT_YAKUMAN + also, scope=scope, limit=True,
                  description=description)


TABLE = FanTable("han", (
    FanRow(Y.MENZEN_TSUMO, "Fully Concealed Hand (menzen tsumo)", "門前清自摸和", 1, open_value=0, scope=_SIT,
           description="self-drawn win with nothing claimed"),
    FanRow(Y.RIICHI, "Riichi", "立直", 1, open_value=0, scope=_SIT),
    FanRow(Y.IPPATSU, "Ippatsu", "一発", 1, open_value=0, scope=_SIT,
           description="a win within one go-around after riichi, no call in between"),
    FanRow(Y.CHANKAN, "Robbing a Kong (chankan)", "槍槓", 1, scope=_SIT),
    FanRow(Y.RINSHAN_KAIHOU, "After a Kong (rinshan kaihou)", "嶺上開花", 1, scope=_SIT),
    FanRow(Y.HAITEI, "Under the Sea (haitei)", "海底摸月", 1, scope=_SIT, description="self-drawn last wall tile"),
    FanRow(Y.HOUTEI, "Under the River (houtei)", "河底撈魚", 1, scope=_SIT, description="win on the last discard"),
    FanRow(Y.PINFU, "Pinfu", "平和", 1, open_value=0, scope=_SETS,
           description="four chows, a pair that is no value tile, an open (two-sided) wait"),
    FanRow(Y.TANYAO, "All Simples (tanyao)", "断幺九", 1, scope=_HAND,
           description="open hands only with the option open_tanyao"),
    FanRow(Y.IIPEIKOU, "Pure Double Chow (iipeikou)", "一盃口", 1, open_value=0, scope=_SETS),
    FanRow(Y.SEAT_WIND_EAST, "Seat Wind East", "自風 東", 1, scope=_SETS),
    FanRow(Y.SEAT_WIND_SOUTH, "Seat Wind South", "自風 南", 1, scope=_SETS),
    FanRow(Y.SEAT_WIND_WEST, "Seat Wind West", "自風 西", 1, scope=_SETS),
    FanRow(Y.SEAT_WIND_NORTH, "Seat Wind North", "自風 北", 1, scope=_SETS),
    FanRow(Y.ROUND_WIND_EAST, "Round Wind East", "場風 東", 1, scope=_SETS),
    FanRow(Y.ROUND_WIND_SOUTH, "Round Wind South", "場風 南", 1, scope=_SETS),
    FanRow(Y.ROUND_WIND_WEST, "Round Wind West", "場風 西", 1, scope=_SETS),
    FanRow(Y.ROUND_WIND_NORTH, "Round Wind North", "場風 北", 1, scope=_SETS),
    FanRow(Y.HAKU, "White Dragon", "翻牌 白", 1, scope=_SETS),
    FanRow(Y.HATSU, "Green Dragon", "翻牌 發", 1, scope=_SETS),
    FanRow(Y.CHUN, "Red Dragon", "翻牌 中", 1, scope=_SETS),
    FanRow(Y.DOUBLE_RIICHI, "Double Riichi", "ダブル立直", 2, open_value=0, excludes=(Y.RIICHI,), scope=_SIT),
    FanRow(Y.CHIITOITSU, "Seven Pairs (chiitoitsu)", "七対子", 2, open_value=0, scope=_HAND,
           description="seven pairs of different kinds"),
    FanRow(Y.CHANTA, "Outside Hand (chanta)", "混全帯幺九", 2, open_value=1, scope=_SETS),
    FanRow(Y.ITTSU, "Pure Straight (ittsu)", "一気通貫", 2, open_value=1, scope=_SETS),
    FanRow(Y.SANSHOKU_DOUJUN, "Mixed Triple Chow (sanshoku doujun)", "三色同順", 2, open_value=1, scope=_SETS),
    FanRow(Y.SANSHOKU_DOUKOU, "Triple Pung (sanshoku doukou)", "三色同刻", 2, scope=_SETS),
    FanRow(Y.SANKANTSU, "Three Kongs (sankantsu)", "三槓子", 2, scope=_SETS),
    FanRow(Y.TOITOI, "All Pungs (toitoi)", "対々和", 2, scope=_SETS),
    FanRow(Y.SANANKOU, "Three Concealed Pungs (sanankou)", "三暗刻", 2, scope=_SETS),
    FanRow(Y.SHOUSANGEN, "Little Three Dragons (shousangen)", "小三元", 2, scope=_SETS),
    FanRow(Y.HONROUTOU, "All Terminals and Honours (honroutou)", "混老頭", 2, excludes=(Y.CHANTA,), scope=_HAND),
    FanRow(Y.RYANPEIKOU, "Twice Pure Double Chow (ryanpeikou)", "二盃口", 3, open_value=0,
           excludes=(Y.IIPEIKOU,), scope=_SETS),
    FanRow(Y.JUNCHAN, "Terminals in All Sets (junchan)", "純全帯幺九", 3, open_value=2, excludes=(Y.CHANTA,),
           scope=_SETS),
    FanRow(Y.HONITSU, "Half Flush (honitsu)", "混一色", 3, open_value=2, scope=_HAND),
    FanRow(Y.CHINITSU, "Full Flush (chinitsu)", "清一色", 6, open_value=5, excludes=(Y.HONITSU,), scope=_HAND),
    _yakuman(Y.TENHOU, "Blessing of Heaven (tenhou)", "天和", scope=_SIT),
    _yakuman(Y.CHIIHOU, "Blessing of Earth (chiihou)", "地和", scope=_SIT),
    _yakuman(Y.RENHOU, "Blessing of Man (renhou)", "人和", scope=_SIT,
             description="a non-dealer's win on a discard before its first draw, no call made; with the option "
                         "renhou: a yakuman, or a mangan (5 han) that does not add to other yaku"),
    _yakuman(Y.DAISANGEN, "Big Three Dragons (daisangen)", "大三元", scope=_SETS),
    _yakuman(Y.SUUANKOU, "Four Concealed Pungs (suuankou)", "四暗刻", scope=_SETS),
    _yakuman(Y.SUUANKOU_TANKI, "Four Concealed Pungs, Single Wait (suuankou tanki)", "四暗刻単騎", 2, _SETS,
             (Y.SUUANKOU,)),
    _yakuman(Y.TSUUIISOU, "All Honours (tsuuiisou)", "字一色"),
    _yakuman(Y.RYUUIISOU, "All Green (ryuuiisou)", "緑一色", description="2 3 4 6 8 bamboo and green dragons"),
    _yakuman(Y.CHINROUTOU, "All Terminals (chinroutou)", "清老頭"),
    _yakuman(Y.CHUUREN_POUTOU, "Nine Gates (chuuren poutou)", "九蓮宝燈"),
    _yakuman(Y.JUNSEI_CHUUREN_POUTOU, "True Nine Gates (junsei chuuren poutou)", "純正九蓮宝燈", 2, _HAND,
             (Y.CHUUREN_POUTOU,), "nine gates waiting on all nine tiles of its suit"),
    _yakuman(Y.KOKUSHI_MUSOU, "Thirteen Orphans (kokushi musou)", "国士無双"),
    _yakuman(Y.KOKUSHI_MUSOU_13, "Thirteen Orphans, 13-sided Wait", "国士無双十三面", 2, _HAND, (Y.KOKUSHI_MUSOU,)),
    _yakuman(Y.DAISUUSHII, "Big Four Winds (daisuushii)", "大四喜", 2, _SETS, (Y.SHOUSUUSHII,)),
    _yakuman(Y.SHOUSUUSHII, "Little Four Winds (shousuushii)", "小四喜", scope=_SETS),
    _yakuman(Y.SUUKANTSU, "Four Kongs (suukantsu)", "四槓子", scope=_SETS),
    FanRow(Y.DORA, "Dora", "ドラ", 1, scope=_BONUS, description="per tile; counted only with a yaku"),
    FanRow(Y.URA_DORA, "Ura Dora", "裏ドラ", 1, scope=_BONUS, description="per tile, after riichi"),
    FanRow(Y.AKA_DORA, "Red Five (aka dora)", "赤ドラ", 1, scope=_BONUS, description="per red five held"),
    FanRow(Y.KITA, "North Dora (kita)", "抜きドラ", 1, scope=_BONUS,
           description="three players: per North tile set aside (kita); counted only with a yaku"),
), Yaku)
