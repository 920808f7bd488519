# pbem — the three commands a newcomer needs: make demo, make test, make bench.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-test

.PHONY: test demo bench lint typecheck venv clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $(STAMP)

venv: $(STAMP)

lint: $(STAMP)
	$(PY) -m ruff check pbem games tests bench tools

typecheck: $(STAMP)
	$(PY) -m mypy pbem --exclude 'pbem/_(games|templates)'
	MYPYPATH=games $(PY) -m mypy -p fourthousand_ad -p ashes

test: $(STAMP) lint typecheck
	$(PY) -m pytest

demo: $(STAMP)
	$(PY) -m pbem.cli.demo

bench: $(STAMP)
	$(PY) -m bench

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache
