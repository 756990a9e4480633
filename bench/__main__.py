"""`python -m bench [--n N] [--seed S] [--only NAME] [--json]`: run every bench/ops_*.py module.

Prints one table (op, impl, median microseconds, ratio ours / impl) and the targets the op
modules declare; `--json` prints the rows as a JSON list instead. Exit status 0 either way:
timings are information, not a test.
"""

from __future__ import annotations

import argparse
import importlib
import json
import pkgutil
import sys
from types import ModuleType

import bench
from bench import OURS


def op_modules(only: str = "") -> list[ModuleType]:
    """Every `bench.ops_*` module, sorted by name; new op modules are picked up without registration."""
    names = sorted(m.name for m in pkgutil.iter_modules(bench.__path__) if m.name.startswith("ops_"))
    if only:
        names = [n for n in names if n == only or n == f"ops_{only}"]
    return [importlib.import_module(f"bench.{n}") for n in names]


def _ours(rows: list[dict], op: str) -> float | None:
    return next((r["median_us"] for r in rows if r["op"] == op and r["impl"] == OURS), None)


def table(rows: list[dict]) -> str:
    lines = [f"{'op':<22} {'impl':<14} {'median us':>11} {'ours / impl':>12}"]
    for r in rows:
        ours = _ours(rows, r["op"])
        ratio = "" if r["impl"] == OURS or not ours else f"{ours / r['median_us']:.3f}"
        lines.append(f"{r['op']:<22} {r['impl']:<14} {r['median_us']:>11.2f} {ratio:>12}")
    return "\n".join(lines)


def target_lines(rows: list[dict], targets: list[tuple]) -> list[str]:
    """A target is (op, impl, max_ratio) or (op, impl, max_ratio, our_impl): our row (`mjsvc` unless
    named) must take at most max_ratio x impl's time."""
    out = []
    for op, impl, max_ratio, *named in targets:
        mine = named[0] if named else OURS
        ours = next((r["median_us"] for r in rows if r["op"] == op and r["impl"] == mine), None)
        theirs = next((r["median_us"] for r in rows if r["op"] == op and r["impl"] == impl), None)
        label = f"target {op}: {'ours' if mine == OURS else mine} <= {max_ratio:g} x {impl}"
        if ours is None or theirs is None:
            out.append(f"{label}: not measured")
            continue
        ok = ours <= max_ratio * theirs
        out.append(f"{label}: {ours:.2f} vs {max_ratio * theirs:.2f} us -> {'met' if ok else 'MISSED'}")
    return out


def engine_form() -> str:
    """Which form of the engine the rows measured (setup.py compiles the hot modules with mypyc)."""
    import engine

    compiled = engine.compiled_modules()
    if not compiled:
        return "engine: Python source (no compiled module loaded)"
    return f"engine: {len(compiled)} modules compiled by mypyc ({', '.join(compiled)})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=400, help="hands per op (default 400)")
    parser.add_argument("--seed", type=int, default=20240601, help="seed of the random hands")
    parser.add_argument("--only", default="", help="run one op module, e.g. engine or ops_engine")
    parser.add_argument("--json", action="store_true", help="print the rows as a JSON list")
    args = parser.parse_args(argv)
    rows: list[dict] = []
    targets: list[tuple] = []
    modules = op_modules(args.only)
    if not modules:
        print(f"no op module matches {args.only!r}", file=sys.stderr)
        return 2
    notes: list[str] = []
    for module in modules:
        rows.extend(module.rows(args.n, args.seed))
        targets.extend(getattr(module, "TARGETS", ()))
        if hasattr(module, "notes"):  # figures that are not timings (table sizes)
            notes.extend(module.notes())
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    print(engine_form())
    print(table(rows))
    for line in target_lines(rows, targets):
        print(line)
    for line in notes:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
