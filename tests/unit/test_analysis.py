"""Shanten, waits, useful tiles and discard advice against pymahjonggb and brute force.

pymahjonggb's `MahjongShanten` only takes 13-tile hands (declared melds counted as 3), and
ignores which melds they are: only their number matters. For 14 tiles the oracle's value is
the best over discards, -1 when the hand is complete (as its own discard enumeration does).
"""

from __future__ import annotations

import random

import pytest

from engine import analysis
from engine.errors import TileCountError, TooManyCopiesError
from engine.hand import Hand, kong, make_hand, pung
from engine.shapes import ShapeKind, is_complete_counts, suit_splits
from engine.tiles import NUM_KINDS, TERMINALS_AND_HONORS, parse_tiles, to_counts

MahjongGB = pytest.importorskip("MahjongGB")

GB = tuple([f"W{r}" for r in range(1, 10)] + [f"B{r}" for r in range(1, 10)] + [f"T{r}" for r in range(1, 10)]
           + ["F1", "F2", "F3", "F4", "J1", "J2", "J3"])
ORACLE_BY_SHAPE = {
    ShapeKind.STANDARD: MahjongGB.RegularShanten,
    ShapeKind.SEVEN_PAIRS: MahjongGB.SevenPairsShanten,
    ShapeKind.THIRTEEN_ORPHANS: MahjongGB.ThirteenOrphansShanten,
    ShapeKind.HONORS_KNITTED: MahjongGB.HonorsAndKnittedTilesShanten,
    ShapeKind.KNITTED_STRAIGHT: MahjongGB.KnittedStraightShanten,
}
WALL = tuple(t for t in range(NUM_KINDS) for _ in range(4))
KNITTED = [tuple(9 * s + p[s] + 3 * j for s in range(3) for j in range(3))
           for p in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))]


def gb(tiles: list[int]) -> tuple[str, ...]:
    return tuple(GB[t] for t in tiles)


def oracle13(counts: list[int], melds: int) -> int:
    return MahjongGB.MahjongShanten(tuple(("PENG", "W1", 1) for _ in range(melds)), gb(tiles_of(counts)))


def tiles_of(counts: list[int]) -> list[int]:
    return [t for t, n in enumerate(counts) for _ in range(n)]


def unseen(rng: random.Random, hand: Hand, n: int) -> list[int]:
    """`n` tiles of the wall the hand leaves: what a table can show besides the player's own tiles."""
    left = list(WALL)
    for t in [*hand.all_concealed(), *(t for m in hand.melds for t in m.tiles)]:
        left.remove(t)
    return rng.sample(left, n)


def random_concealed(rng: random.Random, size: int) -> list[int]:
    """Half plain random draws, half hands built from sets, partial sets, knitted and orphan runs."""
    if rng.random() < 0.5:
        return sorted(rng.sample(WALL, size))
    while True:
        tiles: list[int] = []
        while len(tiles) < size + 2:
            r = rng.random()
            if r < 0.35:
                first = 9 * rng.randrange(3) + rng.randrange(7)
                tiles += [first, first + 1, first + 2]
            elif r < 0.55:
                tiles += [rng.randrange(NUM_KINDS)] * rng.choice((2, 3))
            elif r < 0.7:
                first = 9 * rng.randrange(3) + rng.randrange(7)
                tiles += [first, first + rng.choice((1, 2))]
            elif r < 0.8:
                tiles += list(rng.choice(KNITTED))[: rng.randrange(4, 10)]
            elif r < 0.9:
                tiles += rng.sample(TERMINALS_AND_HONORS, rng.randrange(3, 10))
            else:
                tiles.append(rng.randrange(NUM_KINDS))
        rng.shuffle(tiles)
        tiles = sorted(tiles[:size])
        if max(to_counts(tiles)) <= 4:
            return tiles


