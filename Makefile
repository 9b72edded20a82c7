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
TEST_PROTOS := tests/testgame/proto/testgame.proto tests/nim/proto/nim.proto
# google/rpc/status.proto and friends, as shipped by googleapis-common-protos in the venv
GOOGLE_PROTOS = $(shell $(PY) -c 'import google.rpc, pathlib; print(pathlib.Path(google.rpc.__path__[0]).parents[1])')
STAMP := $(VENV)/.installed
# Quiet by default: `make V=1 ...` shows every command and all of uv's and protoc's output.
V ?= 0
ifeq ($(V),1)
Q :=
UV_QUIET :=
# shows a command's output as it goes
QUIETLY = $(1)
RUN_LOG_LEVEL := $${TABLEHALL_LOG_LEVEL:-info}
else
Q := @
UV_QUIET := --quiet
# a command's output only when it fails
QUIETLY = out=$$($(1) 2>&1) || { echo "$$out" >&2; exit 1; }
RUN_LOG_LEVEL := $${TABLEHALL_LOG_LEVEL:-warning}
endif

.PHONY: help install protos run test soak chaos fuzz lint reasons load bench bench-match bench-reads bench-puzzipolia bench-lobby bench-projection bench-timer bench-clients bench-bot bench-boards bench-legal bench-legal-games bench-dragons bench-magnates bench-homunculus bench-homunculus-bot bench-state-copy bench-view-encoding bench-projection-gc clean browser

help:
	@echo "make run    start PostgreSQL + NATS (embedded unless given) and every service on :50051"
	@echo "make test   run the whole test suite against real PostgreSQL and NATS"
	@echo "make soak   long property runs (not part of make test)"
	@echo "make chaos  faults under load: kills, restarts, NATS and PostgreSQL restarts (CHAOS_SECONDS)"
	@echo "make bench  benchmarks (not part of make test)"
	@echo "make fuzz   hostile requests to every RPC for FUZZ_SECONDS (default 120; not part of make test)"
	@echo "make load   load harness: moves/s and p50/p99 by tables, instances, Пузиполия, vs boardgame.io (LOAD_QUICK=1: a few minutes)"
	@echo "make lint   ruff + mypy"

# UV_NATIVE_TLS (older uv) / UV_SYSTEM_CERTS (newer): trust the system's certificates as pip
# does, not only uv's bundled roots (a TLS-inspecting proxy breaks a cold uv cache otherwise)
$(STAMP): pyproject.toml uv.lock $(wildcard libs/*/pyproject.toml services/*/pyproject.toml)
	@$(UV) --version >/dev/null 2>&1 || $(PYTHON) -m pip install --user --quiet uv || $(PYTHON) -m pip install --quiet uv
	$(Q)mkdir -p $(PROTO_OUT)/tablehall && touch $(PROTO_OUT)/tablehall/__init__.py
	@echo "installing Python packages into $(VENV) (uv sync)"
	$(Q)UV_PYTHON_DOWNLOADS=never UV_NATIVE_TLS=1 UV_SYSTEM_CERTS=1 $(UV) sync $(UV_QUIET) --frozen --python $(PYTHON)
	$(Q)touch $(STAMP)

install: $(STAMP) protos

# Generated code is built here, never committed (see .gitignore).
$(PROTO_OUT)/.stamp: $(STAMP) $(PROTOS) $(TEST_PROTOS)
	$(Q)find $(PROTO_OUT)/tablehall -mindepth 1 -delete
	@echo "generating protobuf code ($(words $(PROTOS)) files in proto/)"
	$(Q)$(call QUIETLY,PATH=$(CURDIR)/$(VENV)/bin:$$PATH $(PY) -m grpc_tools.protoc -I proto -I $(GOOGLE_PROTOS) --python_out=$(PROTO_OUT) --grpc_python_out=$(PROTO_OUT) \
		--mypy_out=$(PROTO_OUT) --mypy_grpc_out=$(PROTO_OUT) $(PROTOS))
	$(Q)find $(PROTO_OUT)/tablehall -type d -exec touch {}/__init__.py \;
	$(Q)$(call QUIETLY,PATH=$(CURDIR)/$(VENV)/bin:$$PATH $(PY) -m grpc_tools.protoc -I tests -I proto -I $(GOOGLE_PROTOS) --python_out=tests \
		--mypy_out=tests $(TEST_PROTOS))
	$(Q)touch $@

# every .proto a client in another language needs (ours and google/rpc), in build/proto
protos: $(PROTO_OUT)/.stamp
	$(Q)$(call QUIETLY,$(VENV)/bin/tablehall protos --out build/proto)

