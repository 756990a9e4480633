"""The process-starting tests of tests/unit/test_sichuan.py (the console scripts, fresh processes)."""

from __future__ import annotations

from engine import api
from engine.hand import (
    ClaimedFrom,
    Meld,
    MeldKind,
    Wind,
    make_hand,
    make_meld,
    winning_hand,
)
from engine.rules.sichuan.options import SichuanOptions
from engine.tiles import parse_tile, parse_tiles

E, S, W, N = Wind.EAST, Wind.SOUTH, Wind.WEST, Wind.NORTH

MIL = SichuanOptions()


def pung(t: str) -> Meld:
    return make_meld(MeldKind.PUNG, (parse_tile(t),) * 3, claimed_from=ClaimedFrom.LEFT)


def hand(concealed: str, win: str, *melds: Meld):  # type: ignore[no-untyped-def]
    return winning_hand(parse_tiles(concealed), melds, parse_tile(win))


def fans(ev) -> dict[int, int]:  # type: ignore[no-untyped-def]
    return {h.fan.id: h.count for h in ev.best.fans}


def analyze(concealed: str, *melds: Meld, opts: SichuanOptions = MIL):  # type: ignore[no-untyped-def]
    return api.analyze(make_hand(parse_tiles(concealed), melds, sizes=(13,)), (), "sichuan", opts)


def _cli(*args: str):  # type: ignore[no-untyped-def]
    import installed

    return installed.run([installed.python(), "-m", "engine", *args], capture_output=True, timeout=60)


def test_cli_score_and_analyze() -> None:
    out = _cli("score", "11m22m", "--win", "1m", "--meld", "pung:555m", "--meld", "pung:777p", "--meld", "pung:999p",
               "--rule-set", "sichuan", "--seat", "S", "--discarded-by", "left", "--void-suit", "s",
               "--option", "fan_cap=3")
    assert out.returncode == 0, out.stderr
    assert "All Pungs (对对胡)" in out.stdout and "value 2" in out.stdout
    assert "payments: East -2, South +2, West +0, North +0" in out.stdout
    out = _cli("analyze", "1122334455667m", "--rule-set", "sichuan", "--option", "fan_cap=3")
    assert out.returncode == 0 and "Most a wait would score (wall's end): 8" in out.stdout
    out = _cli("analyze", "1122334455667m", "--rule-set", "sichuan", "--option", "fan_cap=9")
    assert out.returncode == 2 and "BAD_OPTION" in out.stderr and "options.sichuan.fan_cap" in out.stderr


