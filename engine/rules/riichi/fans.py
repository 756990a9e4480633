"""The Riichi yaku as a fan table (engine.rules.model): Tenhou ids, English and Japanese names, han.

`value` is the han of a closed hand, `open_value` the han once the hand has claimed a tile (None: the
same; 0: closed only). Yakuman rows are `limit=True` with `value` 13 per multiple (26: a double
yakuman, counted as a single one when the option `double_yakuman` is off). Every yakuman excludes
every yaku that is not one (and the dora: a yakuman hand is paid as a yakuman only). The Japanese
names are the ones majiang-core reports (its scored cases are one of our oracles).

Data only: `Fan` (Riichi players say yaku: `Yaku` is the same enum), `TABLE`, and the groups of ids the
scoring and the referee read (`YAKUMAN`, `DORA_KINDS`, `SEAT_WIND`, `ROUND_WIND`).
"""

from __future__ import annotations

from enum import IntEnum

from engine.rules.model import FanRow, FanTable, Scope


class Fan(IntEnum):
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


Yaku = Fan  # the Riichi players' word for the same ids

_SIT, _HAND, _SETS, _BONUS = Scope.SITUATION, Scope.HAND, Scope.SETS, Scope.BONUS

YAKUMAN = frozenset({Fan.RENHOU, Fan.TENHOU, Fan.CHIIHOU, Fan.DAISANGEN, Fan.SUUANKOU, Fan.SUUANKOU_TANKI,
                     Fan.TSUUIISOU, Fan.RYUUIISOU, Fan.CHINROUTOU, Fan.CHUUREN_POUTOU, Fan.JUNSEI_CHUUREN_POUTOU,
                     Fan.KOKUSHI_MUSOU, Fan.KOKUSHI_MUSOU_13, Fan.DAISUUSHII, Fan.SHOUSUUSHII, Fan.SUUKANTSU})
DORA_KINDS = (Fan.DORA, Fan.URA_DORA, Fan.AKA_DORA, Fan.KITA)
# Everything a yakuman excludes: every yaku and dora that is not itself a yakuman.
_NOT_YAKUMAN = tuple(y for y in Fan if y not in YAKUMAN)

SEAT_WIND = (Fan.SEAT_WIND_EAST, Fan.SEAT_WIND_SOUTH, Fan.SEAT_WIND_WEST, Fan.SEAT_WIND_NORTH)
ROUND_WIND = (Fan.ROUND_WIND_EAST, Fan.ROUND_WIND_SOUTH, Fan.ROUND_WIND_WEST, Fan.ROUND_WIND_NORTH)

# A yakuman row: 13 han per multiple, `limit`, excluding every yaku that is not a yakuman (`_NOT_YAKUMAN`,
# plus the single yakuman a double one contains).
_YAKUMAN, _DOUBLE = 13, 26

