# Two commands on a fresh clone: `make run` and `make test`. See README.md.
SHELL := /bin/bash
# The Pythons that pyproject.toml accepts (.ci/check-python-versions checks the same list). The venv
# is made with the newest python3.X on PATH that runs and has venv, else python3 if it is one of
# them; `make PYTHON=python3.12 install` chooses.
PYTHONS := 3.14 3.13 3.12 3.11 3.10
FIND_PYTHON := for v in $(PYTHONS) ''; do p=python$${v:-3}; $$p -c 'import sys, ensurepip, venv; \
	sys.exit("%d.%d" % sys.version_info[:2] not in "$(PYTHONS)".split())' 2>/dev/null \
	&& echo $$p && exit; done; echo "make: needs one of Python $(PYTHONS) with its venv module" \
	"on PATH (python3.X or python3), or PYTHON=..." >&2; exit 1
PYTHON ?= $$($(FIND_PYTHON))
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install run test lint format bench messages clean

$(STAMP): pyproject.toml
	@test -x $(PY) || { python=$(PYTHON) && $$python -m venv $(VENV); }
	@# uv installs the dependency set in about a third of pip's time (13 s against 39 here); pip
	@# only installs uv itself.
	$(PY) -m pip install --quiet uv
	$(VENV)/bin/uv pip install --quiet --python $(PY) -e '.[dev]'
	@touch $(STAMP)

install: $(STAMP)

# Serves on http://$(HOST):$(PORT). With REDIS_URL set, a Celery worker and Celery beat run beside
# Daphne, beat as a process of its own: a worker that dies must not take the sweep (which finds
# the work it lost) down with it. Ctrl-C stops them all.
run: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py collectstatic --noinput --verbosity 0
	@trap 'kill 0' EXIT; \
	if [ -n "$$REDIS_URL" ]; then \
		$(VENV)/bin/celery -A condottiere_site worker -Q play -n play@%h \
			--loglevel INFO --concurrency 2 & \
		$(VENV)/bin/celery -A condottiere_site worker -Q background -n background@%h \
			--loglevel INFO --concurrency 1 & \
		$(VENV)/bin/celery -A condottiere_site beat --schedule $(VENV)/celerybeat-schedule \
			--loglevel INFO & \
	fi; \
	$(PY) -m condottiere_site.serve -b $(HOST) -p $(PORT) condottiere_site.asgi:application

# On parallel workers, one per core (TEST_WORKERS=0 runs in this one process): CI must stay under
# 20 minutes on 2 cores. A file's tests stay on one worker, which keeps its module fixtures (a
# browser, a live server) to one start. Each worker has its own test database and Redis database
# (tests/conftest.py: Redis databases 1 to 6, hence at most 6 workers).
TEST_WORKERS ?= auto
test: install
	$(PY) -m pytest -n $(TEST_WORKERS) --maxprocesses 6 --dist loadfile

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: install
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

# Speed figures, printed: the engine (about 20 s), then the bots with the cost of their hand
# inference (about 40 s), then Renaissance random games (about 15 s), then the size and build time
# of Renaissance state frames (about 30 s), then the computer analysis of one 4-player game (about
# a minute), then the CPU of one move on the production path (about 20 s: PostgreSQL and Redis at
# 127.0.0.1:5432 and :6379; it recreates the database condottiere_bench).
bench: install
	$(PY) -m tests.bench.bench_engine
	$(PY) -m tests.bench.bench_ai
	$(PY) -m tests.bench.bench_renaissance
	$(PY) -m tests.bench.bench_frames
	$(PY) -m tests.bench.bench_analysis
	$(PY) -m tests.bench.bench_moves

# Load figures, printed (about 10 minutes on 2 cores): the production profile started on loopback
# against this machine's PostgreSQL and Redis, then four scenarios: Renaissance's just after
# fast, its Condottiere counterpart, so that their figures are read side by side. See
# docs/operations.md. `make loadtest ROOT=../other-checkout` runs the same scenarios against the
# servers of another checkout (its own commit), to set a change's before beside its after.
LOADTEST_SITE = $(if $(ROOT),--root $(ROOT))
.PHONY: loadtest
loadtest: install
	$(PY) -m tests.load.loadtest fast --games 100 --duration 60 $(LOADTEST_SITE)
	$(PY) -m tests.load.loadtest renaissance --games 50 --duration 60 $(LOADTEST_SITE)
	$(PY) -m tests.load.loadtest paced --games 200 --duration 60 $(LOADTEST_SITE)
	$(PY) -m tests.load.loadtest spectators --spectators 1000 --duration 60 $(LOADTEST_SITE)

# Abuse probes, printed (about two minutes): the production profile started on loopback, then what an
# attacker would try. See docs/security.md.
.PHONY: probe
probe: install
	$(PY) -m tests.load.probes

# French and Italian catalogues. File-only locations and no obsolete entries, so that running it
# again leaves the tree clean unless a translatable string really changed.
messages: install
	$(PY) manage.py makemessages -l fr -l it --ignore '.venv/*' --ignore 'tests/*' \
		--ignore 'staticfiles/*' --ignore 'test-artifacts/*' --add-location file --no-obsolete
	$(PY) manage.py compilemessages --ignore '.venv/*'

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache .hypothesis test-db.sqlite3
