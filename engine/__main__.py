r"""`python -m engine`: the engine for people.

    python -m engine analyze "123m456p789s1122z"
    python -m engine analyze "23m456p789sEE" --meld pung:CCC --visible "1m4m4m"
    python -m engine score "123m456p789s11sEE" --win E --self-drawn --seat E --prevalent S --flowers 2
    python -m engine score "234m567p55s11z" --meld chow:678s --win 1z --discarded-by across --seat S \
        --red 5p --dora 4p --rule-set riichi --option open_tanyao=false
    python -m engine score "11m22m" --win 1m --meld pung:555m --meld pung:777p --meld pung:999p \
        --rule-set sichuan --seat S --discarded-by left --void-suit s --option fan_cap=3
    python -m engine analyze "1122334455667m" --rule-set sichuan
    python -m engine score "123m456m11mSSSCC" --win C --rule-set hk --seat W --discarded-by across \
        --flower-tiles summer --option limit=10 --option points_table=doubling
    python -m engine score "13m46p789s999sEEP" --win P --self-drawn --rule-set guangdong --option ghosts=P \
        --horses 1m5pS
    python -m engine analyze "13m46p789s999sEEP" --rule-set guangdong --option ghosts=P

Tiles: suit groups `123m456p789s`, honours as `1z`-`7z` (E S W N white green red) or the letters
E S W N C F P (C red, F green, P white).

Melds (`--meld`, repeatable): KIND:TILES[:FLAG,FLAG...]
    KIND   chow, pung or kong
    TILES  the meld's tiles, e.g. 123m, EEE, 5555p
    FLAGS  concealed (a concealed kong), added (an added kong),
           from=left|across|right (seat the claimed tile came from; default left),
           claimed=N (which of the tiles, 0-based, was claimed)
    e.g. --meld chow:123m --meld kong:5555p:concealed --meld pung:CCC:from=across

Rule options (`--option NAME=VALUE`, repeatable): the rule set's options by name, e.g. for sichuan
variant=1|2 (MIL, Chengdu), fan_cap=3..8, heavenly_earthly=true|false, self_draw=1|2|3 (add base,
add fan, no bonus), concealed_simples=true|false, call_transfer=true|false, void_suit=m|p|s,
kong_bloom_payer=all|feeder (点杠花).
For mcr: convention=chinese|rulebook (docs/rules/mcr.md); --flower-tiles and --discarded-by are read too.
For hk: min_faan, limit, points_table, payment, self_draw_double, flowers, liability, liability_split,
flower_hand, seven_pairs_faan, kong_on_kong_faan, seven_flowers_faan, eight_flowers_faan; an enum option
also takes its value's name (points_table=doubling, payment=discarder_pays_all).
For guangdong: a list of tiles for ghosts (ghosts=P, ghosts=5m6m); see engine/rules/guangdong/options.py
for the rest (seven_pairs, self_draw_only, players, horse_start=1|2, horse_value, horse_kongs, streak_value,
all_pungs_multiplier ...).

The referee on a hand's log (docs/referee.md), a JSON file (or - for stdin) in the proto3 JSON mapping of
HandLog, as `mjsvc batch` takes it (docs/referee.md has an MCR hand's); rule options with --option:
    python -m engine legal --log hand.json
    python -m engine settle --log hand.json --option convention=rulebook --json

Bad input prints the error code and message on stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from types import MappingProxyType

from engine import api, rules
from engine.errors import BadContextError, BadMeldError, BadOptionError, EngineError
from engine.hand import (
    ClaimedFrom,
    Flower,
    Hand,
    Meld,
    MeldKind,
    PriorKong,
    Suit,
    WinContext,
    Wind,
    make_hand,
    make_meld,
    winning_hand,
)
from engine.referee import BadLogError, HandLog
from engine.results import Analysis, Evaluation, Scoring, TileCount
from engine.shapes import ShapeKind
from engine.tiles import format_tile, format_tiles, parse_tile, parse_tiles

_TILE_OPTIONS = ("ghosts",)  # options whose value is a list of tiles
_INT_LIST_OPTIONS = ("red_fives_per_suit",)  # options whose value is a list of integers, e.g. 0,2,2
_KINDS = MappingProxyType({"chow": MeldKind.CHOW, "pung": MeldKind.PUNG, "kong": MeldKind.KONG})
_SEATS = MappingProxyType({"left": ClaimedFrom.LEFT, "across": ClaimedFrom.ACROSS, "right": ClaimedFrom.RIGHT})
_WINDS = MappingProxyType({"e": Wind.EAST, "east": Wind.EAST, "s": Wind.SOUTH, "south": Wind.SOUTH, "w": Wind.WEST,
                          "west": Wind.WEST, "n": Wind.NORTH, "north": Wind.NORTH})
_SHAPE_NAMES = MappingProxyType({
    ShapeKind.STANDARD: "standard",
    ShapeKind.SEVEN_PAIRS: "seven pairs",
    ShapeKind.THIRTEEN_ORPHANS: "thirteen orphans",
    ShapeKind.HONORS_KNITTED: "honours and knitted",
    ShapeKind.KNITTED_STRAIGHT: "knitted straight",
})


def parse_meld(text: str, index: int) -> Meld:
    """KIND:TILES[:FLAGS], validated by `make_meld` (errors name `melds[index]`)."""
    field = f"melds[{index}]"
    parts = text.split(":")
    if len(parts) not in (2, 3) or parts[0].lower() not in _KINDS:
        raise BadMeldError(f"{field}: {text!r} is not KIND:TILES[:FLAGS] with KIND chow, pung or kong", field)
    kind = _KINDS[parts[0].lower()]
    tiles = parse_tiles(parts[1], f"{field}.tiles")
    concealed = added = False
    claimed_from: ClaimedFrom | None = None
    claimed_index: int | None = None
    for flag in (f.strip().lower() for f in (parts[2].split(",") if len(parts) == 3 else []) if f.strip()):
        if flag == "concealed":
            concealed = True
        elif flag == "added":
            added = True
        elif flag.startswith("from=") and flag[5:] in _SEATS:
            claimed_from = _SEATS[flag[5:]]
        elif flag.startswith("claimed=") and flag[8:].isdigit():
            claimed_index = int(flag[8:])
        else:
            raise BadMeldError(f"{field}: unknown flag {flag!r} (concealed, added, from=left|across|right, "
                               "claimed=N)", field)
    if claimed_from is None:
        claimed_from = ClaimedFrom.NONE if concealed else ClaimedFrom.LEFT
    return make_meld(kind, tiles, concealed=concealed, added=added, claimed_from=claimed_from,
                     claimed_index=claimed_index, field=field)


_SUITS = MappingProxyType({"m": Suit.CHARACTERS, "p": Suit.DOTS, "s": Suit.BAMBOO})
_PRIOR_KONGS = MappingProxyType({"concealed": PriorKong.CONCEALED, "exposed": PriorKong.EXPOSED,
                                 "added": PriorKong.ADDED, "added-later": PriorKong.ADDED_LATER})


def parse_suit(text: str, field: str) -> Suit | None:
    if not text:
        return None
    suit = _SUITS.get(text.strip().lower())
    if suit is None:
        raise BadContextError(f"{field}: {text!r} is not a suit (m, p or s)", field)
    return suit


def parse_seat(text: str, field: str) -> ClaimedFrom:
    if not text:
        return ClaimedFrom.NONE
    seat = _SEATS.get(text.strip().lower())
    if seat is None:
        raise BadContextError(f"{field}: {text!r} is not left, across or right", field)
    return seat


def parse_wind(text: str, field: str) -> Wind:
    wind = _WINDS.get(text.strip().lower())
    if wind is None:
        raise BadContextError(f"{field}: {text!r} is not a wind (E, S, W, N)", field)
    return wind


# --------------------------------------------------------------------------------------------- output


def _tile_list(tiles: Sequence[TileCount]) -> str:
    if not tiles:
        return "none"
    out = []
    for t in tiles:
        note = "all four in your hand" if t.all_copies_held else f"{t.remaining} left"
        out.append(f"{format_tile(t.tile)} ({note})")
    return ", ".join(out)


def _shanten_text(shanten: int) -> str:
    if shanten < 0:
        return "-1 (complete)"
    if shanten == 0:
        return "0 (waiting)"
    return f"{shanten} ({shanten} tile{'s' if shanten > 1 else ''} from waiting)"


def format_analysis(hand: Hand, result: Analysis) -> str:
    lines = [f"Hand: {hand}", f"Shanten: {_shanten_text(result.shanten)}"]
    lines.append("  by shape: " + ", ".join(f"{_SHAPE_NAMES[s]} {v}" for s, v in result.shanten_by_shape))
    if not result.discards:
        if result.shanten == 0:
            lines.append(f"Waits: {_tile_list(result.waits)}")
        lines.append(f"Useful tiles ({result.useful_count} left): {_tile_list(result.useful_tiles)}")
        if result.max_value:
            lines.append(f"Most a wait would score (wall's end): {result.max_value}")
        return "\n".join(lines)
    lines.append("Discards, best first:")
    for d in result.discards:
        what = "waiting on" if d.shanten == 0 else "useful"
        lines.append(f"  {format_tile(d.tile):>3}  shanten {d.shanten}, {d.useful_count} left; {what}: "
                     f"{_tile_list(d.useful_tiles)}")
    return "\n".join(lines)


def _scoring_lines(s: Scoring) -> list[str]:
    lines = [f"  as {s.decomposition}"]
    riichi = bool(s.han or s.yakuman)  # _han_fu_lines says value and payments for han-and-fu rule sets
    if s.points and not riichi:
        lines.append(f"  value {s.points}")
    if s.payments and not riichi:
        paid = [f"{Wind(seat).name.title()} {amount:+d}" for seat, amount in s.payments]
        lines.append("  payments: " + ", ".join(paid))
    for hit in s.fans:
        times = f" x{hit.count}" if hit.count != 1 else ""
        lines.append(f"  {hit.fan.id:>3}  {hit.fan.name} ({hit.fan.name_zh}){times}  {hit.points}")
    return lines


def _han_fu_lines(s: Scoring) -> list[str]:
    """The Riichi part of an answer: han, fu and their parts, the hand's points and the payments."""
    lines = [f"Yakuman x{s.yakuman}: {s.points} points" if s.yakuman else f"{s.han} han {s.fu} fu: {s.points} points"]
    if s.fu_parts:
        lines.append("  fu: " + ", ".join(f"{why} {fu}" for why, fu in s.fu_parts))
    lines.append("  payments: " + ", ".join(f"{Wind(seat).name.title()} {amount:+d}" for seat, amount in s.payments))
    return lines


def format_evaluation(hand: Hand, ctx: WinContext, result: Evaluation, show_all: bool, unit: str = "points") -> str:
    flags = [name for name in ("self_drawn", "last_of_kind", "replacement_tile", "robbing_kong", "last_wall_tile",
                               "heavenly", "earthly", "ready_declared", "heavenly_ready", "riichi", "double_riichi",
                               "ippatsu") if getattr(ctx, name)]
    lines = [f"Hand: {hand}" + (f" (red {format_tiles(hand.red_fives)})" if hand.red_fives else ""),
             f"Seat {Wind(ctx.seat_wind).name.title()}, prevalent {Wind(ctx.prevalent_wind).name.title()}, "
             f"{ctx.flowers or len(ctx.flower_tiles)} flower(s)" + (f"; {', '.join(flags)}" if flags else "")]
    if ctx.flower_tiles:
        lines[-1] += " (" + ", ".join(f.name.lower() for f in ctx.flower_tiles) + ")"
    if not result.is_win or result.best is None:
        why = f": {result.best.reason}" if result.best is not None and result.best.reason else "."
        lines.append(f"Not a winning hand{why}")
        return "\n".join(lines)
    best = result.best
    below = "" if best.meets_minimum else " (below the minimum: not a legal win)"
    if best.han or best.yakuman:
        lines += _han_fu_lines(best)
    else:
        lines.append(f"Total: {best.total} {unit}{below}")
    lines += _scoring_lines(best)
    if show_all:
        for alt in result.alternatives:
            lines.append(f"Alternative: {alt.total} {unit}")
            lines += _scoring_lines(alt)
    elif result.alternatives:
        lines.append(f"({len(result.alternatives)} other decomposition(s) score no more; --all shows them)")
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------- commands