# only warnings and errors of the services' logs (V=1 or TABLEHALL_LOG_LEVEL=info: all of them)
run: install
	$(Q)TABLEHALL_LOG_LEVEL=$(RUN_LOG_LEVEL) $(VENV)/bin/tablehall up

# The browser tests (tests/web) drive Debian's Chromium, never a downloaded browser: installed
# here when missing and apt-get can run as root; elsewhere they skip, saying so in one line.
browser:
	@if ! [ -x /usr/bin/chromium ] && ! command -v chromium >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing Chromium for the browser tests (apt-get install chromium)"; \
	    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } >/dev/null 2>&1 \
	      || echo "could not install Chromium: the browser tests will be skipped"; \
	  else echo "no Chromium (/usr/bin/chromium): the browser tests will be skipped"; fi; \
	fi

# the whole suite but the long soaks (marked slow); CI runs exactly this
test: install browser
	$(VENV)/bin/pytest -q -p no:cacheprovider -m "not slow"

# long property runs and soaks (thousands of random games): not part of make test
soak: install
	$(VENV)/bin/pytest -q -p no:cacheprovider -m slow

# every service twice, bot tables of every game, scripted humans, kills and restarts (tests/chaos/chaos.py);
# CHAOS_SECONDS (300) bounds the faults
chaos: install
	$(PY) tests/chaos/chaos.py

# every RPC of every service, with honest players on other tables (tests/fuzz/fuzz_rpcs.py)
FUZZ_SECONDS ?= 120
fuzz: install
	$(PY) tests/fuzz/fuzz_rpcs.py --seconds $(FUZZ_SECONDS)

# the figures of docs/operations.md «Figures on this machine» → «Load» (tests/load/load.py);
# LOAD_QUICK=1: a reviewer's run of a few minutes; LOAD_BUDGET: stop within so many seconds
load: install
	$(PY) tests/load/load.py

# The tests type-check too, in runs of their own: pytest puts each test's folder on sys.path, so
# their modules are top-level names (so they are to mypy with tests/ on MYPYPATH), and the nine
# conftest.py, one module name, get a run each. boards_oracle is imported as boards.boards_oracle.
SOURCES = $(filter-out libs/protos/src,$(wildcard libs/*/src services/*/src))
TEST_SOURCES = $(shell find tests -name '*.py' ! -name conftest.py ! -path '*/proto/*' ! -name boards_oracle.py | sort)
MYPY_TESTS = MYPYPATH=tests $(VENV)/bin/mypy --cache-dir=.mypy_cache/tests

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(Q)echo "mypy over tests/"; $(MYPY_TESTS) $(TEST_SOURCES) $(SOURCES)
	$(Q)for conftest in $$(find tests -name conftest.py | sort); do \
	  $(MYPY_TESTS) --no-error-summary $$conftest $(SOURCES) || exit 1; done

bench: bench-match bench-reads bench-puzzipolia bench-lobby bench-projection bench-timer bench-clients bench-bot bench-boards bench-legal bench-legal-games bench-dragons bench-magnates bench-homunculus bench-homunculus-bot bench-state-copy bench-view-encoding bench-projection-gc

bench-match: install
	$(PY) tests/bench/bench_match.py

# players polling their views while they play: reads against writes (issue 30)
bench-reads: install
	$(PY) tests/bench/bench_reads.py

bench-puzzipolia: install
	$(PY) tests/bench/bench_puzzipolia.py

bench-dragons: install
	$(PY) tests/bench/bench_dragons.py

bench-magnates: install
	$(PY) tests/bench/bench_magnates.py

bench-homunculus: install
	$(PY) tests/bench/bench_homunculus.py

# the easy bot's legal read and policy per decision (spelled-out commands against descriptors)
bench-homunculus-bot: install
	$(PY) tests/bench/bench_homunculus_bot.py

# the copy every decide works on (clone), planned per state type against a msgpack round trip
bench-state-copy: install
	$(PY) tests/bench/bench_state_copy.py

# a view's JSON in an answer, shared parts encoded once (encode_view), against the whole view each time
bench-view-encoding: install
	$(PY) tests/bench/bench_view_encoding.py

# the collector's cost to the projection's live feeds (what survives a young collection)
bench-projection-gc: install
	$(PY) tests/bench/bench_projection_gc.py

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

bench-legal: install
	$(PY) tests/bench/bench_legal.py

bench-legal-games: install
	$(PY) tests/bench/bench_legal_games.py

bench-boards: install
	$(PY) tests/bench/bench_boards.py

# docs/reasons.md from the code (a test fails when it is behind)
reasons: install
	$(VENV)/bin/tablehall reasons > docs/reasons.md

clean:
	rm -rf $(VENV) $(PROTO_OUT)/tablehall .data
