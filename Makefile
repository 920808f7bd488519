# pbem — the three commands a newcomer needs: make demo, make test, make bench.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-test
# The demo needs only pbem itself (no test extras): its own venv, with pbem installed as users
# install it (`pip install .`, not editable: an editable install reads games/ and templates/ from
# the checkout and hides a file the wheel leaves out), reinstalled when a file it ships changes.
DEMO_VENV ?= .venv-demo
DEMO_STAMP := $(DEMO_VENV)/.installed
SHIPPED := $(shell find pbem games templates -type f -not -path '*/__pycache__/*')

# System programs the tests need. Each is checked by path; PBEM_DOVECOT (honoured by the test
# fixtures too) points at another Dovecot, or at a missing file to see the failure. APT_GET=
# (empty) forbids installing.
DOVECOT ?= $(or $(PBEM_DOVECOT),/usr/sbin/dovecot)
CHROMIUM ?= /usr/bin/chromium
CHROMEDRIVER ?= /usr/bin/chromedriver
APT_GET ?= $(shell command -v apt-get)

# $(call need,PATH,DEBIAN-PACKAGE,NAME,WHAT-FOR): PATH exists, or is installed with apt-get when
# we are root and have apt-get, or make stops with one sentence naming what to install.
need = if [ ! -e "$(1)" ]; then \
	  if [ "$$(id -u)" = 0 ] && [ -n "$(APT_GET)" ]; then \
	    echo "make: installing $(3) ($(2)) for $(4)"; \
	    $(APT_GET) update -qq && DEBIAN_FRONTEND=noninteractive $(APT_GET) install -y -qq \
	      --no-install-recommends $(2) >/dev/null; \
	  fi; \
	  if [ ! -e "$(1)" ]; then \
	    echo "make test needs $(3) (Debian: apt-get install $(2)) for $(4)" >&2; exit 1; \
	  fi; \
	fi

.PHONY: test deps demo bench lint typecheck venv clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $(STAMP)

$(DEMO_STAMP): pyproject.toml $(SHIPPED)
	test -x $(DEMO_VENV)/bin/python || $(PYTHON) -m venv $(DEMO_VENV)
	rm -rf build  # setuptools' build/ keeps files deleted since: none may reach the wheel
	$(DEMO_VENV)/bin/python -m pip install -q .
	touch $(DEMO_STAMP)

venv: $(STAMP)

# One line per system package the tests need.
deps:
	@$(call need,$(DOVECOT),dovecot-imapd,Dovecot,the IMAP tests)
	@$(call need,$(CHROMIUM),chromium,Chromium,the archive's browser tests)
	@$(call need,$(CHROMEDRIVER),chromium-driver,ChromeDriver,the archive's browser tests)

lint: $(STAMP)
	$(PY) -m ruff check pbem games tests bench tools

typecheck: $(STAMP)
	$(PY) -m mypy pbem --exclude 'pbem/_(games|templates)'
	MYPYPATH=games $(PY) -m mypy -p fourthousand_ad -p ashes -p b5cgs -p ti4

# The suite runs on every core (pytest-xdist; a test file stays on one worker, in order):
# TEST_WORKERS=0 runs it in this process.
TEST_WORKERS ?= auto
# The suite starts pbem as a whole process again and again (every mail through `pbem ingest
# --stdin`, every command as a player or game master types it). Each loads compiled modules, as
# an installed pbem does, from a bytecode cache kept in the venv: where PYTHONDONTWRITEBYTECODE
# is set (as on these machines) every process would compile every module it imports from source.
PYCACHE := $(abspath $(VENV))/pycache
# make test ends with its wall time (from make's start: deps, lint, typecheck and the suite), as
# `make test: 312 s`, whether the suite passed or not.
TEST_START := $(shell date +%s)
test: deps $(STAMP) lint typecheck
	@rc=0; env -u PYTHONDONTWRITEBYTECODE PYTHONPYCACHEPREFIX=$(PYCACHE) PBEM_DOVECOT=$(DOVECOT) \
	  $(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile || rc=$$?; \
	echo "make test: $$(( $$(date +%s) - $(TEST_START) )) s"; exit $$rc

GAME ?= 4000ad
# -P: the installed pbem, not the checkout's pbem/ beside the current directory.
demo: $(DEMO_STAMP)
	$(DEMO_VENV)/bin/python -P -m pbem.cli.demo $(GAME)

bench: $(STAMP)
	$(PY) -m bench

clean:
	rm -rf $(VENV) $(DEMO_VENV) build *.egg-info .pytest_cache .ruff_cache
