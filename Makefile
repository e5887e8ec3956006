# Topcut: the two set-up commands are `make run` and `make test` (see README.md).
# Both create .venv, install the Python and npm dependencies when their
# manifests changed, and build the browser assets into build/web/.

PYTHON ?= python3
VENV := .venv
VPY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
HALL_PORT ?= 8443
HALL ?= 1

# Debian packages `make test` needs (nginx: the scale-out test's reverse proxy, docs/deploy.md).
DEBIAN_PACKAGES := chromium postgresql nginx

# Stamps live inside what they describe, so deleting .venv or node_modules
# also forgets that they were installed.
PIP_STAMP := $(VENV)/.topcut-installed
NPM_STAMP := node_modules/.topcut-installed

.PHONY: run test check check-python check-js install build debian-packages
.DEFAULT_GOAL := run

# HTTP on this laptop, HTTPS on the hall network (HALL=0: HTTP only); see README "Hall network".
run: install build
	HOST=$(HOST) PORT=$(PORT) HALL_PORT=$(HALL_PORT) HALL=$(HALL) $(VPY) -m backend.serve

# Every check always runs and any failing fails make test: the code checks (ruff, mypy, ESLint, the
# JavaScript unit tests), the shared_rules suite inside Pyodide, then pytest last, so that pytest's
# summary closes the output.
test: debian-packages install build
	@status=0; \
	$(MAKE) --no-print-directory check || status=1; \
	node tests/pyodide/run_rules.mjs || status=1; \
	$(VPY) -m pytest || status=1; \
	exit $$status

# The code checks alone (what the pre-commit hooks run): both halves always run.
check: install
	@status=0; \
	$(MAKE) --no-print-directory check-python || status=1; \
	$(MAKE) --no-print-directory check-js || status=1; \
	exit $$status

# Lint, format and type checks of the Python code (pyproject.toml: ruff check, ruff format, mypy: strict on
# shared_rules, checked on backend).
check-python: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

# The JavaScript: ESLint (the app's layers too), the type check of the files marked `// @ts-check`
# (tsconfig.json: data/, app/, the result form), then the Node unit tests (tests/js/); npm ci installs all
# three (devDependencies).
check-js: $(NPM_STAMP)
	npm run --silent lint
	npm run --silent typecheck
	npm run --silent test:js

install: $(PIP_STAMP) $(NPM_STAMP)

$(VPY):
	$(PYTHON) -m venv $(VENV)

# The editable install is a plain path in a .pth file (editable_mode=compat): setuptools' default
# installs an import hook that loads pathlib, re and urllib at every interpreter start (about 20 ms
# of each command line call, gunicorn worker and test subprocess on this machine). setuptools calls
# the compat mode transitional: should a future release drop it, the default editable install follows.
$(PIP_STAMP): pyproject.toml | $(VPY)
	$(VPY) -m pip install --disable-pip-version-check --progress-bar off -e '.[test]' --config-settings editable_mode=compat \
	  || $(VPY) -m pip install --disable-pip-version-check --progress-bar off -e '.[test]'
	@touch $@

$(NPM_STAMP): package-lock.json package.json
	npm ci --no-audit --no-fund
	@touch $@

build: $(NPM_STAMP) | $(VPY)
	@$(VPY) scripts/build_assets.py

debian-packages:
	@scripts/ensure_debian_packages.sh $(DEBIAN_PACKAGES)
