"""How a worker adds its services to its gRPC server (`mjsvc.worker.Registrar`): each service once, as a
generic handler, no registered method, and every MahjongEngine method's handler the very one the
interceptor's `intercept_service` hands gRPC for it, so that a call runs the same code as through the hook."""

from __future__ import annotations

import asyncio
from typing import Any

import grpc
from grpc_health.v1._async import HealthServicer

from mjsvc.config import ServeConfig
from mjsvc.gen.mahjong.v1 import mahjong_pb2
from mjsvc.interceptors import SERVICE_NAME, interceptors
from mjsvc.service import Service
from mjsvc.servicer import EngineServicer
from mjsvc.worker import Registrar, add_services


class Details:
    def __init__(self, method: str) -> None:
        self.method = method
        self.invocation_metadata = ()


class Recorder:
    """A server that only records what is added to it; it has no `add_registered_method_handlers`, so a
    Registrar that registered a method would fail here."""

    def __init__(self) -> None:
        self.generic: list[Any] = []

    def add_generic_rpc_handlers(self, handlers: Any) -> None:
        self.generic.extend(handlers)

    def resolve(self, method: str) -> Any:
        found = [h for h in (g.service(Details(method)) for g in self.generic) if h is not None]
        assert len(found) == 1, (method, found)
        return found[0]


class Seen(Registrar):
    """The Registrar, noting the handlers the generated functions pass it (their registered-method dicts)."""

    def __init__(self, server: Any, call: Any) -> None:
        super().__init__(server, call)
        self.services: dict[str, dict[str, grpc.RpcMethodHandler]] = {}

    def add_registered_method_handlers(self, service: str, handlers: dict[str, grpc.RpcMethodHandler]) -> None:
        self.services[service] = handlers
        super().add_registered_method_handlers(service, handlers)


def test_each_service_added_once_and_wrapped_as_the_interceptor_wraps_it() -> None:
    cfg = ServeConfig()
    servicer, health = EngineServicer(Service(), cfg), HealthServicer()
    (call,) = interceptors()
    recorder = Recorder()
    plain = Seen(recorder, call)
    add_services(plain, servicer, health)

    assert len(recorder.generic) == 3
    assert set(plain.services) == {SERVICE_NAME, "grpc.health.v1.Health", "grpc.reflection.v1alpha.ServerReflection"}
    engine_methods = set(mahjong_pb2.DESCRIPTOR.services_by_name["MahjongEngine"].methods_by_name)
    assert set(plain.services[SERVICE_NAME]) == engine_methods

    for service, handlers in plain.services.items():
        for name, handler in handlers.items():
            method = f"/{service}/{name}"
            served = recorder.resolve(method)

            async def continuation(details: Any, handler: Any = handler) -> Any:
                return handler

            hooked = asyncio.run(call.intercept_service(continuation, Details(method)))
            assert served is hooked, method
            if service == SERVICE_NAME:
                assert (served.unary_unary, served.stream_stream) != (handler.unary_unary, handler.stream_stream)
                # our own codec: a body protobuf cannot parse is answered, not a crash (mjsvc.interceptors)
                assert served.request_deserializer is not handler.request_deserializer, method
            else:
                assert served is handler, method  # health and reflection run as gRPC gives them
    unknown = Details(f"/{SERVICE_NAME}/NoSuchMethod")
    assert all(g.service(unknown) is None for g in recorder.generic)  # gRPC answers UNIMPLEMENTED
