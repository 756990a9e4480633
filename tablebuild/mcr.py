"""The MCR part of the tables file, built: the engine's own rules run on every key (engine.rules.mcr.tables
describes the tables and reads them). Build code: `tablebuild.builder` imports it, no runtime module does."""

from __future__ import annotations

from engine.rules.mcr import predicates, scoring
from engine.rules.mcr.tables import (
    CHOW_COMBINATION_KEYS,
    CHOW_COMBINATIONS,
    PUNG_COMBINATION_KEYS,
    PUNG_COMBINATIONS,
    TILE_FANS,
    TILE_KEYS,
    Combinations,
    _encode,
    _words_of_combinations,
    _words_of_tile_fans,
)


def build_sections() -> dict[str, tuple[str, bytes]]:
    """The MCR part of the tables file (`tablebuild.builder` calls this), computed by the engine's
    own rules on every key."""
    tile_fans = [predicates._tile_fans(key) for key in range(TILE_KEYS)]
    combinations: list[Combinations] = [()] * PUNG_COMBINATION_KEYS
    seen = set()
    for tiles in scoring.pung_combination_keys():
        index = scoring.pung_combination_index(tiles)
        assert index not in seen
        seen.add(index)
        combinations[index] = scoring._search_combinations("pung", tiles)
    assert len(seen) == PUNG_COMBINATION_KEYS
    chows = [scoring._search_combinations("chow", tiles) for tiles in scoring.chow_combination_keys()]
    assert len(chows) == CHOW_COMBINATION_KEYS
    return {**_encode(TILE_FANS, tile_fans, _words_of_tile_fans),
            **_encode(PUNG_COMBINATIONS, combinations, _words_of_combinations),
            **_encode(CHOW_COMBINATIONS, chows, _words_of_combinations)}
