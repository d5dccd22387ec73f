# Two commands do everything on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install run test bench lint clean peers

install: $(STAMP)

# Test-only peers, each in its own venv (never a dependency of mjcli): PyPI hk-mahjong 0.1.0 scores
# random Hong Kong hands beside mjcli's scorer in tests/test_hk_peer.py. Made once, then kept.
PEERS := .venv-peers
HK_PEER := $(PEERS)/hk/.installed

peers: $(HK_PEER)

$(HK_PEER):
	test -x $(PEERS)/hk/bin/python || $(PYTHON) -m venv $(PEERS)/hk
	$(PEERS)/hk/bin/python -m pip install -q 'hk-mahjong==0.1.0'
	touch $(HK_PEER)

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

bench: install
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) $(PEERS) build *.egg-info .pytest_cache .ruff_cache
