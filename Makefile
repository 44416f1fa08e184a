# Two commands do all setup on a fresh machine:
#   make demo   - install, then play a full Wool Bluff match with bots on the embedded world
#   make test   - install (Python and, where Node exists, server/ deps), then run every test
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: demo test lint bench mutation golden server install node-deps clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,dev]'
	touch $(STAMP)

install: $(STAMP)

node-deps:
	@if [ ! -f server/package-lock.json ]; then echo "no server/package-lock.json: nothing to install"; \
	elif command -v npm >/dev/null 2>&1; then \
	  if [ ! -d server/node_modules ] || [ server/package-lock.json -nt server/node_modules/.package-lock.json ]; then \
	    (cd server && npm ci --no-audit --no-fund --loglevel=error); \
	  fi; \
	else echo "npm not found: server/ tests will be skipped"; fi

demo: $(STAMP)
	$(VENV)/bin/mcbridge demo --seed 7 --players 4

# The suite runs on two pytest-xdist workers where the machine has two cores or more (much of
# a test's time is spent waiting on a server's ticks, so two overlap well on 2 cores); one
# process on a single core. [decided here] Turned on after three green parallel runs in a row
# at load 4-6 (733-760 s, against 797-834 s serial on a quiet machine). TEST_WORKERS=0 forces
# one process (e.g. to read a failure's output in order).
TEST_WORKERS ?= $(shell [ "$$(nproc 2>/dev/null || echo 1)" -ge 2 ] && echo 2 || echo 0)
test: $(STAMP) node-deps
	$(PY) -m pytest -q -n $(TEST_WORKERS) --dist worksteal

lint: $(STAMP)
	$(VENV)/bin/ruff check mcbridge worldgen tests bench
	$(VENV)/bin/mypy

bench: $(STAMP)
	$(PY) bench/rules.py
	$(PY) bench/world_io.py
	$(PY) bench/worldgen.py
	$(PY) bench/tables.py

# Mutation score per module (bench/mutation.py): the small modules by default, at low priority;
# MODULES="chips journal" picks some, MODULES=--all runs every module (games, pipeline: hours).
mutation: $(STAMP)
	nice -n 19 $(PY) bench/mutation.py $(MODULES)

# Rewrite tests/golden/*.txt (one bot transcript per game and ruleset) after a deliberate
# rules, bot or RNG change; review the diff and commit it with the change.
golden: $(STAMP)
	$(PY) tests/games/golden.py

server: $(STAMP) node-deps
	$(VENV)/bin/mcbridge server

clean:
	rm -rf $(VENV) server/node_modules .pytest_cache .mypy_cache .hypothesis