def _melds(texts: Sequence[str]) -> tuple[Meld, ...]:
    return tuple(parse_meld(t, i) for i, t in enumerate(texts))


def cmd_analyze(args: argparse.Namespace) -> str:
    hand = make_hand(parse_tiles(args.hand, "concealed"), _melds(args.meld), sizes=(13, 14))
    visible = parse_tiles(args.visible, "visible") if args.visible else []
    return format_analysis(hand, api.analyze(hand, visible, args.rule_set, parse_options(args.option)))


def cmd_score(args: argparse.Namespace) -> str:
    win = parse_tile(args.win, "winning_tile") if args.win else None
    reds = parse_tiles(args.red, "red_fives") if args.red else ()
    hand = winning_hand(parse_tiles(args.hand, "concealed"), _melds(args.meld), win, reds)
    discarded_by = ClaimedFrom.NONE
    if args.discarded_by:
        if args.discarded_by.lower() not in _SEATS:
            raise BadContextError(f"discarded_by: {args.discarded_by!r} is not left, across or right", "discarded_by")
        discarded_by = _SEATS[args.discarded_by.lower()]
    ctx = WinContext(
        self_drawn=args.self_drawn, last_of_kind=args.last_of_kind, replacement_tile=args.replacement,
        robbing_kong=args.robbing, last_wall_tile=args.last_tile,
        seat_wind=parse_wind(args.seat, "seat_wind"), prevalent_wind=parse_wind(args.prevalent, "prevalent_wind"),
        flowers=args.flowers, heavenly=args.heavenly, earthly=args.earthly, ready_declared=args.ready,
        heavenly_ready=args.heavenly_ready, riichi=args.riichi, double_riichi=args.double_riichi,
        ippatsu=args.ippatsu, dora_indicators=tuple(parse_tiles(args.dora, "dora_indicators")) if args.dora else (),
        ura_dora_indicators=tuple(parse_tiles(args.ura, "ura_dora_indicators")) if args.ura else (),
        honba=args.honba, riichi_sticks=args.sticks, discarded_by=discarded_by,
        void_suit=parse_suit(args.void_suit, "void_suit"),
        after_kong_discard=args.after_kong_discard,
        seats_out=tuple(parse_wind(w, "seats_out") for w in args.seats_out.split(",") if w.strip()),
        prior_kong=_prior_kong(args.prior_kong),
        prior_kong_claimed_from=parse_seat(args.prior_kong_from, "prior_kong_claimed_from"),
        other_winners=tuple(parse_wind(w, "other_winners") for w in args.other_winners.split(",") if w.strip()),
        flower_tiles=parse_flowers(args.flower_tiles),
        follow_dealer=args.follow_dealer,
        horse_tiles=tuple(parse_tiles(args.horses, "horse_tiles")) if args.horses else (),
        kong_fed_by=parse_seat(args.kong_fed_by, "kong_fed_by"),
        kita=args.kita, liable=parse_seat(args.liable, "liable"), streak=args.streak,
        kong_on_kong=args.kong_on_kong, flower_win=args.flower_win)
    result = api.evaluate(hand, ctx, args.rule_set, parse_options(args.option))
    return format_evaluation(hand, ctx, result, args.all, rules.get(args.rule_set).table.unit)


def parse_flowers(text: str) -> tuple[Flower, ...]:
    """Comma-separated flower names (plum, orchid, chrysanthemum, bamboo, spring, summer, autumn, winter)."""
    out = []
    for name in (n.strip() for n in text.split(",") if n.strip()):
        try:
            out.append(Flower[name.upper()])
        except KeyError:
            names = ", ".join(f.name.lower() for f in Flower)
            raise BadContextError(f"flower_tiles: {name!r} is not a flower ({names})", "flower_tiles") from None
    return tuple(out)


def parse_options(texts: Sequence[str]) -> dict[str, object] | None:
    """NAME=VALUE pairs (true/false, integers, words) as the mapping the rule set checks (BAD_OPTION)."""
    out: dict[str, object] = {}
    for text in texts:
        name, sep, raw = text.partition("=")
        if not sep or not name.strip():
            raise BadOptionError(f"options: {text!r} is not NAME=VALUE", "options")
        value: object = raw.strip()
        low = raw.strip().lower()
        if low in ("true", "yes", "on"):
            value = True
        elif low in ("false", "no", "off"):
            value = False
        elif low.lstrip("-").isdigit():
            value = int(low)
        elif name.strip() in _TILE_OPTIONS:  # a list of tiles (guangdong's ghosts=P)
            value = tuple(parse_tiles(raw, f"options.{name.strip()}"))
        elif name.strip() in _INT_LIST_OPTIONS:  # integers separated by commas (riichi's red_fives_per_suit=0,2,2)
            parts = [p.strip() for p in raw.split(",") if p.strip()]
            if not all(p.lstrip("-").isdigit() for p in parts):
                raise BadOptionError(f"options.{name.strip()}: {raw!r} is not integers separated by commas",
                                     f"options.{name.strip()}")
            value = tuple(int(p) for p in parts)
        out[name.strip()] = value
    return out or None


