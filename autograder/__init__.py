"""Autograder for the JAX course: checks for test cells, a sandboxed grader, a CLI and a pytest plugin.

Test cells use `from autograder import check`; see `check.py`. The grading pipeline, in the order
data flows: `course` (source and release notebooks) -> `submission` (reading a student's notebook)
-> `sandbox` + `worker` (running student code) -> `session` (running the source's test cells
against it) -> `results` (scores, JSON) -> `cli` / `pytest_plugin` / `demo`.
"""
__version__ = "0.1.0"
