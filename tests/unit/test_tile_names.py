"""Tiles behind names: arithmetic on tile indices (`% 9`, `// 9`, comparisons with 27) lives in
engine/tile_kinds.py only; everything else asks its helpers (suit_of, rank_of, is_suited, suit_first, ...)
or names its tiles (EAST, P1, DRAGONS, ALL_GREEN). Found by reading the source, so a new use fails here."""

import re
from pathlib import Path

from engine import tile_kinds as K
from engine import tiles

ROOT = Path(__file__).resolve().parents[2]
ARITHMETIC = re.compile(r"%\s*9\b|//\s*9\b|(?<![<>])[<>]=?\s*27\b|\b27\s*[<>]=?(?![<>])")
ALLOWED = {"engine/tile_kinds.py"}


def _uses(path: Path) -> list[str]:
    out = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        code = line.split("#", 1)[0]
        if ARITHMETIC.search(code):
            out.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    return out


def _engine_files() -> list[Path]:
    return sorted(p for p in (ROOT / "engine").rglob("*.py") if str(p.relative_to(ROOT)) not in ALLOWED)


def test_no_tile_arithmetic_outside_tile_kinds() -> None:
    found = [u for p in _engine_files() for u in _uses(p)]
    assert found == []


def test_the_pattern_finds_what_it_refuses() -> None:
    for bad in ("t % 9", "t//9", "if t < 27:", "t >= 27", "27 <= t"):
        assert ARITHMETIC.search(bad), bad
    for fine in ("1 << 27", "x >> 27", "t % 90", "NUM_SUITED"):
        assert not ARITHMETIC.search(fine), fine


def test_helpers_agree_with_their_definitions() -> None:
    for t in range(K.NUM_KINDS):
        suited = t < 27
        assert K.is_suited(t) is suited and K.is_honor(t) is not suited
        assert K.suit_of(t) == (t // 9 if suited else 3)
        assert K.rank_of(t) == (t % 9 + 1 if suited else 0)
        assert K.offset_in_suit(t) == (t % 9 if suited else t - 27)
        if suited:
            assert K.suit_first(t) == t - t % 9 and K.tile_of(t // 9, t % 9 + 1) == t
            assert K.is_simple(t) is (1 <= t % 9 <= 7)
        assert K.is_terminal(t) is (t in K.TERMINALS)
    assert frozenset(tiles.parse_tiles("23468sF")) == K.ALL_GREEN
    assert tiles.suit_of is K.suit_of  # tiles re-exports the kinds
