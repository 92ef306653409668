"""Grading a submission: test cells from source/ against the sandboxed student code (`session`),
one notebook or a batch (`grade`), and scores in the contract's JSON (`results`)."""
