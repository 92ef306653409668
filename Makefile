# Everything installs itself: `make test` and `make demo` build .venv from pyproject.toml
# whenever it is missing or older than pyproject.toml.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: test demo release bench contract selftest clean compat labcheck labcheck-wheels hub

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e .[dev]
	touch $(STAMP)

# Two workers. Work units (`--dist loadgroup`, tests/conftest.py's `work_unit`): the course's tests of one assignment
# (test_course.py and test_right_answers.py share its grading), and every other file whole (its module
# fixtures are built once). A second worker overlaps the waits on child processes (graders, nbgrader, a
# browser, timeouts) with CPU work; with it the 2 cores sat idle about 2% of a run (sampled every 30 s
# on 2026-11-29), so a third would not help. On 2 cores, fresh clones: 34.7 min for 1608 tests
# (2026-11-29), 35.2 min for 1614 (2026-11-30, after nbgrader's kernels got the references' compile
# cache and explanations stopped parsing a long cell again per error; 33.2 min in place the same
# day: this machine's runs spread by about 5%), 33.3 min for 1699 (2026-11-30, a tenth error batch), 30.7 min for
# 1774 (2026-11-30, 1fb2677), then 27.2 min for 1775 (27.9 with .venv) once the correctness workers and
# nbgrader's kernels compiled with XLA's older CPU emitters (40bd871). About two thirds of the course
# files' time is `nbgrader autograde`, one fresh kernel per notebook. On 2026-12-02: 27.4 min for 2848 (c36d711),
# 3.9% of the CPU idle (sampled from /proc/stat), while the same suite took 40.2 min that morning: whole runs
# on this machine spread that much (benchmarks/README.md); 46.5 min for 2856 on a slower CPU (AMD EPYC,
# 7b32fb6, fresh clone).
# TEST_WORKERS=0 runs the suite in one process.
TEST_WORKERS ?= 2

test: $(STAMP)
	$(PY) -m pytest tests $(if $(filter-out 0,$(TEST_WORKERS)),-n $(TEST_WORKERS) --dist loadgroup)

demo: $(STAMP)
	$(PY) -m autograder.classroom.demo

# What a lab admin runs on a new GPU/TPU image (docs/LABS.md): expected verdicts on this JAX backend.
selftest: $(STAMP)
	$(PY) -m autograder.cli selftest $(if $(ASSIGNMENTS),$(foreach a,$(ASSIGNMENTS),--assignment $(a)))

# A lab machine's one prepared check (docs/LABS.md): the machine's own python3 and JAX, no .venv,
# no network; what that Python lacks comes from $(LABWHEELS). Exit 2 with one line where no GPU is.
LABWHEELS ?= .labwheels
labcheck:
	@$(PYTHON) -m autograder.lab.labcheck --wheels $(LABWHEELS) $(LABCHECK_ARGS)

# JupyterHub for one course on this machine (docs/LABS.md, section 8), as root: its state, class
# environment and exchange in $(HUB_DIR); the proxy from npm into .hub/proxy. A trial by default:
# three students and an instructor (local users, made if missing), one shared password.
HUB_DIR ?= .hub/lab
HUB_ARGS ?= --instructor instructor --students student1,student2,student3 --create-users
hub: $(STAMP)
	$(PY) -m autograder.cli lab-hub $(HUB_DIR) $(HUB_ARGS)

# Run where there is network: the wheels labcheck needs on a lab machine of Python $(LABCHECK_PY).
LABCHECK_PY ?= 3.12
labcheck-wheels:
	$(PYTHON) -m pip download --quiet --no-deps --only-binary=:all: --python-version $(LABCHECK_PY) \
		--implementation cp --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 \
		--platform manylinux2014_x86_64 -d $(LABWHEELS) -r autograder/lab/labcheck_wheels.txt
	@du -sh $(LABWHEELS)

# The self-test on the newest JAX this package index offers (or JAX_COMPAT_VERSION=x.y.z), in a
# second venv: the course's other pins, that jax and jaxlib, and the package itself without deps.
COMPAT := .venv-compat
JAX_COMPAT_VERSION ?= $(shell $(PYTHON) -m pip index versions jax 2>/dev/null | sed -n 's/^jax (\(.*\))$$/\1/p')
compat:
	@test -n "$(JAX_COMPAT_VERSION)" || { echo "make compat: no jax version found on the index; pass JAX_COMPAT_VERSION=x.y.z"; exit 2; }
	@echo "make compat: jax $(JAX_COMPAT_VERSION) (pinned: $$(sed -n 's/.*"jax==\(.*\)",/\1/p' pyproject.toml))"
	test -f $(COMPAT)/.jax-$(JAX_COMPAT_VERSION) || { rm -rf $(COMPAT) && $(PYTHON) -m venv $(COMPAT) \
		&& $(COMPAT)/bin/python -m pip install --quiet --upgrade pip \
		&& $(PYTHON) -c 'import tomllib; d = tomllib.load(open("pyproject.toml", "rb")); print("\n".join(r for r in d["project"]["dependencies"] if not r.startswith("jax")))' > $(COMPAT).txt \
		&& $(COMPAT)/bin/python -m pip install --quiet -r $(COMPAT).txt "jax==$(JAX_COMPAT_VERSION)" "jaxlib==$(JAX_COMPAT_VERSION)" \
		&& $(COMPAT)/bin/python -m pip install --quiet --no-deps -e . && rm $(COMPAT).txt && touch $(COMPAT)/.jax-$(JAX_COMPAT_VERSION); }
	$(COMPAT)/bin/python -m autograder.cli selftest $(if $(ASSIGNMENTS),$(foreach a,$(ASSIGNMENTS),--assignment $(a)))

release: $(STAMP)
	$(PY) -m autograder.course.release

bench: $(STAMP)
	$(PY) benchmarks/grade_vs_nbgrader.py

contract:
	$(PYTHON) ../shared/tools/contract_check.py

clean:
	rm -rf $(VENV) $(COMPAT) build *.egg-info
