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

# mypy cannot import games/4000ad by its directory name (it starts with a digit): it is checked
# through a link named like the module pbem.games loads it as.
typecheck: $(STAMP)
	$(PY) -m mypy pbem --exclude 'pbem/_(games|templates)'
	rm -rf .mypy-games && mkdir .mypy-games && ln -s ../games/4000ad .mypy-games/pbem_game_4000ad
	cd .mypy-games && MYPYPATH=.. ../$(PY) -m mypy --config-file ../pyproject.toml -p pbem_game_4000ad

test: $(STAMP) lint typecheck
	$(PY) -m pytest

demo: $(STAMP)
	$(PY) -m pbem.demo

bench: $(STAMP)
	$(PY) -m bench

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache
