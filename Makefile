# Tablehall — see README.md. Every target installs what it needs first.
SHELL := /bin/bash
.DEFAULT_GOAL := help
PYTHON ?= python3
# uv from PATH, else as a module of $(PYTHON) (installed with pip --user when missing)
UV := $(shell command -v uv 2>/dev/null)
ifeq ($(UV),)
UV := $(PYTHON) -m uv
endif
VENV := .venv
PY := $(VENV)/bin/python
PROTO_OUT := libs/protos/src
PROTOS := $(shell find proto -name '*.proto' | sort)
# the platform's test game: not in the production API, generated beside its code
TEST_PROTOS := tests/testgame/proto/testgame.proto
# google/rpc/status.proto and friends, as shipped by googleapis-common-protos in the venv
GOOGLE_PROTOS = $(shell $(PY) -c 'import google.rpc, pathlib; print(pathlib.Path(google.rpc.__path__[0]).parents[1])')
STAMP := $(VENV)/.installed

.PHONY: help install protos run test soak lint bench bench-match bench-puzzipolia bench-lobby bench-projection bench-timer bench-clients bench-bot bench-boards bench-magnates clean

help:
	@echo "make run    start PostgreSQL + NATS (embedded unless given) and every service on :50051"
	@echo "make test   run the whole test suite against real PostgreSQL and NATS"
	@echo "make soak   long property runs (not part of make test)"
	@echo "make bench  benchmarks (not part of make test)"
	@echo "make lint   ruff + mypy"

# UV_NATIVE_TLS (older uv) / UV_SYSTEM_CERTS (newer): trust the system's certificates as pip
# does, not only uv's bundled roots (a TLS-inspecting proxy breaks a cold uv cache otherwise)
$(STAMP): pyproject.toml uv.lock $(wildcard libs/*/pyproject.toml services/*/pyproject.toml)
	@$(UV) --version >/dev/null 2>&1 || $(PYTHON) -m pip install --user --quiet uv || $(PYTHON) -m pip install --quiet uv
	mkdir -p $(PROTO_OUT)/tablehall && touch $(PROTO_OUT)/tablehall/__init__.py
	UV_PYTHON_DOWNLOADS=never UV_NATIVE_TLS=1 UV_SYSTEM_CERTS=1 $(UV) sync --frozen --python $(PYTHON)
	touch $(STAMP)

install: $(STAMP) protos

# Generated code is built here, never committed (see .gitignore).
$(PROTO_OUT)/.stamp: $(STAMP) $(PROTOS) $(TEST_PROTOS)
	find $(PROTO_OUT)/tablehall -mindepth 1 -delete
	PATH=$(CURDIR)/$(VENV)/bin:$$PATH $(PY) -m grpc_tools.protoc -I proto -I $(GOOGLE_PROTOS) --python_out=$(PROTO_OUT) --grpc_python_out=$(PROTO_OUT) \
		--mypy_out=$(PROTO_OUT) --mypy_grpc_out=$(PROTO_OUT) $(PROTOS)
	find $(PROTO_OUT)/tablehall -type d -exec touch {}/__init__.py \;
	PATH=$(CURDIR)/$(VENV)/bin:$$PATH $(PY) -m grpc_tools.protoc -I tests -I proto -I $(GOOGLE_PROTOS) --python_out=tests \
		--mypy_out=tests $(TEST_PROTOS)
	touch $@

protos: $(PROTO_OUT)/.stamp

run: install
	$(VENV)/bin/tablehall up

# the whole suite but the long soaks (marked slow); CI runs exactly this
test: install
	$(VENV)/bin/pytest -q -p no:cacheprovider -m "not slow"

# long property runs and soaks (thousands of random games): not part of make test
soak: install
	$(VENV)/bin/pytest -q -p no:cacheprovider -m slow

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

bench: bench-match bench-puzzipolia bench-lobby bench-projection bench-timer bench-clients bench-bot bench-boards bench-magnates

bench-match: install
	$(PY) tests/bench/bench_match.py

bench-puzzipolia: install
	$(PY) tests/bench/bench_puzzipolia.py

bench-magnates: install
	$(PY) tests/bench/bench_magnates.py

bench-lobby: install
	$(PY) tests/bench/bench_lobby.py

bench-projection: install
	$(PY) tests/bench/bench_projection.py

bench-timer: install
	$(PY) tests/bench/bench_timer.py

bench-clients: install
	$(PY) tests/bench/bench_clients.py

bench-bot: install
	$(PY) tests/bench/bench_bot.py

bench-boards: install
	$(PY) tests/bench/bench_boards.py

clean:
	rm -rf $(VENV) $(PROTO_OUT)/tablehall .data
