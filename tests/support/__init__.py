"""Helpers shared by the tests (imported as `support.<module>`; conftest.py keeps the fixtures).

- `notebooks`: cells, toy assignments, the course's notebooks and known-wrong cases;
- `gradebook`: a toy nbgrader course and class for the `autograder autograde` tests;
- `machine`: what a test does when this machine cannot run its real subject.
"""
