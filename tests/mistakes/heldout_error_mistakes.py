"""Held-out JAX errors outside jit: cases written after the rules of `usage_rules.py`, never used
to tune them (same format as `error_mistakes.py`)."""
from __future__ import annotations

import jax  # noqa: F401
import jax.numpy as jnp  # noqa: F401
from jax import lax  # noqa: F401

from .corpus import error_case  # noqa: F401
