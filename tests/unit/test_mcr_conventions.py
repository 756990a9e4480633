"""McrOptions.convention: the English rulebook's four rulings (engine/rules/mcr/rulebook.py), and nothing else.

Sources (cited in full in engine/rules/mcr/rulebook.py): the WMO's "Mahjong Competition Rules", English
edition 2006, and its "Explanation of Mahjong Competition Rules"; Tom Sloper's columns #296, #341 and #550
(sloperama.com) on the English edition; jan-js-lib's README (npm @masaue/jan-js-lib) for a melded plus a
concealed kong. The Chinese convention is pymahjonggb's (tests/unit/test_mcr_oracle.py).

The proof over the shared reference cases (bench/mcr_cases.py, the generator the oracle test uses, same
seed and size): every case is scored under both conventions; every decomposition's rulebook answer must be
the Chinese answer with exactly the applicable rulings applied, and a case none applies to must answer
exactly the same (the Evaluate response's bytes: fans, totals, decompositions, order, payments).
"""

from __future__ import annotations

from collections import Counter

import pytest

from bench.mcr_cases import cases
from engine import api
from engine.errors import BadOptionError
from engine.hand import ClaimedFrom, Hand, Meld, MeldKind, WinContext, make_meld, validate_context, winning_hand
from engine.results import Evaluation, Scoring
from engine.rules.mcr import RULE_SET
from engine.rules.mcr.fans import Fan as F
from engine.rules.mcr.options import McrConvention, McrOptions
from engine.rules.mcr.rulebook import CONCEALED_HAND_FANS
from engine.tiles import parse_tile, parse_tiles
from mjsvc import convert

RULEBOOK = McrOptions(convention=McrConvention.RULEBOOK)
CHINESE = McrOptions()
N, SEED = 2000, 2024  # as tests/unit/test_mcr_oracle.py
GREEN_DRAGON = parse_tile("F")


def meld(spec: str) -> Meld:
    """'chow:123m', 'pung:5p', 'kong:E' (claimed), 'ckong:E' (concealed)."""
    kind, tiles = spec.split(":")
    ts = parse_tiles(tiles)
    if kind == "chow":
        return make_meld(MeldKind.CHOW, ts, claimed_from=ClaimedFrom.LEFT, claimed_index=0)
    if kind == "pung":
        return make_meld(MeldKind.PUNG, ts * 3, claimed_from=ClaimedFrom.ACROSS)
    if kind == "ckong":
        return make_meld(MeldKind.KONG, ts * 4, concealed=True)
    return make_meld(MeldKind.KONG, ts * 4, claimed_from=ClaimedFrom.RIGHT)


def score(concealed: str, win: str, melds: tuple[str, ...] = (), options: McrOptions = CHINESE,
          **ctx: object) -> Scoring:
    hand = winning_hand(parse_tiles(concealed), [meld(m) for m in melds], parse_tile(win))
    context = WinContext(**ctx)  # type: ignore[arg-type]
    validate_context(context, hand)
    ev = RULE_SET.evaluate(hand, context, options)
    assert ev.is_win and ev.best is not None
    return ev.best


def fans(s: Scoring) -> dict[int, int]:
    return {f.fan.id: f.count for f in s.fans}


# ---------------------------------------------------------------- each ruling on a hand of its own

def test_a_two_concealed_kongs_is_8_points_in_the_rulebook() -> None:
    """(a) The English edition lists Two Concealed Kongs among the 8-point fans (Sloper #341); the Chinese
    table gives 6. The concealed-pung fans combine the same way under both (Starbäck, in Sloper #550)."""
    args = ("456s789s5p", "5p", ("ckong:1m", "ckong:9p"))
    chinese, rulebook = score(*args), score(*args, options=RULEBOOK)
    assert fans(chinese) == fans(rulebook)
    assert F.TWO_CONCEALED_KONGS in fans(chinese) and F.TWO_CONCEALED_PUNGS not in fans(chinese)
    points = {f.fan.id: f.fan.points for f in rulebook.fans}
    assert points[F.TWO_CONCEALED_KONGS] == 8
    assert {f.fan.id: f.fan.points for f in chinese.fans}[F.TWO_CONCEALED_KONGS] == 6
    assert rulebook.total == chinese.total + 2
    # a third concealed pung: Three Concealed Pungs with Two Concealed Kongs, under both conventions
    three = ("555s789s5p", "5p", ("ckong:1m", "ckong:9p"))
    assert fans(score(*three, self_drawn=True)) == fans(score(*three, options=RULEBOOK, self_drawn=True))
    assert F.THREE_CONCEALED_PUNGS in fans(score(*three, options=RULEBOOK, self_drawn=True))


