# Two commands do everything on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install run test bench fuzz lint clean

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

test: lint
	$(BIN)/python -m pytest

bench: install
	$(BIN)/python -m benchmarks

# Every reader and the hand parser on mutated real logs and random strings, FUZZ_SECONDS per target
# (make test runs the same targets for a few seconds); prints how many inputs each one took.
FUZZ_SECONDS ?= 60
fuzz: install
	$(BIN)/python tests/fuzz.py --seconds $(FUZZ_SECONDS)

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache
