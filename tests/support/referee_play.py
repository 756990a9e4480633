"""Test support: whole hands played through the referee in process, every step chosen at random among what
`engine.referee.legal` offers, so that what Legal offers is checked against what the replay accepts.

The table holds a shuffled wall of the rule set's tiles (no flowers: they are not tiles here), deals East 14
and the others 13, and turns each chosen action into its event (a draw from the wall, a discard, a claim, a
kong with Riichi's dora indicator after it, a win, a drawn game, Sichuan's void suits). Returns the log."""

from __future__ import annotations

import random

from engine import referee as r
from engine.hand import FIVES, Flower, MeldKind, Suit, Wind
from engine.referee import ActionKind
from engine.tile_kinds import is_wind, suit_of

CLAIMS = {ActionKind.PUNG: MeldKind.PUNG, ActionKind.KONG_CLAIMED: MeldKind.KONG, ActionKind.CHOW: MeldKind.CHOW}
WINS = (ActionKind.WIN_SELF_DRAWN, ActionKind.WIN_DISCARD)


FLOWERS = tuple(-1 - f for f in Flower)  # a flower in the wall: -1 - its Flower value
RED = 1000  # a red five in the wall and the hands: RED + its kind


def kind(t: int) -> int:
    return t % RED


def take(hand: list[int], k: int, n: int = 1, plain_first: bool = True) -> list[int]:
    """Remove n tiles of kind k (plain fives before red ones, or the other way)."""
    found = sorted((t for t in hand if kind(t) == k), reverse=not plain_first)[:n]
    assert len(found) == n, f"{n} of {k} not in {hand}"
    for t in found:
        hand.remove(t)
    return found


def wall_for(rule_set: str, options: object, rng: random.Random) -> list[int]:
    """The rule set's tiles, four of each, and the eight flowers where it plays them."""
    from engine import rules

    rs = rules.get(rule_set)
    opts = rs.options(options)  # type: ignore[arg-type]
    three = rule_set == "riichi" and getattr(opts, "players", 4) == 3  # sanma: no 2m-8m
    wall = [k for k in sorted(rs.tiles) if not (three and 0 < k < 8) for _ in range(4)]
    if rule_set == "riichi" and getattr(opts, "red_fives", False):
        for suit, five in enumerate(FIVES):  # the set's red copies of each five: RED + the kind
            for _ in range(opts.reds_allowed(suit)):  # type: ignore[attr-defined]
                wall.remove(five)
                wall.append(RED + five)
    if rule_set == "mcr" or (rule_set == "hk" and getattr(opts, "flowers", False)):
        wall += FLOWERS
    rng.shuffle(wall)
    return wall


def seats_of(rule_set: str, options: object) -> tuple[Wind, ...]:
    if rule_set == "mcr2p":
        return (Wind.EAST, Wind.WEST)
    n = getattr(options, "players", 4) if rule_set in ("guangdong", "riichi") else 4
    return tuple(Wind(i) for i in range(n))