def _prior_kong(text: str) -> PriorKong:
    if not text:
        return PriorKong.NONE
    kind = _PRIOR_KONGS.get(text.strip().lower())
    if kind is None:
        raise BadContextError(f"prior_kong: {text!r} is not one of {', '.join(_PRIOR_KONGS)}", "prior_kong")
    return kind


def _read_log(args: argparse.Namespace) -> HandLog:
    import json

    from engine import log_json

    try:
        if args.log == "-":
            value = json.loads(sys.stdin.read())
        else:
            with open(args.log, encoding="utf-8") as f:
                value = json.load(f)
    except (OSError, ValueError) as err:
        raise BadLogError(f"log: {args.log} cannot be read as JSON: {err}", "log") from None
    rs = log_json.rule_set_of(value)  # by either of its names, as the log is read
    return log_json.hand_log(value, rs.options(parse_options(args.option)))


def cmd_legal(args: argparse.Namespace) -> str:
    import json

    from engine import log_json, referee

    seats = referee.legal(_read_log(args))
    if args.json:
        return json.dumps(log_json.legal_json(seats), ensure_ascii=False)
    lines = []
    for s in seats:
        acts = ", ".join(a.kind.name.lower() + (f" {format_tiles(a.tiles)}" if a.tiles else "") for a in s.actions)
        lines.append(f"{s.seat.name.title()}{' (furiten)' if s.furiten else ''}: {acts}")
    return "\n".join(lines) if lines else "nobody may act: the hand has ended"


def cmd_settle(args: argparse.Namespace) -> str:
    import json

    from engine import log_json, referee

    log = _read_log(args)
    out = referee.settle(log)
    if args.json:
        return json.dumps(log_json.settlement_json(out), ensure_ascii=False)
    lines = ["Net: " + "  ".join(f"{m.seat.name.title()} {m.net:+d}{' (ready)' if m.ready else ''}"
                                 for m in out.seats)]
    for line in out.lines:
        to = "the pot" if line.payee is None else line.payee.name.title()
        lines.append(f"  {line.payer.name.title()} pays {to} {line.amount} ({line.reason}, event {line.event_index})")
    for e in out.wins:
        if e.best is not None:
            lines.append(f"Win: {e.best.total} ({', '.join(h.fan.name for h in e.best.fans)})")
    if out.pot:
        lines.append(f"Pot: {out.pot}")
    dealer = f"dealer {'continues' if out.dealer_continues else 'passes'}"
    lines.append(f"Next: honba {out.honba_next}, riichi sticks {out.riichi_sticks_next}, {dealer}"
                 if log.rule_set == "riichi" else f"Next: {dealer}")
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--meld", action="append", default=[], metavar="KIND:TILES[:FLAGS]",
                       help="a declared meld, e.g. chow:123m, pung:EEE:from=across, kong:5555p:concealed")
        p.add_argument("--rule-set", default="mcr",
                       help="rule set: mcr (default), mcr2p, riichi, sichuan, hk, guangdong")
        p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                       help="a rule option, e.g. open_tanyao=false (riichi), fan_cap=3 (sichuan), "
                       "ghosts=P (guangdong)")

    a = sub.add_parser("analyze", help="shanten, waits and useful tiles (13 tiles) or discard advice (14 tiles)",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    a.add_argument("hand", help="concealed tiles: 13 or 14, less 3 per meld")
    a.add_argument("--visible", default="", help="tiles seen on the table (discards, others' melds)")
    common(a)
    a.set_defaults(run=cmd_analyze)

    s = sub.add_parser("score", help="fans of a winning hand",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    s.add_argument("hand", help="concealed tiles without the winning tile (13 less 3 per meld)")
    s.add_argument("--win", default="", help="the winning tile, e.g. 5p or E")
    s.add_argument("--self-drawn", action="store_true")
    s.add_argument("--seat", default="E", help="seat wind E S W N (default E)")
    s.add_argument("--prevalent", default="E", help="prevalent wind E S W N (default E)")
    s.add_argument("--flowers", type=int, default=0, help="flower tiles 0-8")
    s.add_argument("--flower-tiles", default="", metavar="NAMES",
                   help="which flowers, e.g. plum,summer (hk: the seat's own and complete groups score; "
                        "mcr: one point each)")
    s.add_argument("--last-of-kind", action="store_true", help="the last copy of the winning tile")
    s.add_argument("--replacement", action="store_true", help="won on the replacement tile after a kong")
    s.add_argument("--robbing", action="store_true", help="won by robbing a kong")
    s.add_argument("--last-tile", action="store_true", help="the last tile of the wall (or its discard)")
    s.add_argument("--heavenly", action="store_true", help="dealer complete on the deal (rule sets that score it)")
    s.add_argument("--earthly", action="store_true", help="non-dealer complete on the first draw")
    s.add_argument("--ready", action="store_true", help="ready hand declared")
    s.add_argument("--heavenly-ready", action="store_true", help="ready declared on the deal")
    s.add_argument("--riichi", action="store_true", help="riichi declared (riichi)")
    s.add_argument("--double-riichi", action="store_true", help="riichi declared on the first turn (riichi)")
    s.add_argument("--ippatsu", action="store_true", help="won within a go-around after riichi (riichi)")
    s.add_argument("--dora", default="", help="dora indicators, e.g. 4p1z (riichi)")
    s.add_argument("--ura", default="", help="ura dora indicators (riichi)")
    s.add_argument("--red", default="", help="the red fives among the hand's tiles, e.g. 5p5s (riichi)")
    s.add_argument("--honba", type=int, default=0, help="honba counters (riichi)")
    s.add_argument("--sticks", type=int, default=0, help="riichi sticks on the table (riichi)")
    s.add_argument("--discarded-by", default="", help="who discarded the winning tile: left, across, right (riichi)")
    s.add_argument("--void-suit", default="", help="sichuan: the void suit, m, p or s")
    s.add_argument("--seats-out", default="", help="sichuan: seats that have already won, e.g. W,N")
    s.add_argument("--after-kong-discard", action="store_true", help="sichuan: 杠上炮")
    s.add_argument("--other-winners", default="", help="sichuan 一炮多响: the other seats winning on this discard, "
                   "e.g. S (the kong money moves with the first winner in turn after the discarder)")
    s.add_argument("--prior-kong", default="", help="sichuan: the kong whose money moves: " + ", ".join(_PRIOR_KONGS))
    s.add_argument("--prior-kong-from", default="", help="sichuan: an exposed prior kong's fourth tile came "
                   "from (left, across, right of its declarer)")
    s.add_argument("--follow-dealer", action="store_true", help="guangdong: 跟庄, all followed the dealer's "
                   "first discard")
    s.add_argument("--horses", default="", help="guangdong: the horse tiles drawn (买马), e.g. 1m5pS")
    s.add_argument("--kong-fed-by", default="", help="guangdong: who discarded the fourth tile of the kong a "
                   "replacement-tile win follows (left, across, right)")
    s.add_argument("--kita", type=int, default=0, help="riichi, three players: North tiles set aside as dora")
    s.add_argument("--liable", default="", help="the seat liable (riichi pao, hk 包) for the win: left, across, "
                   "right")
    s.add_argument("--streak", type=int, default=0, help="guangdong 节节高: the winner's consecutive dealer wins "
                   "before this one")
    s.add_argument("--kong-on-kong", action="store_true", help="hk 杠上杠: the replacement tile of a kong declared "
                   "on another kong's replacement tile")
    s.add_argument("--flower-win", action="store_true", help="hk 花胡: the win is the flower hand (八仙过海, 七抢一)")
    s.add_argument("--all", action="store_true", help="also show the other decompositions")
    common(s)
    s.set_defaults(run=cmd_score)

    for name, run, what in (("legal", cmd_legal, "what each seat may do after the log's last event"),
                            ("settle", cmd_settle, "the money of a hand whose log has ended")):
        r = sub.add_parser(name, help=what)
        r.add_argument("--log", required=True, help="the hand's log: a JSON file (HandLog), - for stdin")
        r.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a rule option")
        r.add_argument("--json", action="store_true", help="print the answer as JSON")
        r.set_defaults(run=run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        print(args.run(args))
    except EngineError as err:
        print(f"error {err.code}: {err.message}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
