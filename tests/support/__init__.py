"""Helpers shared by the tests (imported as `support.<module>`; conftest.py keeps the fixtures).

- `notebooks`: cells, toy assignments, the course's notebooks and known-wrong cases;
- `gradebook`: a toy nbgrader course and class for the `autograder autograde` tests;
- `exchange`: a class on one host through nbgrader's exchange (course, exchange folder, students' homes);
- `as_user`: run as a script, nbgrader commands and a student's work under one uid;
- `machine`: what a test does when this machine cannot run its real subject;
- `explain`: the explanation block the rules give an error raised by a piece of code.
"""
