"""`python -m engine`: readable answers, meld syntax, and bad input as an error code with status 2."""

from __future__ import annotations

import json
import shlex
import subprocess
from pathlib import Path

import installed
import pytest

from engine.__main__ import parse_meld
from engine.errors import BadMeldError, BadTileError
from engine.hand import ClaimedFrom, MeldKind

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """`.venv/bin/python -m engine ...` from an empty directory with a clean environment."""
    return installed.run([installed.python(), "-m", "engine", *args], capture_output=True, timeout=60)


def test_analyze_a_waiting_hand() -> None:
    out = run("analyze", "123m456p789s1122z", "--visible", "1zSS")
    assert out.returncode == 0, out.stderr
    assert "Hand: 123m456p789sEESS" in out.stdout
    assert "Shanten: 0 (waiting)" in out.stdout
    assert "standard 0, seven pairs 4, thirteen orphans 8" in out.stdout
    assert "Waits: E (1 left), S (0 left)" in out.stdout


def test_analyze_with_melds_and_fourteen_tiles() -> None:
    out = run("analyze", "46p123s789sEE", "--meld", "kong:5555p:concealed")
    assert out.returncode == 0, out.stderr
    assert "[concealed kong 5555p]" in out.stdout
    assert "Waits: 5p (all four in your hand)" in out.stdout
    out = run("analyze", "123m456p789s1122z3z")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    first = lines[lines.index("Discards, best first:") + 1]
    assert first.split() == ["W", "shanten", "0,", "4", "left;", "waiting", "on:", "E", "(2", "left),", "S", "(2",
                             "left)"]


@pytest.mark.parametrize(("args", "code"), [
    (("analyze", "123x"), "BAD_TILE"),
    (("analyze", "123m"), "TILE_COUNT"),
    (("analyze", "11111m456p789sEE"), "TOO_MANY_COPIES"),
    (("analyze", "123m456p789sEE", "--meld", "chow:EEE"), "BAD_MELD"),
    (("analyze", "123m456p789s1122z", "--meld", "pung:111m:sideways"), "BAD_MELD"),
    (("analyze", "123m456p789s1122z", "--rule-set", "nope"), "UNKNOWN_RULE_SET"),
])
def test_bad_input_is_a_code_on_stderr(args: tuple[str, ...], code: str) -> None:
    out = run(*args)
    assert out.returncode == 2
    assert out.stderr.startswith(f"error {code}: ")
    assert "Traceback" not in out.stderr and out.stdout == ""


def test_help_documents_the_meld_syntax() -> None:
    out = run("--help")
    assert out.returncode == 0
    assert "KIND:TILES[:FLAG,FLAG...]" in out.stdout and "from=left|across|right" in out.stdout


def test_parse_meld() -> None:
    m = parse_meld("kong:5555p:concealed", 0)
    assert (m.kind, m.tiles, m.concealed, m.claimed_from) == (MeldKind.KONG, (13,) * 4, True, ClaimedFrom.NONE)
    m = parse_meld("chow:123m:from=left,claimed=2", 1)
    assert (m.kind, m.claimed_from, m.claimed_index) == (MeldKind.CHOW, ClaimedFrom.LEFT, 2)
    assert parse_meld("pung:CCC:from=across", 0).claimed_from == ClaimedFrom.ACROSS
    assert parse_meld("kong:EEEE:added", 0).added
    with pytest.raises(BadMeldError) as err:
        parse_meld("pung:123m", 3)
    assert err.value.field == "melds[3].tiles"
    with pytest.raises(BadTileError) as tile_err:
        parse_meld("pung:XXX", 1)
    assert tile_err.value.field == "melds[1].tiles"


def _need_mcr() -> None:
    """Score needs the MCR rule set; skip only while the package does not exist yet."""
    if not (ROOT / "engine" / "rules" / "mcr" / "__init__.py").exists():
        pytest.skip("engine/rules/mcr not written yet")


def test_score_prints_the_fan_table() -> None:
    _need_mcr()
    out = run("score", "123m456p789s11sEE", "--win", "E", "--self-drawn", "--seat", "E", "--prevalent", "S",
              "--flowers", "2")
    assert out.returncode == 0, out.stderr
    assert "Seat East, prevalent South, 2 flower(s); self_drawn" in out.stdout
    assert "Mixed Straight" in out.stdout and "Flower Tiles" in out.stdout
    total = next(line for line in out.stdout.splitlines() if line.startswith("Total: "))
    fan_points = [int(line.split()[-1]) for line in out.stdout.splitlines() if line.startswith("  ") and
                  line.split()[0].isdigit()]
    assert int(total.split()[1]) == sum(fan_points)


def test_score_not_a_win_and_bad_context() -> None:
    _need_mcr()
    out = run("score", "123m456p789s11sEW", "--win", "E")
    assert out.returncode == 0, out.stderr
    assert "Not a winning hand." in out.stdout
    out = run("score", "123m456p789s11sEE", "--win", "E", "--robbing", "--self-drawn")
    assert out.returncode == 2 and out.stderr.startswith("error CONTRADICTORY_CONTEXT: ")
    out = run("score", "123m456p789s11sEE", "--win", "E", "--seat", "Q")
    assert out.returncode == 2 and out.stderr.startswith("error BAD_CONTEXT: seat_wind")
    out = run("score", "123m456p789s11sEE")
    assert out.returncode == 2 and out.stderr.startswith("error MISSING_WINNING_TILE: ")


def _help_examples() -> list[str]:
    """The example commands `python -m engine --help` prints, each with its continuation lines joined."""
    out = run("--help")
    assert out.returncode == 0, out.stderr
    commands: list[str] = []
    lines = iter(out.stdout.splitlines())
    for line in lines:
        if line.strip().startswith("python -m engine "):
            command = line.strip()
            while command.endswith("\\"):
                command = command[:-1] + next(lines).strip()
            commands.append(command)
    return commands


def test_every_example_of_the_help_runs_as_printed(tmp_path: Path) -> None:
    """Each example as a user pastes it into a shell; the referee's read `hand.json` from the working
    directory, here the MCR hand of docs/referee.md (the log its `settle` example reads from stdin)."""
    page = (ROOT / "docs" / "referee.md").read_text(encoding="utf-8")
    settle = next(line for line in page.splitlines() if line.startswith("$ echo") and "engine settle" in line)
    (tmp_path / "hand.json").write_text(shlex.split(settle[2:])[1], encoding="utf-8")
    commands = _help_examples()
    assert sum(c.split()[3] in ("analyze", "score") for c in commands) >= 9
    assert {c.split()[3] for c in commands} == {"analyze", "score", "legal", "settle"}
    for command in commands:
        argv = shlex.split(command)
        assert argv[:3] == ["python", "-m", "engine"] and "\\" not in argv
        assert "  " not in command, f"a continuation line was joined into the printed line: {command}"
        out = installed.run([installed.python(), *argv[1:]], cwd=tmp_path, capture_output=True, timeout=60)
        assert out.returncode == 0, f"{command}: {out.stderr}"
        if argv[3] in ("analyze", "score"):
            assert out.stdout.startswith("Hand: "), command
        elif argv[3] == "legal":
            assert out.stdout.strip() == "nobody may act: the hand has ended", command
        else:
            assert json.loads(out.stdout)["seats"][1] == {"seat": "WIND_SOUTH", "net": 45, "ready": False}
