"""The process-starting tests of tests/unit/test_mcr_payments.py (the console scripts, fresh processes)."""

from __future__ import annotations

import subprocess
import sys


def test_cli_flower_tiles_and_convention() -> None:
    out = subprocess.run([sys.executable, "-m", "engine", "score", "234s234s666s888sF", "--win", "F", "--seat", "E",
                          "--discarded-by", "across", "--flower-tiles", "plum,spring", "--option",
                          "convention=rulebook"], capture_output=True, text=True, check=True).stdout
    assert "Half Flush" in out and "Flower Tiles (花牌) x2" in out and "West -" in out


