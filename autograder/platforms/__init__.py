"""Grading beyond one machine.

- `bundle`         what a grading container gets: hidden tests, no solutions, the wheel
- `container`      one submission in a grading container: supervisor, deadline, every cell
- `gradescope`     `autograder export gradescope` and what run_autograder runs
- `prairielearn`   `autograder export prairielearn` and its grader entry point
- `pytest_plugin`  graded cells as pytest items
"""
