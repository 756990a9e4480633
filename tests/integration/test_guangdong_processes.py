"""The process-starting tests of tests/unit/test_guangdong.py (the console scripts, fresh processes)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from engine.results import Evaluation
from engine.rules.guangdong.fans import Fan

ROOT = Path(__file__).resolve().parents[2]


def fans(e: Evaluation) -> dict[Fan, tuple[int, int]]:
    assert e.best is not None
    return {Fan(h.fan.id): (h.fan.points, h.count) for h in e.best.fans}

def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}


def test_cli_scores_and_analyses_with_ghosts(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, "-m", "engine", "score", "13m46p789s999sEEP", "--win", "P", "--self-drawn",
                          "--rule-set", "guangdong", "--option", "ghosts=P", "--horses", "1m5pS"],
                         capture_output=True, text=True, cwd=tmp_path, env=_env(), timeout=60)
    assert out.returncode == 0, out.stderr
    assert "P=2m" in out.stdout and "payments: East +18, South -6, West -6, North -6" in out.stdout
    out = subprocess.run([sys.executable, "-m", "engine", "analyze", "13m46p789s999sEEP", "--rule-set", "guangdong",
                          "--option", "ghosts=P"], capture_output=True, text=True, cwd=tmp_path, env=_env(), timeout=60)
    assert out.returncode == 0 and "Waits: 2m" in out.stdout and "5p" in out.stdout, out.stdout
    bad = subprocess.run([sys.executable, "-m", "engine", "score", "13m46p789s999sEEP", "--win", "P", "--rule-set",
                          "guangdong", "--option", "ghosts=P"], capture_output=True, text=True, cwd=tmp_path,
                         env=_env(), timeout=60)
    assert bad.returncode == 2 and "CONTRADICTORY_CONTEXT" in bad.stderr


def test_batch_speaks_guangdong(tmp_path: Path) -> None:
    mjsvc = Path(sys.executable).parent / "mjsvc"
    req = {"method": "Evaluate", "request": {
        "rule_set": "guangdong",
        "hand": {"concealed": ["TILE_M1", "TILE_M3", "TILE_P4", "TILE_P6", "TILE_S7", "TILE_S8", "TILE_S9",
                               "TILE_S9", "TILE_S9", "TILE_S9", "TILE_EAST", "TILE_EAST", "TILE_WHITE"],
                 "winning_tile": "TILE_WHITE"},
        "context": {"self_drawn": True, "horse_tiles": ["TILE_M1"]},
        "options": {"guangdong": {"ghosts": ["TILE_WHITE"], "players": 3}}}}
    out = subprocess.run([str(mjsvc), "batch", "--compact"], input=json.dumps(req) + "\n", capture_output=True,
                         text=True, cwd=tmp_path, env=_env(), timeout=120)
    assert out.returncode == 0, out.stderr
    resp = json.loads(out.stdout)["response"]
    best = resp["best"]
    assert best["total"] == 2 and best["points"] == 2
    assert [p["amount"] for p in best["payments"]] == [8, -4, -4]
    chow = best["decomposition"]["sets"][0]
    assert chow["tiles"] == ["TILE_M1", "TILE_WHITE", "TILE_M3"] and chow["wild_as"] == ["TILE_M2"]


