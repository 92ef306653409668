"""A corpus of real JAX mistakes, each reduced from a public issue to a small function.

`jit_mistakes.py` holds functions that fail under `jax.jit`; `retrace_mistakes.py` holds functions
and call sequences that compile more often than they should. `corpus.py` runs them through the
course's own checks and scores the messages; `rates.py` prints the scores by pattern.
"""
