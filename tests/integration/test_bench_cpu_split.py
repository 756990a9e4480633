"""`python -m bench.cpu_split` reads where a live server's CPU goes with Linux's perf. Timings are information,
not a test: this checks that perf's output is read right (a sample's library, thread and loopback delivery)
and that a short real run attributes each server's CPU where that server's code runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bench.cpu_split import GROUPS, group, parse_script, perf_available, switches

pytestmark = pytest.mark.integration

# perf script -F tid,period,ip,sym,dso, call chains recorded: three samples as perf 6.1 prints them
SCRIPT = """\
 8574     200040
\tffffffff813aeb13 finish_task_switch.isra.0 ([kernel.kallsyms])
\tffffffff82246c44 __schedule ([kernel.kallsyms])
\t          108f36 epoll_wait (/usr/lib/x86_64-linux-gnu/libc.so.6)

 8567     300060
\t           23190 upb_FieldDef_IsRepeated (/venv/site-packages/google/_upb/_message.abi3.so)

 8567     200040
\tffffffff81f8e2a1 _raw_spin_unlock_irqrestore ([kernel.kallsyms])
\tffffffff81d1b5e0 sock_def_readable ([kernel.kallsyms])
\tffffffff81d9a1b0 tcp_v4_rcv ([kernel.kallsyms])
\tffffffff81d4c2a0 process_backlog ([kernel.kallsyms])
\tffffffff81d4d0e0 __dev_queue_xmit ([kernel.kallsyms])
\t          12ab40 __libc_sendmsg (/usr/lib/x86_64-linux-gnu/libc.so.6)

"""


def test_parse_script_reads_each_sample_library_thread_and_delivery() -> None:
    assert parse_script(SCRIPT) == [(8574, 200040, "[kernel.kallsyms]", False),
                                    (8567, 300060, "_message.abi3.so", False),
                                    (8567, 200040, "[kernel.kallsyms]", True)]
    assert parse_script("") == []


def test_switches_counts_the_main_thread_and_the_others_apart() -> None:
    slept, done = threading.Event(), threading.Event()

    def other() -> None:
        for _ in range(5):
            time.sleep(0.002)  # each sleep gives the CPU up: a voluntary switch of this thread
        slept.set()
        done.wait()

    main0, others0 = switches([os.getpid()])
    worker = threading.Thread(target=other)
    worker.start()
    for _ in range(30):
        time.sleep(0.002)
    slept.wait()
    main1, others1 = switches([os.getpid()])  # the other thread still alive, its count in /proc
    done.set()
    worker.join()
    assert main1 - main0 >= 30, (main0, main1)
    assert 5 <= others1 - others0 < 30, (others0, others1)


@pytest.mark.parametrize(("dso", "expected"), [
    ("[kernel.kallsyms]", "kernel"), ("[vdso]", "kernel"),
    ("cygrpc.cpython-311-x86_64-linux-gnu.so", "gRPC core"),
    ("loop.cpython-311-x86_64-linux-gnu.so", "event loop"),
    ("libpython3.11.so.1.0", "Python interpreter"), ("_asyncio.cpython-311-x86_64-linux-gnu.so", "Python interpreter"),
    ("_native__mypyc.cpython-311-x86_64-linux-gnu.so", "compiled engine and conversion"),
    ("_message.abi3.so", "protobuf"),
    ("libc.so.6", "C library"), ("ld-linux-x86-64.so.2", "C library"), ("libstdc++.so.6.0.30", "C library"),
    ("libcrypto.so.3", "other"), ("[unknown]", "other"),
])
def test_each_library_falls_in_its_group(dso: str, expected: str) -> None:
    assert group(dso) == expected


def test_a_short_run_puts_each_server_cpu_where_its_code_runs(tmp_path: Path) -> None:
    why = perf_available()
    if why:
        pytest.skip(why)
    out = tmp_path / "split.json"
    proc = subprocess.run([sys.executable, "-m", "bench.cpu_split", "--rounds", "1", "--duration", "0.6",
                           "--warmup", "0.3", "--out", str(out)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    rep = json.loads(out.read_text())
    compiled = rep["engine"] == "compiled where built" and any(
        p.name.startswith("_native__mypyc") for p in (Path(__file__).resolve().parents[2] / "engine").iterdir())
    assert set(rep["cases"]) == {"evaluate", "analyze14", "evaluate unary"}, rep["cases"]
    for case in rep["cases"]:
        floor, hit, engine = (rep["cases"][case][s] for s in ("floor", "hit", "engine"))
        for name, row in (("floor", floor), ("hit", hit), ("engine", engine)):
            assert row["us_per_message"] > 0, (case, name, row)
            assert set(row["by_group_us"]) == set(GROUPS), row
            # the groups share out the whole, as do the two kinds of thread
            assert abs(sum(row["by_group_us"].values()) - row["us_per_message"]) <= 0.1 * len(GROUPS), row
            assert abs(row["event_loop_thread_us"] + row["helper_threads_us"] - row["us_per_message"]) <= 0.2, row
            assert 0 <= row["loopback_delivery_us"] <= row["by_group_us"]["kernel"], row
            assert min(row["switches_per_message"].values()) >= 0, row
        # the floor parses nothing and runs no engine; a server with the cache off runs both on every message
        assert floor["by_group_us"]["protobuf"] < engine["by_group_us"]["protobuf"], (floor, engine)
        assert floor["by_group_us"]["compiled engine and conversion"] <= 0.5, floor
        if compiled:
            assert engine["by_group_us"]["compiled engine and conversion"] > 1.0, engine
        assert engine["by_group_us"]["kernel"] > 0 and engine["by_group_us"]["gRPC core"] > 0, engine
    assert "kernel: loopback delivery" in proc.stdout, proc.stdout
