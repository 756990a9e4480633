"""Configuration of `mjsvc serve`: every setting is a flag, with an environment variable as its default.

Precedence: flag > environment variable > embedded default. The table in docs/serve.md is generated
from `SETTINGS` (`python -m mjsvc.config` prints it).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from mjsvc.cli_types import any_text, from_env, log_level, number, on_off, port, whole


def default_workers() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class ServeConfig:
    host: str = "127.0.0.1"
    port: int = 50051
    metrics_host: str = "127.0.0.1"
    metrics_port: int = 9464
    workers: int = 0  # 0: one per core
    cache_size: int = 65536
    cache_bytes: int = 128 * 1024 * 1024
    max_message_bytes: int = 4 * 1024 * 1024
    max_concurrent_streams: int = 1000
    max_concurrent_rpcs: int = 0
    shed_above: float = 0.0
    max_queued_calls: int = 0
    max_queue_time: int = 0
    max_batch: int = 1000
    stream_rate: float = 1000.0
    stream_burst: int = 0
    max_streams: int = 4096
    stream_idle_timeout: float = 600.0
    tls_cert: str = ""
    tls_key: str = ""
    grace: float = 10.0
    max_connection_age: float = 0.0
    max_connection_age_grace: float = 30.0
    max_connection_idle: float = 0.0
    metrics_dir: str = ""
    log_level: str = "INFO"
    service_class: str = ""
    batch_helper_threads: bool = True

    @property
    def n_workers(self) -> int:
        return self.workers or default_workers()

    @property
    def burst(self) -> int:
        return self.stream_burst or max(1, int(self.stream_rate))


# (field, env var, type, help). The flag is --field-with-dashes; the flag and the variable are read with the type
# (mjsvc/cli_types.py).
SETTINGS: tuple[tuple[str, str, Callable[[str], Any], str], ...] = (
    ("host", "MJSVC_HOST", any_text, "address the gRPC port binds to (0.0.0.0 or [::] to serve other machines)"),
    ("port", "MJSVC_PORT", port, "gRPC port, shared by all workers through SO_REUSEPORT"),
    ("metrics_host", "MJSVC_METRICS_HOST", any_text, "address of the Prometheus /metrics endpoint"),
    ("metrics_port", "MJSVC_METRICS_PORT", port, "port of the Prometheus /metrics endpoint (0: no endpoint)"),
    ("workers", "MJSVC_WORKERS", whole(0), "worker processes (0: one per core available)"),
    ("cache_size", "MJSVC_CACHE_SIZE", whole(0), "response cache entries per worker (0 disables the cache)"),
    ("cache_bytes", "MJSVC_CACHE_BYTES", whole(0),
     "bytes of keys and answers the response cache of a worker may hold (0 disables the cache); the "
     "default keeps a worker well under 512 MB"),
    ("max_message_bytes", "MJSVC_MAX_MESSAGE_BYTES", whole(1),
     "largest response message, in bytes, and a cap on request bodies, which are held to sizes derived from "
     "the field limits (mjsvc/limits.py; an EvaluateBatch of --max-batch requests is the largest, ~2 MB)"),
    ("max_concurrent_streams", "MJSVC_MAX_CONCURRENT_STREAMS", whole(1),
     "HTTP/2 streams (calls) open at once per client connection"),
    ("max_concurrent_rpcs", "MJSVC_MAX_CONCURRENT_RPCS", whole(0),
     "gRPC's own cap on calls in progress per worker, Play streams included, before new ones get "
     "RESOURCE_EXHAUSTED (0: no cap); an open stream holds a slot, so prefer --max-streams for streams and "
     "--shed-above for overload"),
    ("shed_above", "MJSVC_SHED_ABOVE", number(0, 1),
     "busy fraction of a worker's event loop (0-1, e.g. 0.95) at or over which it refuses a growing share of "
     "new unary calls at once with RESOURCE_EXHAUSTED (OVERLOADED), up to 90%, and a shrinking one below it "
     "(0: never shed); Play messages are not shed"),
    ("max_queued_calls", "MJSVC_MAX_QUEUED_CALLS", whole(0),
     "calls a worker holds waiting for its event loop (received, not yet started) before gRPC refuses new "
     "ones at once with CANCELLED (0: gRPC's default, 1,000 to 3,000); an open Play stream has been started "
     "and never waits here, so streams take no part of this bound"),
    ("max_queue_time", "MJSVC_MAX_QUEUE_TIME", whole(0),
     "whole seconds a received call may wait for the worker's event loop before gRPC cancels it (CANCELLED; "
     "0: gRPC's default, 30)"),
    ("max_batch", "MJSVC_MAX_BATCH", whole(0), "most requests in one EvaluateBatch call (more: RESOURCE_EXHAUSTED)"),
    ("stream_rate", "MJSVC_STREAM_RATE", number(0),
     "messages per second allowed on one Play stream (0: no limit); excess messages are answered "
     "with a RESOURCE_EXHAUSTED error"),
    ("stream_burst", "MJSVC_STREAM_BURST", whole(0), "burst allowance of a Play stream (0: one second's worth)"),
    ("max_streams", "MJSVC_MAX_STREAMS", whole(0),
     "Play streams open at once per worker; one more is refused with RESOURCE_EXHAUSTED (STREAM_LIMIT; 0: no "
     "cap). An open stream costs about 21 KB of worker memory"),
    ("stream_idle_timeout", "MJSVC_STREAM_IDLE_TIMEOUT", number(0),
     "seconds a Play stream may send nothing before the server ends it with UNAVAILABLE (STREAM_IDLE; 0: "
     "never); a table reopens it on its next message"),
    ("tls_cert", "MJSVC_TLS_CERT", any_text, "PEM certificate chain file; with --tls-key the port speaks TLS"),
    ("tls_key", "MJSVC_TLS_KEY", any_text, "PEM private key file"),
    ("grace", "MJSVC_GRACE", number(0), "seconds in-flight calls get to finish after SIGTERM"),
    ("max_connection_age", "MJSVC_MAX_CONNECTION_AGE", number(0),
     "seconds after which a client connection is closed (gRPC adds jitter) so clients re-resolve and reach "
     "new pods after a scale-out (0: never)"),
    ("max_connection_age_grace", "MJSVC_MAX_CONNECTION_AGE_GRACE", number(0),
     "seconds calls and streams on an aged connection get to finish before it is cut"),
    ("max_connection_idle", "MJSVC_MAX_CONNECTION_IDLE", number(0),
     "seconds a client connection with no call open is kept before the server closes it (GOAWAY; 0: never); "
     "a client with the published config keeps a health watch open on it, so this closes only abandoned ones"),
    ("metrics_dir", "PROMETHEUS_MULTIPROC_DIR", any_text,
     "directory of the workers' metric files, wiped at start (default: a fresh temporary directory)"),
    ("log_level", "MJSVC_LOG_LEVEL", log_level, "DEBUG, INFO, WARNING or ERROR"),
    ("batch_helper_threads", "MJSVC_BATCH_HELPER_THREADS", on_off,
     "run gRPC's helper threads under Linux's SCHED_BATCH policy, so that their wakeups do not preempt the "
     "worker's event loop (about a fifth less CPU per message; --no-batch-helper-threads: the normal policy)"),
    ("service_class", "MJSVC_SERVICE_CLASS", any_text,
     "module:Class answering the calls instead of mjsvc.service:Service; for benchmarks and tests only "
     "(bench.doubles:NoopService, bench.doubles:FaultyService)"),
)

_DEFAULTS = ServeConfig()


def add_arguments(parser: argparse.ArgumentParser, environ: Mapping[str, str] | None = None) -> None:
    """Every setting as a flag whose default is its variable of `environ` (the process's own by default),
    both read with the setting's type: a bad flag is argparse's error (status 2), a bad variable stops here
    naming it (status 1)."""
    for name, var, parse, text in SETTINGS:
        flag = "--" + name.replace("_", "-")
        value = from_env(var, getattr(_DEFAULTS, name), parse, environ)
        shown = text.replace("%", "%%")  # argparse formats help strings with %: a literal one is %%
        if parse is on_off:
            parser.add_argument(flag, action=argparse.BooleanOptionalAction, default=value,
                                help=f"{shown} (env {var})")
        else:
            parser.add_argument(flag, type=parse, default=value, help=f"{shown} (env {var})")


def from_args(args: argparse.Namespace) -> ServeConfig:
    """The settings from parsed flags (`add_arguments` already read the environment)."""
    cfg = ServeConfig(**{name: getattr(args, name) for name, _, _, _ in SETTINGS})
    check(cfg)
    return cfg


def check(cfg: ServeConfig) -> None:
    """What no one setting's type says: the settings taken together, and the files they name."""
    if cfg.port == 0:
        raise SystemExit("--port 0: the workers must share one fixed port")
    if bool(cfg.tls_cert) != bool(cfg.tls_key):
        raise SystemExit("TLS needs both --tls-cert and --tls-key")
    if cfg.tls_cert:
        check_tls_files(cfg.tls_cert, cfg.tls_key)


def check_tls_files(cert: str, key: str) -> None:
    """The certificate chain and key load, and belong together, before any worker starts: otherwise each
    worker would fail at start and be restarted forever. Checked with the ssl module, as the supervisor
    creates no gRPC object."""
    import ssl

    for flag, path in (("--tls-cert", cert), ("--tls-key", key)):
        try:
            with open(path, "rb"):
                pass
        except OSError as err:
            raise SystemExit(f"{flag} {path}: cannot be read: {err.strerror}") from None
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:  # an encrypted key is refused (gRPC takes none), never asked for on the terminal
        context.load_cert_chain(cert, key, password=lambda: b"")
    except (OSError, ValueError) as err:  # ssl.SSLError is an OSError: not PEM, or not the certificate's key
        raise SystemExit(f"--tls-cert {cert}, --tls-key {key}: not a PEM certificate chain and its unencrypted "
                         f"private key ({err})") from None


def markdown_table() -> str:
    rows = ["| Flag | Environment variable | Default | Meaning |", "|---|---|---|---|"]
    special = {"workers": "0 (one per core)", "metrics_dir": "a new temporary directory"}
    for name, var, _, text in SETTINGS:
        default = getattr(_DEFAULTS, name)
        shown = special.get(name) or (f"`{default}`" if default != "" else "(none)")
        rows.append(f"| `--{name.replace('_', '-')}` | `{var}` | {shown} | {text} |")
    return "\n".join(rows)


if __name__ == "__main__":
    print(markdown_table())
