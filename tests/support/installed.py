"""The product as a user runs it: the installed console scripts and interpreter of this venv, started from a
temporary working directory with a clean environment (no PYTHONPATH, nothing of the test run's own).

Tests start `mjsvc serve|batch|loadgen` and `python -m engine` through these, never with `python -m` from the
repository root, where the current directory on sys.path could hide a packaging fault (issue #10).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from mjsvc import launcher

BIN = Path(sys.executable).parent
WORKDIR = Path(tempfile.mkdtemp(prefix="mjsvc-cwd-"))  # empty: nothing importable in it


def script(name: str) -> str:
    """The installed console script `name` (e.g. "mjsvc") of the venv running the tests."""
    path = BIN / name
    if not path.exists():
        raise FileNotFoundError(f"{path}: not installed (run make setup)")
    return str(path)


def python() -> str:
    """The venv's interpreter, by its path in bin/ (as a user types .venv/bin/python)."""
    return str(BIN / "python")


def clean_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """What a user's shell has (and the engine form chosen for the run): the server launcher's rule."""
    return launcher.clean_env(dict(extra or {}))


def run(argv: Sequence[str], *, env: Mapping[str, str] | None = None, cwd: Path | None = None,
        **kwargs: Any) -> subprocess.CompletedProcess[str]:
    """Run an installed command from the temporary working directory with a clean environment."""
    return subprocess.run(list(argv), cwd=cwd or WORKDIR, env=clean_env(env), text=True, **kwargs)


def popen(argv: Sequence[str], *, env: Mapping[str, str] | None = None, cwd: Path | None = None,
          **kwargs: Any) -> subprocess.Popen[Any]:
    return subprocess.Popen(list(argv), cwd=cwd or WORKDIR, env=clean_env(env), **kwargs)
