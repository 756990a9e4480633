"""The engine as built: the modules setup.py compiles are the ones this process runs (or none, under
MJSVC_PURE_PYTHON=1), a compiled module is never older than its source, and the compiled forms keep
the Python semantics the rest of the code relies on (pickling, frozen values, dataclass helpers)."""

from __future__ import annotations

import copy
import dataclasses
import os
import pickle
import re
import sys
from importlib.machinery import PathFinder
from pathlib import Path

import pytest

import engine
from engine import api
from engine.errors import BadContextError, BadMeldError
from engine.hand import MeldKind, WinContext, Wind, make_meld, validate_context, winning_hand
from engine.tiles import parse_tile, parse_tiles

ROOT = Path(__file__).resolve().parents[2]
COMPILED = re.findall(r'"((?:engine|mjsvc)/[\w/]+\.py)"', (ROOT / "setup.py").read_text())


def _load_all() -> None:
    for path in COMPILED:
        __import__(path[:-3].replace("/", "."))


def _running() -> set[str]:
    return set(engine.compiled_modules()) | set(engine.compiled_modules("mjsvc"))


def test_setup_compiles_the_scoring_path_and_the_conversion_layer() -> None:
    assert "engine/shapes.py" in COMPILED and "engine/rules/mcr/scoring.py" in COMPILED
    assert {"mjsvc/convert.py", "mjsvc/wire.py", "mjsvc/limits.py"} <= set(COMPILED)
    assert all((ROOT / path).exists() for path in COMPILED)


def test_the_process_runs_what_was_built() -> None:
    _load_all()
    running = _running()
    built = {p[:-3].replace("/", ".") for p in COMPILED
             if any((ROOT / p).parent.glob(Path(p).stem + ".cpython-*.so"))}
    if engine.pure_python_requested():
        assert running == set()
    else:
        assert running == built


def test_no_compiled_module_is_older_than_its_source() -> None:
    _load_all()
    for name in sorted(_running()):
        # Found by the path finder, not through __file__: a compiled module first imported by another compiled
        # module gets a __file__ derived by mypyc's runtime, misplaced under a dotted group name (setup.py).
        package, _, _ = name.rpartition(".")
        spec = PathFinder.find_spec(name, sys.modules[package].__path__)
        assert spec is not None and spec.origin is not None
        built = spec.origin
        source = Path(built.split(".cpython")[0] + ".py")
        assert os.path.getmtime(built) >= os.path.getmtime(source), (
            f"{name}: the compiled module is older than {source.name}; run make (it rebuilds)")


def _evaluation() -> object:
    hand = winning_hand(parse_tiles("123m456p789s1z"), [make_meld(MeldKind.PUNG, (33,) * 3)], parse_tile("1z"))
    return api.evaluate(hand, WinContext(self_drawn=True, seat_wind=Wind.EAST))


def test_results_pickle_copy_and_stay_frozen() -> None:
    result = _evaluation()
    assert pickle.loads(pickle.dumps(result)) == result
    assert copy.deepcopy(result) == result
    best = result.best  # type: ignore[attr-defined]
    assert dataclasses.replace(best, total=1).total == 1
    assert dataclasses.asdict(result)["best"]["total"] == best.total
    with pytest.raises(dataclasses.FrozenInstanceError):
        best.total = 1


def test_a_wind_given_as_a_number_is_that_wind() -> None:
    ctx = WinContext(seat_wind=2, prevalent_wind=3)  # type: ignore[arg-type]
    assert (ctx.seat_wind, ctx.prevalent_wind) == (Wind.WEST, Wind.NORTH)
    assert type(ctx.seat_wind) is Wind


@pytest.mark.parametrize("flag", ["self_drawn", "last_wall_tile", "heavenly"])
@pytest.mark.parametrize("value", [1, 0, "yes", None])
def test_a_flag_that_is_not_a_bool_is_bad_context(flag: str, value: object) -> None:
    hand = winning_hand(parse_tiles("123m456p789s11z22z"), [], parse_tile("2z"))
    with pytest.raises(BadContextError, match=flag):
        validate_context(WinContext(**{flag: value}), hand)  # type: ignore[arg-type]
    with pytest.raises(BadContextError):
        api.evaluate(hand, WinContext(**{flag: value}))  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["concealed", "added"])
def test_a_meld_flag_that_is_not_a_bool_is_bad_meld(name: str) -> None:
    with pytest.raises(BadMeldError, match=name):
        make_meld(MeldKind.KONG, (5,) * 4, **{name: 1})  # type: ignore[arg-type]


def test_code_generation_is_a_build_requirement_not_a_runtime_one() -> None:
    """grpcio-tools generates mjsvc/gen at build time (setup.py, make proto); an installed service never imports
    it, so it is a build requirement and a development extra, not a dependency of the wheel."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert not [d for d in project["project"]["dependencies"] if d.startswith("grpcio-tools")]
    assert [d for d in project["build-system"]["requires"] if d.startswith("grpcio-tools")]
    assert [d for d in project["project"]["optional-dependencies"]["dev"] if d.startswith("grpcio-tools")]
    runtime = [p for p in (ROOT / "mjsvc").rglob("*.py") if "gen" not in p.parts and p.name != "protogen.py"]
    assert not [p for p in runtime if "grpc_tools" in p.read_text()]


def test_the_wheel_holds_engine_mjsvc_and_tablebuild_only() -> None:
    """bench/ and tests/ run from a checkout; the installed packages are the engine, the service and the
    tables file's build code (run by the install, and by the service where the file is missing), and none
    imports bench."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["tool"]["setuptools"]["packages"]["find"]["include"] == ["engine*", "mjsvc*", "tablebuild*"]
    runtime = [p for d in ("engine", "mjsvc", "tablebuild") for p in (ROOT / d).rglob("*.py") if "gen" not in p.parts]
    assert not [p for p in runtime if "from bench" in p.read_text() or "import bench" in p.read_text()]


def test_the_licence_is_an_spdx_expression_that_the_build_reads_without_a_warning() -> None:
    """PEP 639: `project.license` is an SPDX expression (the table form makes setuptools warn at every install
    that it is deprecated), which setuptools reads from 77 on, so the build requires that."""
    import re
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["license"] == "LicenseRef-Proprietary"
    floors = [re.fullmatch(r"setuptools>=(\d+)", r) for r in project["build-system"]["requires"]]
    assert [int(m.group(1)) for m in floors if m] and all(int(m.group(1)) >= 77 for m in floors if m)
