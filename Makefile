# One entry point for people and CI: everything is installed into .venv by these targets.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PROTO := proto/mahjong/v1/mahjong.proto
GEN := mjsvc/gen/mahjong/v1/mahjong_pb2.py
# setup.py compiles the engine's hot modules and the service's conversion layer with mypyc, in place.
# They are rebuilt whenever one of their sources changes, so nothing runs a stale build.
# MJSVC_PURE_PYTHON=1 at run time makes a process use the Python source even where the build is present
# (engine/__init__.py).
NATIVE := $(VENV)/.native
# (engine/tables/built.py is not a source: the build writes it, the tables' build stamp)
COMPILED_SRC := $(shell find engine -name '*.py' ! -name built.py) mjsvc/convert.py mjsvc/wire.py mjsvc/limits.py
# the tables file's build code: an edit rewrites the file (setup.py runs it after the compile)
TABLE_BUILD_SRC := $(shell find tablebuild -name '*.py')
# The engine's own tests and the conversion layer's, run a second time on the Python source (same answers
# in both forms).
PURE_TESTS := tests/unit/test_build.py tests/unit/test_referee_fuzz.py tests/unit/test_tiles_hand.py tests/unit/test_shapes.py tests/unit/test_shapes_plain.py tests/unit/test_memo.py tests/unit/test_mcr_fans.py \
	tests/unit/test_mcr_memo.py tests/unit/test_mcr_oracle.py tests/unit/test_mcr2p.py tests/unit/test_analysis.py tests/unit/test_sichuan.py tests/unit/test_model.py \
	tests/unit/test_riichi.py tests/unit/test_riichi_majiang.py tests/unit/test_hk_rules.py tests/unit/test_guangdong.py \
	tests/unit/test_riichi_referee.py tests/unit/test_riichi_referee_oracle.py tests/unit/test_riichi_referee_perf.py tests/unit/test_riichi3_referee.py \
	tests/unit/test_convert.py tests/unit/test_convert_wire.py tests/unit/test_convert_wire_eval.py tests/unit/test_service_fast_paths.py \
	tests/unit/test_request_reading.py tests/unit/test_api_validated.py

.PHONY: run test test-unit test-readme test-slow test-fleet test-image image base-image lint bench bench-cost bench-referee bench-h2load bench-layers bench-mix bench-instructions bench-split loadtest soak proto clean setup web qt

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	MJSVC_PURE_PYTHON=1 $(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

# mypyc's shared runtime is built as engine/_native__mypyc*.so, inside the package, so every installed
# entry point finds it from any working directory.
$(NATIVE): $(STAMP) setup.py $(COMPILED_SRC) $(TABLE_BUILD_SRC)
	@$(BIN)/python -c "import sysconfig, shutil, os, sys; cc = (sysconfig.get_config_var('CC') or 'cc').split()[0]; \
	  h = os.path.join(sysconfig.get_paths()['include'], 'Python.h'); \
	  sys.exit(0 if shutil.which(cc) and os.path.exists(h) else \
	  'make: the engine is compiled with mypyc and needs a C compiler (' + cc + ') and the Python headers (' + h + \
	  '). Install them (Debian: apt-get install gcc python3-dev), or run MJSVC_PURE_PYTHON=1 make ... for the slower pure-Python engine.')"
	rm -f $$(find engine mjsvc -name '*.so')
	$(BIN)/python setup.py --quiet build_ext --inplace
	# an unchanged module is copied from build/ with its old time: mark the build as current
	touch -c $$(find engine mjsvc -name '*.so')
	touch $(NATIVE)

$(GEN): $(PROTO) $(STAMP)
	$(BIN)/python -m mjsvc.protogen

setup: $(STAMP) $(GEN) $(NATIVE)

proto: $(GEN)

run: setup
	$(BIN)/mjsvc serve

# The playground page (clients/web/dist, npm packages from the committed lock) and `mjsvc web` in front of
# a server already running on 127.0.0.1:50051; open http://127.0.0.1:8080/.
web: setup
	cd clients/web && npm ci --no-audit --no-fund && npm run build
	$(BIN)/mjsvc web --playground clients/web/dist

# The Qt client sample (needs the Debian packages named in clients/qt/CMakeLists.txt), built in build/qt.
qt:
	cmake -S clients/qt -B build/qt && cmake --build build/qt -j2

# tests/unit: the engine and the service in process, no process started and no connection opened
# (tests/unit/conftest.py refuses both); about a minute.
test-unit: setup
	$(BIN)/python -m pytest -q tests/unit

test: setup
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/python -m pytest -q
	MJSVC_PURE_PYTHON=1 $(BIN)/python -m pytest -q $(PURE_TESTS)

# The README's commands on a fresh clone of this repository, and a regular (non-editable) install; minutes.
test-readme: setup
	$(BIN)/python -m pytest -q -m readme tests/slow/test_readme.py

test-slow: setup
	$(BIN)/python -m pytest -q -m slow

# The container image. BASE_IMAGE (default python:3.11-slim) is used when it is present or can be pulled; with no
# registry reachable, `base-image` first makes bookworm bases from Debian's packages (mmdebstrap, docker import):
# mjsvc-base (python3) for the runtime, mjsvc-base-build (python3-venv, python3-dev, gcc) for the build stage.
DOCKER ?= docker
IMAGE ?= mjsvc:0.1.0
BASE_IMAGE ?= python:3.11-slim
DEBIAN_SUITE ?= bookworm
LOCAL_BASE := mjsvc-base:$(DEBIAN_SUITE)
LOCAL_BUILD_BASE := mjsvc-base-build:$(DEBIAN_SUITE)
# The build stage downloads the Python packages: it trusts the certificate authorities this host trusts (a
# company proxy's, say), not only Debian's.
CA_HOOK := $(if $(wildcard /etc/ssl/certs/ca-certificates.crt),'--customize-hook=copy-in /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/')

base-image:
	@$(DOCKER) image inspect $(LOCAL_BUILD_BASE) >/dev/null 2>&1 || { \
	  echo "making $(LOCAL_BUILD_BASE) with mmdebstrap"; \
	  mmdebstrap --quiet --variant=apt --include=python3,python3-venv,python3-dev,gcc,libc6-dev,ca-certificates,passwd \
	    $(CA_HOOK) \
	    $(DEBIAN_SUITE) - | $(DOCKER) import - $(LOCAL_BUILD_BASE); }
	@$(DOCKER) image inspect $(LOCAL_BASE) >/dev/null 2>&1 || { \
	  echo "making $(LOCAL_BASE) with mmdebstrap"; \
	  mmdebstrap --quiet --variant=apt --include=python3,passwd --dpkgopt='path-exclude=/usr/share/doc/*' \
	    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
	    $(DEBIAN_SUITE) - | $(DOCKER) import - $(LOCAL_BASE); }

image:
	@if $(DOCKER) image inspect $(BASE_IMAGE) >/dev/null 2>&1 || timeout 60 $(DOCKER) pull --quiet $(BASE_IMAGE) >/dev/null 2>&1; then \
	  set -x; $(DOCKER) build --network host --build-arg BASE=$(BASE_IMAGE) -t $(IMAGE) . ; \
	else \
	  echo "$(BASE_IMAGE) cannot be pulled: building on bases made from Debian's packages"; \
	  $(MAKE) --no-print-directory base-image && set -x && \
	  $(DOCKER) build --network host --build-arg BASE=$(LOCAL_BASE) --build-arg BUILD_BASE=$(LOCAL_BUILD_BASE) -t $(IMAGE) . ; \
	fi

# The image built (make image) and run: non-root, read-only root filesystem, SERVING, Evaluate, SIGTERM; skipped
# with the reason when no Docker daemon answers.
test-image: setup
	$(BIN)/python -m pytest -q -s -m image tests/slow/test_image.py

# Three hosts on 127.0.0.2-4 behind client-side round_robin and behind nginx (deploy/nginx): balance, a host
# killed, a rolling restart, a host frozen; the table goes to bench/results/fleet.md. A few minutes.
test-fleet: setup
	$(BIN)/python -m pytest -q -s -m fleet tests/slow/test_fleet.py

lint: setup
	$(BIN)/ruff check .
	$(BIN)/mypy

bench: setup
	$(BIN)/python -m bench
	$(MAKE) bench-referee

# What a call costs the server around the engine against a bare grpc.aio server answering the same bytes
# (docs/performance.md): bench/results/service_cost.json, a few minutes.
bench-cost: setup
	$(BIN)/python -m bench.service_cost

# The Riichi referee against majiang-core replaying the same oracle logs in Node (docs/performance.md):
# bench/results/referee.json and referee.md.
bench-referee: setup
	cd bench/referee_node && npm ci --no-audit --no-fund
	$(BIN)/python -m bench.referee

# Unary Evaluate driven by h2load (apt-get install nghttp2-client) with gRPC framing: bench/results/h2load.json
bench-h2load: setup
	$(BIN)/python -m bench.h2load

# A unary cache hit's cost above the floor, the worker's handler path built up a layer at a time, driven by
# h2load: bench/results/unary_layers.json
bench-layers: setup
	$(BIN)/python -m bench.unary_layers

# The load test's traffic in process, cache off: each operation's calls, µs and share of the time:
# bench/results/engine_mix.json, about 20 s
bench-mix: setup
	$(BIN)/python -m bench.engine_mix

# Instructions one call executes (valgrind, apt-get install valgrind), on the load test's requests: a figure
# that does not move with the machine's load, for weighing a change before timing it; bench/results/instructions.json
bench-instructions: setup
	$(BIN)/python -m bench.instructions

# Where a live server's CPU goes per Play message, by library and by thread, read with Linux's perf
# (apt-get install linux-perf; root or kernel.perf_event_paranoid <= 1): bench/results/cpu_split.json, 3 min
bench-split: setup
	$(BIN)/python -m bench.cpu_split

# The warm load test, then the operator's view: fresh servers loaded at once, one with a worker killed.
loadtest: setup
	$(BIN)/python -m bench.grpc_floor
	$(BIN)/python -m bench.loadtest
	$(BIN)/python -m bench.coldstart

# 30 minutes: 200 tables plus hostile traffic against a fresh server, worker RSS every 10 s (bench/results/soak.*)
soak: setup
	$(BIN)/python -m bench.soak

clean:
	rm -rf $(VENV) mjsvc/gen build .mypy_cache *.egg-info $$(find engine mjsvc -name '*.so') engine/tables/suits.bin engine/tables/built.py
