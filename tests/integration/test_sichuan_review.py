"""Sichuan answers the expert review found wrong (the project's issue "Wrong answers and silent fields
found by an expert review"), each reproduced through the engine API, `python -m engine` of this
checkout and the service in process, and the options added for them.

Source of the figures: the Chengdu rule sheet the package docstring cites, the 血战到底 page of the scmj
client's rule list (QuiQiJingFeng/M2_CLIENT, cocosstudio/games/scmj/scmjRuleListLayer.csd, read for its
facts): 查花猪 pays "封顶倍数（x64）"; 十八罗汉 x64, 清十八罗汉 x256, 天胡 / 地胡 / 清龙七对 x32; 一炮多响:
"点炮者与每个被点炮者单独结算"; 呼叫转移: the discarder's kong takings go to the winner; room option
点杠花: "点杠花当自摸，则B按照自摸赢三家。点杠花当炮，则B按照点炮赢一家".
"""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import api
from engine.errors import BadOptionError, ContradictoryContextError
from engine.hand import ClaimedFrom, Meld, MeldKind, PriorKong, WinContext, Wind, make_meld, winning_hand
from engine.results import Evaluation, Scoring
from engine.rules.sichuan.fans import Fan
from engine.rules.sichuan.options import KongBloomPayer, SelfDraw, SichuanOptions, Variant
from engine.rules.sichuan.payments import relative, seat_from
from engine.tiles import parse_tile, parse_tiles
from mjsvc import convert
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.service import Service

ROOT = Path(__file__).resolve().parents[2]
E, S, W, N = Wind.EAST, Wind.SOUTH, Wind.WEST, Wind.NORTH
CHENGDU = SichuanOptions(variant=Variant.CHENGDU)
MIL = SichuanOptions(variant=Variant.MIL)


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MJSVC_PURE_PYTHON": "1"}
    return subprocess.run([sys.executable, "-m", "engine", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60)


def kong(t: str, how: str = "exposed") -> Meld:
    return make_meld(MeldKind.KONG, (parse_tile(t),) * 4, concealed=how == "concealed",
                     claimed_from=ClaimedFrom.NONE if how == "concealed" else ClaimedFrom.LEFT)


def pung(t: str) -> Meld:
    return make_meld(MeldKind.PUNG, (parse_tile(t),) * 3, claimed_from=ClaimedFrom.LEFT)


def hand(concealed: str, win: str, *melds: Meld) -> Any:
    return winning_hand(parse_tiles(concealed), melds, parse_tile(win))


def best(ev: Evaluation) -> Scoring:
    assert ev.is_win and ev.best is not None
    return ev.best


def net(ev: Evaluation) -> dict[Wind, int]:
    return {Wind(s): a for s, a in best(ev).payments}


def service_evaluate(h: Any, ctx: WinContext, opts: dict[str, Any]) -> pb.EvaluateResponse:
    req = pb.EvaluateRequest(rule_set="sichuan", hand=pb.Hand(
        concealed=convert.tiles_to_proto(h.concealed), melds=[convert.meld_to_proto(m) for m in h.melds],
        winning_tile=h.winning_tile + 1))
    fields: dict[str, Any] = {  # the wire numbers: winds one more than the engine's, the rest the same
        "self_drawn": ctx.self_drawn, "replacement_tile": ctx.replacement_tile, "heavenly": ctx.heavenly,
        "earthly": ctx.earthly, "seat_wind": int(ctx.seat_wind) + 1, "discarded_by": int(ctx.discarded_by),
        "after_kong_discard": ctx.after_kong_discard, "prior_kong": int(ctx.prior_kong),
        "other_winners": [int(w) + 1 for w in ctx.other_winners], "kong_fed_by": int(ctx.kong_fed_by)}
    req.context.CopyFrom(pb.WinContext(**fields))
    for k, v in opts.items():
        setattr(req.options.sichuan, k, v)
    return Service(cache_size=0).evaluate(req)


# ---------------------------------------------------------------------------------------------
# 3. The Chengdu cap: the sheet caps at x64 and prices up to x256


ARHATS = hand("5m", "5m", kong("2m"), kong("8m"), kong("3p", "concealed"), kong("9p"))  # the issue's hand
PURE_ARHATS = hand("5m", "5m", kong("2m"), kong("8m"), kong("3m", "concealed"), kong("9m"))
ISSUE_ARHATS = ["score", "5m", "--meld", "kong:2222m", "--meld", "kong:8888m", "--meld", "kong:3333p:concealed",
                "--meld", "kong:9999p", "--win", "5m", "--self-drawn", "--seat", "W", "--rule-set", "sichuan",
                "--option", "variant=2"]


def test_chengdu_cap_is_the_sheets_x64() -> None:
    """Issue: 十八罗汉 scored 16 (cap 4); the sheet prices it x64 and caps at x64 (查花猪's 封顶倍数)."""
    drawn = WinContext(seat_wind=W, self_drawn=True)
    ev = api.evaluate(ARHATS, drawn, "sichuan", CHENGDU)
    assert [h.fan.id for h in best(ev).fans] == [Fan.EIGHTEEN_ARHATS]
    assert (best(ev).total, best(ev).points) == (6, 64)
    assert net(ev) == {E: -65, S: -65, W: 195, N: -65}  # 自摸加底: each pays 64 + 1
    out = cli(*ISSUE_ARHATS)
    assert out.returncode == 0, out.stderr
    assert "Total: 6 fan" in out.stdout and "value 64" in out.stdout
    out = cli(*ISSUE_ARHATS, "--option", "fan_cap=6")  # was BAD_OPTION
    assert out.returncode == 0 and "value 64" in out.stdout, out.stderr
    # MIL keeps its cap of 4 (dcmshi/sichuan-mahjong's default).
    assert best(api.evaluate(ARHATS, drawn, "sichuan", MIL)).points == 16


@pytest.mark.parametrize(("name", "h", "ctx", "points"), [
    ("清十八罗汉 x256", PURE_ARHATS, WinContext(seat_wind=W, self_drawn=True), 256),
    ("十八罗汉 x64", ARHATS, WinContext(seat_wind=W, self_drawn=True), 64),
    ("清龙七对 x32", hand("1111m22m33m55m66m8m", "8m"), WinContext(seat_wind=S, discarded_by=ClaimedFrom.LEFT), 32),
    ("天胡 x32", hand("123m456m789m123p5p", "5p"), WinContext(seat_wind=E, self_drawn=True, heavenly=True), 32),
    ("地胡 x32", hand("123m456m789m123p5p", "5p"), WinContext(seat_wind=S, self_drawn=True, earthly=True), 32),
])
def test_sheet_prices_under_the_top_cap(name: str, h: Any, ctx: WinContext, points: int) -> None:
    """With fan_cap 8 (x256, the sheet's dearest hand) every pattern scores the sheet's own figure."""
    ev = api.evaluate(h, ctx, "sichuan", SichuanOptions(variant=Variant.CHENGDU, fan_cap=8))
    assert best(ev).points == points, name
    resp = service_evaluate(h, ctx, {"variant": pb.SICHUAN_VARIANT_CHENGDU, "fan_cap": 8})
    assert resp.best.points == points, name


def test_fan_cap_range() -> None:
    for cap in range(3, 9):
        assert api.evaluate(PURE_ARHATS, WinContext(seat_wind=W, self_drawn=True), "sichuan",
                            {"variant": 2, "fan_cap": cap}).best.points == 2 ** cap  # type: ignore[union-attr]
    for bad in (2, 9, True, "6"):
        with pytest.raises(BadOptionError) as info:
            api.evaluate(ARHATS, WinContext(seat_wind=W, self_drawn=True), "sichuan", {"fan_cap": bad})
        assert info.value.field == "options.sichuan.fan_cap"
    with pytest.raises(BadOptionError):
        SichuanOptions(fan_cap=9)
    assert (SichuanOptions().cap, CHENGDU.cap, SichuanOptions(variant=Variant.CHENGDU, fan_cap=4).cap) == (4, 6, 4)


# ---------------------------------------------------------------------------------------------
# 4. 一炮多响 with 呼叫转移: the kong money moves once


PLAIN = hand("123m456m789m2p", "2p", pung("5p"))  # a plain win, 杠上炮 +1: value 2


def shot(seat: Wind, others: tuple[Wind, ...] = (), kong_kind: PriorKong = PriorKong.CONCEALED,
         discarder: Wind = W) -> WinContext:
    return WinContext(seat_wind=seat, discarded_by=relative(seat, discarder), after_kong_discard=True,
                      prior_kong=kong_kind, other_winners=others)


def test_issue_two_winners_share_one_transfer() -> None:
    """Issue: West, having collected 6 for a concealed kong, discards to North and South; each win handed
    West's 6 over (West -8 twice: 12 paid out of 6). Now the kong money goes with the first winner in
    turn after the discarder (North, West's 下家); South's win moves none."""
    north = api.evaluate(PLAIN, shot(N, (S,)), "sichuan", CHENGDU)
    south = api.evaluate(PLAIN, shot(S, (N,)), "sichuan", CHENGDU)
    assert net(north) == {E: 0, S: 0, W: -8, N: 8}
    assert net(south) == {E: 0, S: 2, W: -2, N: 0}
    base = ["score", "123m456m789m2p", "--win", "2p", "--meld", "pung:555p", "--after-kong-discard", "--prior-kong",
            "concealed", "--rule-set", "sichuan", "--option", "variant=2"]
    out = cli(*base, "--discarded-by", "left", "--seat", "N", "--other-winners", "S")
    assert "payments: East +0, South +0, West -8, North +8" in out.stdout, out.stderr
    out = cli(*base, "--discarded-by", "right", "--seat", "S", "--other-winners", "N")
    assert "payments: East +0, South +2, West -2, North +0" in out.stdout, out.stderr
    resp = service_evaluate(PLAIN, shot(S, (N,)), {"variant": pb.SICHUAN_VARIANT_CHENGDU})
    assert [(p.seat_wind, p.amount) for p in resp.best.payments] == [
        (pb.WIND_EAST, 0), (pb.WIND_SOUTH, 2), (pb.WIND_WEST, -2), (pb.WIND_NORTH, 0)]


@pytest.mark.parametrize("opts", [CHENGDU, MIL], ids=["transfer", "refund"])
@pytest.mark.parametrize("kind", [PriorKong.CONCEALED, PriorKong.ADDED])
def test_kong_money_moves_once_whoever_wins(opts: SichuanOptions, kind: PriorKong) -> None:
    """For every discarder and every set of two or three winners: over all their wins together the
    discarder gives up exactly its kong takings once (呼叫转移) or refunds them once (MIL), besides the
    value it owes each winner (单独结算)."""
    for discarder in Wind:
        others = [s for s in Wind if s != discarder]
        for k in (2, 3):
            for winners in itertools.combinations(others, k):
                total = dict.fromkeys(Wind, 0)
                for w in winners:
                    ctx = shot(w, tuple(x for x in winners if x != w), kind, discarder)
                    for seat, amount in net(api.evaluate(PLAIN, ctx, "sichuan", opts)).items():
                        total[seat] += amount
                taken = 2 * 3 if kind == PriorKong.CONCEALED else 1 * 3
                assert total[discarder] == -2 * k - taken, (discarder, winners)
                assert sum(total.values()) == 0


def test_two_robbers_refund_the_added_kong_once() -> None:
    """抢杠 by two players: the robbed kong never happened, its money (1 from each player still in) goes
    back once, with the first robber in turn after the kong's declarer (West: North, then South)."""
    def robbed(seat: Wind, other: Wind) -> WinContext:
        return WinContext(seat_wind=seat, discarded_by=relative(seat, W), robbing_kong=True,
                          prior_kong=PriorKong.ADDED, other_winners=(other,))
    h = hand("123m456m789m13p55p", "2p")  # won on the robbed 2p
    north = net(api.evaluate(h, robbed(N, S), "sichuan", MIL))
    south = net(api.evaluate(h, robbed(S, N), "sichuan", MIL))
    assert north == {E: 1, S: 1, W: -2 - 3, N: 2 + 1}  # the robbery fan: value 2, and the refund
    assert south == {E: 0, S: 2, W: -2, N: 0}


def test_other_winners_checked() -> None:
    h = PLAIN
    for ctx, field in [(shot(N, (N,)), "other_winners"), (shot(N, (W,)), "other_winners"),
                       (WinContext(seat_wind=N, self_drawn=True, other_winners=(S,)), "other_winners")]:
        with pytest.raises(ContradictoryContextError) as info:
            api.evaluate(h, ctx, "sichuan", CHENGDU)
        assert info.value.field == field
    seen_out = WinContext(seat_wind=N, discarded_by=ClaimedFrom.LEFT, other_winners=(S,), seats_out=(S,))
    with pytest.raises(ContradictoryContextError):
        api.evaluate(h, seen_out, "sichuan", CHENGDU)


# ---------------------------------------------------------------------------------------------
# 5. 点杠花: who pays a self-draw on the replacement tile of a kong fed by a discard


BLOOM = hand("123m456m789m1p", "1p", kong("5p"))  # Chengdu: 平胡 + 根 + 杠上花 = 2 fan, value 4


def bloom(fed_by: ClaimedFrom = ClaimedFrom.ACROSS) -> WinContext:
    return WinContext(seat_wind=S, self_drawn=True, replacement_tile=True, kong_fed_by=fed_by)


def test_kong_bloom_as_self_draw_by_default() -> None:
    """点杠花当自摸 (the default): every player still in pays, as on any self-draw (自摸加底: value + 1)."""
    ev = api.evaluate(BLOOM, bloom(), "sichuan", CHENGDU)
    assert best(ev).points == 4 and net(ev) == {E: -5, S: 15, W: -5, N: -5}


def test_kong_bloom_feeder_pays() -> None:
    """点杠花当炮: the feeder (North, across from South) alone pays, as on a discard: no 自摸 bonus."""
    opts = SichuanOptions(variant=Variant.CHENGDU, kong_bloom_payer=KongBloomPayer.FEEDER)
    ev = api.evaluate(BLOOM, bloom(), "sichuan", opts)
    assert Fan.WIN_AFTER_KONG in {h.fan.id for h in best(ev).fans}
    assert best(ev).points == 4 and net(ev) == {E: 0, S: 4, W: 0, N: -4}
    assert seat_from(S, ClaimedFrom.ACROSS) == N
    # 自摸加番 does not add its fan to a win counted as a discard.
    add_fan = SichuanOptions(variant=Variant.CHENGDU, kong_bloom_payer=KongBloomPayer.FEEDER,
                             self_draw=SelfDraw.ADD_FAN)
    assert Fan.SELF_DRAWN not in {h.fan.id for h in best(api.evaluate(BLOOM, bloom(), "sichuan", add_fan)).fans}
    # Without a feeder (a concealed or added kong) it stays a self-draw.
    unfed = WinContext(seat_wind=S, self_drawn=True, replacement_tile=True)
    assert net(api.evaluate(BLOOM, unfed, "sichuan", opts)) == {E: -5, S: 15, W: -5, N: -5}
    out = cli("score", "123m456m789m1p", "--win", "1p", "--meld", "kong:5555p", "--self-drawn", "--replacement",
              "--seat", "S", "--kong-fed-by", "across", "--rule-set", "sichuan", "--option", "variant=2",
              "--option", "kong_bloom_payer=feeder")
    assert "payments: East +0, South +4, West +0, North -4" in out.stdout, out.stderr
    resp = service_evaluate(BLOOM, bloom(), {"variant": pb.SICHUAN_VARIANT_CHENGDU,
                                             "kong_bloom_payer": pb.SICHUAN_KONG_BLOOM_PAYER_FEEDER})
    assert [p.amount for p in resp.best.payments] == [0, 4, 0, -4]


def test_kong_fed_by_checked() -> None:
    with pytest.raises(ContradictoryContextError) as info:
        api.evaluate(BLOOM, WinContext(seat_wind=S, self_drawn=True, kong_fed_by=ClaimedFrom.LEFT), "sichuan")
    assert info.value.field == "kong_fed_by"
    with pytest.raises(ContradictoryContextError):
        api.evaluate(BLOOM, WinContext(seat_wind=S, self_drawn=True, replacement_tile=True,
                                       kong_fed_by=ClaimedFrom.LEFT, seats_out=(E,)), "sichuan")


def test_issue_answers_through_mjsvc_batch() -> None:
    """The three-suit Analyze (issue item 1) and the Chengdu 十八罗汉 (item 3) through `python -m mjsvc batch`
    of this checkout (proto3 JSON)."""
    import json

    def tiles(text: str) -> list[str]:
        return [pb.Tile.Name(t + 1) for t in parse_tiles(text)]

    def kong_json(t: str, concealed: bool = False) -> dict[str, Any]:
        return {"kind": "MELD_KIND_KONG", "tiles": tiles(t * 4), "concealed": concealed,
                "claimed_from": "CLAIMED_FROM_UNSPECIFIED" if concealed else "CLAIMED_FROM_LEFT"}

    lines = [
        {"method": "Analyze", "request": {"rule_set": "sichuan", "hand": {"concealed": tiles("123m456p789s1122s")}}},
        {"method": "Evaluate", "request": {"rule_set": "sichuan", "hand": {
            "concealed": tiles("5m"), "winning_tile": "TILE_M5",
            "melds": [kong_json("2m"), kong_json("8m"), kong_json("3p", True), kong_json("9p")]},
            "context": {"self_drawn": True, "seat_wind": "WIND_WEST"},
            "options": {"sichuan": {"variant": "SICHUAN_VARIANT_CHENGDU"}}}},
    ]
    env = {**os.environ, "MJSVC_PURE_PYTHON": "1"}
    proc = subprocess.run([sys.executable, "-m", "mjsvc", "batch"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60, input="\n".join(json.dumps(x) for x in lines) + "\n")
    assert proc.returncode == 0, proc.stderr
    analyzed, evaluated = (json.loads(o)["response"] for o in proc.stdout.splitlines())
    assert analyzed["shanten"] == 3 and not analyzed.get("waits")
    assert evaluated["best"]["points"] == 64 and evaluated["best"]["fans"][0]["name_zh"] == "十八罗汉"