def test_b_a_melded_and_a_concealed_kong() -> None:
    """(b) Chinese convention: one 5-point fan (明暗杠, catalogue id 82); rulebook: Two Melded Kongs 4 +
    Concealed Kong 2 (jan-js-lib's README example; mahjong.nu: "One Melded & One Concealed Kong 6")."""
    args = ("456s789s5p", "5p", ("kong:1m", "ckong:9p"))
    chinese, rulebook = fans(score(*args)), fans(score(*args, options=RULEBOOK))
    assert chinese[F.CONCEALED_KONG_AND_MELDED_KONG] == 1
    assert F.TWO_MELDED_KONGS not in chinese and F.CONCEALED_KONG not in chinese
    assert F.CONCEALED_KONG_AND_MELDED_KONG not in rulebook
    assert rulebook[F.TWO_MELDED_KONGS] == 1 and rulebook[F.CONCEALED_KONG] == 1 and F.MELDED_KONG not in rulebook
    assert score(*args, options=RULEBOOK).total == score(*args).total + 1
    # three kongs waive every two-kong fan under both conventions
    three = ("456s5p", "5p", ("kong:1m", "kong:2p", "ckong:3s"))
    assert fans(score(*three)) == fans(score(*three, options=RULEBOOK))


@pytest.mark.parametrize("concealed, win", [
    ("1133m5577p99sEEC", "C"),  # Seven Pairs
    ("19m19p19sESWNCFP", "1m"),  # Thirteen Orphans
    ("147m25p36sESWNCF", "P"),  # Greater Honors and Knitted Tiles
    ("147m258p36sESWNC", "9s"),  # Lesser Honors and Knitted Tiles
    ("1112345678999m", "5m"),  # Nine Gates
    ("1122334455667m", "7m"),  # Seven Shifted Pairs
    ("111m333p555s777sE", "E"),  # Four Concealed Pungs
])
def test_c_fully_concealed_hand_with_the_concealed_hand_fans(concealed: str, win: str) -> None:
    """(c) The rulebook's concealed-hand fans include Concealed Hand, not Fully Concealed Hand (WMO,
    "Explanation of Mahjong Competition Rules", item 1 (5)): self-drawn, they also score Fully Concealed
    Hand (which waives Self-Drawn); the Chinese convention waives 不求人 and counts Self-Drawn."""
    chinese, rulebook = score(concealed, win, self_drawn=True), score(concealed, win, options=RULEBOOK, self_drawn=True)
    c, r = fans(chinese), fans(rulebook)
    assert c.get(F.SELF_DRAWN) == 1 and F.FULLY_CONCEALED_HAND not in c
    assert r.get(F.FULLY_CONCEALED_HAND) == 1 and F.SELF_DRAWN not in r
    assert {k: v for k, v in c.items() if k != F.SELF_DRAWN} == {k: v for k, v in r.items()
                                                                 if k != F.FULLY_CONCEALED_HAND}
    assert rulebook.total == chinese.total + 3
    # won on a discard: Concealed Hand is waived under both, nothing differs
    assert fans(score(concealed, win)) == fans(score(concealed, win, options=RULEBOOK))


def test_d_all_green_with_half_flush() -> None:
    """(d) The rulebook scores Half Flush with an All Green hand holding the green dragon (Sloper #296:
    "All Green ... can be scored with either Half Flush or Full Flush"); the Chinese table waives it."""
    args = ("234s234s666s888sF", "F")
    c, r = fans(score(*args)), fans(score(*args, options=RULEBOOK))
    assert F.HALF_FLUSH not in c and r[F.HALF_FLUSH] == 1
    assert {k: v for k, v in r.items() if k != F.HALF_FLUSH} == c
    # no green dragon: Full Flush under both, nothing differs
    flush = ("234s234s666s888s2s", "2s")
    assert fans(score(*flush)) == fans(score(*flush, options=RULEBOOK))
    assert F.FULL_FLUSH in fans(score(*flush))


