"""The Sichuan referee, through the contract (engine.referee: each record as a HandLog, then settle and legal),
against 1,200 complete 血战 rounds played by dcmshi/sichuan-mahjong (MIT, commit b5453f02;
/work/shared/oracles/settle/README.md): every event the reference allowed is legal for us, and every round
settles to the reference's net seat by seat, pot, ready seats and next dealer, once the reference's documented
departures from the common rules (that README, "Where a case is the engine's choice") are applied:

1. 查大叫 excludes the Kong fan of kongs already declared: the reference pays the ready hand's best
   value without it; we pay the hand's value (declared kongs are fans of the hand).
2. The end-of-round settlement (退税, 查花猪, the void penalty) also runs when three players have won;
   the common rules settle them only when the wall runs out.
3. 杠上炮 on the last tile: the reference scores only Under the Sea (no Shoot After Kong fan, no refund).

And what the reference offered at each decision point (the wins, pungs and kongs on a discard, the self-drawn
win and the kongs after a draw, the restricted discards) is what our Legal says, but for one ruling of ours:

4. A kong of the void suit: the reference offers a concealed one (4 times in this half, never taken); we
   refuse it, as we refuse any claim of the void suit (the void suit is played away, never melded).

Here a sample of 150 rounds (Legal at every decision point of 30 of them); every round, Legal at every point
(marker slow): tests/slow/test_sichuan_referee_oracle_full.py (the checks: tests/support/sichuan_referee_check.py).
"""

from __future__ import annotations

import random

import pytest
from sichuan_referee_check import check
from sichuan_rounds import ORACLE, records

pytestmark = pytest.mark.skipif(not ORACLE.exists(), reason="shared oracle data not present")

SAMPLE = random.Random(20260603).sample(range(1200), 150)


def test_sample_of_rounds_through_the_contract() -> None:
    legal_sample = set(SAMPLE[:30])
    wanted = set(SAMPLE)
    seen, used = 0, set()
    for i, rec in enumerate(records()):
        if i in wanted:
            used |= check(rec, i in legal_sample)
            seen += 1
    assert seen == 150
    assert used  # the sample meets the documented departures, so the adjustments are exercised
