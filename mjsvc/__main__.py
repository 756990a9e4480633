"""`mjsvc` command line: one subcommand per module.

A subcommand module exposes `HELP` (one line), `add_arguments(parser)` and `run(args) -> int`.
Registering one is a single line in `SUBCOMMANDS`. Only the chosen subcommand's module is
imported, so `mjsvc serve`'s supervisor never loads grpc or the engine through `loadgen`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib import import_module
from typing import Any

# name -> module; the module's HELP is read only when it is imported (see `build_parser`)
SUBCOMMANDS: dict[str, str] = {
    "serve": "mjsvc.serve",
    "batch": "mjsvc.batch",
    "loadgen": "mjsvc.loadgen",
    "web": "mjsvc.web",
}


def build_parser(chosen: str | None) -> tuple[argparse.ArgumentParser, Any]:
    """The parser, with full arguments for `chosen` only. With none chosen (`mjsvc --help`), every module
    is imported for its HELP line, but no command's arguments are built: they are not shown, and building
    them reads each command's environment variables, so one command's bad variable would stop them all."""
    parser = argparse.ArgumentParser(prog="mjsvc", description="Mahjong rules engine service")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    chosen_module = None
    for name, module_name in SUBCOMMANDS.items():
        if chosen in SUBCOMMANDS and name != chosen:
            sub.add_parser(name)  # listed so argparse knows it; its arguments are not needed now
            continue
        module = import_module(module_name)
        p = sub.add_parser(name, help=module.HELP, description=module.HELP,
                           formatter_class=argparse.ArgumentDefaultsHelpFormatter)
        if name == chosen:
            module.add_arguments(p)
            chosen_module = module
    return parser, chosen_module


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    chosen = next((a for a in argv if not a.startswith("-")), None)
    parser, module = build_parser(chosen)
    args = parser.parse_args(argv)
    return int(module.run(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
