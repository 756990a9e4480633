"""Build code for the engine's tables file (`engine/tables/suits.bin`), kept out of the runtime packages.

`python -m tablebuild [PATH] [--if-stale]` runs the engine's own search on every part key and its MCR rules
on every scoring key, and writes the file the engine maps read-only (`engine.tables`). setup.py runs it
after compiling the engine; `mjsvc serve` runs it once into a cache directory when the installed package
has no usable file (`mjsvc.suit_tables`). It imports the engine, internals included (the search it
tabulates); nothing in `engine` imports it.

- `builder`: the file's sections, its header and build stamp, written atomically;
- `sources`: the sources each part of the file is computed from, and their digests;
- `mcr`: the MCR part (the tile fans and combination fans of every key).
"""
