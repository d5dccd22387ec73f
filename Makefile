# Two commands do everything on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install run test bench lint clean

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

# The main job on data the project ships: the simulated games in fixtures/simulate (see
# fixtures/README.md) verified by the rules engine, then every decision replayed through every policy.
run: install
	$(BIN)/mjcli verify fixtures/simulate/logs
	$(BIN)/mjcli replay fixtures/simulate/logs/*.json --out build/replay-fixture

lint: install
	$(BIN)/ruff check mjcli tests benchmarks
	$(BIN)/ruff format --check mjcli tests benchmarks

test: lint
	$(BIN)/python -m pytest

bench: install
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache
