"""The process-starting tests of tests/unit/test_sichuan_ready.py (the console scripts, fresh processes)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine import api
from engine.errors import BadMeldError
from engine.hand import ClaimedFrom, Hand, MeldKind, Suit, make_hand, make_meld
from engine.rules.sichuan.options import SichuanOptions
from engine.tiles import parse_tiles
from mjsvc import convert
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.service import Service

ROOT = Path(__file__).resolve().parents[2]

def cli(*args: str) -> subprocess.CompletedProcess[str]:
    """`python -m engine` of this checkout (pure Python)."""
    env = {**os.environ, "MJSVC_PURE_PYTHON": "1"}
    return subprocess.run([sys.executable, "-m", "engine", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60)

def proto_hand(h: Hand) -> pb.Hand:
    return pb.Hand(concealed=convert.tiles_to_proto(h.concealed), melds=[convert.meld_to_proto(m) for m in h.melds])

def H(text: str, *kongs: str) -> Hand:
    return make_hand(parse_tiles(text), [make_meld(MeldKind.KONG, parse_tiles(k), claimed_from=ClaimedFrom.LEFT)
                                         for k in kongs], sizes=(13, 14))


def test_issue_three_suits_is_not_ready() -> None:
    """123m456p789s1122s: whichever suit goes, its three tiles must be exchanged one by one: shanten 3."""
    a = api.analyze(H("123m456p789s1122s"), (), "sichuan")
    assert (a.shanten, a.waits, a.max_value) == (3, (), 0)
    assert dict(a.shanten_by_shape)
    out = cli("analyze", "123m456p789s1122s", "--rule-set", "sichuan")
    assert out.returncode == 0, out.stderr
    assert "Shanten: 3 (3 tiles from waiting)" in out.stdout and "Waits" not in out.stdout


def test_issue_void_suit_kong_refused() -> None:
    """A declared kong of the void suit can never leave the hand: no win is reachable, so Analyze
    refuses the hand (BAD_MELD naming the meld) instead of a shanten."""
    opts = SichuanOptions(void_suit=Suit.DOTS)
    with pytest.raises(BadMeldError) as info:
        api.analyze(H("234m678m555m5p", "9999p"), (), "sichuan", opts)
    assert info.value.field == "melds[0]"
    out = cli("analyze", "234m678m555m5p", "--meld", "kong:9999p", "--rule-set", "sichuan", "--option",
              "void_suit=p")
    assert out.returncode != 0 and "BAD_MELD" in out.stderr and "void suit" in out.stderr
    # Through the service in process: the same error, naming the field.
    req = pb.AnalyzeRequest(rule_set="sichuan", hand=proto_hand(H("234m678m555m5p", "9999p")))
    req.options.sichuan.void_suit = pb.SUIT_DOTS
    with pytest.raises(BadMeldError) as err:
        Service(cache_size=0).analyze(req)
    assert err.value.field == "hand.melds[0]"


