# Two commands do everything on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

PEERS := .venv-peers

.PHONY: install run test bench lint clean peers peers-test clean-peers

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

# The main job on data the project ships: the simulated games in fixtures/simulate (see
# fixtures/README.md) are simulated again and compared byte for byte, verified by the rules engine,
# then every decision in them is replayed through every policy and summarised.
run: install
	$(BIN)/mjcli simulate --games 4 --seed 2026 --length tonpuu --out build/sim-fixture > /dev/null
	diff -r build/sim-fixture/logs fixtures/simulate/logs
	cmp build/sim-fixture/summary.json fixtures/simulate/summary.json
	@echo "simulate: the fixture games are reproduced byte for byte"
	$(BIN)/mjcli verify fixtures/simulate/logs
	$(BIN)/mjcli replay fixtures/simulate/logs/*.json --out build/replay-fixture

lint: install
	$(BIN)/ruff check mjcli tests benchmarks
	$(BIN)/ruff format --check mjcli tests benchmarks

test: lint peers
	$(BIN)/python -m pytest

# Test-only peers in venvs of their own (never imported by mjcli): mjai.app's RiichiBot (PyPI mjai
# 0.2.1, CPython 3.10-3.12 wheels only). Made once; without a fitting Python or network the reason is
# written to $(PEERS)/mjai.unavailable and the RiichiBot tests skip with it. `make clean-peers` to retry.
peers: $(PEERS)/mjai.stamp

$(PEERS)/mjai.stamp:
	mkdir -p $(PEERS)
	sh tests/peers/setup_mjai.sh $(PEERS)/mjai

# The RiichiBot proof at full size: every shared tenhou-xml log replayed, 4 hanchan with RiichiBot in
# one seat and 4 in all four (make test runs a smaller set of the same tests).
peers-test: install peers
	MJCLI_PEERS_FULL=1 $(BIN)/python -m pytest tests/test_riichibot.py

clean-peers:
	rm -rf $(PEERS)

bench: install
	$(BIN)/python -m benchmarks

clean: clean-peers
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache
