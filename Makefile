# Two commands matter: `make run` and `make test`. Everything else is a helper for them.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
HOST ?= 0.0.0.0
PORT ?= 5000

.PHONY: run test suite check lint bench system-deps migrate clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# pip installs one tool, uv (pinned: it resolves, downloads and installs in parallel and
# compiles the libraries on every core; pip took about three times as long, a minute of a
# fresh machine's `make test`), and uv installs the rest. -q shows errors only.
UV_VERSION := 0.13.8
$(STAMP): pyproject.toml | $(BIN)/python
	@echo "Installing scorekeeper and its libraries into $(VENV) (the first time only)..."
	@$(BIN)/python -m pip install -qq uv==$(UV_VERSION)
	@$(BIN)/uv pip install -q --python $(BIN)/python --compile-bytecode -e '.[test]'
	@touch $(STAMP)

# Debian packages the tests drive for real: Chromium (browser tests), poppler (PDF to PNG)
# and a PostgreSQL server (the store's tests run on SQLite and again on PostgreSQL).
# Chromium's headless shell (same source and version as chromium) is wanted, not needed:
# the browser tests take a third of the CPU in it they take in the full browser's headless
# mode (tests/web/browser.py), and fall back to chromium where it cannot be installed.
APT := DEBIAN_FRONTEND=noninteractive apt-get install -y -qq
system-deps:
	@if ! command -v chromium >/dev/null || ! command -v pdftoppm >/dev/null \
			|| ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
		if [ "$$(id -u)" = 0 ]; then \
			apt-get update -qq && $(APT) chromium poppler-utils postgresql >/dev/null; \
		else \
			echo "chromium, poppler-utils or postgresql missing and not root: those tests will be skipped"; \
		fi; \
	fi
	@if ! command -v chromium-headless-shell >/dev/null && [ "$$(id -u)" = 0 ]; then \
		$(APT) chromium-headless-shell >/dev/null 2>&1 \
			|| (apt-get update -qq && $(APT) chromium-headless-shell >/dev/null 2>&1) \
			|| echo "chromium-headless-shell not installed: the browser tests run in chromium"; \
	fi

migrate: $(STAMP)
	@$(BIN)/scorekeeper migrate

run: $(STAMP) migrate
	@$(BIN)/scorekeeper serve --host $(HOST) --port $(PORT)

# ruff format is the house format: `ruff format .` before committing, checked here.
lint: $(STAMP)
	$(BIN)/ruff format --check .
	$(BIN)/ruff check .
	$(BIN)/mypy

# The whole suite spread over the cores (pytest-xdist); an idle worker takes tests from a
# busy one (worksteal), so no long test file at the end leaves a core idle. The package is
# compiled once first: where PYTHONDONTWRITEBYTECODE is set (this machine sets it), every
# process of the run (the workers, each test's server, the command line's) would otherwise
# compile it again, 0.4 s of CPU each.
# One worker more than the cores: the extra worker runs tests while another waits on a
# browser, a server starting or a socket. More do not help: the cores are already 92 %
# busy over a run (/proc/stat), and two workers a core made pytest slower (11 min 24 s
# against 9 min 59 s; docs/performance.md, "Test suite").
# The lint runs beside the tests, not before them: mypy's cold run on a fresh clone is
# half a minute of one core before the first test; either failing fails the run.
WORKERS ?= $(shell echo $$(( $$(nproc) + 1 )))
# The packages install while the libraries do; then the lint beside the tests.
test:
	@$(MAKE) --no-print-directory -j 2 $(STAMP) system-deps
	@$(MAKE) --no-print-directory -j 2 lint suite

# pytest rewrites the asserts of every test module and of its plugins' packages
# (Hypothesis, schemathesis) in each worker, 14 of a worker's 21 s of CPU collecting on a
# fresh clone, unless it may keep the rewritten modules in __pycache__, which
# PYTHONDONTWRITEBYTECODE forbids. One collection that may keep them (its errors, if
# any, are the run's to report) lets each worker read them: 21 -> 8 s of CPU a worker.
suite: $(STAMP)
	@$(BIN)/python -m compileall -q -j 0 scorekeeper
	@PYTHONDONTWRITEBYTECODE= $(BIN)/pytest --collect-only -q -p no:xdist >/dev/null 2>&1 || true
	$(BIN)/pytest -n $(WORKERS) --dist worksteal

# The quick loop while editing: lint, then the engine, the ledger and the pages through
# the test client (no browser, no PostgreSQL, no servers, fuzzers or PDF images), the
# brute-force comparisons with a tenth of their examples, spread over the cores
# (pytest-xdist). CI runs `make test`.
check: $(STAMP) lint
	SCOREKEEPER_QUICK=1 $(BIN)/pytest -q -x -n auto -m "not browser and not postgres" \
		tests/engine tests/ledger tests/store tests/test_layers.py tests/web scorekeeper

bench: $(STAMP)
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
