# The two set-up commands of the README. Each creates its own virtual environment.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# each module is compiled once, at its first import, and kept (see install-test)
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run test lint install install-test system-deps offline pytest

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

# what `make run` needs: the web platform, and the terminal games its message mentions
install: $(BIN)/python
	$(BIN)/pip install --quiet -e '.[web,terminal]'

# node_modules (package-lock.json pins them): axe-core for the accessibility checks of the browser
# tests, Biome for lint, Pyodide for the offline bundle. A stamp in the venv says both are done for
# this pyproject.toml and package-lock.json, so the targets below that need them do not ask pip and
# npm again. Bytecode: pip compiles every module on one core, most of them never imported by a
# test; instead each module is compiled at its first import and kept, for every later worker,
# server and subprocess. PYTHONDONTWRITEBYTECODE (set on the CI machine) would make Python compile
# torch, starlette and the engine from source in every one of them, so it is not passed on.
install-test: $(VENV)/.installed-test
$(VENV)/.installed-test: pyproject.toml package-lock.json | $(BIN)/python
	$(BIN)/pip install --quiet --no-compile -e '.[all,test,docs]'
	npm ci --no-audit --no-fund --silent
	touch $@

# The offline bundle in build/offline (scripts/build_offline.py): Pyodide's runtime from node_modules,
# msgspec's Pyodide wheel from PyPI (a pinned pip download) and a wheel of the engine built from src/;
# and the pinned wheels the tests run pytest with under Pyodide (build/downloads).
offline: install-test
	$(BIN)/python scripts/build_offline.py --test-wheels

# Debian's chromium for the browser tests, PostgreSQL for the storage tests (and its pg_dump for the
# backups), redis-server for the tests of several server processes, nginx and openssl for the rolling
# restart behind a proxy and the deployment examples' checks, and ICU's headers with a compiler for
# PyICU (the web extra's confusable check of ladder names builds against the system's ICU), and an
# emoji font so that the browser tests' screenshots show reactions as phones do (run as root).
# Where dpkg already has every one of them installed, apt is not asked (its update alone takes seconds).
DEBIAN_PACKAGES := chromium postgresql redis-server nginx openssl libicu-dev pkg-config g++ fonts-noto-color-emoji
system-deps:
	@if command -v apt-get >/dev/null 2>&1 && [ "$$(dpkg-query -W -f='$${db:Status-Status}\n' $(DEBIAN_PACKAGES) \
	  2>/dev/null | grep -cx installed)" -ne $(words $(DEBIAN_PACKAGES)) ]; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(DEBIAN_PACKAGES) >/dev/null; \
	fi

# The main job: the web platform (prints its address; `mauseloch play mau-mau` plays in the terminal).
run: install
	$(BIN)/mauseloch serve

# Biome (package-lock.json pins it) lints the web page's modules in src/mauseloch/web/js and the Node
# scripts in scripts/ (biome.jsonc).
lint: install-test
	$(BIN)/ruff check src tests bench scripts examples
	$(BIN)/ruff format --check src tests bench scripts examples
	npx biome lint
	$(BIN)/mypy
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet --site-dir $(VENV)/site

# lint and pytest run side by side (make -j2): most of the suite's long tests wait (a browser, a
# server's clock, a subprocess), and mypy fills that time on the second core.
test: system-deps install-test
	@$(MAKE) --no-print-directory -j2 lint pytest

# PostgreSQL for the storage tests: scripts/start-postgres.sh prints its URL (nothing without root);
# Redis for the tests of several server processes: scripts/start-redis.sh (nothing without redis-server).
pytest: install-test offline
	@url="$${MAUSELOCH_TEST_PG_URL:-$$(sh scripts/start-postgres.sh)}" && \
	  if [ -n "$$url" ]; then export MAUSELOCH_TEST_PG_URL="$$url"; fi && \
	  rurl="$${MAUSELOCH_TEST_REDIS_URL:-$$(PYTHON=$(BIN)/python sh scripts/start-redis.sh)}" && \
	  if [ -n "$$rurl" ]; then export MAUSELOCH_TEST_REDIS_URL="$$rurl"; fi && \
	  $(BIN)/python -m pytest -q -n 3 --dist loadfile --no-loadscope-reorder --durations=25
