"""`mjsvc batch` line by line (`mjsvc.batch.BatchRunner.answer`, in process): a line whose JSON is valid but
whose values are of any type gets an answer, never an exception that ends the run. Two such exceptions ended
`mjsvc batch` at their line: a `method` that was a list or an object (TypeError, unhashable), and Infinity
where protobuf reads a number (OverflowError from protobuf's JSON reader)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from google.protobuf import json_format
from referee_mutations import damaged_json, mutated, played_logs

from mjsvc.batch import BatchRunner


@pytest.fixture(scope="module")
def runner() -> BatchRunner:
    return BatchRunner(0, compact=True)


@pytest.mark.parametrize("method", [["Evaluate"], {"name": "Evaluate"}, 3, None, True, [], ""])
def test_a_method_that_is_no_name_is_unknown_method(runner: BatchRunner, method: Any) -> None:
    out = runner.answer(json.dumps({"id": 1, "method": method, "request": {}}))
    assert out["id"] == 1 and (out["error"]["code"], out["error"]["reason"], out["error"]["field"]) == (
        "UNIMPLEMENTED", "UNKNOWN_METHOD", "method")


@pytest.mark.parametrize("request_", [3, "x", [1], True, 1.5, {"hand": {"concealed": [float("inf")]}},
                                      {"hand": {"concealed": [float("nan")]}}])
def test_a_request_protobuf_cannot_read_is_bad_request(runner: BatchRunner, request_: Any) -> None:
    out = runner.answer(json.dumps({"id": 2, "method": "Evaluate", "request": request_}))
    assert (out["error"]["reason"], out["error"]["field"]) == ("BAD_REQUEST", "request")


def test_damaged_lines_each_get_an_answer(runner: BatchRunner) -> None:
    """1,500 lines of every method (and none), their values replaced by JSON of other types, some cut short:
    each answer is a response or a coded error (never INTERNAL), and the runner answers the next line."""
    rng = random.Random(5)
    logs = played_logs(3)
    seen: set[str] = set()
    for i in range(1500):
        method = rng.choice(["Evaluate", "Analyze", "ListFans", "EvaluateBatch", "Legal", "Settle", "Nope", None, 3])
        request: dict[str, Any] = {}
        if method in ("Legal", "Settle"):
            request = {"log": json_format.MessageToDict(mutated(rng.choice(logs), rng))}
        elif method in ("Evaluate", "Analyze"):
            request = {"hand": {"concealed": ["TILE_M1"] * rng.randint(0, 14), "winningTile": "TILE_M1"},
                       "ruleSet": rng.choice(["mcr", "riichi", "sichuan", "hk", "guangdong", "mcr2p"])}
        line = damaged_json({"id": i, "method": method, "request": request}, rng)
        text = json.dumps(line)
        if rng.random() < 0.1:
            text = text[:rng.randrange(len(text))]
        out = runner.answer(text)
        assert ("response" in out) != ("error" in out), out
        if "error" in out:
            assert out["error"]["code"] not in ("INTERNAL", "UNKNOWN") and out["error"]["reason"], (text, out)
            seen.add(out["error"]["reason"])
        else:
            seen.add("OK")
    assert {"OK", "MALFORMED_JSON", "BAD_REQUEST", "UNKNOWN_METHOD", "ILLEGAL_EVENT"} <= seen, seen
