# Everything installs itself: `make test` and `make demo` build .venv from pyproject.toml
# whenever it is missing or older than pyproject.toml.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: test demo release bench contract selftest clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e .[dev]
	touch $(STAMP)

test: $(STAMP)
	$(PY) -m pytest tests

demo: $(STAMP)
	$(PY) -m autograder.outputs.demo

# What a lab admin runs on a new GPU/TPU image (docs/LABS.md): expected verdicts on this JAX backend.
selftest: $(STAMP)
	$(PY) -m autograder.cli selftest $(if $(ASSIGNMENTS),$(foreach a,$(ASSIGNMENTS),--assignment $(a)))

release: $(STAMP)
	$(PY) -m autograder.course.release

bench: $(STAMP)
	$(PY) benchmarks/grade_vs_nbgrader.py

contract:
	$(PYTHON) ../shared/tools/contract_check.py

clean:
	rm -rf $(VENV) build *.egg-info
