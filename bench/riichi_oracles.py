"""Our Riichi cases in the input forms of the two independent scorers, and their answers in ours.

* `mahjong` 2.1.0 (PyPI, MIT): `HandCalculator.estimate_hand_value` on 136-tile ids, with
  `has_open_tanyao` and `has_aka_dora` turned on (off by default) to play the same rule as ours.
* `riichienv` (PyPI, Apache-2.0, Rust): `HandEvaluator(tiles, melds).calc(...)`, called by keyword (its
  stub's argument order differs from the Python wrapper's).

Both number tiles 0-135 as kind x 4 + copy with the dragons white, green, red (ours: red, green, white)
and a red five as copy 0 of its 5. Answers are normalised to `Answer`: win or not, the yaku as our Tenhou
ids (dora kinds with their count), han, fu, and what the winner receives with and without honba and sticks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bench.riichi_cases import RCase
from engine.hand import MeldKind
from engine.rules.riichi.fans import ROUND_WIND, SEAT_WIND, Yaku

Y = Yaku
# ours 31 red, 32 green, 33 white; theirs 31 white (haku), 32 green, 33 red (chun)
_KIND = tuple(range(31)) + (33, 32, 31)
_RED_KINDS = (4, 13, 22)


@dataclass(frozen=True)
class Answer:
    is_win: bool
    yaku: frozenset[int] = frozenset()  # without the dora kinds
    dora: int = 0  # dora + ura + red fives, in han
    han: int = 0
    fu: int = 0
    points: int = 0  # the hand's value to the winner, before honba and sticks
    received: int = 0  # what the winner receives, honba and sticks included
    yakuman: bool = False


class _Ids:
    """136-tile ids handed out per kind so no id is used twice; a red five takes copy 0 of its 5."""

    def __init__(self, reds: tuple[int, ...]) -> None:
        self.next = [0] * 34
        self.reds = set(reds)
        for k in _RED_KINDS:
            self.next[k] = 0 if k in self.reds else 1  # copy 0 of a 5 is its red one

    def take(self, kind: int) -> int:
        theirs = _KIND[kind]
        copy = self.next[kind]
        if copy > 3:  # only a plain 5 can run out after the red copy was skipped
            copy = 0
        self.next[kind] = copy + 1
        if kind in self.reds and copy == 0:
            self.reds.discard(kind)
        return theirs * 4 + copy


def _ids_for(case: RCase) -> tuple[list[int], int, list[list[int]], list[int], list[int]]:
    """(concealed ids, winning id, each meld's ids, dora ids, ura ids); reds go to the first copies held."""
    hand, ctx = case.hand, case.ctx
    ids = _Ids(hand.red_fives)
    melds = [[ids.take(t) for t in m.tiles] for m in hand.melds]
    concealed = [ids.take(t) for t in hand.concealed]
    win = ids.take(hand.winning_tile if hand.winning_tile is not None else 0)
    # a red five not yet given out (it is the winning tile or a meld's): the scorers count it by id
    dora = [ids.take(t) for t in ctx.dora_indicators]
    ura = [ids.take(t) for t in ctx.ura_dora_indicators]
    return concealed, win, melds, dora, ura


# ---------------------------------------------------------------------------------------------
# mahjong

_MAHJONG_IDS = {
    0: Y.MENZEN_TSUMO, 1: Y.RIICHI, 3: Y.IPPATSU, 4: Y.CHANKAN, 5: Y.RINSHAN_KAIHOU, 6: Y.HAITEI, 7: Y.HOUTEI,
    8: Y.DOUBLE_RIICHI, 12: Y.PINFU, 13: Y.TANYAO, 14: Y.IIPEIKOU, 15: Y.HAKU, 16: Y.HATSU, 17: Y.CHUN,
    18: Y.SEAT_WIND_EAST, 19: Y.SEAT_WIND_SOUTH, 20: Y.SEAT_WIND_WEST, 21: Y.SEAT_WIND_NORTH,
    22: Y.ROUND_WIND_EAST, 23: Y.ROUND_WIND_SOUTH, 24: Y.ROUND_WIND_WEST, 25: Y.ROUND_WIND_NORTH,
    26: Y.SANSHOKU_DOUJUN, 27: Y.ITTSU, 28: Y.CHANTA, 29: Y.HONROUTOU, 30: Y.TOITOI, 31: Y.SANANKOU,
    32: Y.SANKANTSU, 33: Y.SANSHOKU_DOUKOU, 34: Y.CHIITOITSU, 35: Y.SHOUSANGEN, 36: Y.HONITSU, 37: Y.JUNCHAN,
    38: Y.RYANPEIKOU, 39: Y.CHINITSU, 100: Y.KOKUSHI_MUSOU, 101: Y.CHUUREN_POUTOU, 102: Y.SUUANKOU,
    103: Y.DAISANGEN, 104: Y.SHOUSUUSHII, 105: Y.RYUUIISOU, 106: Y.SUUKANTSU, 107: Y.TSUUIISOU,
    108: Y.CHINROUTOU, 111: Y.DAISUUSHII, 112: Y.KOKUSHI_MUSOU_13, 113: Y.SUUANKOU_TANKI,
    114: Y.JUNSEI_CHUUREN_POUTOU, 115: Y.TENHOU, 116: Y.CHIIHOU, 120: Y.DORA, 121: Y.AKA_DORA, 122: Y.URA_DORA,
}
_DORA = {int(Y.DORA), int(Y.URA_DORA), int(Y.AKA_DORA)}


def mahjong_inputs(case: RCase) -> dict[str, Any]:
    """The keyword arguments of `HandCalculator.estimate_hand_value` for this case."""
    from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules
    from mahjong.meld import Meld as MMeld

    hand, ctx = case.hand, case.ctx
    concealed, win, melds, dora, ura = _ids_for(case)
    mmelds = []
    for m, tiles in zip(hand.melds, melds, strict=True):
        if m.kind == MeldKind.CHOW:
            mmelds.append(MMeld(MMeld.CHI, tiles, opened=True))
        elif m.kind == MeldKind.PUNG:
            mmelds.append(MMeld(MMeld.PON, tiles, opened=True))
        elif m.added:
            mmelds.append(MMeld(MMeld.SHOUMINKAN, tiles, opened=True))
        else:
            mmelds.append(MMeld(MMeld.KAN, tiles, opened=not m.concealed))
    config = HandConfig(
        is_tsumo=ctx.self_drawn, is_riichi=ctx.riichi and not ctx.double_riichi, is_ippatsu=ctx.ippatsu,
        is_rinshan=ctx.replacement_tile, is_chankan=ctx.robbing_kong,
        is_haitei=ctx.last_wall_tile and ctx.self_drawn, is_houtei=ctx.last_wall_tile and not ctx.self_drawn,
        is_daburu_riichi=ctx.double_riichi, is_tenhou=ctx.heavenly, is_chiihou=ctx.earthly,
        player_wind=27 + int(ctx.seat_wind), round_wind=27 + int(ctx.prevalent_wind),
        kyoutaku_number=ctx.riichi_sticks, tsumi_number=ctx.honba,
        options=OptionalRules(has_open_tanyao=True, has_aka_dora=True))
    all_tiles = concealed + [win] + [t for tiles in melds for t in tiles]
    return {"tiles": all_tiles, "win_tile": win, "melds": mmelds, "dora_indicators": dora,
            "ura_dora_indicators": ura if ctx.riichi or ctx.double_riichi else None, "config": config}


def mahjong_answer(case: RCase, calculator: Any = None) -> Answer:
    from mahjong.hand_calculating.hand import HandCalculator

    calc = calculator or HandCalculator()
    r = calc.estimate_hand_value(**mahjong_inputs(case))
    if r.error:
        return Answer(False)
    yaku: set[int] = set()
    dora = 0
    for y in r.yaku:
        ours = int(_MAHJONG_IDS[y.yaku_id])
        if ours in _DORA:
            dora += y.han_open if case.hand.melds and not all(m.concealed for m in case.hand.melds) else y.han_closed
        else:
            yaku.add(ours)
    cost = r.cost
    main, additional = cost["main"], cost["additional"]
    if not case.ctx.self_drawn:
        points = main
    elif case.ctx.seat_wind == 0:
        points = 3 * main
    else:
        points = main + 2 * additional
    is_yakuman = any(int(_MAHJONG_IDS[y.yaku_id]) >= 37 and int(_MAHJONG_IDS[y.yaku_id]) <= 51 for y in r.yaku)
    return Answer(True, frozenset(yaku), dora, r.han, r.fu, points, cost["total"], is_yakuman)


# ---------------------------------------------------------------------------------------------
# riichienv

_RIICHIENV_IDS = {
    1: Y.MENZEN_TSUMO, 2: Y.RIICHI, 3: Y.CHANKAN, 4: Y.RINSHAN_KAIHOU, 5: Y.HAITEI, 6: Y.HOUTEI, 7: Y.HAKU,
    8: Y.HATSU, 9: Y.CHUN, 12: Y.TANYAO, 13: Y.IIPEIKOU, 14: Y.PINFU, 15: Y.CHANTA, 16: Y.ITTSU,
    17: Y.SANSHOKU_DOUJUN, 18: Y.DOUBLE_RIICHI, 19: Y.SANSHOKU_DOUKOU, 20: Y.SANKANTSU, 21: Y.TOITOI,
    22: Y.SANANKOU, 23: Y.SHOUSANGEN, 24: Y.HONROUTOU, 25: Y.CHIITOITSU, 26: Y.JUNCHAN, 27: Y.HONITSU,
    28: Y.RYANPEIKOU, 29: Y.CHINITSU, 30: Y.IPPATSU, 31: Y.DORA, 32: Y.AKA_DORA, 33: Y.URA_DORA, 35: Y.TENHOU,
    36: Y.CHIIHOU, 37: Y.DAISANGEN, 38: Y.SUUANKOU, 39: Y.TSUUIISOU, 40: Y.RYUUIISOU, 41: Y.CHINROUTOU,
    42: Y.KOKUSHI_MUSOU, 43: Y.SHOUSUUSHII, 44: Y.SUUKANTSU, 45: Y.CHUUREN_POUTOU, 47: Y.JUNSEI_CHUUREN_POUTOU,
    48: Y.SUUANKOU_TANKI, 49: Y.KOKUSHI_MUSOU_13, 50: Y.DAISUUSHII,
}
_RIICHIENV_SEAT, _RIICHIENV_ROUND = 10, 11


def riichienv_inputs(case: RCase) -> tuple[list[int], list[Any], dict[str, Any]]:
    """(hand tiles, melds, keyword arguments of HandEvaluator.calc) for this case."""
    import riichienv as rv

    hand, ctx = case.hand, case.ctx
    concealed, win, melds, dora, ura = _ids_for(case)
    seat = int(ctx.seat_wind)
    rmelds = []
    for m, tiles in zip(hand.melds, melds, strict=True):
        from_who = -1 if m.concealed else (seat + {1: 3, 2: 2, 3: 1}[int(m.claimed_from)]) % 4
        if m.kind == MeldKind.CHOW:
            kind = rv.MeldType.Chi
        elif m.kind == MeldKind.PUNG:
            kind = rv.MeldType.Pon
        elif m.concealed:
            kind = rv.MeldType.Ankan
        else:
            kind = rv.MeldType.Kakan if m.added else rv.MeldType.Daiminkan
        rmelds.append(rv.Meld(kind, tiles, not m.concealed, from_who))
    cond = rv.Conditions(
        tsumo=ctx.self_drawn, riichi=ctx.riichi and not ctx.double_riichi, double_riichi=ctx.double_riichi,
        ippatsu=ctx.ippatsu, haitei=ctx.last_wall_tile and ctx.self_drawn,
        houtei=ctx.last_wall_tile and not ctx.self_drawn, rinshan=ctx.replacement_tile, chankan=ctx.robbing_kong,
        tsumo_first_turn=ctx.heavenly or ctx.earthly, player_wind=seat, round_wind=int(ctx.prevalent_wind),
        riichi_sticks=ctx.riichi_sticks, honba=ctx.honba)
    return concealed, rmelds, {"win_tile": win, "dora_indicators": dora, "conditions": cond,
                               "ura_indicators": ura if ctx.riichi or ctx.double_riichi else []}


def riichienv_answer(case: RCase) -> Answer:
    import riichienv as rv

    concealed, rmelds, kwargs = riichienv_inputs(case)
    r = rv.HandEvaluator(concealed, rmelds).calc(**kwargs)
    if not r.is_win:
        return Answer(False)
    ctx = case.ctx
    yaku: set[int] = set()
    dora = 0
    for y in r.yaku:
        if y == _RIICHIENV_SEAT:
            yaku.add(int(SEAT_WIND[int(ctx.seat_wind)]))
        elif y == _RIICHIENV_ROUND:
            yaku.add(int(ROUND_WIND[int(ctx.prevalent_wind)]))
        elif int(_RIICHIENV_IDS[y]) in _DORA:
            dora += 1
        else:
            yaku.add(int(_RIICHIENV_IDS[y]))
    # its payments include the honba (300 in all); it lists dora once whatever their count (han has them)
    if not ctx.self_drawn:
        points = r.ron_agari
    elif ctx.seat_wind == 0:
        points = 3 * r.tsumo_agari_ko
    else:
        points = r.tsumo_agari_oya + 2 * r.tsumo_agari_ko
    return Answer(True, frozenset(yaku), -1, r.han, r.fu, points - 300 * ctx.honba, -1, r.yakuman)


def our_answer(case: RCase, options: Any = None) -> Answer:
    from engine import api

    ev = api.evaluate(case.hand, case.ctx, "riichi", options)
    if not ev.is_win or ev.best is None:
        return Answer(False)
    b = ev.best
    yaku = frozenset(f.fan.id for f in b.fans if f.fan.id not in _DORA)
    dora = sum(f.count for f in b.fans if f.fan.id in _DORA)
    me = int(case.ctx.seat_wind)
    return Answer(True, yaku, dora, b.han, b.fu, b.points, dict(b.payments)[me], b.yakuman > 0)
