# make is the single entry point: install, check, test, run, bench.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install run serve test lint types unit unit-postgresql integration browser bench clean

$(STAMP): requirements.txt requirements-train.txt requirements-dev.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $(STAMP)

install: $(STAMP)

## Run the site, a Celery worker and its scheduler on SQLite with a server-less broker.
run: $(STAMP)
	bin/run

## Run in production: setup, gunicorn, both Celery workers and the scheduler (README, "Running in production").
serve: $(STAMP)
	bin/serve

## Lint, types, the unit and embedded-broker suite (with coverage), the same suite without the
## browser on real PostgreSQL, then the integration suite on real PostgreSQL + Redis.
test: lint types unit unit-postgresql integration

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

types: $(STAMP)
	$(VENV)/bin/mypy .

unit: $(STAMP)
	$(PY) -m tests.run_pytest -m "not integration" --cov --cov-report=term:skip-covered

unit-postgresql: $(STAMP)
	$(PY) -m tests.servers $(PY) -m tests.run_pytest -m "not integration and not browser"

integration: $(STAMP)
	$(PY) -m tests.servers $(PY) -m tests.run_pytest -m integration

bench: $(STAMP)
	$(PY) bench/render.py
	$(PY) bench/page_weight.py
	$(PY) bench/blank_templates.py
	$(PY) bench/captions.py
	$(PY) bench/pipeline.py

clean:
	rm -rf var .mypy_cache .ruff_cache .pytest_cache