def cases(seed: int, n: int) -> list[tuple[list[int], int]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        melds = rng.choice((0, 0, 0, 0, 1, 1, 2, 3, 4))
        out.append((to_counts(random_concealed(rng, 13 - 3 * melds)), melds))
    return out


def check_shanten_13(n: int, seed: int) -> None:
    for counts, melds in cases(seed, n):
        expected = oracle13(counts, melds)
        assert analysis.shanten(counts, melds) == expected, (tiles_of(counts), melds)
        by_shape = analysis.shanten_by_shape(counts, melds)
        assert min(v for _, v in by_shape) == expected


def check_shanten_14(n: int, seed: int) -> None:
    rng = random.Random(seed)
    for counts, melds in cases(seed, n):
        extra = rng.choice([t for t in range(NUM_KINDS) if counts[t] < 4])
        counts[extra] += 1
        if is_complete_counts(counts, melds):
            expected = -1
        else:
            expected = min(oracle13([n - (t == d) for t, n in enumerate(counts)], melds)
                           for d in range(NUM_KINDS) if counts[d])
        assert analysis.shanten(counts, melds) == expected, (tiles_of(counts), melds)


def test_shanten_13_matches_oracle() -> None:
    check_shanten_13(1200, seed=1)


def test_shanten_14_matches_oracle() -> None:
    check_shanten_14(800, seed=2)


@pytest.mark.slow
def test_shanten_matches_oracle_20000() -> None:
    check_shanten_13(12000, seed=11)
    check_shanten_14(8000, seed=12)


def test_each_shape_matches_the_oracle_function() -> None:
    for counts, melds in cases(3, 600):
        by_shape = dict(analysis.shanten_by_shape(counts, melds))
        expected_shapes = {0: set(ORACLE_BY_SHAPE), 1: {ShapeKind.STANDARD, ShapeKind.KNITTED_STRAIGHT}}
        assert set(by_shape) == expected_shapes.get(melds, {ShapeKind.STANDARD})
        for shape, value in by_shape.items():
            assert value == ORACLE_BY_SHAPE[shape](gb(tiles_of(counts)))[0], (shape, tiles_of(counts))


def fifth_copy_completes(counts: list[int], tile: int) -> bool:
    """Independent check for a tile already held four times: split 5 copies into sets and a pair."""
    c = counts[:]
    c[tile] += 1
    pairs = 0
    for base in (0, 9, 18):
        key = tuple(c[base:base + 9])
        if sum(key) % 3 == 1 or (sum(key) and not suit_splits(key)):  # type: ignore[arg-type]
            return False
        pairs += sum(key) % 3 == 2
    for n in c[27:]:
        if n % 3 == 1:
            return False
        pairs += n % 3 == 2
    return pairs == 1


@pytest.mark.parametrize("quads", [True, False])
def test_waits_are_the_tiles_that_complete_the_hand(quads: bool) -> None:
    seen_waiting = 0
    for counts, melds in cases(4, 1500):
        waits = analysis.waits(counts, melds, quads)
        expected = []
        for t in range(NUM_KINDS):
            if counts[t] == 4:
                if fifth_copy_completes(counts, t):
                    expected.append(t)
                continue
            counts[t] += 1
            if is_complete_counts(counts, melds, quads):
                expected.append(t)
            counts[t] -= 1
        assert list(waits) == expected, (tiles_of(counts), melds)
        shanten = analysis.shanten(counts, melds, quads)
        assert (shanten == 0) == bool(waits)
        seen_waiting += bool(waits)
    assert seen_waiting > 50  # the generator does produce waiting hands


@pytest.mark.parametrize("quads", [True, False])
def test_useful_tiles_lower_the_shanten(quads: bool) -> None:
    for counts, melds in cases(5, 700):
        shanten = analysis.shanten(counts, melds, quads)
        assert shanten == min(v for _, v in analysis.shanten_by_shape(counts, melds, quads))
        expected = []
        for t in range(NUM_KINDS):
            if counts[t] < 4:
                counts[t] += 1
                if analysis.shanten(counts, melds, quads) < shanten:
                    expected.append(t)
                counts[t] -= 1
        assert list(analysis.useful_tiles(counts, melds, quads)) == expected, (tiles_of(counts), melds)


def test_standard_useful_tiles_match_regular_shanten() -> None:
    """With two or more melds only the standard shape applies; pymahjonggb's useful tiles then
    include a fifth copy at shanten 0 (a wait on a tile held four times) and skip it otherwise."""
    rng = random.Random(6)
    for _ in range(400):
        melds = rng.choice((2, 3, 4))
        tiles = random_concealed(rng, 13 - 3 * melds)
        counts = to_counts(tiles)
        shanten, oracle_useful = MahjongGB.RegularShanten(gb(tiles))
        oracle = sorted(GB.index(t) for t in oracle_useful)
        if shanten == 0:
            assert list(analysis.waits(counts, melds)) == oracle
        else:
            assert list(analysis.useful_tiles(counts, melds)) == [t for t in oracle if counts[t] < 4]


def hand13(text: str, melds: tuple = ()) -> Hand:
    return make_hand(parse_tiles(text), melds, sizes=(13,))


def test_waiting_hand_analysis_counts_remaining_copies() -> None:
    hand = hand13("123m456p789s1122z")  # East and South pairs: waits on either
    a = analysis.analyze(hand, parse_tiles("1zSS"))
    assert a.shanten == 0
    assert [(w.tile, w.remaining, w.all_copies_held) for w in a.waits] == [(27, 1, False), (28, 0, False)]
    assert a.useful_tiles == a.waits and a.useful_count == 1
    assert dict(a.shanten_by_shape)[ShapeKind.STANDARD] == 0
    # More copies seen than the table has, with those held: refused, naming the kind and the field.
    with pytest.raises(TooManyCopiesError, match="visible: E 3 times, with the 2 held that makes 5") as err:
        analysis.analyze(hand, parse_tiles("EEESS"))
    assert err.value.field == "visible"
    assert [w.remaining for w in analysis.analyze(hand, parse_tiles("EESS")).waits] == [0, 0]  # four: none left


def test_discard_advice_without_four_as_two_pairs_and_no_shapes_named() -> None:
    """Every shape and seven pairs of seven kinds (no rule set asks this: those that forbid a four as two
    pairs name their shapes): discarding 8m from 44m 5m 666m 8888m 99m 11s leaves five pairs of six kinds,
    seven pairs two away, so the useful tiles are the standard shape's. They were every kind not held (the
    seven-kinds term was left out), which only a random case of the test below found."""
    tiles = parse_tiles("445666888899m11s")
    a = analysis.analyze(make_hand(tiles, sizes=(14,)), (), allow_quad_pairs=False)
    option = next(o for o in a.discards if o.tile == 7)
    rest = list(tiles)
    rest.remove(7)
    own = analysis.analyze(make_hand(rest, sizes=(13,)), (7,), allow_quad_pairs=False)
    assert own.shanten == option.shanten == 1 and dict(own.shanten_by_shape)[ShapeKind.SEVEN_PAIRS] == 2
    assert [t.tile for t in option.useful_tiles] == [t.tile for t in own.useful_tiles] == parse_tiles("34569m1s")


def test_wait_on_a_tile_the_player_holds_four_times() -> None:
    # All four 1m concealed: 111m + 1m waits only on a fifth 1m.
    a = analysis.analyze(hand13("1111m234p567p789s"), ())
    assert a.shanten == 0
    assert [(w.tile, w.remaining, w.all_copies_held) for w in a.waits] == [(0, 0, True)]
    # A declared kong of 5p and 46p in hand: 5p completes the shape, no copy is left.
    a = analysis.analyze(hand13("46p123s789sEE", (kong(13),)), ())
    assert [(w.tile, w.remaining, w.all_copies_held) for w in a.waits] == [(13, 0, True)]


def test_tile_kinds_limit_waits_and_useful_tiles() -> None:
    hand = hand13("23m456m789mEEESS")
    every = analysis.analyze(hand, ())
    assert [w.tile for w in every.waits] == [0, 3, 6]
    only_honours = analysis.analyze(hand, (), tile_kinds=frozenset(range(27, 34)))
    assert only_honours.shanten == 0 and only_honours.waits == () and only_honours.useful_count == 0


def test_discards_are_ordered_best_first() -> None:
    rng = random.Random(7)
    for _ in range(60):
        melds = rng.choice((0, 0, 1, 2))
        meld_objs = tuple(pung(27 + i) for i in range(melds))
        tiles = random_concealed(rng, 14 - 3 * melds)
        counts = to_counts(tiles)
        if any(counts[27 + i] for i in range(melds)):
            continue
        visible = rng.sample(WALL, 5)
        a = analysis.analyze(make_hand(tiles, meld_objs, sizes=(14,)), visible)
        held = to_counts(tiles + [27 + i for i in range(melds) for _ in range(3)])
        seen = to_counts(visible)
        assert a.shanten == analysis.shanten(counts, melds)
        assert a.waits == () and a.useful_tiles == ()
        assert [o.tile for o in sorted(a.discards, key=lambda o: o.tile)] == sorted(set(tiles))
        keys = [(o.shanten, -o.useful_count, o.tile) for o in a.discards]
        assert keys == sorted(keys)
        for o in a.discards:
            rest = counts[:]
            rest[o.tile] -= 1
            assert o.shanten == analysis.shanten(rest, melds)
            expected = analysis.waits(rest, melds) if o.shanten == 0 else analysis.useful_tiles(rest, melds)
            assert tuple(u.tile for u in o.useful_tiles) == expected
            for u in o.useful_tiles:
                assert u.remaining == max(0, 4 - held[u.tile] - seen[u.tile])
            assert o.useful_count == sum(u.remaining for u in o.useful_tiles)


def test_a_complete_hand_has_shanten_minus_one() -> None:
    hand = make_hand(parse_tiles("123m456p789s11222z"), sizes=(14,))
    a = analysis.analyze(hand, ())
    assert a.shanten == -1
    assert a.discards[0].shanten == 0
    with_win = make_hand(parse_tiles("123m456p789s1122z"), winning_tile=28, sizes=(14,))
    assert analysis.analyze(with_win, ()).shanten == -1


def test_special_shapes_waits() -> None:
    orphans = analysis.analyze(hand13("19m19p19sESWNCFP"), ())
    assert orphans.shanten == 0 and [w.tile for w in orphans.waits] == list(TERMINALS_AND_HONORS)
    pairs = analysis.analyze(hand13("1133m5577p99sEEC"), ())
    assert [w.tile for w in pairs.waits] == [31]
    knitted = analysis.analyze(hand13("147m258p36sESWNC"), ())
    assert dict(knitted.shanten_by_shape)[ShapeKind.HONORS_KNITTED] == 0
    assert [w.tile for w in knitted.waits] == [26, 32, 33]
    straight = analysis.analyze(hand13("147m258p369sC", (pung(27),)), ())
    assert dict(straight.shanten_by_shape)[ShapeKind.KNITTED_STRAIGHT] == 0
    assert [w.tile for w in straight.waits] == [31]


def test_other_sizes_are_refused() -> None:
    with pytest.raises(TileCountError) as err:
        analysis.analyze(Hand(tuple(parse_tiles("123m456p789s11z"))), ())
    assert err.value.code == "TILE_COUNT" and err.value.field == "concealed"


def _counts_outside_the_tables(r: random.Random) -> list[int]:
    c = [0] * NUM_KINDS
    for _ in range(r.randint(0, 14)):
        c[r.randrange(NUM_KINDS)] += 1
    c[r.randrange(NUM_KINDS)] = r.choice([-1, -2, -100, 33, 40, 5000])
    return c


def test_counts_the_search_cannot_take_are_refused_not_crashed_on() -> None:
    """The count-level functions search parts the tables do not hold (a fifth copy). A negative count made
    that search run on (a crash of the compiled engine) and a huge one made it recurse too deep: both are
    TILE_COUNT errors naming `counts`, and counts the search can take still get answers."""
    from engine import wildcards

    shapes = frozenset(ShapeKind)
    calls = (
        analysis.shanten, analysis.shanten_by_shape, analysis.useful_tiles, analysis.waits,
        lambda c: analysis.shanten_for(c, 0, shapes), lambda c: analysis.useful_for(c, 0, shapes),
        lambda c: wildcards.shanten_wild(c, [33]), lambda c: wildcards.useful_tiles_wild(c, [33]),
        lambda c: wildcards.shanten_by_shape_wild(c, [0]),
    )
    r = random.Random(7)
    refused = 0
    for _ in range(150):
        c = _counts_outside_the_tables(r)
        for call in calls:
            try:
                call(c)
            except TileCountError as err:
                assert err.code == "TILE_COUNT" and err.field == "counts", err
                refused += 1
    assert refused > 500  # almost every such vector reaches the search in every call
    for call in calls:
        with pytest.raises(TileCountError):
            call([-1] + [3] * 4 + [0] * (NUM_KINDS - 5))
    fifth = to_counts(parse_tiles("11111m234p567s99s11z")[:13])  # a fifth copy: searched, answered
    assert analysis.shanten(fifth) >= -1 and wildcards.shanten_wild(fifth, [33]) >= -1


def test_decoded_additions_memo_answers_as_the_table_and_analyses_are_unchanged() -> None:
    """`_plus` keeps the table's decoded additions per part key (bounded): a memo hit answers exactly what
    the table does, and discard advice is the same with the memo emptied before every call and kept."""
    rng = random.Random(20261201)
    keys = set()
    while len(keys) < 2000:
        c = [0] * 9
        for _ in range(rng.randint(1, 11)):
            r = rng.randrange(9)
            if c[r] < 4:
                c[r] += 1
        keys.add(tuple(c))
    for key in keys:
        table = analysis._table(key)
        expected = table.additions_of(key) if table is not None else None
        first, again = analysis._plus(key), analysis._plus(key)
        assert first == again
        if expected is not None:
            assert first == expected and key in analysis._PLUS_DECODED
    hands = []
    while len(hands) < 200:
        tiles = sorted(rng.sample(range(4 * NUM_KINDS), 14))
        hands.append(make_hand([t // 4 for t in tiles], sizes=(14,)))
    kept = [analysis.analyze(h, ()) for h in hands]
    plain = []
    for h in hands:
        analysis._PLUS_DECODED.clear()
        plain.append(analysis.analyze(h, ()))
    assert kept == plain


def test_parts_one_copy_fewer_are_each_parts_own_facts() -> None:
    """`_down` (what discard advice reads per discard) gives, for each held rank of a part, the part with
    one copy fewer, its summary, additions and pair masks exactly as `_info`, `_plus` and `_pair_masks`
    give them for that key (suits and honours, tabled or not); `_knit_rests` gives the additions of what a
    knitted straight leaves of a suit, whose class id the suit's summary holds; and discard advice answers
    the same with these memos emptied before every call and kept."""
    rng = random.Random(20261207)
    keys: set[tuple[int, ...]] = set()
    while len(keys) < 2000:
        ranks = 9 if rng.random() < 0.8 else 7
        c = [0] * ranks
        for _ in range(rng.randint(0, 14)):
            r = rng.randrange(ranks)
            if c[r] < 4:
                c[r] += 1
        keys.add(tuple(c))
    for key in keys:
        down = analysis._down(key)
        assert len(down) == len(key) and analysis._down(key) is down  # kept
        for r, n in enumerate(key):
            if n == 0:
                assert down[r] is None
                continue
            less = key[:r] + (n - 1,) + key[r + 1:]
            assert down[r] == (less, analysis._info(less), analysis._plus(less), analysis._pair_masks(less))
        if len(key) == 9:  # what a knitted straight leaves of a suit, by residue class
            rests = analysis._knit_rests(key)
            assert analysis._knit_rests(key) is rests  # kept
            for residue in range(3):
                rest = list(key)
                for r in (residue, residue + 3, residue + 6):
                    rest[r] -= 1 if rest[r] else 0
                assert rests[residue] == analysis._plus(tuple(rest))
                assert analysis._info(key)[8 + residue] == analysis._info(tuple(rest))[0]
    hands = []
    while len(hands) < 300:
        tiles = sorted(rng.sample(range(4 * NUM_KINDS), 14))
        hands.append(make_hand([t // 4 for t in tiles], sizes=(14,)))
    kept = [analysis.analyze(h, ()) for h in hands]
    plain = []
    for h in hands:
        analysis._DOWN.clear()
        analysis._KNIT_RESTS.clear()
        plain.append(analysis.analyze(h, ()))
    assert kept == plain and 0 < len(analysis._DOWN) <= 4  # the last hand's parts only


def test_kept_thirteen_tile_analyses_answer_as_fresh_ones() -> None:
    """`_thirteen` keeps what a 13-tile analysis finds from the hand alone (bounded): the same hands, with
    melds, under several rule sets' shapes and both seven-pairs rules, analysed again with other visible
    tiles and other tile kinds, answer exactly as with the table emptied before every call; and a table
    small enough to fill and start again many times answers the same."""
    rng = random.Random(20261205)
    shape_sets: tuple[frozenset[ShapeKind] | None, ...] = (
        None, frozenset({ShapeKind.STANDARD}), frozenset({ShapeKind.STANDARD, ShapeKind.SEVEN_PAIRS}))
    cases = []
    while len(cases) < 600:
        n_melds = rng.choice((0, 0, 1, 2))
        melds = [pung(t) for t in rng.sample(range(NUM_KINDS), n_melds)]
        held = [t for m in melds for t in m.tiles]
        if rng.random() < 0.4:  # a waiting hand: a complete one less a tile, as tables ask about most
            tiles = [rng.randrange(NUM_KINDS)] * 2
            for _ in range(4 - n_melds):
                first = 9 * rng.randrange(3) + rng.randrange(7)
                tiles += [first, first + 1, first + 2] if rng.random() < 0.7 else [rng.randrange(NUM_KINDS)] * 3
            tiles.pop(rng.randrange(len(tiles)))
        else:
            tiles = rng.sample([t for t in WALL if t not in held], 13 - 3 * n_melds)
        if max(to_counts(tiles + held)) > 4:
            continue
        cases.append(make_hand(tiles, melds, sizes=(13,)))

    def visible(hand: Hand) -> list[int]:
        return unseen(rng, hand, rng.randint(0, 40))

    kinds = frozenset(range(27))
    asks = [(h, rng.choice(shape_sets), rng.random() < 0.5, visible(h),
             kinds if rng.random() < 0.2 else analysis._ALL_KINDS) for h in cases for _ in range(4)]
    analysis._HAND13.clear()
    kept = [analysis.analyze(h, v, k, quads, shapes) for h, shapes, quads, v, k in asks]
    assert len(analysis._HAND13) == len({(h.concealed, len(h.melds), q, s) for h, s, q, _, _ in asks}) < len(asks)
    plain = []
    for h, shapes, quads, v, k in asks:
        analysis._HAND13.clear()
        plain.append(analysis.analyze(h, v, k, quads, shapes))
    assert kept == plain
    assert sum(a.shanten == 0 for a in plain) > 20 and sum(a.shanten > 0 for a in plain) > 500
    limit = analysis._HAND13_LIMIT
    analysis._HAND13_LIMIT = 16
    try:
        small = [analysis.analyze(h, v, k, quads, shapes) for h, shapes, quads, v, k in asks]
        assert len(analysis._HAND13) <= 16
    finally:
        analysis._HAND13_LIMIT = limit
    assert small == plain


def test_discard_advice_answers_as_each_discards_own_analysis() -> None:
    """Discard advice works each discard out from what the other parts give together
    (`analysis.Discarding`): every option must be what the plain 13-tile analysis of the hand after that
    discard says (its shanten; its waits when ready, else its useful tiles; the same copies left, with the
    discarded copy seen), over melds, fours, both seven-pairs rules, several rule sets' shapes and tile
    kinds."""
    rng = random.Random(20261206)
    shape_sets: tuple[frozenset[ShapeKind] | None, ...] = (
        None, frozenset(ShapeKind), frozenset({ShapeKind.STANDARD}),
        frozenset({ShapeKind.STANDARD, ShapeKind.SEVEN_PAIRS}),
        frozenset({ShapeKind.STANDARD, ShapeKind.KNITTED_STRAIGHT, ShapeKind.HONORS_KNITTED}))
    seen_shanten: set[int] = set()
    fours = melded = options = 0
    for _ in range(1500):
        n_melds = rng.choice((0, 0, 0, 1, 2))
        melds = [pung(t) if rng.random() < 0.7 else kong(t) for t in rng.sample(range(NUM_KINDS), n_melds)]
        held = [t for m in melds for t in m.tiles]
        tiles = random_concealed(rng, 14 - 3 * n_melds)
        if rng.random() < 0.2:  # a four in hand
            t = rng.choice(tiles)
            tiles = [x for x in tiles if x != t][:10 - 3 * n_melds] + [t] * 4
            tiles += rng.sample(WALL, 14 - 3 * n_melds - len(tiles))
        if len(tiles) != 14 - 3 * n_melds or max(to_counts(tiles + held)) > 4:
            continue
        shapes, quads = rng.choice(shape_sets), rng.random() < 0.5
        kinds = frozenset(range(27)) if rng.random() < 0.2 else analysis._ALL_KINDS
        hand = make_hand(tiles, melds, sizes=(14,))
        visible = unseen(rng, hand, rng.randint(0, 30))
        a = analysis.analyze(hand, visible, kinds, quads, shapes)
        assert sorted(o.tile for o in a.discards) == sorted(set(tiles))
        fours += max(to_counts(tiles)) == 4
        melded += bool(melds)
        for o in a.discards:
            rest = list(tiles)
            rest.remove(o.tile)
            own = analysis.analyze(make_hand(rest, melds, sizes=(13,)), visible + [o.tile], kinds, quads, shapes)
            assert o.shanten == own.shanten
            assert o.useful_tiles == (own.waits if own.shanten == 0 else own.useful_tiles)
            assert o.useful_count == sum(u.remaining for u in o.useful_tiles)
            seen_shanten.add(o.shanten)
            options += 1
    assert {0, 1, 2, 3} <= seen_shanten and fours > 100 and melded > 300 and options > 10000
