"""Every one of the 1,200 Sichuan oracle rounds through the contract (engine.referee.settle, and legal at every
decision point the reference recorded; about 5 minutes of pure Python); the rulings applied:
tests/unit/test_sichuan_referee_oracle.py."""

from __future__ import annotations

import pytest
from sichuan_referee_check import check
from sichuan_rounds import ORACLE, records

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not ORACLE.exists(), reason="shared oracle data not present")]


def test_every_round_through_the_contract() -> None:
    used: set[str] = set()
    n = 0
    for rec in records():
        used |= check(rec, True)
        n += 1
    assert n == 1200
    assert used == {"ready_check_without_kong_fan", "end_settlement_after_three_wins", "shoot_after_kong_last_tile",
                    "no_kong_of_the_void_suit"}
