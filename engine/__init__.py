"""mjsvc's rules engine: pure Python, stateless, thread-safe. No I/O, no gRPC.

The build (setup.py) compiles the hot modules from this same source with mypyc; the source runs as
it is wherever they are not built. `MJSVC_PURE_PYTHON=1` in the environment makes a process load the
Python source even where compiled modules sit beside it (the tests check both give the same answers;
profilers such as py-spy only see into the source).
"""

from __future__ import annotations

import os
import sys
from importlib import machinery
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec, PathFinder, SourceFileLoader
from importlib.util import spec_from_file_location
from types import ModuleType


def pure_python_requested() -> bool:
    return os.environ.get("MJSVC_PURE_PYTHON", "").lower() in ("1", "true", "yes")


_EXTENSIONS = tuple(machinery.EXTENSION_SUFFIXES)  # a copy: the engine keeps no mutable globals


class SourceFirst(MetaPathFinder):
    """Finds the modules of one package as usual, but loads a compiled one from the .py file beside it."""

    def __init__(self, package: str) -> None:
        self.package = package

    def find_spec(self, name: str, path: object = None, target: ModuleType | None = None) -> ModuleSpec | None:
        if not name.startswith(self.package + "."):
            return None
        spec = PathFinder.find_spec(name, path, target)  # type: ignore[arg-type]
        origin = spec.origin if spec is not None else None
        if origin is None or not origin.endswith(_EXTENSIONS):
            return spec
        source = origin[: origin.index(".", origin.rindex(os.sep))] + ".py"
        if not os.path.exists(source):  # mypyc's shared runtime (engine._native__mypyc) has no source
            return spec
        return spec_from_file_location(name, source, loader=SourceFileLoader(name, source))


def prefer_source(package: str) -> None:
    """Under MJSVC_PURE_PYTHON=1, load `package`'s compiled modules from their Python source (once per
    package). The engine does so for itself here; a package that has modules compiled in the same build
    (the service's conversion layer) calls it from its own `__init__`."""
    if pure_python_requested() and not any(isinstance(f, SourceFirst) and f.package == package
                                           for f in sys.meta_path):
        sys.meta_path.insert(0, SourceFirst(package))


prefer_source(__name__)


def compiled_modules(package: str = __name__) -> list[str]:
    """The modules of `package` (the engine unless named) this process runs compiled (empty: all of it runs as
    Python source). mypyc's shared runtime, `engine._native__mypyc`, is not one of them."""
    return sorted(name for name, module in list(sys.modules.items())
                  if name.startswith(package + ".") and not name.endswith("__mypyc")
                  and str(getattr(module, "__file__", "")).endswith(_EXTENSIONS))
