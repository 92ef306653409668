"""The course on disk: assignments in source/ and release/ (`layout`), notebook cells and their
grading roles (`notebook`), a student's submission (`submission`), and the release build
(`release`, with nbgrader)."""
from .layout import Assignment, Course
from .notebook import NotebookError

__all__ = ["Assignment", "Course", "NotebookError"]
