"""`python -m engine legal|settle`'s JSON log (engine/log_json.py) against the service's reading of the same
log from protobuf (mjsvc.convert.hand_log_from_proto): the same HandLog from the proto3 JSON mapping, in
either spelling of the field names, and the same fault named by the same field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from google.protobuf import json_format
from referee_logs import EVERY_KIND, P, p

from engine import log_json
from engine.errors import EngineError
from engine.referee import ActionKind, DrawnGameKind
from mjsvc import convert
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb


def test_enum_names_are_the_protos() -> None:
    def names(enum: str) -> tuple[str, ...]:
        values = pb.DESCRIPTOR.enum_types_by_name[enum].values
        return tuple(v.name for v in values if v.number)

    assert names("Tile") == log_json.TILE_NAMES
    assert names("Wind") == log_json.WIND_NAMES
    assert names("MeldKind") == log_json.MELD_KIND_NAMES
    assert names("Suit") == log_json.SUIT_NAMES
    assert names("Flower") == log_json.FLOWER_NAMES
    assert names("DrawnGameKind") == log_json.DRAWN_GAME_NAMES
    assert tuple(log_json.ACTION_NAMES[k] for k in ActionKind) == names("ActionKind")
    assert len(DrawnGameKind) == len(log_json.DRAWN_GAME_NAMES)
    assert tuple(f.name for f in pb.HandEvent.DESCRIPTOR.fields) == log_json.EVENT_KINDS


LOGS = [
    pb.HandLog(rule_set="riichi", prevalent_wind=pb.WIND_SOUTH, honba=2, riichi_sticks=1,
               scores=[25000, 24000, 26000, 25000], events=EVERY_KIND),
    pb.HandLog(rule_set="sichuan", events=EVERY_KIND[8:12]),
    pb.HandLog(events=EVERY_KIND[:3]),
]


@pytest.mark.parametrize("log", LOGS)
@pytest.mark.parametrize("names", ["proto", "camel", "numbers"])
def test_json_log_reads_as_the_service_reads_the_proto(log: pb.HandLog, names: str) -> None:
    value = json_format.MessageToDict(log, preserving_proto_field_name=names != "camel",
                                      use_integers_for_enums=names == "numbers")
    assert log_json.hand_log(json.loads(json.dumps(value))) == convert.hand_log_from_proto(log)


FAULTS = [
    pb.HandLog(rule_set="riichi", events=[pb.HandEvent(draw=pb.Draw(tile=p("1m")))]),
    pb.HandLog(rule_set="riichi", events=[pb.HandEvent(discard=pb.Discard(seat=pb.WIND_EAST))]),
    pb.HandLog(rule_set="mcr", events=[pb.HandEvent(claim=pb.Claim(seat=pb.WIND_EAST, tiles=P("111m")))]),
    pb.HandLog(rule_set="mcr", events=[pb.HandEvent(drawn_game=pb.DrawnGame())]),
    pb.HandLog(rule_set="sichuan", events=[pb.HandEvent(void_suit=pb.VoidSuit(seat=pb.WIND_EAST))]),
    pb.HandLog(rule_set="sichuan", events=[pb.HandEvent(exchange=pb.ExchangeThree(exchanges=[
        pb.SeatExchange(seat=pb.WIND_EAST, tiles=P("123m"))]))]),
    pb.HandLog(rule_set="riichi", scores=[25000] * 5),
    pb.HandLog(rule_set="nope"),
]


@pytest.mark.parametrize("log", FAULTS)
def test_json_log_faults_are_the_services(log: pb.HandLog) -> None:
    with pytest.raises(EngineError) as wire:
        convert.hand_log_from_proto(log)
    with pytest.raises(EngineError) as from_json:
        log_json.hand_log(json_format.MessageToDict(log, preserving_proto_field_name=True))
    assert (from_json.value.code, from_json.value.field) == (wire.value.code, wire.value.field)


def test_a_tile_that_is_none_is_bad_tile() -> None:
    with pytest.raises(EngineError) as info:
        log_json.hand_log({"rule_set": "riichi", "events": [{"draw": {"seat": "WIND_EAST", "tile": "TILE_M10"}}]})
    assert (info.value.code, info.value.field) == ("BAD_TILE", "log.events[0].draw.tile")


@pytest.mark.parametrize("value, field", [
    ({"rule_set": "riichi", "events": [{"draw": {}, "discard": {}}]}, "log.events[0]"),
    ({"rule_set": "riichi", "events": [{"draw": {"seat": "WIND_EAST", "tile": 1, "colour": 1}}]},
     "log.events[0].draw.colour"),
    ({"rule_set": "riichi", "options": {"riichi": {}}}, "log.options"),
    ({"rule_set": "riichi", "events": {}}, "log.events"),
    ({"rule_set": "riichi", "honba": "two"}, "log.honba"),
    ([], "log"),
])
def test_json_only_faults_name_their_field(value: object, field: str) -> None:
    with pytest.raises(EngineError) as info:
        log_json.hand_log(value)
    assert (info.value.code, info.value.field) == ("BAD_LOG", field)


def test_cli_reports_a_bad_log_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from engine.__main__ import main

    path = tmp_path / "hand.json"
    path.write_text("{not json")
    assert main(["settle", "--log", str(path)]) == 2
    assert "error BAD_LOG: log: " in capsys.readouterr().err
    path.write_text(json.dumps({"rule_set": "riichi", "events": [{"draw": {"tile": "TILE_M1"}}]}))
    assert main(["legal", "--log", str(path)]) == 2
    assert "error BAD_LOG: log.events[0].draw.seat: unset" in capsys.readouterr().err


@pytest.mark.parametrize("value", [{"rule_set": []}, {"rule_set": {}}, {"rule_set": 5}, {"ruleSet": ["riichi"]}])
def test_cli_reports_a_rule_set_that_is_no_name(value: object, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """It read the name before the log, with `.get` on the object: a list or an object raised TypeError, a
    number AttributeError (a traceback, not an answer)."""
    from engine.__main__ import main

    path = tmp_path / "hand.json"
    path.write_text(json.dumps(value))
    assert main(["legal", "--log", str(path)]) == 2
    assert "error BAD_LOG: log.rule_set: " in capsys.readouterr().err


def test_cli_reads_options_for_the_rule_set_named_in_either_spelling(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """`ruleSet` (lowerCamelCase, as the proto3 JSON mapping also writes it) names the rule set whose options
    `--option` gives; it was read as unset, so `players=3` was refused as no option of MCR."""
    from engine.__main__ import main

    for key in ("rule_set", "ruleSet"):
        path = tmp_path / "hand.json"
        path.write_text(json.dumps({key: "riichi"}))
        assert main(["legal", "--log", str(path), "--option", "players=3"]) == 0, capsys.readouterr().err
        assert log_json.rule_set_of({key: "Riichi"}).name == "riichi"
    with pytest.raises(EngineError) as info:
        log_json.rule_set_of({"ruleSet": "nope"})
    assert (info.value.code, info.value.field) == ("UNKNOWN_RULE_SET", "log.rule_set")
