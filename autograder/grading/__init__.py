"""Grading a submission: the source's test cells against the sandboxed student code.

- `startup`       a worker started, and sent its setup cell, before the grader imports JAX
- `session`       one submission: its worker, its test cells, RemoteObject proxies
- `remote`        the proxies of the worker's objects, the student's exceptions as data, the
                  stop a clean session makes at a hidden region, and whom a reply's violations charge
- `grade`         one notebook, or a batch in parallel
- `processes`     a batch over several grader processes (`--grader-processes`)
- `batch_cache`   a batch's compile cache, built from the references by a worker of its own
- `timeouts`      each cell's timeout in a batch, from what the reference cost the builder
- `results`       scores and the contract's JSON
- `hidden`        the message of a failure on a hidden test: the grader's words only
- `clean`         the messages of tainted visible failures, from a clean worker once the tainted ones are gone
- `timing`        performance checks, in a timing worker of their own
- `timebox`       each exercise's share of a container's grading time
- `visibility`    which verdicts a student may see before grades are published
- `student_check` a notebook's visible tests only (`autograder check`)
- `options`       the command-line options every grading command shares
- `tables`        score tables on the console
"""
