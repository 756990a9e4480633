# One entry point for people and CI: everything is installed into .venv by these targets.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PROTO := proto/mahjong/v1/mahjong.proto
GEN := mjsvc/gen/mahjong/v1/mahjong_pb2.py

.PHONY: run test test-slow lint bench loadtest proto clean setup

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

$(GEN): $(PROTO) $(STAMP)
	$(BIN)/python -m mjsvc.protogen

setup: $(STAMP) $(GEN)

proto: $(GEN)

run: setup
	$(BIN)/mjsvc serve

test: setup
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -q

test-slow: setup
	$(BIN)/python -m pytest -q -m slow

lint: setup
	$(BIN)/ruff check .

bench: setup
	$(BIN)/python -m bench

loadtest: setup
	$(BIN)/python -m bench.loadtest

clean:
	rm -rf $(VENV) mjsvc/gen build *.egg-info
