# Two commands do everything on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install peers run test bench lint clean

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

# Test-only peers in a venv of their own, which the project's venv never imports: RLCard 1.2 and
# DouZero 1.1, whose Dou Dizhu move rules tests/test_doudizhu_peers.py compares with ours through
# tests/peers/ddz_peer.py. DouZero's package declares torch and rlcard, but its move code
# (douzero.env) needs neither: --no-deps. RLCard unzips its action space into site-packages on the
# first import, done here once. Made once, then kept; a failed install fails `make test`.
PEERS := .venv-peers/ddz
PEERS_STAMP := $(PEERS)/.installed

peers: $(PEERS_STAMP)

$(PEERS_STAMP):
	rm -rf $(PEERS)
	$(PYTHON) -m venv $(PEERS)
	$(PEERS)/bin/python -m pip install -q numpy 'rlcard==1.2.0'
	$(PEERS)/bin/python -m pip install -q --no-deps 'douzero==1.1.0'
	$(PEERS)/bin/python -c "import sys, rlcard.games.doudizhu.utils, douzero.env.game; assert 'torch' not in sys.modules"
	touch $(PEERS_STAMP)

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
	rm -rf $(VENV) .venv-peers build *.egg-info .pytest_cache .ruff_cache
