"""Test support: Riichi hands played by riichienv's own game engine (`riichienv.RiichiEnv`, Apache-2.0, a
Rust engine), turned into our `HandLog`, with what riichienv offered each seat at every decision and the
points each seat won or lost. Three players play Mahjong Soul's sanma (`GameRule.default_mjsoul()`), four
Tenhou's rule (`GameRule.default_tenhou()`), each with our options set to the same rule (`OPTIONS`).

riichienv decides everything here: the wall, what each seat may do, furiten, the end of the hand and the
money. The players' choices come from a seeded policy that wins whenever it may and otherwise declares
riichi, sets Norths aside, calls (every pung and kong it may at a third of the tables, for more kongs) and
discards toward a ready hand (the engine's shanten picks the discard; the choice of action is not what is
compared). Seats: riichienv's player `oya` deals; our seat wind is
(player - oya) mod the number of players."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from engine import analysis
from engine import referee as r
from engine.hand import MeldKind, Wind
from engine.referee import ActionKind
from engine.rules.riichi.options import RiichiOptions
from engine.tiles import EAST, GREEN, NORTH, RED, SOUTH, WEST, WHITE, parse_tile

# Three players, Mahjong Soul's rule (`GameRule.default_mjsoul()`): double yakuman as our default, thirteen
# orphans may rob a concealed kong (our option kokushi_robs_concealed_kong). Four, Tenhou's
# (`default_tenhou()`): no double yakuman; a third ron aborts, as our default.
OPTIONS = {3: RiichiOptions(players=3, kokushi_robs_concealed_kong=True), 4: RiichiOptions(double_yakuman=False)}

# riichienv's tile kinds (tile id // 4): 0-26 suits as ours, then E S W N, white, green, red, as mjai names
# its honours; ours order the dragons otherwise
_MJAI_HONOURS = {"E": EAST, "S": SOUTH, "W": WEST, "N": NORTH, "P": WHITE, "F": GREEN, "C": RED}
_KIND_HONOURS = dict(zip(range(27, 34), _MJAI_HONOURS.values(), strict=True))
# the actions compared with the tile they name (the others: the kind alone)
_NAMED = frozenset({ActionKind.DISCARD, ActionKind.CHOW, ActionKind.PUNG, ActionKind.KONG_CLAIMED,
                    ActionKind.KONG_CONCEALED, ActionKind.KONG_ADDED})


def tile_of_mjai(pai: str) -> tuple[int, bool]:
    """(our tile index, red) of an mjai tile name: "5pr" is a red 5p, "P" "F" "C" the dragons."""
    red = pai.endswith("r")
    name = pai[:-1] if red else pai
    if name in _MJAI_HONOURS:
        return _MJAI_HONOURS[name], False
    return parse_tile(name), red


def tile_of_kind(k: int) -> int:
    """Our tile index of riichienv's tile kind."""
    return k if k < 27 else _KIND_HONOURS[k]


def seat_of(player: int, oya: int, players: int) -> Wind:
    return Wind((player - oya) % players)


_DRAWN = {"exhaustive_draw": r.DrawnGameKind.EXHAUSTIVE, "nagashimangan": r.DrawnGameKind.EXHAUSTIVE,
          "kyushu_kyuhai": r.DrawnGameKind.NINE_TERMINALS, "suukansansen": r.DrawnGameKind.FOUR_KONGS,
          "sufuurenta": r.DrawnGameKind.FOUR_WINDS, "suucha_riichi": r.DrawnGameKind.FOUR_RIICHI,
          "sanchaho": r.DrawnGameKind.THREE_RON}


