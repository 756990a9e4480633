"""`mjsvc web`: grpc-web for browsers and Unity WebGL, in front of a running `mjsvc serve`, and the playground.

    mjsvc serve &                       # gRPC on 127.0.0.1:50051
    mjsvc web --port 8080               # grpc-web and the playground on http://127.0.0.1:8080/

The gateway (`gateway.py`) speaks HTTP/1.1 and forwards every unary call to the gRPC server as raw bytes;
`framing.py` is the grpc-web wire format, `http1.py` the HTTP/1.1 reading and writing.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

HELP = "serve grpc-web (unary calls) and the playground page in front of a running mjsvc serve"

# The page `make web` builds (clients/web/dist) when mjsvc runs from a checkout; --playground names another.
CHECKOUT_PLAYGROUND = Path(__file__).resolve().parent.parent.parent / "clients" / "web" / "dist"


def _env(name: str, default: str) -> str:
    return os.environ.get(name) or default


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from mjsvc.cli_types import from_env, log_level, number, port, whole
    from mjsvc.web.gateway import WebConfig

    d = WebConfig()
    seconds = number(0, low_allowed=False)
    parser.add_argument("--host", default=_env("MJSVC_WEB_HOST", d.host),
                        help="address the HTTP port binds to (env MJSVC_WEB_HOST)")
    parser.add_argument("--port", type=port, default=from_env("MJSVC_WEB_PORT", d.port, port),
                        help="HTTP port (0: any free port, printed at start) (env MJSVC_WEB_PORT)")
    parser.add_argument("--target", default=_env("MJSVC_WEB_TARGET", d.target),
                        help="address of the gRPC server calls are forwarded to (env MJSVC_WEB_TARGET)")
    parser.add_argument("--cors-origin", action="append", dest="cors_origins",
                        default=[o for o in _env("MJSVC_WEB_CORS_ORIGINS", "").split(",") if o],
                        help="an origin allowed to call from another site, e.g. https://game.example; repeat "
                             "for more; '*' allows any (env MJSVC_WEB_CORS_ORIGINS, comma-separated; "
                             "default: same origin only)")
    default_page = str(CHECKOUT_PLAYGROUND) if CHECKOUT_PLAYGROUND.is_dir() else ""
    parser.add_argument("--playground", default=_env("MJSVC_WEB_PLAYGROUND", default_page),
                        help="directory of the built playground page; '' serves none (env MJSVC_WEB_PLAYGROUND; "
                             "default: the checkout's clients/web/dist when built)")
    parser.add_argument("--max-message-bytes", type=whole(1),
                        default=from_env("MJSVC_MAX_MESSAGE_BYTES", d.max_message_bytes, whole(1)),
                        help="largest request message, in bytes (env MJSVC_MAX_MESSAGE_BYTES)")
    parser.add_argument("--deadline", type=seconds, default=from_env("MJSVC_WEB_DEADLINE", d.deadline, seconds),
                        help="seconds a forwarded call may take, and the cap on a client's grpc-timeout "
                             "(env MJSVC_WEB_DEADLINE)")
    parser.add_argument("--max-connections", type=whole(1),
                        default=from_env("MJSVC_WEB_MAX_CONNECTIONS", d.max_connections, whole(1)),
                        help="HTTP connections open at once; at the cap a new one closes the connection that has "
                             "waited longest for its request, or is answered 503 when every one is busy "
                             "(env MJSVC_WEB_MAX_CONNECTIONS)")
    parser.add_argument("--log-level", type=log_level, default=from_env("MJSVC_LOG_LEVEL", "INFO", log_level),
                        help="DEBUG, INFO, WARNING or ERROR (env MJSVC_LOG_LEVEL)")


def run(args: argparse.Namespace) -> int:
    import asyncio
    import logging
    import signal

    import uvloop

    from mjsvc.web.gateway import Gateway, WebConfig

    if args.max_message_bytes <= 0 or args.deadline <= 0 or args.max_connections <= 0 or args.port < 0:
        raise SystemExit("--max-message-bytes, --deadline and --max-connections must be > 0, --port >= 0")
    if args.playground and not Path(args.playground).is_dir():
        raise SystemExit(f"--playground {args.playground}: not a directory")
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    cfg = WebConfig(host=args.host, port=args.port, target=args.target, cors_origins=tuple(args.cors_origins),
                    playground=args.playground, max_message_bytes=args.max_message_bytes, deadline=args.deadline,
                    max_connections=args.max_connections)
    log = logging.getLogger("mjsvc.web")

    async def main() -> None:
        gateway = Gateway(cfg)
        port = await gateway.start()
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        page = cfg.playground or "none"
        log.info("grpc-web on http://%s:%d/ -> gRPC %s; playground: %s; CORS origins: %s", cfg.host, port,
                 cfg.target, page, ", ".join(cfg.cors_origins) or "same origin only")
        await stop.wait()
        await gateway.close()
        log.info("stopped")

    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        runner.run(main())
    return 0
