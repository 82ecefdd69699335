# The two commands a fresh machine needs:
#   make site   install what the build needs, then build the site into _site/
#   make test   install test tools (and Debian's chromium if missing), lint, then run every test
PY ?= python3

.PHONY: site test serve deps test-deps

site: deps
	$(PY) build.py

test: deps test-deps
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	npx eslint .
	$(PY) -m pytest

serve: deps
	$(PY) build.py --serve

deps:
	$(PY) -m pip install --quiet --disable-pip-version-check -e .
	npm ci --ignore-scripts --no-audit --no-fund --loglevel=error

test-deps:
	$(PY) -m pip install --quiet --disable-pip-version-check -e ".[test]"
	command -v chromium >/dev/null 2>&1 || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null)
