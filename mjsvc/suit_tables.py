"""The engine's per-suit tables file as `mjsvc serve` meets it (engine/tables).

The build puts `suits.bin` inside the installed engine package, and every worker maps it read-only
(one physical copy for all of them). `prepare` runs in the supervisor before any worker starts: it logs
which file the workers will map; when the package has none (a source tree that was never built, a
damaged file), it builds one once into a cache directory (`$MJSVC_CACHE_DIR`, else
`$XDG_CACHE_HOME/mjsvc` or `~/.cache/mjsvc`), named by the digest of the sources it comes from, and
points the workers at it through `MJSVC_SUIT_TABLES`. An explicit `MJSVC_SUIT_TABLES` is left alone.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import time

log = logging.getLogger("mjsvc.suit_tables")


def cache_dir() -> str:
    explicit = os.environ.get("MJSVC_CACHE_DIR")
    if explicit:
        return explicit
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "mjsvc")


def prepare() -> str:
    """Make sure the workers find a tables file; returns the log line that says which (or why none)."""
    from engine import tables
    from engine.tables.loader import ENV
    from tablebuild import builder

    if tables.TABLES is not None or os.environ.get(ENV):
        line = tables.status()
        (log.info if tables.TABLES is not None else log.warning)(line)
        return line
    path = os.path.join(cache_dir(), f"suits-{builder.source_digest()[:16]}.bin")
    if not builder.is_current(path):
        log.warning("suit tables: %s; building them once into %s (a minute or two; workers start after)",
                    tables.PROBLEM, path)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        t0 = time.monotonic()
        done = subprocess.run([sys.executable, "-m", "tablebuild", path],
                              env=dict(os.environ, **{ENV: "off"}), capture_output=True, text=True)
        if done.returncode != 0:
            line = f"suit tables: building {path} failed; workers answer by search ({done.stderr.strip()[-300:]})"
            log.error(line)
            return line
        log.info("suit tables: built %s in %.1f s", path, time.monotonic() - t0)
    os.environ[ENV] = path  # inherited by the spawned workers
    line = f"suit tables: workers map {path} read-only"
    log.info(line)
    return line
