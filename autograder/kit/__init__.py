"""What students get.

- `student_kit`   `autograder student-kit`: release notebooks, the check library, settings
"""
