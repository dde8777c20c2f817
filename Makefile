# Quick start: `make run` opens the app, `make test` runs lint, the type checker, the layer
# contracts and every test.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test lint typecheck contracts bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.installed

run: $(VENV)/.installed
	$(BIN)/banker

lint: $(VENV)/.installed-test
	$(BIN)/ruff check banker tests bench sample_sessions docs

typecheck: $(VENV)/.installed-test
	$(BIN)/mypy

contracts: $(VENV)/.installed-test
	$(BIN)/lint-imports

test: lint typecheck contracts
	$(BIN)/python -m pytest -q

bench: $(VENV)/.installed-test
	$(BIN)/python bench/run_all.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache
