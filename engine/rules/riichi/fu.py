"""Fu of a standard or seven-pairs hand, with the parts they come from.

20 base; 10 more for a closed hand won on a discard; 2 for a self-drawn win except pinfu's; pungs 2
(simples, open), doubled when concealed, doubled again for terminals and honours, a kong four times a
pung; a pair of a dragon, the seat wind or the round wind 2 each (the wind that is both: 2 or 4, an
option); 2 for a closed, edge or single wait. Rounded up to the next 10. Pinfu self-drawn is 20, an open
hand that would have 20 is 30, seven pairs is 25.
"""

from __future__ import annotations

from engine.rules.riichi.facts import KANCHAN, KONG, PENCHAN, TANKI, Facts
from engine.tiles import format_tiles, is_terminal_or_honor

SEVEN_PAIRS_FU = 25


def fu(f: Facts, pinfu: bool) -> tuple[int, tuple[tuple[str, int], ...]]:
    """(fu rounded up, the parts before rounding)."""
    if f.seven_pairs:
        return SEVEN_PAIRS_FU, (("seven pairs", SEVEN_PAIRS_FU),)
    parts: list[tuple[str, int]] = [("base", 20)]
    if f.closed and not f.ctx.self_drawn:
        parts.append(("closed hand won on a discard", 10))
    if f.ctx.self_drawn and not pinfu:
        parts.append(("self-drawn", 2))
    for g in f.pungs:
        n = 2
        if g.concealed:
            n *= 2
        if is_terminal_or_honor(g.first):
            n *= 2
        if g.kind == KONG:
            n *= 4
        what = ("concealed " if g.concealed else "open ") + ("kong " if g.kind == KONG else "pung ")
        parts.append((what + format_tiles(g.tiles[:1]), n))
    pair_fu = f.value_pair_fu()
    if pair_fu:
        parts.append(("pair of " + format_tiles(f.pair.tiles[:1]) if f.pair else "pair", pair_fu))
    if f.wait in (KANCHAN, PENCHAN, TANKI):
        parts.append((f.wait, 2))
    total = sum(n for _, n in parts)
    if total == 20 and not f.closed:
        parts.append(("open hand of 20 fu", 10))
        total = 30
    return (total + 9) // 10 * 10, tuple(parts)
