# make is the single entry point: install, check, test, run, bench.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# One stamp per requirements set, each a superset of the one before: what the site runs
# (requirements.txt), the lab's training and evaluation (lab/requirements.txt), and the
# development tools, which include the lab's because the suite tests the lab too.
SITE_STAMP := $(VENV)/.installed-site
LAB_STAMP := $(VENV)/.installed-lab
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: install lab-install dev-install run serve test lint types unit unit-postgresql integration browser bench clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(SITE_STAMP): requirements.txt | $(PY)
	$(PY) -m pip install --quiet -r requirements.txt
	touch $@

$(LAB_STAMP): requirements.txt lab/requirements.txt | $(PY)
	$(PY) -m pip install --quiet -r lab/requirements.txt
	touch $@ $(SITE_STAMP)

$(DEV_STAMP): requirements.txt lab/requirements.txt requirements-dev.txt | $(PY)
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $@ $(LAB_STAMP) $(SITE_STAMP)

## What the site runs (web, workers, scheduler): no lab, no test tools.
install: $(SITE_STAMP)

## The lab: training, evaluating and judging the caption model and the content check (lab/README.md).
lab-install: $(LAB_STAMP)

## The lab and the test, lint and type tools.
dev-install: $(DEV_STAMP)

## Run the site, a Celery worker and its scheduler on SQLite with a server-less broker.
run: $(SITE_STAMP)
	bin/run

## Run in production: setup, gunicorn, both Celery workers and the scheduler (README, "Running in production").
serve: $(SITE_STAMP)
	bin/serve

## Lint, types, the unit and embedded-broker suite (with coverage), the same suite without the
## browser on real PostgreSQL, then the integration suite on real PostgreSQL + Redis.
test: lint types unit unit-postgresql integration

lint: $(DEV_STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

types: $(DEV_STAMP)
	$(VENV)/bin/mypy .

unit: $(DEV_STAMP)
	$(PY) -m tests.run_pytest -m "not integration" --cov --cov-report=term:skip-covered

unit-postgresql: $(DEV_STAMP)
	$(PY) -m tests.servers $(PY) -m tests.run_pytest -m "not integration and not browser"

integration: $(DEV_STAMP)
	$(PY) -m tests.servers $(PY) -m tests.run_pytest -m integration

bench: $(DEV_STAMP)
	$(PY) bench/render.py
	$(PY) bench/page_weight.py
	$(PY) bench/blank_templates.py
	$(PY) bench/captions.py
	$(PY) bench/pipeline.py

clean:
	rm -rf var .mypy_cache .ruff_cache .pytest_cache
