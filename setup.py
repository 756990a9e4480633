"""Builds the engine's hot modules with mypyc: the same Python source, compiled to C extension
modules, about 2.5x faster cold evaluations and 2x faster analyses (README "Speed"); and, in the same
group, the service's conversion layer (mjsvc.convert, .wire, .limits: a third off a call that reaches
the engine, docs/performance.md). The source stays plain Python and runs as it is: set
MJSVC_PURE_PYTHON=1 to install without compiling (no C compiler needed then).

Everything the build makes lands inside the packages it belongs to, so every installed entry point
works from any working directory (DESIGN.md, "The installed form"):
- mypyc's shared runtime is the module `engine._native__mypyc` (the group name is dotted). One quirk
  of mypyc's runtime with a dotted group: a compiled module first imported by another compiled module
  gets a derived `__file__` one `engine/` too deep. Nothing in the engine reads `__file__` of a compiled
  module; find a module's file with `importlib.machinery.PathFinder.find_spec(name, package.__path__)`.
- the protobuf and gRPC modules are generated from proto/ into mjsvc/gen/ before the packages are
  collected (setup() below), so `pip install .` and `pip wheel .` from a fresh clone carry them.
- the per-suit tables file `engine/tables/suits.bin` (engine/tables) is computed after the engine is
  compiled, by the compiled engine itself (`python -m tablebuild`, the build code beside the engine):
  into the build tree for a regular install or wheel (so it is installed inside the package), in place for `make`
  (`build_ext --inplace`). A file whose recorded source digest is current is kept (or copied from the
  source tree), so only a change to the modules the tables come from rebuilds it. Beside it the builder
  writes the build stamp `engine/tables/built.py` (the file's source digests as constants: no process
  hashes sources at import).
"""

import os
import runpy
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build import build
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent

# The modules every Evaluate and Analyze runs through. Left out: hand.py and tiles.py, which validate
# whatever a caller passes (a compiled signature would raise TypeError before the check could name the
# field); errors.py (mypyc does not keep its classes' class attributes); the CLI, the front door
# (api.py) and package __init__s; the fan tables (rules/model.py and each rule set's catalogue: data built
# once at import, with IntEnum ids and dataclass rows that compiled code reads as plain ints and objects;
# hk: fans.py, and options.py whose options dataclass extends the interpreted model).
COMPILED = [
    "engine/tile_kinds.py",
    "engine/shapes.py",
    "engine/memo.py",
    "engine/results.py",
    "engine/analysis.py",
    "engine/wildcards.py",
    "engine/rules/principles.py",
    "engine/rules/mcr/facts.py",
    "engine/rules/mcr/predicates.py",
    "engine/rules/mcr/scoring.py",
    "engine/rules/riichi/facts.py",
    "engine/rules/riichi/context.py",
    "engine/rules/riichi/predicates.py",
    "engine/rules/riichi/fu.py",
    "engine/rules/riichi/payments.py",
    "engine/rules/riichi/scoring.py",
    "engine/rules/sichuan/facts.py",
    "engine/rules/sichuan/predicates.py",
    "engine/rules/sichuan/context.py",
    "engine/rules/sichuan/payments.py",
    "engine/rules/sichuan/scoring.py",
    "engine/tables/format.py",
    "engine/tables/loader.py",
    "engine/rules/hk/facts.py",
    "engine/rules/hk/predicates.py",
    "engine/rules/hk/scoring.py",
    "engine/referee.py",
    "engine/rules/riichi/referee.py",
    # the service's conversion layer: protobuf messages to engine values and results to wire bytes, on
    # every call that reaches the engine (docs/performance.md, "Compiled conversion")
    "mjsvc/convert.py",
    "mjsvc/wire.py",
    "mjsvc/limits.py",
]
TABLES = Path("engine") / "tables" / "suits.bin"


def generate_protobuf_modules() -> None:
    """mjsvc/gen from proto/ (mjsvc/protogen.py, run from this tree). It runs before setup() so that the
    package search finds mjsvc.gen; grpcio-tools is a build requirement."""
    if (HERE / "proto").is_dir():
        runpy.run_path(str(HERE / "mjsvc" / "protogen.py"))["generate"]()



def write_suit_tables(root: Path) -> None:
    """engine/tables/suits.bin under `root` (a build tree or this source tree), computed by the engine
    found there (compiled if it was built), unless a current one is there already."""
    target = root / TABLES
    source = HERE / TABLES
    env = dict(os.environ, PYTHONPATH=str(root))
    current = [sys.executable, "-c", "import sys; from tablebuild import builder; "
               "sys.exit(0 if builder.is_current(sys.argv[1]) else 1)"]
    if root != HERE and not target.exists() and source.exists() and \
            subprocess.call(current + [str(source)], cwd=root, env=env) == 0:
        shutil.copyfile(source, target)
        print(f"suit tables: copied the current {source}")
    # builds the file unless it is current, and writes the build stamp beside it (engine/tables/built.py)
    subprocess.check_call([sys.executable, "-m", "tablebuild", str(target), "--if-stale"], cwd=root, env=env)


class BuildWithTables(build):
    """`build` (regular installs, wheels): the tables file goes into the build tree, after the engine
    is compiled there."""

    def run(self) -> None:
        super().run()
        write_suit_tables(Path(self.build_lib).resolve())


class BuildExtWithTables(build_ext):
    """`build_ext --inplace` (make) and an editable install that compiles (`pip install -e .`): the
    tables file goes beside the sources, after the compile."""

    def run(self) -> None:
        super().run()
        if self.inplace or getattr(self, "editable_mode", False):
            write_suit_tables(HERE)


generate_protobuf_modules()
ext_modules = []
if os.environ.get("MJSVC_PURE_PYTHON", "") not in ("1", "true", "yes"):
    from mypyc.build import mypycify

    ext_modules = mypycify(COMPILED, opt_level="3", group_name="engine._native")

setup(ext_modules=ext_modules, cmdclass={"build": BuildWithTables, "build_ext": BuildExtWithTables})
