"""The gRPC service around the engine. Its conversion layer (`convert`, `wire`, `limits`) is compiled with
the engine by the same build (setup.py); under MJSVC_PURE_PYTHON=1 it, too, runs from its Python source."""

import engine

engine.prefer_source(__name__)
