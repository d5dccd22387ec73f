# Two commands do everything on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

CHROMIUM ?= /usr/bin/chromium

.PHONY: install peers peers-test clean-peers run test bench fuzz lint clean browser

# The ray extra too: the tests of --ray start a real (local) Ray cluster (tests/test_ray.py).
install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev,ray]'
	touch $(STAMP)

# Test-only peers, each in a venv of its own which the project's venv never imports; made once,
# then kept; a failed install fails `make test`.
# - hk: PyPI hk-mahjong 0.1.0 scores random Hong Kong hands beside mjcli's scorer (tests/test_hk_peer.py).
# - ddz: RLCard 1.2 and DouZero 1.1, whose Dou Dizhu move rules tests/test_doudizhu_peers.py compares
#   with ours through tests/peers/ddz_peer.py. DouZero's package declares torch and rlcard, but its
#   move code (douzero.env) needs neither: --no-deps. RLCard unzips its action space into
#   site-packages on the first import, done here once.
# - riichienv: RiichiEnv 0.4.11 (a Rust Riichi engine, four- and three-player) plays the games whose
#   logs tests/test_riichienv_arena.py verifies (tests/peers/riichienv_arena.py; mahjong for the
#   bots' shanten). The bench's copy (the bench extra) lives in the project's venv, for timing only.
PEERS := .venv-peers
HK_PEER := $(PEERS)/hk/.installed
DDZ_PEER := $(PEERS)/ddz/.installed
MJAI_PEER := $(PEERS)/mjai.stamp
RIICHIENV_PEER := $(PEERS)/riichienv/.installed

peers: $(HK_PEER) $(DDZ_PEER) $(MJAI_PEER) $(RIICHIENV_PEER)

$(HK_PEER):
	test -x $(PEERS)/hk/bin/python || $(PYTHON) -m venv $(PEERS)/hk
	$(PEERS)/hk/bin/python -m pip install -q 'hk-mahjong==0.1.0'
	touch $(HK_PEER)

$(RIICHIENV_PEER):
	test -x $(PEERS)/riichienv/bin/python || $(PYTHON) -m venv $(PEERS)/riichienv
	$(PEERS)/riichienv/bin/python -m pip install -q 'riichienv==0.4.11' mahjong
	touch $(RIICHIENV_PEER)

$(DDZ_PEER):
	rm -rf $(PEERS)/ddz
	$(PYTHON) -m venv $(PEERS)/ddz
	$(PEERS)/ddz/bin/python -m pip install -q numpy 'rlcard==1.2.0'
	$(PEERS)/ddz/bin/python -m pip install -q --no-deps 'douzero==1.1.0'
	$(PEERS)/ddz/bin/python -c "import sys, rlcard.games.doudizhu.utils, douzero.env.game; assert 'torch' not in sys.modules"
	touch $(DDZ_PEER)

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
	$(BIN)/mjcli report build/replay-fixture -o build/replay-fixture/report.html
	@echo "report: $(CURDIR)/build/replay-fixture/report.html"

lint: install
	$(BIN)/ruff check mjcli tests benchmarks fixtures examples
	$(BIN)/ruff format --check mjcli tests benchmarks fixtures examples

test: lint peers browser
	$(BIN)/python -m pytest

# Debian's chromium for the browser tests of `mjcli report` (Playwright drives it; it downloads no
# browser). Installed as root or with passwordless sudo; elsewhere the browser tests skip and say why.
browser:
	@if [ -x "$(CHROMIUM)" ]; then echo "chromium: $$($(CHROMIUM) --version 2>/dev/null)"; \
	elif ! command -v apt-get >/dev/null; then echo "chromium: no apt-get here; the browser tests will skip"; \
	else \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; \
	  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then SUDO="sudo -n"; \
	  else echo "chromium: not installed, and neither root nor passwordless sudo; the browser tests will skip"; exit 0; fi; \
	  echo "chromium: installing Debian's package (about a minute)"; \
	  $$SUDO apt-get update -qq || echo "chromium: apt-get update failed; trying the package lists there are"; \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends chromium >/dev/null \
	    && echo "chromium: installed $$($(CHROMIUM) --version 2>/dev/null)" \
	    || echo "chromium: apt-get install failed; the browser tests will skip"; \
	fi
# Test-only peer: mjai.app's RiichiBot (PyPI mjai
# 0.2.1, CPython 3.10-3.12 wheels only). Made once; without a fitting Python or network the reason is
# written to $(PEERS)/mjai.unavailable and the RiichiBot tests skip with it. `make clean-peers` to retry.

$(MJAI_PEER):
	mkdir -p $(PEERS)
	sh tests/peers/setup_mjai.sh $(PEERS)/mjai

# The RiichiBot proof at full size: every shared tenhou-xml log replayed, 4 hanchan with RiichiBot in
# one seat and 4 in all four; 440 games libriichi plays and 140 RiichiEnv plays, verified (make test
# runs a smaller set of the same tests).
peers-test: install peers
	MJCLI_PEERS_FULL=1 $(BIN)/python -m pytest tests/test_riichibot.py tests/test_libriichi_arena.py tests/test_riichienv_arena.py

clean-peers:
	rm -rf $(PEERS)

# The bench extra (RiichiEnv and xiangting, Rust wheels on PyPI) goes into the project's venv: the
# speed benchmark times them in the same process as mjcli (mjcli and its tests never import them).
# Installed once, again when pyproject.toml changes.
BENCH_STAMP := $(VENV)/.bench-installed

$(BENCH_STAMP): $(STAMP)
	$(BIN)/python -m pip install -q -e '.[dev,ray,bench]'
	touch $(BENCH_STAMP)

bench: $(BENCH_STAMP)
	$(BIN)/python -m benchmarks

# Every reader and the hand parser on mutated real logs and random strings, FUZZ_SECONDS per target
# (make test runs the same targets for a few seconds); prints how many inputs each one took. Then
# every property test with fresh random examples (make test draws the same ones every run: see
# tests/conftest.py).
FUZZ_SECONDS ?= 60
fuzz: install
	$(BIN)/python tests/fuzz.py --seconds $(FUZZ_SECONDS)
	MJCLI_HYPOTHESIS=random $(BIN)/python -m pytest -q $$(grep -l "@given" tests/test_*.py)

clean: clean-peers
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache
