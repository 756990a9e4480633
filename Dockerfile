# mjsvc: the Mahjong rules engine served over gRPC.
#   docker build -t mjsvc .
#   docker run --rm -p 50051:50051 -p 9464:9464 mjsvc
# One container runs the supervisor and MJSVC_WORKERS workers (default: one per CPU it may use);
# on Kubernetes the Deployment sets MJSVC_WORKERS=1 and scales pods instead.
#
# The base images are build arguments: BASE (the runtime) and BUILD_BASE (where the engine is compiled; by
# default the same). Any Debian-like image with python3 >= 3.11 and python3-venv works; `make image` uses
# python:3.11-slim, or, where no registry is reachable, bases it makes from Debian's packages with mmdebstrap
# (docs/operating.md "The container image").
ARG BASE=python:3.11-slim
ARG BUILD_BASE=${BASE}

FROM ${BUILD_BASE} AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
# A C compiler for setup.py: it compiles the engine's hot modules with mypyc (the runtime image needs none).
# A build base that has it already (make base-image) needs no package index here.
RUN if ! command -v gcc >/dev/null; then \
      apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev && rm -rf /var/lib/apt/lists/*; \
    fi
WORKDIR /src
RUN python3 -m venv /opt/mjsvc
COPY pyproject.toml setup.py README.md ./
COPY proto ./proto
COPY engine ./engine
COPY mjsvc ./mjsvc
COPY tablebuild ./tablebuild
# The same packaging as a user's `pip install .`: setup.py generates the protobuf modules and compiles the
# engine (its mypyc runtime is engine/_native__mypyc, inside the package). The check runs from / so that
# nothing is found through the source tree; it fails the build if the engine was not compiled.
RUN /opt/mjsvc/bin/pip install . \
 && cd / && /opt/mjsvc/bin/python -c "import mjsvc.gen.mahjong.v1.mahjong_pb2, engine, engine.rules.mcr; \
assert engine.compiled_modules(), 'engine not compiled'; assert '/site-packages/' in engine.__file__; \
print('ok', engine.compiled_modules())" \
 && cd / && echo '{"method": "ListFans", "request": {}}' | /opt/mjsvc/bin/mjsvc batch | grep -q '"rule_set":"mcr"'

FROM ${BASE}
RUN groupadd --system --gid 10001 mjsvc \
 && useradd --system --uid 10001 --gid mjsvc --no-create-home --shell /usr/sbin/nologin mjsvc
COPY --from=build /opt/mjsvc /opt/mjsvc
ENV PATH=/opt/mjsvc/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    MJSVC_HOST=0.0.0.0 \
    MJSVC_PORT=50051 \
    MJSVC_METRICS_HOST=0.0.0.0 \
    MJSVC_METRICS_PORT=9464
USER 10001:10001
EXPOSE 50051 9464
# Healthy means grpc.health.v1 answers SERVING (engine tables warm, not draining).
HEALTHCHECK --interval=10s --timeout=3s --start-period=15s --retries=3 \
  CMD ["python", "-c", "import os, sys, grpc; from grpc_health.v1 import health_pb2 as h, health_pb2_grpc as g; ch = grpc.insecure_channel('127.0.0.1:' + os.environ.get('MJSVC_PORT', '50051')); r = g.HealthStub(ch).Check(h.HealthCheckRequest(service=''), timeout=2); sys.exit(0 if r.status == h.HealthCheckResponse.SERVING else 1)"]
ENTRYPOINT ["mjsvc"]
CMD ["serve"]