def test_the_option_by_name_number_and_default() -> None:
    hand = winning_hand(parse_tiles("234s234s666s888sF"), [], parse_tile("F"))
    by_name = api.evaluate(hand, WinContext(), "mcr", {"convention": "rulebook"})
    by_number = api.evaluate(hand, WinContext(), "mcr", {"convention": 2})
    assert by_name == by_number == api.evaluate(hand, WinContext(), "mcr", RULEBOOK)
    assert api.evaluate(hand, WinContext(), "mcr", {"convention": "chinese"}) == api.evaluate(hand, WinContext(), "mcr")
    assert RULE_SET.default_options == CHINESE
    for bad in ("green_book", 3, 0):
        with pytest.raises(BadOptionError) as err:
            api.evaluate(hand, WinContext(), "mcr", {"convention": bad})
        assert err.value.field == "options.mcr.convention"
    with pytest.raises(BadOptionError) as err:
        api.evaluate(hand, WinContext(), "mcr", {"non_dealer_seat": "west"})
    assert err.value.field == "options.mcr.non_dealer_seat"


# ---------------------------------------------------------------- the proof over the reference cases

def _self_drawn_concealed(hand: Hand, ctx: WinContext) -> bool:
    return ctx.self_drawn and all(m.concealed for m in hand.melds)


def expected_rulebook(hand: Hand, ctx: WinContext, chinese: dict[int, int]) -> tuple[dict[int, int], set[str]]:
    """The Chinese answer of one decomposition with the rulings that apply to it applied, and their names."""
    out, applied = dict(chinese), set()
    if F.TWO_CONCEALED_KONGS in out:
        applied.add("a")  # same fans, 8 points (checked on the FanDefs)
    if F.CONCEALED_KONG_AND_MELDED_KONG in out:
        applied.add("b")
        del out[F.CONCEALED_KONG_AND_MELDED_KONG]
        out[F.TWO_MELDED_KONGS] = 1
        out[F.CONCEALED_KONG] = 1
    if _self_drawn_concealed(hand, ctx) and any(f in out for f in CONCEALED_HAND_FANS):
        applied.add("c")
        out.pop(F.SELF_DRAWN, None)
        out[F.FULLY_CONCEALED_HAND] = 1
    if F.ALL_GREEN in out and hand.counts()[GREEN_DRAGON] > 0:
        applied.add("d")
        out[F.HALF_FLUSH] = 1
    return out, applied


def _wire(ev: Evaluation) -> bytes:
    return convert.evaluation_to_proto(ev).SerializeToString(deterministic=True)


def _scorings(ev: Evaluation) -> list[Scoring]:
    assert ev.best is not None
    return [ev.best, *ev.alternatives]


def test_switching_the_convention_changes_exactly_the_four_rulings() -> None:
    seen: Counter[str] = Counter()
    differing = 0
    for case in cases(N, SEED):
        chinese = RULE_SET.evaluate(case.hand, case.ctx, CHINESE)
        rulebook = RULE_SET.evaluate(case.hand, case.ctx, RULEBOOK)
        assert chinese.is_win == rulebook.is_win
        if not chinese.is_win:
            continue
        by_decomposition = {s.decomposition: s for s in _scorings(rulebook)}
        assert len(by_decomposition) == len(_scorings(chinese))
        rulings: set[str] = set()
        for c in _scorings(chinese):
            r = by_decomposition[c.decomposition]
            expected, applied = expected_rulebook(case.hand, case.ctx, fans(c))
            assert fans(r) == expected, (case.template, str(case.hand), case.ctx, applied)
            points = {f.fan.id: f.fan.points for f in r.fans}
            assert all(points[fid] == (8 if fid == F.TWO_CONCEALED_KONGS else f.fan.points)
                       for fid, f in ((f.fan.id, f) for f in c.fans) if fid in points)
            assert r.total == sum(f.points for f in r.fans)
            rulings |= applied
        best_total = max(s.total for s in _scorings(rulebook))
        assert rulebook.best is not None and rulebook.best.total == best_total
        if not rulings:
            # nothing else differs, in any detail a client receives (the FanDefs' `excludes` lists are the
            # convention's own table and are not on the wire)
            assert _wire(rulebook) == _wire(chinese), (case.template, str(case.hand))
        else:
            differing += _wire(rulebook) != _wire(chinese)
        seen.update(rulings)
    # every ruling is met in the reference cases (the proof is not vacuous)
    assert all(seen[r] >= 3 for r in "abcd"), seen
    assert differing >= sum(seen.values()) // 2, (differing, seen)
