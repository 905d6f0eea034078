# The README's commands. `make run` and `make test` are the two that matter.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
HOST ?= 127.0.0.1:8000
# `make test` spreads the test files over this many processes (pytest-xdist), each with its
# own test database; `auto` is one per CPU. Files go out in collection order, the ones with
# a slow test first (tests/conftest.py), not xdist's default of the most tests first, which
# left the one-test, minutes-long files (make run, the fuzz run) to start last, alone.
TEST_WORKERS ?= auto

# The development targets run with DEBUG on (fixed dev keys); production sets DEBUG=false
# with real keys and uses `make worker` / `make beat` under its own environment.
run test typecheck bench seed migrate install-dev install-peers: export DEBUG ?= true

# `make typecheck` runs mypy alone (configured in pyproject.toml); `make test` runs it too.
.PHONY: run test typecheck lint format bench worker beat install install-dev install-peers migrate seed clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q -e .
	touch $@

$(VENV)/.installed-dev: $(VENV)/.installed pyproject.toml
	$(PIP) install -q -e '.[dev]'
	touch $@

# The peers Memory Console is compared with (bench/bench_peers.py): heavy, so only `make bench`.
$(VENV)/.installed-peers: $(VENV)/.installed-dev pyproject.toml
	$(PIP) install -q -e '.[dev,peers]'
	touch $@

install: $(VENV)/.installed

install-dev: $(VENV)/.installed-dev

install-peers: $(VENV)/.installed-peers

migrate: install
	$(PY) manage.py migrate --noinput

seed: migrate
	$(PY) manage.py seed_demo

run: seed
	$(PY) manage.py collectstatic --noinput -v 0
	@echo "Memory Console on http://$(HOST)/login/"
	$(PY) manage.py runserver $(HOST)

test: install-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(PY) manage.py makemigrations --check --dry-run
	$(VENV)/bin/mypy
	$(VENV)/bin/pytest -q -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder

typecheck: install-dev
	$(VENV)/bin/mypy

lint: install-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: install-dev
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

bench: install-peers
	$(PY) bench/run.py

worker: install
	$(VENV)/bin/celery -A memory_console worker -l info

beat: install
	$(VENV)/bin/celery -A memory_console beat -l info --scheduler django_celery_beat.schedulers:DatabaseScheduler

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles
