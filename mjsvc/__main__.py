"""`mjsvc` command line: one subcommand per module.

A subcommand module exposes `HELP` (one line), `add_arguments(parser)` and `run(args) -> int`.
Registering one is a single line in `SUBCOMMANDS`; modules are imported only to build the parser,
so they keep heavy imports (grpc, prometheus_client, the engine) inside `run`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib import import_module

SUBCOMMANDS: dict[str, str] = {
    "serve": "mjsvc.serve",
    "batch": "mjsvc.batch",
    "loadgen": "mjsvc.loadgen",
}


def build_parser() -> tuple[argparse.ArgumentParser, dict[str, object]]:
    parser = argparse.ArgumentParser(prog="mjsvc", description="Mahjong rules engine service")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    modules: dict[str, object] = {}
    for name, module_name in SUBCOMMANDS.items():
        try:
            module = import_module(module_name)
        except ModuleNotFoundError as err:
            if err.name != module_name:
                raise
            continue  # a subcommand registered before its module landed
        modules[name] = module
        p = sub.add_parser(name, help=module.HELP, description=module.HELP,
                           formatter_class=argparse.ArgumentDefaultsHelpFormatter)
        module.add_arguments(p)
    return parser, modules


def main(argv: Sequence[str] | None = None) -> int:
    parser, modules = build_parser()
    args = parser.parse_args(argv)
    return int(modules[args.command].run(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
