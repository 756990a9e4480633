"""Hostile logs for the referee, through the service layer (`Service.legal_bytes` and `settle_bytes`, what the
gRPC handlers and `mjsvc batch` run): hands of every rule set played in process and then damaged
(tests/support/referee_mutations.py). Every answer is either a response that protobuf reads back (a
settlement's nets and pot summing to zero) or an engine error with a stable code and a field under `log`;
never another exception, which the server would answer as INTERNAL. Play carries the same answer.

This found five faults (each now also tested where its rule set is):
- an honour in a Sichuan discard or kong ran off a seat's counts (IndexError);
- an event of North at a three-player Riichi table ran off the seats (IndexError);
- a Riichi log's honba of 2**31 - 1 made the next hand's counter overflow the answer's int32;
- a Sichuan round option out of range was named `options.sichuan...`, not under `log.`;
- Sichuan's one-player `void_suit` option was ignored at a table, or refused as an EvaluateRequest's option
  when a win's void differed.
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from typing import Any

import pytest
from referee_mutations import damaged_json, mutated, played_logs

from engine.errors import EngineError
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.service import Service

CASES = int(os.environ.get("MJSVC_REFEREE_FUZZ", "2500"))
# docs/referee.md "Errors": the referee's own, and those of every request (named under `log.`)
CODES = {"ILLEGAL_EVENT", "BAD_LOG", "NO_REFEREE", "BAD_TILE", "BAD_OPTION", "UNKNOWN_RULE_SET", "LIMIT_EXCEEDED"}


def _ask(service: Service, operation: str, log: pb.HandLog) -> tuple[str, str]:
    """("OK", "") with the answer checked, or (code, field) of the engine's error."""
    try:
        if operation == "legal":
            pb.LegalResponse.FromString(service.legal_bytes(pb.LegalRequest(log=log)))
        else:
            out = pb.SettleResponse.FromString(service.settle_bytes(pb.SettleRequest(log=log)))
            assert sum(m.net for m in out.seats) + out.pot == 0, log
        return "OK", ""
    except EngineError as err:
        assert err.code in CODES and (err.field == "log" or err.field.startswith("log.")), (err.code, err.field, err)
        return err.code, err.field


def _fuzz(cases: int, hands_per_table: int, seed: int) -> Counter[str]:
    service = Service(0)
    logs = played_logs(hands_per_table)
    rng = random.Random(seed)
    outcomes: Counter[str] = Counter()
    for i in range(cases):
        log = mutated(logs[i % len(logs)], rng)
        for operation in ("legal", "settle"):
            code, field = _ask(service, operation, log)
            outcomes[code] += 1
            if i % 10 == 0:  # Play answers the same, its field under the request's name
                answer = service.play(pb.PlayRequest(id="x", **{operation: {"log": log}}))  # type: ignore[arg-type]
                if code == "OK":
                    assert answer.WhichOneof("response") == operation, answer.error
                else:
                    assert (answer.error.reason, answer.error.field) == (code, f"{operation}.{field}"), answer.error
    # the damage reaches every kind of answer: legal ones, rule breaks and unreadable logs
    assert outcomes["OK"] > cases // 10 and outcomes["ILLEGAL_EVENT"] > cases // 2, outcomes
    assert outcomes["BAD_LOG"] > 10 and outcomes["BAD_OPTION"] > 10, outcomes
    return outcomes


def test_damaged_logs_get_an_answer_or_a_coded_error_naming_the_field() -> None:
    _fuzz(CASES, 6, 20261205)


@pytest.mark.slow
def test_100000_damaged_logs_of_more_hands() -> None:
    """make test-slow: 100,000 logs damaged from 20 hands of each table (about 2 minutes)."""
    print(dict(_fuzz(100_000, 20, 20261206)))


def test_the_logs_are_damaged_and_reproducibly() -> None:
    logs = played_logs()
    first = [mutated(logs[i % len(logs)], random.Random(i)) for i in range(40)]
    assert first == [mutated(logs[i % len(logs)], random.Random(i)) for i in range(40)]
    assert sum(m != logs[i % len(logs)] for i, m in enumerate(first)) >= 35


def test_damaged_json_logs_of_the_command_line_get_an_answer_or_a_coded_error() -> None:
    """The same damaged logs as the JSON `python -m engine legal|settle` reads (without options, which it
    takes from its command line), some of their values replaced by JSON of another type: read and refereed,
    each is an answer that serializes or an engine error naming a field under `log`."""
    from google.protobuf import json_format

    from engine import log_json
    from engine import referee as r

    logs = played_logs()
    rng = random.Random(7)
    outcomes: Counter[str] = Counter()
    for i in range(CASES // 2):
        value: Any = json_format.MessageToDict(mutated(logs[i % len(logs)], rng),
                                               preserving_proto_field_name=rng.random() < 0.5)
        value.pop("options", None)
        damaged_json(value, rng)
        try:
            log_json.rule_set_of(value)  # as the command line reads it first, for its --option
            log = log_json.hand_log(value)
        except EngineError as err:
            assert err.field == "log" or err.field.startswith("log."), (err.code, err.field, err)
            outcomes[f"read {err.code}"] += 1
            continue
        for operation, write in ((r.legal, log_json.legal_json), (r.settle, log_json.settlement_json)):
            try:
                json.dumps(write(operation(log)))  # type: ignore[operator]
                outcomes["OK"] += 1
            except EngineError as err:
                assert err.field == "log" or err.field.startswith("log."), (err.code, err.field, err)
                outcomes[err.code] += 1
    assert outcomes["read BAD_LOG"] > CASES // 10 and outcomes["read BAD_TILE"] > CASES // 10, outcomes
    assert outcomes["OK"] > CASES // 100 and outcomes["ILLEGAL_EVENT"] > CASES // 50, outcomes
