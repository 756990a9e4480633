"""The test tiers (docs/correctness.md): tests/unit (no process, no network), tests/integration (real servers,
console scripts, clients), tests/slow (the fleet, the image, the README on a fresh clone). The harnesses and
case readers they share are in tests/support, importable by name from every tier."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "support"))