def play(rule_set: str, seed: int, options: object = None, max_steps: int = 600) -> r.HandLog:
    rng = random.Random(f"{rule_set}:{seed}")
    wall = wall_for(rule_set, options, rng)
    seats = seats_of(rule_set, options)
    dead = [wall.pop() for _ in range(14)] if rule_set == "riichi" else []
    dealt = {w: [wall.pop() for _ in range(14 if w == Wind.EAST else 13)] for w in seats}
    hands = {w: [t for t in h if t >= 0] for w, h in dealt.items()}
    to_show = {w: [Flower(-1 - t) for t in h if t < 0] for w, h in dealt.items()}  # dealt flowers
    dora = [kind(dead.pop())] if dead else []
    events: list[r.HandEvent] = [r.Deal(tuple(
        r.SeatTiles(w, tuple(kind(t) for t in h), tuple(kind(t) for t in h if t >= RED)) for w, h in hands.items()),
        tuple(dora))]
    last_discard = -1
    dora_owed = 0
    riichi: set[Wind] = set()
    drawn: dict[Wind, int] = {}  # each seat's last tile drawn
    for _ in range(max_steps):
        log = r.HandLog(rule_set, tuple(events), options)
        offered = r.legal(log)
        if not offered:
            return log
        if dora_owed:
            dora_owed -= 1
            dora.append(kind(dead.pop()))
            events.append(r.DoraIndicator(dora[-1]))
            continue
        by_kind = [(s.seat, a) for s in offered for a in s.actions]
        flowers = [w for w, a in by_kind if a.kind == ActionKind.FLOWER and to_show[w]]
        if flowers:
            events.append(r.FlowerTile(flowers[0], to_show[flowers[0]].pop()))
            continue
        voids = [(w, a) for w, a in by_kind if a.kind == ActionKind.VOID_SUIT]
        if voids:
            w, a = voids[0]
            suit = Suit(suit_of(a.tiles[0]))
            held = sorted(kind(t) for t in hands[w] if kind(t) < 27 and suit_of(kind(t)) == suit)
            events.append(r.VoidSuit(w, suit, held[0] if held else None))
            continue
        wins = [(w, a) for w, a in by_kind if a.kind in WINS]
        if wins and rng.random() < 0.9:
            w, a = wins[0]
            ura = tuple(kind(t) for t in dead[:len(dora)]) if w in riichi else ()
            events.append(r.Win(w, a.kind == ActionKind.WIN_SELF_DRAWN, ura))
            continue
        turn = [(w, a) for w, a in by_kind if a.kind in (ActionKind.DISCARD, ActionKind.RIICHI,
                                                          ActionKind.KONG_CONCEALED, ActionKind.KONG_ADDED,
                                                          ActionKind.NINE_TERMINALS, ActionKind.KITA)]
        if turn:
            w = turn[0][0]
            kongs = [a for _, a in turn if a.kind in (ActionKind.KONG_CONCEALED, ActionKind.KONG_ADDED)]
            nine = [a for _, a in turn if a.kind == ActionKind.NINE_TERMINALS]
            riichis = [a for _, a in turn if a.kind == ActionKind.RIICHI]
            discards = [a for _, a in turn if a.kind == ActionKind.DISCARD]
            kita = [a for _, a in turn if a.kind == ActionKind.KITA]
            if nine and rng.random() < 0.5:
                events.append(r.DrawnGame(r.DrawnGameKind.NINE_TERMINALS))
            elif kita and rng.random() < 0.8:
                take(hands[w], kita[0].tiles[0])
                events.append(r.Kita(w))
            elif kongs and rng.random() < 0.5:
                a = rng.choice(kongs)
                added = a.kind == ActionKind.KONG_ADDED
                taken = take(hands[w], a.tiles[0], 1 if added else 4, plain_first=False)
                events.append(r.Kong(w, a.tiles[0], added, red=added and taken[0] >= RED))
                dora_owed += rule_set == "riichi"
            elif riichis and rng.random() < 0.7:
                t = rng.choice(riichis).tiles[0]
                (thrown,) = take(hands[w], t)
                riichi.add(w)
                last_discard = thrown
                events.append(r.Discard(w, t, red=thrown >= RED, riichi=True))
            else:
                assert discards, f"{w.name} may act but has nothing to discard"
                t = rng.choice(discards).tiles[0]
                assert any(kind(x) == t for x in hands[w]), f"Legal lets {w.name} discard {t}, not held"
                if w in riichi and kind(drawn.get(w, -1)) == t:  # after riichi: the tile drawn, red or not
                    hands[w].remove(drawn[w])
                    thrown = drawn[w]
                else:
                    (thrown,) = take(hands[w], t)
                last_discard = thrown
                events.append(r.Discard(w, t, red=thrown >= RED))
            continue
        claims = [(w, a) for w, a in by_kind if a.kind in CLAIMS]
        if claims and rng.random() < 0.3:
            w, a = rng.choice(claims)
            rest = list(a.tiles)
            rest.remove(kind(last_discard))
            used = [take(hands[w], t, plain_first=False)[0] for t in rest]
            reds = tuple(kind(t) for t in (*used, last_discard) if t >= RED)
            events.append(r.Claim(w, CLAIMS[a.kind], a.tiles, reds))
            dora_owed += rule_set == "riichi" and a.kind == ActionKind.KONG_CLAIMED
            continue
        draws = [w for w, a in by_kind if a.kind == ActionKind.DRAW]
        if draws:
            t = wall.pop()
            if t < 0:  # a flower drawn: shown in place of the draw; the same seat draws again
                events.append(r.FlowerTile(draws[0], Flower(-1 - t)))
                continue
            hands[draws[0]].append(t)
            drawn[draws[0]] = t
            events.append(r.Draw(draws[0], kind(t), red=t >= RED))
            continue
        if any(a.kind == ActionKind.DRAWN_GAME for _, a in by_kind):
            events.append(r.DrawnGame(_drawn_kind(rule_set, events, riichi, wall)))
            continue
        raise AssertionError(f"Legal offers nothing playable: {offered}")
    raise AssertionError(f"a {rule_set} hand still going after {max_steps} steps")


def _drawn_kind(rule_set: str, events: list[r.HandEvent], riichi: set[Wind], wall: list[int]) -> r.DrawnGameKind:
    if rule_set != "riichi" or not wall:
        return r.DrawnGameKind.EXHAUSTIVE
    if len(riichi) == 4 and len({e.seat for e in events if isinstance(e, r.Draw)}) == 4:
        return r.DrawnGameKind.FOUR_RIICHI
    discards = [e.tile for e in events if isinstance(e, r.Discard)]  # kinds
    if len(discards) == 4 and len(set(discards)) == 1 and is_wind(discards[0]):
        return r.DrawnGameKind.FOUR_WINDS
    return r.DrawnGameKind.FOUR_KONGS