def log_of(mjai: list[dict[str, Any]]) -> r.HandLog:
    """Our HandLog of one hand's mjai events (start_kyoku to the last hora or ryukyoku so far)."""
    events: list[r.HandEvent] = []
    start = next(e for e in mjai if e["type"] == "start_kyoku")
    oya = start["oya"]
    players = len(start["tehais"])
    riichi_next: set[int] = set()
    riichi_seats: set[int] = set()
    hands = []
    for p, tehai in enumerate(start["tehais"]):
        tiles = [tile_of_mjai(t) for t in tehai]
        hands.append(r.SeatTiles(seat_of(p, oya, players), tuple(t for t, _ in tiles),
                                 tuple(t for t, red in tiles if red)))
    events.append(r.Deal(tuple(sorted(hands, key=lambda h: h.seat)), (tile_of_mjai(start["dora_marker"])[0],)))
    for e in mjai[mjai.index(start) + 1:]:
        kind = e["type"]
        actor = e.get("actor")
        seat = seat_of(actor, oya, players) if actor is not None else Wind.EAST
        if kind == "tsumo":
            t, red = tile_of_mjai(e["pai"])
            events.append(r.Draw(seat, t, red))
        elif kind == "dahai":
            t, red = tile_of_mjai(e["pai"])
            events.append(r.Discard(seat, t, red, riichi=actor in riichi_next))
            if actor in riichi_next:
                riichi_next.discard(actor)
                riichi_seats.add(actor)
        elif kind == "reach":
            riichi_next.add(actor)
        elif kind == "chi":
            t, red = tile_of_mjai(e["pai"])
            own = [tile_of_mjai(c) for c in e["consumed"]]
            reds = [t] * red + [k for k, red_own in own if red_own]
            events.append(r.Claim(seat, MeldKind.CHOW, tuple(sorted([t, *(k for k, _ in own)])), tuple(reds)))
        elif kind in ("pon", "daiminkan"):
            t, red = tile_of_mjai(e["pai"])
            reds = [t] * red + [tile_of_mjai(c)[0] for c in e["consumed"] if tile_of_mjai(c)[1]]
            meld = MeldKind.PUNG if kind == "pon" else MeldKind.KONG
            events.append(r.Claim(seat, meld, (t,) * (3 if kind == "pon" else 4), tuple(reds)))
        elif kind == "ankan":
            t, _ = tile_of_mjai(e["consumed"][0])
            events.append(r.Kong(seat, t))
        elif kind == "kakan":
            t, red = tile_of_mjai(e["pai"])
            events.append(r.Kong(seat, t, added=True, red=red))
        elif kind == "dora":
            events.append(r.DoraIndicator(tile_of_mjai(e["dora_marker"])[0]))
        elif kind == "kita":
            events.append(r.Kita(seat))
        elif kind == "hora":
            ura = tuple(tile_of_mjai(t)[0] for t in e.get("ura_markers", ())) if actor in riichi_seats else ()
            events.append(r.Win(seat, self_drawn=actor == e["target"], ura_dora_indicators=ura))
        elif kind == "ryukyoku":
            events.append(r.DrawnGame(_DRAWN[e["reason"]]))
        elif kind in ("end_kyoku", "end_game"):
            break
    scores = [0] * players
    for p, s in enumerate(start["scores"]):
        scores[seat_of(p, oya, players)] = s
    return r.HandLog("riichi", tuple(events), OPTIONS[players], Wind(["E", "S", "W"].index(start["bakaze"])),
                     start["honba"], start["kyotaku"], tuple(scores))


