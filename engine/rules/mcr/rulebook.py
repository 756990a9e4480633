"""The English rulebook's convention (McrOptions.convention = RULEBOOK): the four rulings that differ.

The default (CHINESE) is the fan table (`fans.TABLE`) as ChineseOfficialMahjongHelper and its Python
build pymahjonggb score it. The WMO's English edition of 2006 ("Mahjong Competition Rules", World Mahjong
Organization; its English text, the "Green Book", says disputes go by the Chinese edition) reads four
things otherwise; under RULEBOOK exactly these change and nothing else (tests/unit/test_mcr_conventions.py
runs both conventions over the shared reference cases, bench/mcr_cases.py, and explains every difference
by one of them):

(a) Two Concealed Kongs (双暗杠) is an 8-point fan: the English edition lists it among the 8-point fans
    (with Mixed Straight ... Robbing the Kong; as listed from it in Tom Sloper's column #341, "Mahjong
    Competition Rules", sloperama.com, 2007), where the Chinese table and fans.py give 6. How the
    kongs combine with the concealed-pung fans is the same under both: two concealed kongs are Two
    Concealed Pungs already (not counted again), and Three / Four Concealed Pungs count with any of their
    pungs being concealed kongs (Per Starbäck, "Beyond the Green Book", quoted in Sloper's column #550).
(b) A melded and a concealed kong together (明暗杠): the Chinese convention scores them as one 5-point fan
    (fan id 82, "Concealed Kong and Melded Kong"); the rulebook has no such fan, and the two kongs
    score Two Melded Kongs (4: two kongs, claimed or not) plus Concealed Kong (2) = 6, as English-rule
    calculators list it (jan-js-lib's README example, npm @masaue/jan-js-lib: a melded East kong and a
    concealed White kong score "Two Melded Kongs 4" and "Concealed Kong 2"; mahjong.nu's MCR list:
    "One Melded & One Concealed Kong 6"). Under RULEBOOK fan 82 is never scored.
(c) Fully Concealed Hand (不求人) with the concealed-hand fans: the rulebook's fans Nine Gates, Seven
    Shifted Pairs, Thirteen Orphans, Four Concealed Pungs, Seven Pairs, Greater and Lesser Honors and
    Knitted Tiles include "Concealed Hand" (门前清, won on a discard) and do not list Fully Concealed Hand
    (the WMO's "Explanation of Mahjong Competition Rules", item 1 (5): "The following fans include
    'Concealed Hand' inevitably: Nine Gates, Seven Shifted Pairs, Four Concealed Pungs, Seven Pairs, Fully
    Concealed Hand, Thirteen Orphans, Greater Honors and Knitted Tiles, Lesser Honors and Knitted Tiles";
    the rulebook's Seven Pairs: "These points are not counted: Concealed Hand and Single Wait"). So a
    self-drawn win of one of them also scores Fully Concealed Hand (4, which includes Self-Drawn); the
    Chinese convention waives 不求人 with them and counts Self-Drawn (1) instead.
(d) All Green (绿一色) with Half Flush (混一色): the rulebook does not waive Half Flush ("All Green ... can
    be scored with either Half Flush or Full Flush", Sloper's column #296 on the Green Book's examples);
    the Chinese table waives it. (One Voided Suit never applies to an all-green hand: it is one suit.)

This module is data over fans.py (the rows the rulebook reads otherwise) and one step on a
decomposition's raw hits (b); the mechanism (engine.rules.principles) is the same. ListFans lists
fans.py's table (the default convention).
"""

from __future__ import annotations

import dataclasses
from typing import Final

from engine.registry import REGISTRY
from engine.results import FanDef
from engine.rules.mcr.fans import TABLE, Fan
from engine.rules.model import FanRow, FanTable
from engine.rules.principles import Principles

F = Fan

# (c): the fans that waive Fully Concealed Hand in fans.py and only Concealed Hand in the rulebook.
CONCEALED_HAND_FANS: Final = (F.NINE_GATES, F.SEVEN_SHIFTED_PAIRS, F.THIRTEEN_ORPHANS, F.FOUR_CONCEALED_PUNGS,
                              F.SEVEN_PAIRS, F.GREATER_HONORS_AND_KNITTED_TILES, F.LESSER_HONORS_AND_KNITTED_TILES)
TWO_CONCEALED_KONGS_POINTS: Final = 8  # (a)


def _rulebook_row(row: FanRow) -> FanRow:
    fid = row.id
    if fid == F.TWO_CONCEALED_KONGS:  # (a)
        return dataclasses.replace(row, value=TWO_CONCEALED_KONGS_POINTS)
    if fid in CONCEALED_HAND_FANS:  # (c)
        return dataclasses.replace(row, excludes=tuple(x for x in row.excludes if x != F.FULLY_CONCEALED_HAND))
    if fid == F.ALL_GREEN:  # (d)
        return dataclasses.replace(row, excludes=tuple(x for x in row.excludes if x != F.HALF_FLUSH))
    return row


TABLE_RULEBOOK: Final = FanTable(TABLE.unit, tuple(_rulebook_row(r) for r in TABLE.rows), Fan)
PRINCIPLES_RULEBOOK: Final = Principles(TABLE_RULEBOOK.rows)
_ID_RANGE: Final = range(max(TABLE_RULEBOOK.def_by_id) + 1)
# By fan id, as scoring reads fans.py's (None / 0 at ids the table does not use).
DEF_OF: Final[list[FanDef | None]] = [TABLE_RULEBOOK.def_by_id.get(fid) for fid in _ID_RANGE]
POINTS_OF: Final[list[int]] = [TABLE_RULEBOOK.by_id[fid].value if fid in TABLE_RULEBOOK.by_id else 0
                               for fid in _ID_RANGE]

_MIXED_KONGS: Final = int(F.CONCEALED_KONG_AND_MELDED_KONG)
_TWO_MELDED_KONGS: Final = int(F.TWO_MELDED_KONGS)


def adjust(raw: dict[int, list[tuple[int, ...]]]) -> dict[int, list[tuple[int, ...]]]:
    """(b) on one decomposition's raw hits: a melded and a concealed kong are Two Melded Kongs (its sets,
    both kongs) instead of fans.py's 5-point fan; Concealed Kong and Melded Kong stay as found (Two
    Melded Kongs then waives Melded Kong, as in the table). Changes `raw` in place and returns it."""
    hits = raw.pop(_MIXED_KONGS, None)
    if hits is not None:
        raw.setdefault(_TWO_MELDED_KONGS, hits)
    return raw

# Built at import and never written after: the registry lists them (engine.registry).
REGISTRY.frozen("mcr.rulebook", DEF_OF=DEF_OF, POINTS_OF=POINTS_OF)
