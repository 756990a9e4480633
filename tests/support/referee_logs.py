"""Hand logs on the wire for the referee's service tests: one event of every kind (not a playable hand)."""

from __future__ import annotations

from engine import referee as r
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


def _tiles(tiles: tuple[int, ...]) -> list[int]:
    return [t + 1 for t in tiles]


def to_proto(log: r.HandLog) -> pb.HandLog:
    """An engine HandLog written as the wire's (the inverse of mjsvc.convert.hand_log_from_proto; options are
    left at the defaults)."""
    out = pb.HandLog(rule_set=log.rule_set, prevalent_wind=log.prevalent_wind + 1, honba=log.honba,  # type: ignore[arg-type]
                     riichi_sticks=log.riichi_sticks, scores=log.scores)
    for e in log.events:
        w = lambda seat: seat + 1  # noqa: E731 - a seat as its proto Wind
        if isinstance(e, r.Deal):
            ev = pb.HandEvent(deal=pb.Deal(hands=[pb.SeatTiles(seat=w(h.seat), tiles=_tiles(h.tiles),
                                                               red_fives=_tiles(h.red_fives)) for h in e.hands],
                                           dora_indicators=_tiles(e.dora_indicators)))
        elif isinstance(e, r.Draw):
            ev = pb.HandEvent(draw=pb.Draw(seat=w(e.seat), tile=e.tile + 1, red=e.red))
        elif isinstance(e, r.Discard):
            ev = pb.HandEvent(discard=pb.Discard(seat=w(e.seat), tile=e.tile + 1, red=e.red, riichi=e.riichi))
        elif isinstance(e, r.Claim):
            ev = pb.HandEvent(claim=pb.Claim(seat=w(e.seat), kind=int(e.kind), tiles=_tiles(e.tiles),
                                             red_fives=_tiles(e.red_fives)))
        elif isinstance(e, r.Kong):
            ev = pb.HandEvent(kong=pb.Kong(seat=w(e.seat), tile=e.tile + 1, added=e.added, red=e.red))
        elif isinstance(e, r.DoraIndicator):
            ev = pb.HandEvent(dora=pb.DoraIndicator(tile=e.tile + 1))
        elif isinstance(e, r.Win):
            ev = pb.HandEvent(win=pb.Win(seat=w(e.seat), self_drawn=e.self_drawn,
                                         ura_dora_indicators=_tiles(e.ura_dora_indicators), horses=_tiles(e.horses)))
        elif isinstance(e, r.DrawnGame):
            ev = pb.HandEvent(drawn_game=pb.DrawnGame(kind=int(e.kind)))
        elif isinstance(e, r.VoidSuit):
            ev = pb.HandEvent(void_suit=pb.VoidSuit(seat=w(e.seat), suit=e.suit + 1,
                                                    set_aside=0 if e.set_aside is None else e.set_aside + 1))
        elif isinstance(e, r.FlowerTile):
            ev = pb.HandEvent(flower=pb.FlowerTile(seat=w(e.seat), flower=e.flower + 1))
        elif isinstance(e, r.ExchangeThree):
            ev = pb.HandEvent(exchange=pb.ExchangeThree(exchanges=[
                pb.SeatExchange(seat=w(x.seat), tiles=_tiles(x.tiles), to=w(x.to)) for x in e.exchanges]))
        elif isinstance(e, r.FalseWin):
            ev = pb.HandEvent(false_win=pb.FalseWin(seat=w(e.seat)))
        else:
            ev = pb.HandEvent(kita=pb.Kita(seat=w(e.seat)))
        out.events.append(ev)
    return out
