"""The hk rule set against its oracle, the npm package hk-mahjong 3.2.0 (MIT), on generated wins.

bench/hk_cases.py generates legal wins covering every pattern of the table; one Node process
(tests/support/node_hk/score.js) scores the whole batch with hk-mahjong, taking the best of every permutation
its own search finds. Every case must agree, fan group by fan group, or differ exactly as one of the
rulings in engine/rules/hk/__init__.py says (each ruling is also tested by hand in test_hk_rules.py):

* ruling 1: hk-mahjong's limit hands 大三元, 小四喜, 字一色, 清幺九 are 8 / 10 / 10 / 10 faan here: the
  fan must be there (or a limit hand of ours that outranks it);
* ruling 2: 混幺九 4 here = hk-mahjong's 混幺 1 + 对对胡 3;
* ruling 3: 四暗刻 here also with a concealed kong or won on a discard completing the pair, which
  hk-mahjong scores as ordinary hands;
* ruling 4: 杠上开花 1 + 自摸 1 here = hk-mahjong's "win by kong" 2;
* ruling 5: 九莲宝灯 needs a concealed hand here; hk-mahjong counts the tiles of a hand with declared melds;
* ruling 7: the limit caps every total here (13 by default); hk-mahjong does not cap.

2,000 cases in every `make test` (~25 s, most of it the oracle's search); 10,000 with `-m slow`.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from bench.hk_cases import Case, cases, oracle_item
from engine import api
from engine.hand import ClaimedFrom
from engine.results import Scoring
from engine.rules.hk.fans import OPTIONAL_FANS, Fan
from engine.rules.hk.scoring import LIMIT_FANS

NODE_DIR = Path(__file__).resolve().parents[1] / "support" / "node_hk"
LIMIT = 13

# hk-mahjong's limit-hand names -> the fan of ours that must be there
ORACLE_LIMITS = {
    "thirteen orphans": Fan.THIRTEEN_ORPHANS,
    "all Kongs": Fan.ALL_KONGS,
    "orphans": Fan.ORPHANS,
    "nine gates": Fan.NINE_GATES,
    "all honors": Fan.ALL_HONOURS,
    "great dragon": Fan.GREAT_DRAGONS,
    "great wind": Fan.GREAT_WINDS,
    "small wind": Fan.SMALL_WINDS,
    "kaan kaan hand": Fan.FOUR_CONCEALED_PUNGS,
    "heavenly hand": Fan.HEAVENLY_HAND,
    "earthly hand": Fan.EARTHLY_HAND,
}
RULING_1 = {Fan.GREAT_DRAGONS, Fan.SMALL_WINDS, Fan.ALL_HONOURS, Fan.ORPHANS}

# hk-mahjong's fan names -> the group of our fans they are compared with (rulings 2 and 4 by grouping)
GROUPS = {
    "self-pick": "situation:self",
    "win by Kong": "situation:self",
    "no flowers": "no flowers",
    "flowers matching seat position": "flowers",
    "common hand": "all chows",
    "fully concealed hand": "concealed",
    "seat wind": "seat wind",
    "round wind": "round wind",
    "dragons": "dragons",
    "mixed orphans": "pungs",
    "all in triplets": "pungs",
    "win by last catch": "last tile",
    "robbing kong": "robbing",
    "mixed one suit": "mixed one suit",
    "all one suit": "all one suit",
    "small dragon": "small dragons",
}
OURS = {
    Fan.SELF_DRAWN: "situation:self",
    Fan.REPLACEMENT_TILE: "situation:self",
    Fan.NO_FLOWERS: "no flowers",
    Fan.SEAT_FLOWER: "flowers",
    Fan.FLOWER_SET: "flowers",
    Fan.ALL_CHOWS: "all chows",
    Fan.CONCEALED_HAND: "concealed",
    Fan.SEAT_WIND: "seat wind",
    Fan.PREVALENT_WIND: "round wind",
    Fan.DRAGON_PUNG: "dragons",
    Fan.MIXED_ORPHANS: "pungs",
    Fan.ALL_PUNGS: "pungs",
    Fan.LAST_TILE: "last tile",
    Fan.ROBBING_KONG: "robbing",
    Fan.MIXED_ONE_SUIT: "mixed one suit",
    Fan.ALL_ONE_SUIT: "all one suit",
    Fan.SMALL_DRAGONS: "small dragons",
    Fan.CHICKEN_HAND: None,
}


@pytest.fixture(scope="module")
def oracle() -> Path:
    node, npm = shutil.which("node"), shutil.which("npm")
    if not node or not npm:
        pytest.skip("node and npm are needed for the hk-mahjong oracle")
    if not (NODE_DIR / "node_modules" / "hk-mahjong").is_dir():
        # The lock file pins hk-mahjong 3.2.0 and its one dependency; `npm ci` installs exactly them.
        subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=NODE_DIR, check=True, timeout=300,
                       capture_output=True)
    return NODE_DIR / "score.js"


def run_oracle(script: Path, batch: list[Case]) -> list[dict]:
    lines = "".join(json.dumps(oracle_item(c)) + "\n" for c in batch)
    proc = subprocess.run(["node", str(script)], input=lines, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(answers) == len(batch)
    return answers


def groups_of(s: Scoring) -> Counter:
    out: Counter = Counter()
    for h in s.fans:
        g = OURS[Fan(h.fan.id)]
        if g is not None:
            out[g] += h.points
    return out


def oracle_groups(answer: dict) -> Counter:
    out: Counter = Counter()
    for name, value in answer["details"]:
        out[GROUPS[name]] += value
    return out


def judge(c: Case, answer: dict) -> str:
    """'agree', a ruling's name, or a description of an unexplained difference."""
    assert "error" not in answer, answer
    ev = api.evaluate(c.hand, c.ctx, "hk")
    if not ev.is_win or answer["value"] is None:
        return "agree" if ev.is_win == (answer["value"] is not None) else f"win: ours {ev.is_win}, oracle {answer}"
    best = ev.best
    assert best is not None
    ours = {Fan(h.fan.id) for h in best.fans}
    our_limit = bool(ours & LIMIT_FANS)
    if answer["value"] == "inf":
        fan = ORACLE_LIMITS[answer["name"]]
        if best.total == LIMIT and (fan in ours or (our_limit and fan in RULING_1)):
            return "agree"  # the same limit hand, or a limit hand of ours outranking a ruling-1 fan
        if fan in RULING_1 and fan in ours:
            return "ruling 1"
        if fan == Fan.NINE_GATES and c.hand.melds and Fan.NINE_GATES not in ours:
            return "ruling 5"  # hk-mahjong counts the tiles of a hand with declared melds
        return f"oracle {answer['name']}, ours {best}"
    if our_limit:
        concealed_kong = any(m.is_kong and m.concealed for m in c.hand.melds)
        if ours == {Fan.FOUR_CONCEALED_PUNGS} and (concealed_kong or not c.ctx.self_drawn):
            return "ruling 3"
        return f"ours a limit hand {sorted(ours)}, oracle {answer}"
    if answer["value"] > LIMIT:
        return "ruling 7" if best.total == LIMIT else f"oracle {answer['value']} over the limit, ours {best.total}"
    # Same total, and the same faan fan group by fan group in some best-scoring decomposition of ours.
    if best.total != answer["value"]:
        return f"total: ours {best.total}, oracle {answer['value']} ({answer['details']}; ours {best})"
    want = oracle_groups(answer)
    tied = [best] + [s for s in ev.alternatives if s.total == best.total]
    if any(groups_of(s) == want for s in tied):
        return "agree"
    return f"fans: ours {dict(groups_of(best))}, oracle {dict(want)}"


