"""Configuration of `mjsvc serve`: every setting is a flag, with an environment variable as its default.

Precedence: flag > environment variable > embedded default. The table in docs/serve.md is generated
from `SETTINGS` (`python -m mjsvc.config` prints it).
"""

from __future__ import annotations

import argparse
import math
import os
from dataclasses import dataclass, fields
from typing import Any

from mjsvc.cli_types import MAX_PORT, log_level


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


# (field, env var, help). The flag is --field-with-dashes.
SETTINGS: tuple[tuple[str, str, str], ...] = (
    ("host", "MJSVC_HOST", "address the gRPC port binds to (0.0.0.0 or [::] to serve other machines)"),
    ("port", "MJSVC_PORT", "gRPC port, shared by all workers through SO_REUSEPORT"),
    ("metrics_host", "MJSVC_METRICS_HOST", "address of the Prometheus /metrics endpoint"),
    ("metrics_port", "MJSVC_METRICS_PORT", "port of the Prometheus /metrics endpoint (0: no endpoint)"),
    ("workers", "MJSVC_WORKERS", "worker processes (0: one per core available)"),
    ("cache_size", "MJSVC_CACHE_SIZE", "response cache entries per worker (0 disables the cache)"),
    ("cache_bytes", "MJSVC_CACHE_BYTES",
     "bytes of keys and answers the response cache of a worker may hold (0 disables the cache); the "
     "default keeps a worker well under 512 MB"),
    ("max_message_bytes", "MJSVC_MAX_MESSAGE_BYTES",
     "largest response message, in bytes, and a cap on request bodies, which are held to sizes derived from "
     "the field limits (mjsvc/limits.py; an EvaluateBatch of --max-batch requests is the largest, ~2 MB)"),
    ("max_concurrent_streams", "MJSVC_MAX_CONCURRENT_STREAMS",
     "HTTP/2 streams (calls) open at once per client connection"),
    ("max_concurrent_rpcs", "MJSVC_MAX_CONCURRENT_RPCS",
     "gRPC's own cap on calls in progress per worker, Play streams included, before new ones get "
     "RESOURCE_EXHAUSTED (0: no cap); an open stream holds a slot, so prefer --max-streams for streams and "
     "--shed-above for overload"),
    ("shed_above", "MJSVC_SHED_ABOVE",
     "busy fraction of a worker's event loop (0-1, e.g. 0.95) at or over which it refuses a growing share of "
     "new unary calls at once with RESOURCE_EXHAUSTED (OVERLOADED), up to 90%, and a shrinking one below it "
     "(0: never shed); Play messages are not shed"),
    ("max_queued_calls", "MJSVC_MAX_QUEUED_CALLS",
     "calls a worker holds waiting for its event loop (received, not yet started) before gRPC refuses new "
     "ones at once with CANCELLED (0: gRPC's default, 1,000 to 3,000); an open Play stream has been started "
     "and never waits here, so streams take no part of this bound"),
    ("max_queue_time", "MJSVC_MAX_QUEUE_TIME",
     "whole seconds a received call may wait for the worker's event loop before gRPC cancels it (CANCELLED; "
     "0: gRPC's default, 30)"),
    ("max_batch", "MJSVC_MAX_BATCH", "most requests in one EvaluateBatch call (more: RESOURCE_EXHAUSTED)"),
    ("stream_rate", "MJSVC_STREAM_RATE",
     "messages per second allowed on one Play stream (0: no limit); excess messages are answered "
     "with a RESOURCE_EXHAUSTED error"),
    ("stream_burst", "MJSVC_STREAM_BURST", "burst allowance of a Play stream (0: one second's worth)"),
    ("max_streams", "MJSVC_MAX_STREAMS",
     "Play streams open at once per worker; one more is refused with RESOURCE_EXHAUSTED (STREAM_LIMIT; 0: no "
     "cap). An open stream costs about 21 KB of worker memory"),
    ("stream_idle_timeout", "MJSVC_STREAM_IDLE_TIMEOUT",
     "seconds a Play stream may send nothing before the server ends it with UNAVAILABLE (STREAM_IDLE; 0: "
     "never); a table reopens it on its next message"),
    ("tls_cert", "MJSVC_TLS_CERT", "PEM certificate chain file; with --tls-key the port speaks TLS"),
    ("tls_key", "MJSVC_TLS_KEY", "PEM private key file"),
    ("grace", "MJSVC_GRACE", "seconds in-flight calls get to finish after SIGTERM"),
    ("max_connection_age", "MJSVC_MAX_CONNECTION_AGE",
     "seconds after which a client connection is closed (gRPC adds jitter) so clients re-resolve and reach "
     "new pods after a scale-out (0: never)"),
    ("max_connection_age_grace", "MJSVC_MAX_CONNECTION_AGE_GRACE",
     "seconds calls and streams on an aged connection get to finish before it is cut"),
    ("max_connection_idle", "MJSVC_MAX_CONNECTION_IDLE",
     "seconds a client connection with no call open is kept before the server closes it (GOAWAY; 0: never); "
     "a client with the published config keeps a health watch open on it, so this closes only abandoned ones"),
    ("metrics_dir", "PROMETHEUS_MULTIPROC_DIR",
     "directory of the workers' metric files, wiped at start (default: a fresh temporary directory)"),
    ("log_level", "MJSVC_LOG_LEVEL", "DEBUG, INFO, WARNING or ERROR"),
    ("batch_helper_threads", "MJSVC_BATCH_HELPER_THREADS",
     "run gRPC's helper threads under Linux's SCHED_BATCH policy, so that their wakeups do not preempt the "
     "worker's event loop (about a fifth less CPU per message; --no-batch-helper-threads: the normal policy)"),
    ("service_class", "MJSVC_SERVICE_CLASS",
     "module:Class answering the calls instead of mjsvc.service:Service; for benchmarks and tests only "
     "(bench.doubles:NoopService, bench.doubles:FaultyService)"),
)

