"""The course on disk.

- `layout`       Course and Assignment: source/ and release/
- `notebook`     cells and their grading roles (nbgrader metadata), hidden regions
- `submission`   a student's notebook: its solution cells and what is wrong with it
- `exports`      the names of a student's notebook that test cells may call
- `release`      release/ built with `nbgrader generate_assignment`
- `packaging`    what ships: the package's wheel, pinned requirements, nbgrader's markers
"""
from .layout import Assignment, Course
from .notebook import NotebookError

__all__ = ["Assignment", "Course", "NotebookError"]
