"""The integration tests start the product through `mjsvc.launcher`: the installed `mjsvc` console script,
from a temporary directory, with a clean environment, on free ports."""

from __future__ import annotations

from pathlib import Path

from mjsvc.launcher import ServerProcess, free_port

ROOT = Path(__file__).resolve().parents[2]

__all__ = ["ROOT", "ServerProcess", "free_port"]