_DEFAULTS = ServeConfig()
_TYPES = {f.name: type(getattr(_DEFAULTS, f.name)) for f in fields(ServeConfig)}


_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")
_KIND_NAMES = {int: "a whole number", float: "a number"}


def _env_value(name: str, env: str, environ: dict[str, str]) -> Any:
    raw = environ.get(env)
    default = getattr(_DEFAULTS, name)
    if raw is None or raw == "":
        return default
    kind = _TYPES[name]
    if kind is bool:
        word = raw.strip().lower()
        if word in _TRUE or word in _FALSE:
            return word in _TRUE
        raise SystemExit(f"{env}={raw!r}: expected one of {', '.join(_TRUE + _FALSE)}")
    try:
        return kind(raw)
    except ValueError:
        raise SystemExit(f"{env}={raw!r}: expected {_KIND_NAMES.get(kind, kind.__name__)}") from None


def add_arguments(parser: argparse.ArgumentParser, environ: dict[str, str] | None = None) -> None:
    env = dict(os.environ if environ is None else environ)
    for name, var, text in SETTINGS:
        flag = "--" + name.replace("_", "-")
        value = _env_value(name, var, env)
        shown = text.replace("%", "%%")  # argparse formats help strings with %: a literal one is %%
        if _TYPES[name] is bool:
            parser.add_argument(flag, action=argparse.BooleanOptionalAction, default=value,
                                help=f"{shown} (env {var})")
        else:
            parser.add_argument(flag, type=_TYPES[name], default=value, help=f"{shown} (env {var})")


def from_args(args: argparse.Namespace, environ: dict[str, str] | None = None) -> ServeConfig:
    """The settings from parsed flags (`add_arguments` already read the environment, `environ`)."""
    values = {name: getattr(args, name) for name, _, _ in SETTINGS}
    cfg = ServeConfig(**values)
    check(cfg)
    return cfg


def check(cfg: ServeConfig) -> None:
    for name, kind in _TYPES.items():
        if kind is float and not math.isfinite(getattr(cfg, name)):
            raise SystemExit(f"--{name.replace('_', '-')} {getattr(cfg, name)}: a finite number is needed")
    try:
        log_level(cfg.log_level)
    except argparse.ArgumentTypeError as err:
        raise SystemExit(f"--log-level: {err}") from None
    if bool(cfg.tls_cert) != bool(cfg.tls_key):
        raise SystemExit("TLS needs both --tls-cert and --tls-key")
    if cfg.tls_cert:
        check_tls_files(cfg.tls_cert, cfg.tls_key)
    for name in ("port", "metrics_port", "workers", "cache_size", "cache_bytes", "max_concurrent_rpcs", "max_batch",
                 "max_streams", "stream_idle_timeout", "shed_above", "max_queued_calls", "max_queue_time"):
        if getattr(cfg, name) < 0:
            raise SystemExit(f"--{name.replace('_', '-')} must be >= 0")
    if cfg.port == 0:
        raise SystemExit("--port 0: the workers must share one fixed port")
    for name in ("port", "metrics_port"):
        if getattr(cfg, name) > MAX_PORT:
            raise SystemExit(f"--{name.replace('_', '-')} {getattr(cfg, name)}: a port is at most {MAX_PORT}")
    if cfg.max_message_bytes <= 0 or cfg.max_concurrent_streams <= 0:
        raise SystemExit("--max-message-bytes and --max-concurrent-streams must be > 0")
    if cfg.stream_rate < 0 or cfg.grace < 0:
        raise SystemExit("--stream-rate and --grace must be >= 0")
    if cfg.shed_above > 1:
        raise SystemExit("--shed-above is a fraction of the time: at most 1")
    if cfg.max_connection_idle < 0:
        raise SystemExit("--max-connection-idle must be >= 0")
    if cfg.max_connection_age < 0 or cfg.max_connection_age_grace < 0:
        raise SystemExit("--max-connection-age and --max-connection-age-grace must be >= 0")


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
    for name, var, text in SETTINGS:
        default = getattr(_DEFAULTS, name)
        shown = special.get(name) or (f"`{default}`" if default != "" else "(none)")
        rows.append(f"| `--{name.replace('_', '-')}` | `{var}` | {shown} | {text} |")
    return "\n".join(rows)


if __name__ == "__main__":
    print(markdown_table())