def offered(obs: Any, oya: int, players: int) -> tuple[Wind, frozenset[tuple[ActionKind, int]]]:
    """What riichienv offers one player, in our terms: (kind, tile) pairs (tile -1 where none is named)."""
    from riichienv import ActionType as T

    names = {T.DISCARD: ActionKind.DISCARD, T.RIICHI: ActionKind.RIICHI, T.TSUMO: ActionKind.WIN_SELF_DRAWN,
             T.RON: ActionKind.WIN_DISCARD, T.CHI: ActionKind.CHOW, T.PON: ActionKind.PUNG,
             T.DAIMINKAN: ActionKind.KONG_CLAIMED,
             T.ANKAN: ActionKind.KONG_CONCEALED, T.KAKAN: ActionKind.KONG_ADDED, T.KITA: ActionKind.KITA,
             T.KYUSHU_KYUHAI: ActionKind.NINE_TERMINALS}
    out = set()
    for a in obs.legal_actions():
        k = names.get(a.action_type)
        if k is None:
            continue  # PASS
        tile = -1
        if k == ActionKind.CHOW:  # named by its lowest tile
            tile = tile_of_kind(min([a.tile, *a.consume_tiles]) // 4)
        elif k in _NAMED:
            tile = tile_of_kind((a.tile if a.tile is not None else a.consume_tiles[0]) // 4)
        out.add((k, tile))
    return seat_of(obs.player_id, oya, players), frozenset(out)


def ours(actions: r.SeatActions) -> frozenset[tuple[ActionKind, int]]:
    """Our offer in the same terms (riichi, wins, kita and nine terminals without a tile)."""
    out = set()
    for a in actions.actions:
        if a.kind in (ActionKind.PASS, ActionKind.DRAW, ActionKind.DRAWN_GAME):
            continue
        out.add((a.kind, a.tiles[0] if a.kind in _NAMED else -1))
    return frozenset(out)


@dataclass
class Played:
    log: r.HandLog
    deltas: tuple[int, ...]  # each seat's change of points over the hand, East first
    decisions: list[tuple[r.HandLog, dict[Wind, frozenset[tuple[ActionKind, int]]]]] = field(default_factory=list)


def _shanten_after(hand: list[int], drop: int) -> int:
    counts = [0] * 34
    for t in hand:
        counts[t // 4] += 1
    counts[drop // 4] -= 1
    n = sum(counts)
    return analysis.shanten(counts, (13 - n) // 3, False)


def _choose(obs: Any, rng: random.Random, caller: bool) -> Any:
    from riichienv import ActionType as T

    by: dict[Any, list[Any]] = {}
    for a in obs.legal_actions():
        by.setdefault(a.action_type, []).append(a)
    for k in (T.TSUMO, T.RON):
        if k in by:
            return by[k][0]
    if T.RIICHI in by and rng.random() < 0.9:
        return by[T.RIICHI][0]
    if T.KYUSHU_KYUHAI in by and rng.random() < 0.3:
        return by[T.KYUSHU_KYUHAI][0]
    if T.KITA in by and rng.random() < 0.85:
        return by[T.KITA][0]
    calls = (((T.ANKAN, 1.0), (T.KAKAN, 1.0), (T.DAIMINKAN, 1.0), (T.PON, 0.9), (T.CHI, 0.1)) if caller else
             ((T.ANKAN, 0.5), (T.KAKAN, 0.5), (T.DAIMINKAN, 0.3), (T.PON, 0.35), (T.CHI, 0.25)))
    for k, p in calls:
        if k in by and rng.random() < p:
            return rng.choice(by[k])
    if T.DISCARD in by:
        hand = list(obs.hand)
        return min(by[T.DISCARD], key=lambda a: (_shanten_after(hand, a.tile), rng.random()))
    if T.PASS in by:
        return by[T.PASS][0]
    return rng.choice(obs.legal_actions())


def play(seed: int, decisions: bool = False, players: int = 3) -> Played:
    """One hand of `players` played by riichienv. The dealer, the round wind, honba, sticks and the scores before
    the hand vary with the seed;
    `decisions`: also record, before each step, the log so far and what riichienv offered each seat."""
    from riichienv import GameRule, GameType, RiichiEnv

    rng = random.Random(seed)
    env = RiichiEnv(game_mode=int(GameType.SAN_IKKYOKU if players == 3 else GameType.YON_IKKYOKU), seed=seed,
                    round_wind=rng.randrange(2),
                    rule=GameRule.default_mjsoul() if players == 3 else GameRule.default_tenhou())
    honba, sticks = rng.choice((0, 0, 1, 2, 4)), rng.choice((0, 0, 1, 2))
    caller = rng.random() < 0.3  # a table that calls every pung and kong it may: more kongs and four kongs
    scores = [rng.randrange(50, 500) * 100 for _ in range(players)]
    obs = env.reset(oya=rng.randrange(players), honba=honba, kyotaku=sticks, scores=scores)
    oya = env.oya
    start = list(env.scores())
    recorded: list[tuple[r.HandLog, dict[Wind, frozenset[tuple[ActionKind, int]]]]] = []
    while not env.done():
        if decisions and env.mjai_log[-1]["type"] != "reach":  # riichienv's riichi is two steps: the
            # declaration, then the discard among the riichi discards (ours: RIICHI names them at once)
            offers = dict(offered(o, oya, players) for o in obs.values() if o.legal_actions())
            recorded.append((log_of(list(env.mjai_log)), offers))
        obs = env.step({p: _choose(o, rng, caller) for p, o in obs.items() if o.legal_actions()})
    deltas = [0] * players
    for p, (a, b) in enumerate(zip(start, env.scores(), strict=True)):
        deltas[seat_of(p, oya, players)] = b - a
    return Played(log_of(list(env.mjai_log)), tuple(deltas), recorded)


def check(seed: int, decisions: bool, counts: Counter[str], players: int = 3) -> list[str]:
    """One hand played by riichienv against our referee: the log replays (every event legal), settles to
    riichienv's points seat by seat, and (`decisions`) at each decision our Legal offers what riichienv
    offered each seat. Returns the disagreements, each named by seed and event count."""
    played = play(seed, decisions, players)
    problems = []
    out = r.settle(played.log)
    nets = tuple(m.net for m in out.seats)
    if nets != played.deltas:
        problems.append(f"seed {seed}: settled {nets}, riichienv {played.deltas}")
    if sum(nets) + out.pot != 0:
        problems.append(f"seed {seed}: nets and pot do not sum to zero")
    counts["hands"] += 1
    counts["wins" if out.wins else "drawn games"] += 1
    last = played.log.events[-1]
    if isinstance(last, r.DrawnGame):
        counts[f"drawn game {last.kind.name}"] += 1
    counts["double ron"] += len(out.wins) > 1
    counts["kongs"] += sum(isinstance(e, (r.Kong,)) or (isinstance(e, r.Claim) and e.kind == MeldKind.KONG)
                           for e in played.log.events)
    counts["pao"] += any(line.reason == "PAO" for line in out.lines)
    counts["nagashi"] += any(line.reason == "NAGASHI_MANGAN" for line in out.lines)
    counts["kita"] += sum(isinstance(e, r.Kita) for e in played.log.events)
    for log, offers in played.decisions:
        mine = {s.seat: ours(s) for s in r.legal(log)}
        for seat, theirs in offers.items():
            counts["decisions"] += 1
            if mine.get(seat, frozenset()) != theirs:
                problems.append(f"seed {seed} after {len(log.events)} events, {seat.name}: ours "
                                f"{sorted(mine.get(seat, frozenset()))}, riichienv {sorted(theirs)}")
    return problems
