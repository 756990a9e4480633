"""grpcio's ExecuteBatchError record (an answer it could not send: the call had ended) is kept at DEBUG as
one line by the worker's filter; any other ERROR record of grpc is left as it is."""

from __future__ import annotations

import logging
import sys

from mjsvc.worker import EndedCallFilter


class ExecuteBatchError(Exception):
    """Named as grpcio's cygrpc exception is (the filter goes by the name)."""


def record(exc: BaseException) -> logging.LogRecord:
    try:
        raise exc
    except BaseException:
        info = sys.exc_info()
    return logging.LogRecord("grpc._cython.cygrpc", logging.ERROR, "server.pyx", 1,
                             "ExecuteBatchError raised in core by servicer method [%s]", ("/m/Analyze",), info)


def test_an_ended_call_is_one_debug_line() -> None:
    logger = logging.getLogger("grpc._cython.cygrpc")
    before = logger.level
    try:
        logger.setLevel(logging.INFO)
        r = record(ExecuteBatchError("Failed execute_batch"))
        assert EndedCallFilter().filter(r) is False  # not shown at INFO
        assert (r.levelno, r.levelname, r.exc_info) == (logging.DEBUG, "DEBUG", None)
        assert r.getMessage() == "/m/Analyze: an answer not sent, the call had ended (deadline passed or cancelled)"
        logger.setLevel(logging.DEBUG)
        assert EndedCallFilter().filter(record(ExecuteBatchError("x"))) is True  # shown at DEBUG
    finally:
        logger.setLevel(before)


def test_other_errors_stay_errors() -> None:
    r = record(RuntimeError("a real fault"))
    assert EndedCallFilter().filter(r) is True
    assert r.levelno == logging.ERROR and r.exc_info is not None
