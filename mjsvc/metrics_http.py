"""The supervisor's Prometheus endpoint: prometheus_client's WSGI app on a threading HTTP server whose
connections are bounded. prometheus_client's own `start_http_server` starts a thread per connection and keeps
it for as long as the client keeps the connection open, so idle connections pile up threads (500 idle
connections: 502 threads) and their memory stays. Here a connection that sends nothing for `idle_timeout`
seconds is closed, and at most `max_connections` are served at once; one more is closed at once (a scraper
retries at its next interval). So idle connections can hold the endpoint for `idle_timeout` seconds at most,
never a thread each for ever."""

from __future__ import annotations

import socket
import threading
from socketserver import ThreadingMixIn
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer

from prometheus_client import CollectorRegistry, make_wsgi_app

IDLE_TIMEOUT = 3.0  # seconds a connection may send nothing (a scrape sends its request at once)
MAX_CONNECTIONS = 32  # served at once; Prometheus scrapes with one connection per target


class _QuietHandler(WSGIRequestHandler):
    timeout = IDLE_TIMEOUT  # StreamRequestHandler sets it on the socket: an idle client is dropped

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        """No access log on stderr (every scrape would print a line)."""


class MetricsServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True
    request_queue_size = 128  # the listen backlog (socketserver's default, 5, makes a burst of clients wait)

    def __init__(self, address: tuple[str, int], max_connections: int = MAX_CONNECTIONS) -> None:
        self._slots = threading.BoundedSemaphore(max_connections)
        super().__init__(address, _QuietHandler)

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self._slots.acquire(blocking=False):
            self.shutdown_request(request)  # over the cap: closed at once, no thread
            return
        super().process_request(request, client_address)

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._slots.release()


def start(port: int, host: str, registry: CollectorRegistry) -> MetricsServer:
    """Serve `registry` on http://host:port/metrics (any path) from a daemon thread."""
    cls = type("MetricsServer6", (MetricsServer,), {"address_family": socket.AF_INET6}) if ":" in host \
        else MetricsServer
    server = cls((host, port))
    server.set_app(make_wsgi_app(registry))
    threading.Thread(target=server.serve_forever, name="metrics-http", daemon=True).start()
    return server
