"""The process-starting tests of tests/unit/test_riichi_options.py (the console scripts, fresh processes)."""

from __future__ import annotations

import subprocess
import sys

OPEN_WAIT = "234p678p34s567s99p"


def test_cli_speaks_the_new_options() -> None:
    out = subprocess.run([sys.executable, "-m", "engine", "score", OPEN_WAIT, "--win", "2s", "--self-drawn",
                          "--seat", "S", "--riichi", "--kita", "2", "--rule-set", "riichi", "--option", "players=3",
                          "--option", "tsumo_loss=false", "--option", "red_fives_per_suit=0,1,1"],
                         capture_output=True, text=True, check=True).stdout
    assert "8000 points" in out and "West -3000" in out