def check(oracle: Path, n: int, seed: int) -> Counter:
    batch = list(cases(n, seed))
    verdicts = Counter()
    unexplained = []
    for c, answer in zip(batch, run_oracle(oracle, batch), strict=True):
        v = judge(c, answer)
        if v == "agree" or v.startswith("ruling "):
            verdicts[v] += 1
        else:
            unexplained.append(f"{c.template}: {c.hand} {c.ctx}: {v}")
    assert not unexplained, "\n".join(unexplained[:20])
    return verdicts


def test_judge_is_not_blind(oracle: Path) -> None:
    """A difference is reported, not explained away: an oracle answer with one dragon pung too many."""
    c = next(c for c in cases(400, 5) if c.template == "all_chows")
    answer = run_oracle(oracle, [c])[0]
    assert judge(c, answer) == "agree"
    forged = dict(answer, value=answer["value"] + 1, details=answer["details"] + [["dragons", 1]])
    assert judge(c, forged).startswith("total")


def test_hk_matches_hk_mahjong(oracle: Path) -> None:
    verdicts = check(oracle, 2000, seed=1)
    assert verdicts["agree"] >= 1500, verdicts  # rulings explain the rest; each is tested by hand as well


@pytest.mark.slow
def test_hk_matches_hk_mahjong_10000(oracle: Path) -> None:
    verdicts = check(oracle, 10_000, seed=2)
    assert verdicts["agree"] >= 7500, verdicts


def test_generator_covers_every_fan() -> None:
    """Every fan of the table (flower, limit and situation fans too) appears in the generated wins; the fans
    off under the default options (OPTIONAL_FANS: 七对, 杠上杠, the flower hands) are
    tests/unit/test_hk_options.py's."""
    seen: Counter = Counter()
    for c in cases(2000, 1):
        ev = api.evaluate(c.hand, c.ctx, "hk")
        for s in (ev.best, *ev.alternatives):
            assert s is not None
            seen.update(Fan(h.fan.id) for h in s.fans)
    missing = [f.name for f in Fan if f not in OPTIONAL_FANS and seen[f] < 5]
    assert not missing, (missing, seen)


def test_generated_contexts_are_consistent() -> None:
    """The generator only makes situations the engine accepts: a discard names its discarder."""
    for c in cases(500, 3):
        assert c.ctx.self_drawn == (c.ctx.discarded_by == ClaimedFrom.NONE)
        api.evaluate(c.hand, c.ctx, "hk")  # raises on a contradiction
