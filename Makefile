# Two commands on a fresh machine: `make demo` and `make test`.
# `make demo` installs gameproof alone (numba, PySAT, dratify, rich, Textual); `make test` adds the test
# extras and Ray (for the tests of `--backend ray`); `make bench` adds z3. Each set is installed once
# (a stamp file in .venv per set), and again when pyproject.toml changes.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: demo test test-heavy bench clean

$(BIN)/python:
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "gameproof needs Python >= 3.11"'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed-demo: $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[test,ray]'
	touch $@

demo: $(VENV)/.installed-demo
	$(BIN)/gameproof demo

# Two test processes (pytest-xdist), as many as a 2-core machine has; the tests that start Ray run on one of them.
test: $(VENV)/.installed-test
	$(BIN)/python -m pytest -n 2 --dist loadgroup

test-heavy: $(VENV)/.installed-test
	$(BIN)/python -m pytest -m heavy

bench: $(VENV)/.installed-test
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	$(BIN)/python bench/run_all.py

clean:
	rm -rf $(VENV) build src/*.egg-info .pytest_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
