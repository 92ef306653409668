"""An instructor on nbgrader: a class graded into nbgrader's gradebook, and what follows.

- `nbgrader_course`     an nbgrader course directory: its config, folders and submissions
- `autograde`           `autograder autograde`: which students, graded and committed one by one
- `gradebook`           rows written through nbgrader's Gradebook API (sqlite or PostgreSQL)
- `autograded_notebook` the autograded notebook nbgrader's tools read
- `progress`            the rich progress bar, or plain lines
- `feedback`            `autograder feedback`: per-student HTML without hidden tests
- `class_report`        `autograder report`: CSV, plots, summary page
- `similarity`          `autograder similarity`: solution cells compared pairwise (copydetect, rare code weighs most)
- `similarity_report`   its pairs.csv and side-by-side page
- `commands`            the instructor's subcommands
- `nbgrader_run`        real `nbgrader autograde` runs, read back from the gradebook
- `kernel_cache`        the batch's trusted compile cache in those runs' kernels
- `quickstart`          `autograder quickstart DIR`: a course directory for a class, outside the checkout
- `demo`                `make demo`
"""
