"""The one exclusion mechanism every rule set uses (compiled with mypyc: setup.py COMPILED).

Given what a decomposition's predicates found, `{fan id: [occurrence, ...]}` (an occurrence is the
tuple of set indices it was scored on, or an object whose sets `sets_of` returns), `Principles.apply`
says which occurrences count:

1. highest first: fans are visited from the highest value down (then by id), so an excluding fan is
   always met before what it excludes; a fan that was itself excluded excludes nothing;
2. non-repeat, outright: a counted fan removes every fan in its row's `excludes`;
3. non-repeat, per set: a counted fan removes the occurrences of its `excludes_on_sets` fans that lie
   inside its own sets (a fan scored on no set removes none this way);
4. account-once (only when a `Forest` is given, for rows marked `combo`): an occurrence is admitted
   only if its sets are not yet joined to each other by an earlier combination, so the counted
   combinations form a forest over the sets.

A fan whose occurrences were all removed by 3 or 4 is not counted and excludes nothing. The answer
lists the counted fans in id order. Exclusions are data (engine.rules.model.FanRow); no rule set writes
its own mechanism.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any


class Forest:
    """Union-find over set indices for the account-once principle."""

    def __init__(self, n: int) -> None:
        self.parent: list[int] = list(range(n))

    def root(self, i: int) -> int:
        parent = self.parent
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def admit(self, sets: tuple[int, ...]) -> bool:
        """Join `sets` if none of them is joined to another yet; False (nothing joined) otherwise."""
        roots = [self.root(i) for i in sets]
        if len(set(roots)) != len(roots):
            return False
        for r in roots[1:]:
            self.parent[r] = roots[0]
        return True


class Principles:
    """The exclusion tables of one fan table, precomputed (bit masks), and the mechanism that applies them.

    `rows`: the table's rows (engine.rules.model.FanRow: id, value, excludes, excludes_on_sets, combo).
    """

    def __init__(self, rows: Sequence[Any]) -> None:
        ordered = sorted(rows, key=lambda r: (-r.value, int(r.id)))
        self.order: list[int] = [int(r.id) for r in ordered]
        self.rank: dict[int, int] = {fid: n for n, fid in enumerate(self.order)}
        self.value: dict[int, int] = {int(r.id): r.value for r in rows}
        self.exclude_bits: dict[int, int] = {}
        self.on_sets: dict[int, tuple[int, ...]] = {}
        combo: set[int] = set()
        for r in rows:
            bits = 0
            for x in r.excludes:
                bits |= 1 << int(x)
            self.exclude_bits[int(r.id)] = bits
            if r.excludes_on_sets:
                self.on_sets[int(r.id)] = tuple([int(x) for x in r.excludes_on_sets])
            if r.combo:
                combo.add(int(r.id))
        self.combo: frozenset[int] = frozenset(combo)
        # The same tables as lists indexed by fan id, which `apply` reads (a list read costs less than a
        # dict look-up and a flag per id less than a bit of a wide int).
        size = max([int(r.id) for r in rows], default=-1) + 1
        self._rank_of: list[int] = [-1] * size
        self._excludes_of: list[tuple[int, ...]] = [()] * size
        self._on_sets_of: list[tuple[int, ...]] = [()] * size
        self._combo_of: list[bool] = [False] * size
        for r in rows:
            fid = int(r.id)
            self._rank_of[fid] = self.rank[fid]
            self._excludes_of[fid] = tuple([int(x) for x in r.excludes])
            self._on_sets_of[fid] = self.on_sets.get(fid, ())
            self._combo_of[fid] = fid in combo
        self._size = size

    def apply(self, raw: dict[int, list[Any]], forest: Forest | None = None,
              sets_of: Callable[[Any], tuple[int, ...]] | None = None) -> dict[int, list[Any]]:
        """The occurrences that count, by fan id in id order (see the module docstring).

        `sets_of`: how to read an occurrence's set indices (None: the occurrence is that tuple).
        """
        excluded = [False] * self._size  # per fan id
        fenced: dict[int, list[set[int]]] | None = None  # victim fan id -> the set groups it may not lie in
        counted: dict[int, list[Any]] = {}  # built in rank order: id order but where a lower value has a lower id
        in_id_order = True
        last = -1
        rank_of = self._rank_of
        ranks = [rank_of[fid] for fid in raw]
        ranks.sort()  # a plain sort of ints: one C call once compiled
        order = self.order
        excludes_of = self._excludes_of
        on_sets_of = self._on_sets_of
        combo_of = self._combo_of
        for r in ranks:
            fid = order[r]
            if excluded[fid]:
                continue
            hits = raw[fid]
            if fenced is not None and fid in fenced:
                groups = fenced[fid]
                hits = [h for h in hits if not _inside(h if sets_of is None else sets_of(h), groups)]
            if forest is not None and combo_of[fid]:
                hits = [h for h in hits if forest.admit(h if sets_of is None else sets_of(h))]
            if not hits:
                continue
            counted[fid] = hits
            if fid < last:
                in_id_order = False
            last = fid
            for x in excludes_of[fid]:
                excluded[x] = True
            victims = on_sets_of[fid]
            if victims:
                covered: set[int] = set()
                for h in hits:
                    covered.update(h if sets_of is None else sets_of(h))
                if fenced is None:
                    fenced = {}
                for victim in victims:
                    if victim in fenced:
                        fenced[victim].append(covered)
                    else:
                        fenced[victim] = [covered]
        if in_id_order:
            return counted
        return {fid: counted[fid] for fid in sorted(counted)}


def _inside(sets: tuple[int, ...], groups: list[set[int]]) -> bool:
    """Do all of `sets` lie inside one of `groups`?"""
    for g in groups:
        inside = True
        for i in sets:
            if i not in g:
                inside = False
                break
        if inside:
            return True
    return False
