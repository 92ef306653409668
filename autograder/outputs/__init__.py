"""Where grades go and what they feed: score tables (`report`), real `nbgrader autograde` runs
(`nbgrader_run`), the pytest plugin (`pytest_plugin`) and `make demo` (`demo`)."""
