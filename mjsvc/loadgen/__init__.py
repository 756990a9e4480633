"""The table simulator, `mjsvc loadgen`: simulated MCR tables play real games against a server.

- `simulation`: the game each table plays (seeded walls, draws, discards by the server's advice, claims),
  the pacing of an offered load, and a run of many tables (`Config`, `run_async`, `run_config`);
- `table`: what every table shares (its client, each call timed and counted, the loop over games);
  `referee_game`: tables refereed by the server through Legal and Settle (`--game riichi|sichuan`);
- `transport`: one unary client or one `Play` stream per table, on channels with the published service
  config;
- `report`: what a run measures (latencies per call and per second, errors, games) and how it prints;
- `cli`: the command line and the ghz request data a run can write.

A fresh local server for a run comes from `mjsvc.launcher`, the launcher the tests and benchmarks use too.
"""

from __future__ import annotations

from mjsvc.loadgen.cli import HELP, RequestSampler, add_arguments, config_from_args, main, run, write_request_files
from mjsvc.loadgen.report import Stats, format_report, percentile, summary_ms
from mjsvc.loadgen.simulation import Config, Table, claimed_from, run_async, run_config
from mjsvc.loadgen.table import Pacer, RunState
from mjsvc.loadgen.transport import SANITY, CallFailed, StreamClient, UnaryClient, Unreachable, make_channel

__all__ = ["HELP", "SANITY", "CallFailed", "Config", "Pacer", "RequestSampler", "RunState", "Stats", "StreamClient",
           "Table", "UnaryClient", "Unreachable", "add_arguments", "claimed_from", "config_from_args", "format_report",
           "main", "make_channel", "percentile", "run", "run_async", "run_config", "summary_ms", "write_request_files"]
