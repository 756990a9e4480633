"""Fu of a standard or seven-pairs hand, with the parts they come from.

20 base; 10 more for a closed hand won on a discard; 2 for a self-drawn win except pinfu's; pungs 2
(simples, open), doubled when concealed, doubled again for terminals and honours, a kong four times a
pung; a pair of a dragon, the seat wind or the round wind 2 each (the wind that is both: 2 or 4, an
option); 2 for a closed, edge or single wait. Rounded up to the next 10. Pinfu self-drawn is 20, an open
hand that would have 20 is 30, seven pairs is 25.
"""

from __future__ import annotations

from typing import Final

from engine.rules.riichi.facts import KANCHAN, PENCHAN, TANKI, Facts, is_outside
from engine.tiles import format_tile

SEVEN_PAIRS_FU: Final = 25
_SEVEN_PAIRS_PARTS: Final = (("seven pairs", SEVEN_PAIRS_FU),)
# The labels of the parts, built once: [concealed][kong][tile] and [tile].
_SET_LABEL: Final = tuple(tuple(tuple((("concealed " if c else "open ") + ("kong " if k else "pung ") + format_tile(t))
                               for t in range(34)) for k in (False, True)) for c in (False, True))
_PAIR_LABEL: Final = tuple("pair of " + format_tile(t) for t in range(34))


def fu(f: Facts, pinfu: bool) -> tuple[int, tuple[tuple[str, int], ...]]:
    """(fu rounded up, the parts before rounding)."""
    if f.seven_pairs:
        return SEVEN_PAIRS_FU, _SEVEN_PAIRS_PARTS
    parts: list[tuple[str, int]] = [("base", 20)]
    closed = f.closed
    if closed and not f.self_drawn:
        parts.append(("closed hand won on a discard", 10))
    if f.self_drawn and not pinfu:
        parts.append(("self-drawn", 2))
    pungs = f.pungs
    n_kong = f.n_kongs
    for i in range(len(pungs)):
        t = pungs[i]
        concealed = f.pung_concealed[i]
        kong = n_kong > 0 and f.pung_kong[i]
        n = 2
        if concealed:
            n *= 2
        if is_outside(t):
            n *= 2
        if kong:
            n *= 4
        parts.append((_SET_LABEL[concealed][kong][t], n))
    pair_fu = f.value_pair_fu()
    if pair_fu:
        parts.append((_PAIR_LABEL[f.pair], pair_fu))
    wait = f.wait
    if wait in (KANCHAN, PENCHAN, TANKI):
        parts.append((wait, 2))
    total = 0
    for _, n in parts:
        total += n
    if total == 20 and not closed:
        parts.append(("open hand of 20 fu", 10))
        total = 30
    return (total + 9) // 10 * 10, tuple(parts)