TABLE = FanTable("han", (
    FanRow(Fan.MENZEN_TSUMO, "Fully Concealed Hand (menzen tsumo)", "門前清自摸和", 1, open_value=0, scope=_SIT,
           description="self-drawn win with nothing claimed"),
    FanRow(Fan.RIICHI, "Riichi", "立直", 1, open_value=0, scope=_SIT),
    FanRow(Fan.IPPATSU, "Ippatsu", "一発", 1, open_value=0, scope=_SIT,
           description="a win within one go-around after riichi, no call in between"),
    FanRow(Fan.CHANKAN, "Robbing a Kong (chankan)", "槍槓", 1, scope=_SIT),
    FanRow(Fan.RINSHAN_KAIHOU, "After a Kong (rinshan kaihou)", "嶺上開花", 1, scope=_SIT),
    FanRow(Fan.HAITEI, "Under the Sea (haitei)", "海底摸月", 1, scope=_SIT, description="self-drawn last wall tile"),
    FanRow(Fan.HOUTEI, "Under the River (houtei)", "河底撈魚", 1, scope=_SIT, description="win on the last discard"),
    FanRow(Fan.PINFU, "Pinfu", "平和", 1, open_value=0, scope=_SETS,
           description="four chows, a pair that is no value tile, an open (two-sided) wait"),
    FanRow(Fan.TANYAO, "All Simples (tanyao)", "断幺九", 1, scope=_HAND,
           description="open hands only with the option open_tanyao"),
    FanRow(Fan.IIPEIKOU, "Pure Double Chow (iipeikou)", "一盃口", 1, open_value=0, scope=_SETS),
    FanRow(Fan.SEAT_WIND_EAST, "Seat Wind East", "自風 東", 1, scope=_SETS),
    FanRow(Fan.SEAT_WIND_SOUTH, "Seat Wind South", "自風 南", 1, scope=_SETS),
    FanRow(Fan.SEAT_WIND_WEST, "Seat Wind West", "自風 西", 1, scope=_SETS),
    FanRow(Fan.SEAT_WIND_NORTH, "Seat Wind North", "自風 北", 1, scope=_SETS),
    FanRow(Fan.ROUND_WIND_EAST, "Round Wind East", "場風 東", 1, scope=_SETS),
    FanRow(Fan.ROUND_WIND_SOUTH, "Round Wind South", "場風 南", 1, scope=_SETS),
    FanRow(Fan.ROUND_WIND_WEST, "Round Wind West", "場風 西", 1, scope=_SETS),
    FanRow(Fan.ROUND_WIND_NORTH, "Round Wind North", "場風 北", 1, scope=_SETS),
    FanRow(Fan.HAKU, "White Dragon", "翻牌 白", 1, scope=_SETS),
    FanRow(Fan.HATSU, "Green Dragon", "翻牌 發", 1, scope=_SETS),
    FanRow(Fan.CHUN, "Red Dragon", "翻牌 中", 1, scope=_SETS),
    FanRow(Fan.DOUBLE_RIICHI, "Double Riichi", "ダブル立直", 2, open_value=0, excludes=(Fan.RIICHI,), scope=_SIT),
    FanRow(Fan.CHIITOITSU, "Seven Pairs (chiitoitsu)", "七対子", 2, open_value=0, scope=_HAND,
           description="seven pairs of different kinds"),
    FanRow(Fan.CHANTA, "Outside Hand (chanta)", "混全帯幺九", 2, open_value=1, scope=_SETS),
    FanRow(Fan.ITTSU, "Pure Straight (ittsu)", "一気通貫", 2, open_value=1, scope=_SETS),
    FanRow(Fan.SANSHOKU_DOUJUN, "Mixed Triple Chow (sanshoku doujun)", "三色同順", 2, open_value=1, scope=_SETS),
    FanRow(Fan.SANSHOKU_DOUKOU, "Triple Pung (sanshoku doukou)", "三色同刻", 2, scope=_SETS),
    FanRow(Fan.SANKANTSU, "Three Kongs (sankantsu)", "三槓子", 2, scope=_SETS),
    FanRow(Fan.TOITOI, "All Pungs (toitoi)", "対々和", 2, scope=_SETS),
    FanRow(Fan.SANANKOU, "Three Concealed Pungs (sanankou)", "三暗刻", 2, scope=_SETS),
    FanRow(Fan.SHOUSANGEN, "Little Three Dragons (shousangen)", "小三元", 2, scope=_SETS),
    FanRow(Fan.HONROUTOU, "All Terminals and Honours (honroutou)", "混老頭", 2, excludes=(Fan.CHANTA,), scope=_HAND),
    FanRow(Fan.RYANPEIKOU, "Twice Pure Double Chow (ryanpeikou)", "二盃口", 3, open_value=0,
           excludes=(Fan.IIPEIKOU,), scope=_SETS),
    FanRow(Fan.JUNCHAN, "Terminals in All Sets (junchan)", "純全帯幺九", 3, open_value=2, excludes=(Fan.CHANTA,),
           scope=_SETS),
    FanRow(Fan.HONITSU, "Half Flush (honitsu)", "混一色", 3, open_value=2, scope=_HAND),
    FanRow(Fan.CHINITSU, "Full Flush (chinitsu)", "清一色", 6, open_value=5, excludes=(Fan.HONITSU,), scope=_HAND),
    # the yakuman
    FanRow(Fan.TENHOU, "Blessing of Heaven (tenhou)", "天和", _YAKUMAN, excludes=_NOT_YAKUMAN, scope=_SIT,
           limit=True),
    FanRow(Fan.CHIIHOU, "Blessing of Earth (chiihou)", "地和", _YAKUMAN, excludes=_NOT_YAKUMAN, scope=_SIT,
           limit=True),
    FanRow(Fan.RENHOU, "Blessing of Man (renhou)", "人和", _YAKUMAN, excludes=_NOT_YAKUMAN, scope=_SIT, limit=True,
           description="a non-dealer's win on a discard before its first draw, no call made; with the option "
                       "renhou: a yakuman, or a mangan (5 han) that does not add to other yaku"),
    FanRow(Fan.DAISANGEN, "Big Three Dragons (daisangen)", "大三元", _YAKUMAN, excludes=_NOT_YAKUMAN, scope=_SETS,
           limit=True),
    FanRow(Fan.SUUANKOU, "Four Concealed Pungs (suuankou)", "四暗刻", _YAKUMAN, excludes=_NOT_YAKUMAN, scope=_SETS,
           limit=True),
    FanRow(Fan.SUUANKOU_TANKI, "Four Concealed Pungs, Single Wait (suuankou tanki)", "四暗刻単騎", _DOUBLE,
           excludes=_NOT_YAKUMAN + (Fan.SUUANKOU,), scope=_SETS, limit=True),
    FanRow(Fan.TSUUIISOU, "All Honours (tsuuiisou)", "字一色", _YAKUMAN, excludes=_NOT_YAKUMAN, scope=_HAND,
           limit=True),
    FanRow(Fan.RYUUIISOU, "All Green (ryuuiisou)", "緑一色", _YAKUMAN, excludes=_NOT_YAKUMAN, scope=_HAND,
           limit=True, description="2 3 4 6 8 bamboo and green dragons"),
    FanRow(Fan.CHINROUTOU, "All Terminals (chinroutou)", "清老頭", _YAKUMAN, excludes=_NOT_YAKUMAN, scope=_HAND,
           limit=True),
    FanRow(Fan.CHUUREN_POUTOU, "Nine Gates (chuuren poutou)", "九蓮宝燈", _YAKUMAN, excludes=_NOT_YAKUMAN,
           scope=_HAND, limit=True),
    FanRow(Fan.JUNSEI_CHUUREN_POUTOU, "True Nine Gates (junsei chuuren poutou)", "純正九蓮宝燈", _DOUBLE,
           excludes=_NOT_YAKUMAN + (Fan.CHUUREN_POUTOU,), scope=_HAND, limit=True,
           description="nine gates waiting on all nine tiles of its suit"),
    FanRow(Fan.KOKUSHI_MUSOU, "Thirteen Orphans (kokushi musou)", "国士無双", _YAKUMAN, excludes=_NOT_YAKUMAN,
           scope=_HAND, limit=True),
    FanRow(Fan.KOKUSHI_MUSOU_13, "Thirteen Orphans, 13-sided Wait", "国士無双十三面", _DOUBLE,
           excludes=_NOT_YAKUMAN + (Fan.KOKUSHI_MUSOU,), scope=_HAND, limit=True),
    FanRow(Fan.DAISUUSHII, "Big Four Winds (daisuushii)", "大四喜", _DOUBLE,
           excludes=_NOT_YAKUMAN + (Fan.SHOUSUUSHII,), scope=_SETS, limit=True),
    FanRow(Fan.SHOUSUUSHII, "Little Four Winds (shousuushii)", "小四喜", _YAKUMAN, excludes=_NOT_YAKUMAN, scope=_SETS,
           limit=True),
    FanRow(Fan.SUUKANTSU, "Four Kongs (suukantsu)", "四槓子", _YAKUMAN, excludes=_NOT_YAKUMAN, scope=_SETS,
           limit=True),
    # the dora: scored in scoring.py, never a yaku
    FanRow(Fan.DORA, "Dora", "ドラ", 1, scope=_BONUS, description="per tile; counted only with a yaku"),
    FanRow(Fan.URA_DORA, "Ura Dora", "裏ドラ", 1, scope=_BONUS, description="per tile, after riichi"),
    FanRow(Fan.AKA_DORA, "Red Five (aka dora)", "赤ドラ", 1, scope=_BONUS, description="per red five held"),
    FanRow(Fan.KITA, "North Dora (kita)", "抜きドラ", 1, scope=_BONUS,
           description="three players: per North tile set aside (kita); counted only with a yaku"),
), Fan)
