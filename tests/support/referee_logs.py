"""Hand logs on the wire for the referee's service tests: one event of every kind (not a playable hand)."""

from __future__ import annotations

from engine.tiles import parse_tile, parse_tiles
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb


def P(text: str) -> list[int]:
    return [t + 1 for t in parse_tiles(text)]


def p(text: str) -> int:
    return parse_tile(text) + 1


EVERY_KIND = [
    pb.HandEvent(deal=pb.Deal(hands=[pb.SeatTiles(seat=pb.WIND_EAST, tiles=P("123456789m1234p5p"), red_fives=P("5p")),
                                     pb.SeatTiles(seat=pb.WIND_SOUTH, tiles=P("123456789s1234p"))],
                              dora_indicators=P("3z"))),
    pb.HandEvent(draw=pb.Draw(seat=pb.WIND_SOUTH, tile=p("5m"), red=True)),
    pb.HandEvent(discard=pb.Discard(seat=pb.WIND_SOUTH, tile=p("9s"), riichi=True)),
    pb.HandEvent(claim=pb.Claim(seat=pb.WIND_WEST, kind=pb.MELD_KIND_PUNG, tiles=P("999s"))),
    pb.HandEvent(kong=pb.Kong(seat=pb.WIND_WEST, tile=p("9s"), added=True)),
    pb.HandEvent(dora=pb.DoraIndicator(tile=p("1z"))),
    pb.HandEvent(win=pb.Win(seat=pb.WIND_NORTH, self_drawn=True, ura_dora_indicators=P("2p"), horses=P("1m5m"))),
    pb.HandEvent(drawn_game=pb.DrawnGame(kind=pb.DRAWN_GAME_KIND_FOUR_WINDS)),
    pb.HandEvent(void_suit=pb.VoidSuit(seat=pb.WIND_EAST, suit=pb.SUIT_DOTS, set_aside=p("4p"))),
    pb.HandEvent(void_suit=pb.VoidSuit(seat=pb.WIND_SOUTH, suit=pb.SUIT_BAMBOO)),
    pb.HandEvent(flower=pb.FlowerTile(seat=pb.WIND_NORTH, flower=pb.FLOWER_SPRING)),
    pb.HandEvent(exchange=pb.ExchangeThree(exchanges=[pb.SeatExchange(seat=pb.WIND_EAST, tiles=P("123m"),
                                                                      to=pb.WIND_WEST)])),
    pb.HandEvent(false_win=pb.FalseWin(seat=pb.WIND_WEST)),
    pb.HandEvent(kita=pb.Kita(seat=pb.WIND_SOUTH)),
]
