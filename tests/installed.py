"""The product as a user runs it: the installed console scripts and interpreter of this venv, started from a
temporary working directory with a clean environment (no PYTHONPATH, nothing of the test run's own).

Tests start `mjsvc serve|batch|loadgen` and `python -m engine` through these, never with `python -m` from the
repository root, where the current directory on sys.path could hide a packaging fault (issue #10).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

BIN = Path(sys.executable).parent
# Variables a user's shell has; everything else of the test run's environment is left behind.
_KEPT = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "TERM", "USER")
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
    env = {k: v for k, v in os.environ.items() if k in _KEPT}
    env.setdefault("PATH", "/usr/local/bin:/usr/bin:/bin")
    if os.environ.get("MJSVC_PURE_PYTHON"):  # the test run's chosen engine form carries over
        env["MJSVC_PURE_PYTHON"] = os.environ["MJSVC_PURE_PYTHON"]
    env.update(extra or {})
    return env


def run(argv: Sequence[str], *, env: Mapping[str, str] | None = None, cwd: Path | None = None,
        **kwargs: Any) -> subprocess.CompletedProcess[str]:
    """Run an installed command from the temporary working directory with a clean environment."""
    return subprocess.run(list(argv), cwd=cwd or WORKDIR, env=clean_env(env), text=True, **kwargs)


def popen(argv: Sequence[str], *, env: Mapping[str, str] | None = None, cwd: Path | None = None,
          **kwargs: Any) -> subprocess.Popen[Any]:
    return subprocess.Popen(list(argv), cwd=cwd or WORKDIR, env=clean_env(env), **kwargs)
