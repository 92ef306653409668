"""Check every case of error_mistakes.py against the corpus rules (issue 24), no pytest.

    .venv/bin/python tests/mistakes/check_error_cases.py [-v] [--heldout [1|2|...|15]] [--part FILE]

`--heldout` (or `--heldout 1`) checks heldout_error_mistakes.py instead (the cases written after
the rules): the same rules for each case, at least 2 cases per family and 18 in all, and no thread
the in-sample corpus uses. `--heldout 2` checks heldout_error_mistakes_2.py (written after the
rules were revised against the first held-out batch): at least 2 cases per family, 3 for vmap,
grad and loops, 22 in all, and no thread that error_mistakes.py or heldout_error_mistakes.py uses.
`--heldout 3` checks heldout_error_mistakes_3.py the same way, against all three earlier files.
`--heldout 4` checks heldout_error_mistakes_4.py (written without reading the rules, issue 38): at
least 3 cases for vmap, grad and loops, 2 for each other family (the family `other` included: JAX's
errors outside the eight families), 40 in all, and no thread that any earlier file uses.
`--heldout 5` checks heldout_error_mistakes_5.py (also written without reading the rules) with the
minimums of batch 4, against all five earlier files. `--heldout 6` and `--heldout 7` check
heldout_error_mistakes_6.py and heldout_error_mistakes_7.py with the minimums of batch 5, each against
all earlier files. `--heldout 8` checks heldout_error_mistakes_8.py, the half of the eighth batch written
by one blind helper (vmap, grad, loops, branches, pytrees; the other families are written separately):
at least 5 cases for vmap, grad and loops, 4 for branches and pytrees, 23 in all, and no thread that
any earlier file uses. `--heldout 9` checks heldout_error_mistakes_9.py, the ninth batch (two blind helpers,
one per half of the families, merged), with the minimums of batch 8, against all earlier files.
`--heldout 10` checks heldout_error_mistakes_10.py, the tenth batch, written the same way as the ninth,
with the minimums it reached (`HELDOUT_10_MINIMUM`). `--heldout 11` checks heldout_error_mistakes_11.py, the
eleventh batch, written by two blind helpers (one per half of the families), with the minimums of batch 10;
`--heldout 12` checks heldout_error_mistakes_12.py, the twelfth, written the same way (four parts), with the
minimums it reached (`HELDOUT_12_MINIMUM`). `--heldout 13` checks heldout_error_mistakes_13.py, the
thirteenth, written the same way (`HELDOUT_13_MINIMUM`); `--heldout 14` checks heldout_error_mistakes_14.py,
the fourteenth, written the same way (`HELDOUT_14_MINIMUM`); `--heldout 15` the fifteenth (`HELDOUT_15_MINIMUM`); `--heldout 16` the sixteenth (`HELDOUT_16_MINIMUM`); `--heldout 17` the seventeenth (`HELDOUT_17_MINIMUM`); `--heldout 18` the eighteenth (`HELDOUT_18_MINIMUM`); `--heldout 19` the nineteenth (`HELDOUT_19_MINIMUM`); `--heldout 20` the twentieth (`HELDOUT_20_MINIMUM`); `--heldout 21` the twenty-first (`HELDOUT_21_MINIMUM`); `--heldout 22` the twenty-second (`HELDOUT_22_MINIMUM`); `--heldout 23` the twenty-third (`HELDOUT_23_MINIMUM`); `--heldout 24` the twenty-fourth (`HELDOUT_24_MINIMUM`). `--part FILE` checks one part of a batch
still being written, against every registered batch (its own new fix categories in `NEW_CATEGORIES`).

For each case: `args()` is plain data (arrays, numbers, containers of those; no functions, class
instances or typed PRNG keys); calling the function eagerly raises the exception class `raises`,
and the innermost frame of the traceback that lies in error_mistakes.py is `line`; the function
is self-contained (its source, run in a namespace holding only jax, jnp, lax, np, functools,
NamedTuple and dataclasses, raises the same way; with its decorator, and `error_case` added to
that namespace, it loads) and prints nothing; `line` occurs once in it,
and replacing it by `fixed` (same indentation) gives a function that runs on the same args.
Across cases: names are unique, `family` and `fix` are known, no thread gives more than 3 cases,
and each family has its minimum count. Prints one line per family, then each problem; exits 1 if
any rule fails.
"""
from __future__ import annotations

import argparse
import ast
import builtins
import collections
import contextlib
import importlib.util
import inspect
import io
import os
import re
import sys
import textwrap
from pathlib import Path

os.environ.setdefault("JAX_PLATFORMS", "cpu")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import jax  # noqa: E402
import numpy as np  # noqa: E402

from mistakes import (error_mistakes, heldout_error_mistakes, heldout_error_mistakes_2,  # noqa: E402,F401
                      heldout_error_mistakes_3, heldout_error_mistakes_4,
                      heldout_error_mistakes_5, heldout_error_mistakes_6,
                      heldout_error_mistakes_7, heldout_error_mistakes_8,
                      heldout_error_mistakes_9, heldout_error_mistakes_10,
                      heldout_error_mistakes_11, heldout_error_mistakes_12,
                      heldout_error_mistakes_13, heldout_error_mistakes_14,
                      heldout_error_mistakes_15, heldout_error_mistakes_16,
                      heldout_error_mistakes_17, heldout_error_mistakes_18,
                      heldout_error_mistakes_19, heldout_error_mistakes_20,
                      heldout_error_mistakes_21, heldout_error_mistakes_22,
                      heldout_error_mistakes_23, heldout_error_mistakes_24)  # (importing registers the cases)
from mistakes.corpus import CATEGORIES, ERROR_CASES, ErrorCase  # noqa: E402

MINIMUM = {"vmap": 10, "grad": 8, "loops": 8, "branches": 7, "pytrees": 7, "keys": 6,
           "custom-rules": 5, "shapes": 5}
TOTAL_MINIMUM = 56
HELDOUT_MINIMUM = dict.fromkeys(MINIMUM, 2)
HELDOUT_TOTAL_MINIMUM = 18
HELDOUT_2_MINIMUM = dict(HELDOUT_MINIMUM, vmap=3, grad=3, loops=3)
HELDOUT_2_TOTAL_MINIMUM = 22
HELDOUT_3_MINIMUM = HELDOUT_2_MINIMUM
HELDOUT_3_TOTAL_MINIMUM = 22
# Families a batch may use beyond the eight of MINIMUM (the fourth batch's JAX errors outside them)
EXTRA_FAMILIES = ("other",)
HELDOUT_4_MINIMUM = dict(HELDOUT_2_MINIMUM, other=2)
HELDOUT_4_TOTAL_MINIMUM = 40
HELDOUT_5_MINIMUM = HELDOUT_4_MINIMUM
HELDOUT_5_TOTAL_MINIMUM = 40
HELDOUT_6_MINIMUM = HELDOUT_7_MINIMUM = HELDOUT_5_MINIMUM
HELDOUT_6_TOTAL_MINIMUM = HELDOUT_7_TOTAL_MINIMUM = HELDOUT_5_TOTAL_MINIMUM
# The eighth batch, written by two blind helpers at once (vmap, grad, loops, branches, pytrees; then
# keys, custom rules, shapes and other), merged into one file.
HELDOUT_8_MINIMUM = {"vmap": 5, "grad": 5, "loops": 5, "branches": 4, "pytrees": 4, "keys": 5,
                     "custom-rules": 5, "shapes": 5, "other": 8}
HELDOUT_8_TOTAL_MINIMUM = 46
# The tenth batch: written as the ninth, but its helpers found fewer uncited threads in the time (44 cases,
# merged from two halves, a third part and a fourth part d: see heldout_error_mistakes_10.py).
HELDOUT_10_MINIMUM = {"vmap": 5, "grad": 4, "loops": 4, "branches": 4, "pytrees": 5, "keys": 5,
                      "custom-rules": 4, "shapes": 3, "other": 9}
HELDOUT_10_TOTAL_MINIMUM = 44
# The twelfth batch's (four blind parts): fewer custom-rule and shape threads were left uncited.
HELDOUT_12_MINIMUM = {**HELDOUT_10_MINIMUM, "pytrees": 4, "custom-rules": 1, "shapes": 2, "other": 12}
HELDOUT_12_TOTAL_MINIMUM = 41
# The thirteenth batch's (three blind parts at once), what it reached.
HELDOUT_13_MINIMUM = {"vmap": 5, "grad": 5, "loops": 4, "branches": 5, "pytrees": 5, "keys": 6,
                      "custom-rules": 4, "shapes": 4, "other": 11}
HELDOUT_13_TOTAL_MINIMUM = 49
# The fourteenth batch (blind parts, as the twelfth).
HELDOUT_14_MINIMUM = {**HELDOUT_10_MINIMUM, "custom-rules": 2, "shapes": 2}
HELDOUT_14_TOTAL_MINIMUM = 40
# The fifteenth batch (four blind parts at once, each checked with --part), what it reached.
HELDOUT_15_MINIMUM = {"vmap": 6, "grad": 6, "loops": 6, "branches": 5, "pytrees": 6, "keys": 6,
                      "custom-rules": 4, "shapes": 5, "other": 6}
HELDOUT_15_TOTAL_MINIMUM = 50
# The sixteenth batch (four blind parts at once, from the fifteenth's brief), what it reached.
HELDOUT_16_MINIMUM = {"vmap": 7, "grad": 6, "loops": 6, "branches": 6, "pytrees": 6, "keys": 6,
                      "custom-rules": 4, "shapes": 4, "other": 5}
HELDOUT_16_TOTAL_MINIMUM = 50
# The seventeenth batch (the same brief): no uncited custom-rule thread that still fails was left, one shape thread.
HELDOUT_17_MINIMUM = {"vmap": 6, "grad": 6, "loops": 6, "branches": 6, "pytrees": 6, "keys": 6,
                      "custom-rules": 0, "shapes": 1, "other": 7}
HELDOUT_17_TOTAL_MINIMUM = 44
# The eighteenth batch (the same brief): more of its sources are teaching and API pages (threads run out).
HELDOUT_18_MINIMUM = {"vmap": 7, "grad": 6, "loops": 7, "branches": 7, "pytrees": 7, "keys": 6,
                      "custom-rules": 3, "shapes": 5, "other": 5}
HELDOUT_18_TOTAL_MINIMUM = 53
# The nineteenth batch (the same brief, written to measure the eighteenth's revision): what it reached.
HELDOUT_19_MINIMUM = {"vmap": 7, "grad": 6, "loops": 6, "branches": 6, "pytrees": 8, "keys": 6,
                      "custom-rules": 2, "shapes": 4, "other": 7}
HELDOUT_19_TOTAL_MINIMUM = 52
# The twentieth batch (the same brief, measuring the nineteenth's revision): uncited pytree and key threads
# that still fail were few (part c: 7 cases).
HELDOUT_20_MINIMUM = {"vmap": 6, "grad": 6, "loops": 6, "branches": 5, "pytrees": 3, "keys": 4,
                      "custom-rules": 2, "shapes": 4, "other": 6}
HELDOUT_20_TOTAL_MINIMUM = 42
# The twenty-first (the same brief, measuring the twentieth's revision): half its sources are API and guide
# pages and library threads, as the JAX tracker's uncited threads that still fail run out.
HELDOUT_21_MINIMUM = {"vmap": 6, "grad": 6, "loops": 6, "branches": 6, "pytrees": 6, "keys": 6,
                      "custom-rules": 4, "shapes": 4, "other": 6}
HELDOUT_21_TOTAL_MINIMUM = 50
# The twenty-second (the same brief, measuring the twenty-first's revision; no checkify cases, whose shared
# exception object one process cannot raise twice with its own traceback).
HELDOUT_22_MINIMUM = {"vmap": 5, "grad": 7, "loops": 7, "branches": 5, "pytrees": 7, "keys": 6,
                      "custom-rules": 4, "shapes": 5, "other": 6}
HELDOUT_22_TOTAL_MINIMUM = 52
# The twenty-third (the same brief, measuring the twenty-second's revision): most sources are JAX's API pages,
# as uncited threads that still fail are used up in every family.
HELDOUT_23_MINIMUM = {"vmap": 6, "grad": 7, "loops": 5, "branches": 6, "pytrees": 6, "keys": 7,
                      "custom-rules": 4, "shapes": 4, "other": 7}
HELDOUT_23_TOTAL_MINIMUM = 52
# The twenty-fourth (a brief restating the same one, measuring the twenty-third's revision): JAX's API pages,
# library documentation and teaching pages; few user threads that still fail are left uncited.
HELDOUT_24_MINIMUM = {"vmap": 7, "grad": 6, "loops": 7, "branches": 6, "pytrees": 6, "keys": 6,
                      "custom-rules": 4, "shapes": 4, "other": 5}
HELDOUT_24_TOTAL_MINIMUM = 51
# The batches, in the order they were written: --heldout N checks BATCHES[N] against the earlier ones.
BATCHES = (error_mistakes, heldout_error_mistakes, heldout_error_mistakes_2, heldout_error_mistakes_3,
           heldout_error_mistakes_4, heldout_error_mistakes_5, heldout_error_mistakes_6,
           heldout_error_mistakes_7, heldout_error_mistakes_8, heldout_error_mistakes_9,
           heldout_error_mistakes_10, heldout_error_mistakes_11, heldout_error_mistakes_12,
           heldout_error_mistakes_13, heldout_error_mistakes_14, heldout_error_mistakes_15,
           heldout_error_mistakes_16, heldout_error_mistakes_17, heldout_error_mistakes_18,
           heldout_error_mistakes_19, heldout_error_mistakes_20, heldout_error_mistakes_21,
           heldout_error_mistakes_22, heldout_error_mistakes_23, heldout_error_mistakes_24)
BATCH_MINIMUM = {0: (MINIMUM, TOTAL_MINIMUM), 1: (HELDOUT_MINIMUM, HELDOUT_TOTAL_MINIMUM),
                 2: (HELDOUT_2_MINIMUM, HELDOUT_2_TOTAL_MINIMUM),
                 3: (HELDOUT_3_MINIMUM, HELDOUT_3_TOTAL_MINIMUM),
                 4: (HELDOUT_4_MINIMUM, HELDOUT_4_TOTAL_MINIMUM),
                 5: (HELDOUT_5_MINIMUM, HELDOUT_5_TOTAL_MINIMUM),
                 6: (HELDOUT_6_MINIMUM, HELDOUT_6_TOTAL_MINIMUM),
                 7: (HELDOUT_7_MINIMUM, HELDOUT_7_TOTAL_MINIMUM),
                 8: (HELDOUT_8_MINIMUM, HELDOUT_8_TOTAL_MINIMUM),
                 9: (HELDOUT_8_MINIMUM, HELDOUT_8_TOTAL_MINIMUM),
                 10: (HELDOUT_10_MINIMUM, HELDOUT_10_TOTAL_MINIMUM),
                 11: (HELDOUT_10_MINIMUM, HELDOUT_10_TOTAL_MINIMUM),
                 12: (HELDOUT_12_MINIMUM, HELDOUT_12_TOTAL_MINIMUM),
                 13: (HELDOUT_13_MINIMUM, HELDOUT_13_TOTAL_MINIMUM),
                 14: (HELDOUT_14_MINIMUM, HELDOUT_14_TOTAL_MINIMUM),
                 15: (HELDOUT_15_MINIMUM, HELDOUT_15_TOTAL_MINIMUM),
                 16: (HELDOUT_16_MINIMUM, HELDOUT_16_TOTAL_MINIMUM),
                 17: (HELDOUT_17_MINIMUM, HELDOUT_17_TOTAL_MINIMUM),
                 18: (HELDOUT_18_MINIMUM, HELDOUT_18_TOTAL_MINIMUM),
                 19: (HELDOUT_19_MINIMUM, HELDOUT_19_TOTAL_MINIMUM),
                 20: (HELDOUT_20_MINIMUM, HELDOUT_20_TOTAL_MINIMUM),
                 21: (HELDOUT_21_MINIMUM, HELDOUT_21_TOTAL_MINIMUM),
                 22: (HELDOUT_22_MINIMUM, HELDOUT_22_TOTAL_MINIMUM),
                 23: (HELDOUT_23_MINIMUM, HELDOUT_23_TOTAL_MINIMUM),
                 24: (HELDOUT_24_MINIMUM, HELDOUT_24_TOTAL_MINIMUM)}
MAX_PER_THREAD = 3
FIXES = {
    "vmap-in-axes-none", "vmap-in-axes-entries", "vmap-in-axes-axis", "vmap-out-axes",
    "grad-scalar", "grad-float", "grad-has-aux", "grad-argnums",
    "carry-dtype", "carry-shape", "scan-pair", "loop-scalar-pred",
    "branch-types", "scalar-pred", "switch-int-index",
    "tree-same-structure", "register-pytree",
    "prng-key", "key-one-style", "key-no-arith", "key-vmap",
    "bwd-tuple", "bwd-shape", "jvp-pair",
    "broadcast-axes", "concat-shapes", "contract-dims", "reshape-size",
    # added with the third held-out batch (kinds of fix the earlier batches never needed)
    "vmap-axis-name", "grad-real-output", "loop-int-bounds", "scan-length", "loop-body-callable",
    "branch-operands", "select-where", "static-arg", "random-dtype", "sample-size",
    "vjp-reverse-mode", "fwd-pair", "split-sections", "update-shape",
    # added with the fourth held-out batch (written from the maintainers' fixes, before any message)
    "vmap-nested", "vmap-no-zip", "stack-leaves", "vmap-method", "vmap-in-axes-kw", "static-loop-bounds",
    "non-array-leaf", "np-to-jnp", "no-float-cast", "carry-singleton", "carry-keep-dtype",
    "elementwise-and", "is-none-check", "none-leaf", "close-over", "shape-tuple", "keys-array",
    "jvp-primal-only", "nondiff-arrays", "nondiff-static", "stack-scalars", "solve-vector", "int-index", "at-set",
    "clip-min-max", "size", "where",
    # added with the fifth held-out batch (written from the maintainers' fixes, before any message)
    "vmap-kwargs-positional", "grad-wrt-params", "init-carry-shape", "body-signature", "python-if-static",
    "sample-shape-match", "key-not-seed", "drop-custom-vjp", "layout-transpose", "add-batch-dim",
    "pad-width-rank", "list-to-array", "static-python-value", "unmark-static", "close-over",
    "non-array-leaf", "grad-has-aux", "static-loop-bounds", "stack-leaves", "branch-operands",
    "prng-key", "vjp-reverse-mode", "fwd-pair",
    # added with the sixth and seventh held-out batches (registered here with the eighth)
    "batch-leading-axis", "cotangent-dtype", "vjp-unpacked", "map-tuple-xs", "xs-shape", "branchless-sign",
    "argmax-index", "jax-scalar", "uniform-dict-keys", "permutation-not-shuffle", "split-count",
    "nondiff-first", "use-custom-vjp", "pad-to-same", "args-tuple", "no-bool-cast", "arange-scalars",
    "tree-api", "jax-array-type", "callback-api", "tangent-like-primal", "jvp-tuples", "in-axes-tuple",
    "flatten-pair", "carry-tuple", "key-first", "last-axis", "aux-to-children", "pullback-one-arg",
    "vectorized-combine", "fori_loop", "jnp", "cond", "dynamic_slice", "numpy-shape-math", "pad-mask",
    # added with the eighth held-out batch, part 1 (written from the maintainers' fixes alone)
    "logical", "in-axes-prefix", "complex-input", "holomorphic-flag", "eigvec-derivs", "host-numpy-check",
    "nullary-branches", "dataclass-init-fields",
    # added with the eighth held-out batch, part 2 (written from the maintainers' fixes alone)
    "reshape-shape-arg", "scipy-convolve", "jit-lower", "cpu-platform", "take-mode", "jnp-promote",
    "trapezoid", "isin", "callback-custom-rule", "pass-closed-over", "vmap-rule-structure", "stack-scalars",
    "devices-method", "tree-util-flatten",
    # added with the ninth held-out batch, part a (written from the maintainers' fixes alone)
    "python-loop", "jit-returns-arrays", "unflatten-any-leaf", "plain-dict-container",
    # added with the ninth held-out batch, part b (written from the maintainers' fixes alone)
    "rescale-standard-sample", "split-then-slice", "unpack-primals", "bwd-none", "primal-value", "distinct-axes",
    "total-repeat-length", "reduce-last-axis", "host-asarray", "inplace-false", "functools-partial", "sort-stable",
    "parse-host", "enable-x64", "fwd-pair", "nondiff-first", "last-axis", "dynamic_slice", "close-over", "at-set",
    "vmap-axis-name", "prng-key",
    # added with the tenth held-out batch, part a (written from the maintainers' fixes alone)
    "compute-outside-trace", "choose-branch-upfront", "while_loop", "cast",
    # added with the tenth held-out batch, part b (written from the maintainers' fixes alone)
    "axis-not-dim-b10", "mesh-devices-shape-b10", "fwd-out-structure-b10", "neg-inf-b10", "standardize-b10",
    "prod-not-product-b10",
    # added with the tenth held-out batch, part c (written from the maintainers' fixes alone)
    "vstack-b10c",
    # added with the tenth held-out batch, part d (written from the fixes alone)
    "init-no-conversion-b10d", "use-custom-jvp-b10d",
    # added with the eleventh held-out batch, part a (written from the maintainers' fixes alone)
    "list-to-tuple-b11a", "switch-branches-b11a", "jacobian-b11a",
    # added with the eleventh held-out batch, part b (written from the maintainers' fixes alone)
    "example-libraries-b11b", "config-import-b11b", "sph-harm-y-b11b",
    "device-put-b11b", "jnp-round-b11b", "jnp-split-b11b",
    "randint-range-b11b", "feature-dim-b11b", "norm-flatten-b11b",
    "drop-tie-in-b11b",
    # added with the twelfth held-out batch, part d (written from the maintainers' fixes alone)
    "identity-filter-b12d", "class-once-b12d", "grad-all-then-select-b12d",
    # added with the twelfth held-out batch, part b (written from the maintainers' fixes alone)
    "cumprod-b12b", "all-not-alltrue-b12b", "tree-util-namespace-b12b",
    # added with the twelfth held-out batch, part c (written from the maintainers' fixes alone)
    "broadcast-full-shape-b12c", "zip-strict-b12c", "index-ndim-b12c",
    "sort-axis0-b12c", "issubdtype-b12c", "bwd-output-cotangents-b12c",
    "fold-in-int-b12c", "split-shape-b12c",
    # added with the thirteenth held-out batch, part b (written from the maintainers' fixes alone)
    "key-impl-b13b",
    # added with the thirteenth held-out batch, part c (written from the maintainers' fixes alone)
    "linear-tangent-b13c", "minimum-not-clip-b13c", "vmap-per-example-b13c", "scalar-multiply-b13c",
    "nan-not-none-b13c", "object-to-numeric-b13c", "jnp-clip-b13c",
    # added with the fourteenth held-out batch, part a (written from the maintainers' fixes alone)
    "pcast-carry-b14a", "xs-equal-length-b14a", "pcast-cotangent-b14a",
    # added with the fourteenth held-out batch, part b (written from the maintainers' fixes alone)
    "key-equality-b14b", "typed-key-scalar-b14b", "vmap-cond-b14b",
    "per-instance-aux-b14b", "tree-transpose-b14b",
    "drop-assert-b14b", "default-factory-b14b",
    "ravel-pytree-b14b",
    # added with the fourteenth held-out batch, part c (written from the maintainers' fixes alone)
    "addressable-shards-b14c", "sharding-module-b14c", "rule-as-function-b14c",
    "jax-extend-b14c", "core-shapedarray-b14c", "flat-x0-b14c",
    "drop-initial-b14c", "no-squeeze-b14c",
    # added with the fifteenth held-out batch, part a (written from the maintainers' fixes alone)
    "svd-reduced-b15a", "unordered-callback-b15a", "static-nse-b15a", "aux-wrapper-b15a",
    # added with the fifteenth held-out batch, part b (written from the maintainers' fixes alone)
    "select-broadcast-b15b", "last-step-b15b",
    # added with the fifteenth held-out batch, part c (written from the maintainers' fixes alone)
    "reduce-initializer-b15c", "register-once-b15c", "fold-in-uint32-b15c", "split-fresh-key-b15c", "list-meta-field-b15c", "namedtuple-replace-b15c", "skip-empty-leaves-b15c", "vmap-split-b15c", "atleast-2d-cov-b15c",
    # added with the fifteenth held-out batch, part d (written from the maintainers' fixes alone)
    "mask-before-stack-b15d", "reduce-to-scalar-b15d", "in-shardings-b15d", "typeof-b15d", "dlpack-direct-b15d", "check-vma-b15d", "float0-tangent-b15d", "hashable-static-b15d", "drop-transpose-b15d", "ndim-not-len-b15d", "padded-weights-b15d", "closure-convert-b15d", "direct-solve-b15d",
    # added with the sixteenth held-out batch (written from the maintainers' fixes alone)
    "bincount-length-b16a", "out-axes-rank-b16a", "one-d-input-b16a", "lambda-wrap-b16b",
    "int-seed-b16c", "disjoint-fields-b16c", "wrap-key-dtype-b16c",
    "def-vmap-b16d", "real-tangent-b16d", "scalar-bounds-b16d", "checkify-wrap-b16d", "drop-donate-b16d",
    "inner-product-b16d", "vmap-scalar-initial-b16d", "pass-dtype-b16d",
    # added with the seventeenth held-out batch (written from the maintainers' fixes alone)
    "hessian-b17a", "value-and-grad-b17a", "scalar-shape-b17a", "aux-nesting-b17a",
    "tree-partial-b17c", "prefix-first-b17c",
    "scalar-to-1d-b17d", "shape-dtype-struct-b17d", "explicit-promotion-b17d", "vmap-jitted-not-compiled-b17d",
    "iinfo-bound-b17d",
    "params-not-functions-b18a", "jnp-select-b18b", "own-treedef-b18c", "all-args-b18c", "single-key-b18c",
    "defjvp-not-defjvps-b18d", "custom-gradient-pair-b18d", "supported-dtype-b18d", "int-shape-b18d",
    "all-leaves-b19c", "axes-tuples-b19d", "axis-size-b19a", "backend-keyword-b19d", "bwd-per-input-b19d",
    "choice-axis-b19c", "conv-pad-pairs-b19d", "device-object-b19d", "fmt-field-kwarg-b19d", "infer-inner-b19c",
    "jnp-select-b19b", "key-str-b19c", "match-dict-keys-b19c", "out-axes-rank-b19a", "pad-triples-b19d",
    "pad-value-dtype-b19d", "plain-template-b19d", "primal-value-attr-b19d", "reducer-single-array-b19b",
    "scalar-init-b19b", "shape-ends-batch-b19c",
    "cols-of-rhs-b20d", "debug-callback-b20b", "double-where-b20b", "float-args-only-b20a",
    "full-permutation-b20d", "pad-width-pairs-b20d", "return-state-b20b", "scalar-step-pred-b20b",
    "skip-check-b20a", "struct-dtype-b20d", "valid-axis-b20b",
    "vmap-inside-loop-b21a", "split-int-leaves-b21a", "vectorize-signature-b21a", "carry-one-arg-b21b",
    "piecewise-count-b21b", "select-default-b21b", "where-three-args-b21b", "swap-batch-axes-b21c",
    "impl-name-b21c", "unflatten-order-b21c", "alpha-vector-b21c", "key-child-pairs-b21c",
    "callback-32bit-b21d", "squeeze-unit-axis-b21d", "pairwise-axes-b21d", "spec-rank-b21d",
    "vjp-not-transpose-b22a", "cond-pytree-b22b", "cond-one-branch-b22b", "uint-bits-b22c", "clone-key-b22c",
    "unflatten-arg-order-b22c", "dictkey-field-b22c", "whole-node-leaf-b22c", "is-leaf-true-stops-b22c",
    "solve-matvec-b22d", "vmap-rule-pair-b22d", "defjvps-none-b22d", "convolve2d-b22d", "pinv-b22d",
    "interp-rows-b22d", "einsum-subscripts-b22d", "meshgrid-1d-b22d", "device-count-b22d",
    "binary-reducer-b23c", "bool-leaves-b23c", "compile-time-eval-b23b", "cotangent-structure-b23a",
    "diag-cov-b23c", "diagonal-b23d", "float-output-b23a", "minval-maxval-b23c", "outer-only-treedef-b23c",
    "path-first-b23c", "shape-not-size-b23c", "static-slice-size-b23a", "tangent-solve-args-b23d",
    "tensordot-axes-b23d", "transpose-solve-b23d", "unravel-length-b23c", "vmap-fold-in-b23c",
    "weights-axis-b23d", "window-per-axis-b23d",
    "split-axis-size-b24a", "transpose-output-shape-b24a", "every-field-b24c", "unflatten-classmethod-b24c",
    "resize-full-shape-b24d", "broadcast-dims-b24d", "mesh-axis-name-b24d",
}
ALLOWED_GLOBALS = error_mistakes.CASE_GLOBALS
CASE_FILE = Path(inspect.getfile(error_mistakes)).resolve()   # main() points it at the file checked


def plain_data_problem(value, where="args") -> str | None:
    """Why `value` is not plain data (None when it is)."""
    if isinstance(value, (bool, int, float, complex, np.generic, np.ndarray)):
        return None
    if isinstance(value, jax.Array):
        if jax.dtypes.issubdtype(value.dtype, jax.dtypes.prng_key):
            return f"{where} is a typed PRNG key (build it inside the function)"
        return None
    if isinstance(value, (tuple, list)) and type(value) in (tuple, list):
        return next((p for i, v in enumerate(value) if (p := plain_data_problem(v, f"{where}[{i}]"))), None)
    if type(value) is dict:
        return next((p for k, v in value.items()
                     if (p := (None if isinstance(k, str) else f"{where} has a non-string key {k!r}")
                         or plain_data_problem(v, f"{where}[{k!r}]"))), None)
    return f"{where} is a {type(value).__name__}, not plain data"


def decorated_source(case: ErrorCase) -> str:
    """The case as written, decorator included, dedented."""
    return textwrap.dedent(inspect.getsource(case.fn))


def decorator_problem(case: ErrorCase) -> str | None:
    """Why the decorated case does not load where only the allowed names and `error_case` exist
    (a notebook cell or a grader worker pastes the whole case, decorator and all)."""
    namespace = dict(ALLOWED_GLOBALS, error_case=lambda **_: (lambda fn: fn))
    try:
        exec(compile(decorated_source(case), f"<case {case.name}>", "exec"), namespace)
    except Exception as err:  # noqa: BLE001
        return f"the decorated case does not load on its own: {type(err).__name__}: {err}"
    return None


def function_source(case: ErrorCase) -> str:
    """The case's `def` without its decorator, dedented."""
    lines = inspect.getsource(case.fn).splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.lstrip().startswith("def "))
    return textwrap.dedent("\n".join(lines[start:])) + "\n"


def free_names(source: str) -> set[str]:
    """Names the function reads that it never binds (params, assignments, defs, imports)."""
    tree = ast.parse(source)
    bound, loaded = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (loaded if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((a.asname or a.name).split(".")[0] for a in node.names)
    return loaded - bound - set(dir(builtins))


def compile_case(source: str, name: str):
    namespace = dict(ALLOWED_GLOBALS)
    exec(compile(source, f"<case {name}>", "exec"), namespace)
    return namespace[name]


def innermost_case_line(exc: BaseException) -> tuple[int, str] | None:
    """(line number, stripped text) of the innermost traceback frame in error_mistakes.py."""
    found = None
    tb = exc.__traceback__
    while tb is not None:
        if Path(tb.tb_frame.f_code.co_filename).resolve() == CASE_FILE:
            found = tb.tb_lineno
        tb = tb.tb_next
    if found is None:
        return None
    return found, CASE_FILE.read_text().splitlines()[found - 1].strip()


def call_quietly(fn, args):
    """Call fn(*args) with stdout captured; returns (exception or None, printed text)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            jax.block_until_ready(fn(*args))
        except Exception as exc:  # noqa: BLE001  (the cases raise on purpose)
            return exc, out.getvalue()
    return None, out.getvalue()


def check_case(case: ErrorCase) -> list[str]:
    problems = []
    if case.fix not in FIXES:
        problems.append(f"unknown fix category {case.fix!r}")
    else:
        try:          # the pattern a message must match to give the fix: one a run can use
            re.compile(CATEGORIES[case.fix])
        except (re.error, KeyError) as exc:
            problems.append(f"fix category {case.fix!r} has no valid pattern: {exc}")
    if case.family not in MINIMUM and case.family not in EXTRA_FAMILIES:
        problems.append(f"unknown family {case.family!r}")
    if not case.source.startswith("https://"):
        problems.append(f"source {case.source!r} is not a web address")
    args = case.make_args()
    if not isinstance(args, tuple):
        problems.append(f"args() returned a {type(args).__name__}, not a tuple")
        return problems
    if (why := plain_data_problem(args)):
        problems.append(why)

    exc, printed = call_quietly(case.fn, case.make_args())
    if exc is None:
        problems.append(f"did not raise (expected {case.raises})")
    else:
        if type(exc).__name__ != case.raises:
            problems.append(f"raised {type(exc).__name__}: {str(exc).splitlines()[0][:120]} "
                            f"(expected {case.raises})")
        where = innermost_case_line(exc)
        if where is None:
            problems.append("no traceback frame lies in the case's own code")
        elif where[1] != case.line:
            problems.append(f"innermost student frame is line {where[0]} {where[1]!r}, not {case.line!r}")
    if printed:
        problems.append(f"printed {printed[:60]!r}")

    if (why := decorator_problem(case)):
        problems.append(why)
    source = function_source(case)
    if (unknown := free_names(source) - set(ALLOWED_GLOBALS)):
        problems.append(f"uses module-level names {sorted(unknown)}")
    try:
        copy_exc, _ = call_quietly(compile_case(source, case.name), case.make_args())
    except Exception as err:  # noqa: BLE001
        copy_exc = err
        problems.append(f"its source does not run on its own: {type(err).__name__}: {err}")
    else:
        if copy_exc is None or type(copy_exc).__name__ != case.raises:
            got = type(copy_exc).__name__ if copy_exc else "nothing"
            problems.append(f"its source, run on its own, raised {got} (expected {case.raises})")

    lines = source.splitlines()
    hits = [i for i, ln in enumerate(lines) if ln.strip() == case.line]
    if len(hits) != 1:
        problems.append(f"line occurs {len(hits)} times in the function (must be once)")
        return problems
    if "\n" in case.fixed or not case.fixed.strip():
        problems.append("fixed must be one non-empty line")
        return problems
    i = hits[0]
    indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
    fixed_source = "\n".join(lines[:i] + [indent + case.fixed.strip()] + lines[i + 1:]) + "\n"
    try:
        fixed_exc, printed = call_quietly(compile_case(fixed_source, case.name), case.make_args())
    except Exception as err:  # noqa: BLE001
        fixed_exc = err
    if fixed_exc is not None:
        problems.append(f"fixed version raises {type(fixed_exc).__name__}: "
                        f"{str(fixed_exc).splitlines()[0][:120]}")
    return problems


def check_corpus(cases: list[ErrorCase], minimum=MINIMUM, total_minimum=TOTAL_MINIMUM,
                 other_threads=frozenset(), other_names=frozenset()) -> list[str]:
    """Rules across the cases of one batch; `other_threads` and `other_names` are the sources and
    function names of the earlier batches, which a held-out batch must not reuse."""
    problems = []
    names = collections.Counter(c.name for c in cases)
    problems += [f"case name {n!r} used {k} times" for n, k in names.items() if k > 1]
    threads = collections.Counter(c.source for c in cases)
    problems += [f"{k} cases from one thread (at most {MAX_PER_THREAD}): {s}"
                 for s, k in threads.items() if k > MAX_PER_THREAD]
    families = collections.Counter(c.family for c in cases)
    problems += [f"family {f!r} has {families[f]} cases (at least {m})"
                 for f, m in minimum.items() if families[f] < m]
    if len(cases) < total_minimum:
        problems.append(f"{len(cases)} cases in all (at least {total_minimum})")
    problems += [f"{c.name}: thread {c.source} is also used by an earlier batch"
                 for c in cases if c.source in other_threads]
    problems += [f"case name {c.name!r} is also used by an earlier batch" for c in cases if c.name in other_names]
    return problems


def batch_index(case: ErrorCase) -> int:
    """0 for error_mistakes.py, 1 to 15 for the held-out batches."""
    return next(i for i, m in enumerate(BATCHES) if case.fn.__module__ == m.__name__)


def is_heldout(case: ErrorCase) -> bool:
    return batch_index(case) == 1


def check_part(path: Path, verbose: bool) -> int:
    """Check the cases of one part file: every per-case rule, and no thread or name of a registered batch.
    A blind helper writing a new batch runs this on its own part before the parts are merged."""
    global CASE_FILE
    CASE_FILE = path
    spec = importlib.util.spec_from_file_location(f"mistakes.{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)                                   # (registers its cases)
    FIXES.update(getattr(module, "NEW_CATEGORIES", {}))               # a part's own new fix categories
    CATEGORIES.update(getattr(module, "NEW_CATEGORIES", {}))          # (and their patterns, checked to compile)
    cases = [c for c in ERROR_CASES if c.fn.__module__ == spec.name]
    failed = False
    for case in cases:
        if (problems := check_case(case)):
            failed = True
            print(f"FAIL {case.family}/{case.name}: " + "; ".join(problems))
        elif verbose:
            print(f"ok   {case.family}/{case.name} ({case.source})")
    registered = [c for c in ERROR_CASES if c.fn.__module__ != spec.name]
    corpus_problems = check_corpus(cases, {}, 1, frozenset(c.source for c in registered),
                                   frozenset(c.name for c in registered))
    for p in corpus_problems:
        print(f"FAIL corpus: {p}")
    families = collections.Counter(c.family for c in cases)
    print(f"{len(cases)} cases ({', '.join(f'{f} {n}' for f, n in sorted(families.items()))}), "
          f"{len({c.source for c in cases})} threads: "
          + ("all rules hold" if not (failed or corpus_problems) else "rules FAIL"))
    return 1 if failed or corpus_problems else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-v", "--verbose", action="store_true", help="print every case, not only failures")
    ap.add_argument("--heldout", nargs="?", type=int, const=1, default=0, choices=range(25), metavar="N",
                    help="check held-out batch N instead of error_mistakes.py: 1 (default) "
                         "heldout_error_mistakes.py, 2 to 15 heldout_error_mistakes_N.py")
    ap.add_argument("--part", type=Path, metavar="FILE",
                    help="check one part of a batch still being written (a file of cases, imported as "
                         "mistakes.<its name>) against every registered batch, with no family minimums")
    a = ap.parse_args()
    global CASE_FILE
    if a.part is not None:
        return check_part(a.part.resolve(), a.verbose)
    module = BATCHES[a.heldout]
    CASE_FILE = Path(inspect.getfile(module)).resolve()
    cases = [c for c in ERROR_CASES if batch_index(c) == a.heldout]
    by_family: dict[str, list[tuple[ErrorCase, list[str]]]] = collections.defaultdict(list)
    for case in cases:
        by_family[case.family].append((case, check_case(case)))
    failed = False
    for family in list(MINIMUM) + sorted(set(by_family) - set(MINIMUM)):
        results = by_family.get(family, [])
        good = sum(not p for _, p in results)
        fixes = collections.Counter(c.fix for c, _ in results)
        print(f"{family:13} {len(results):3} cases, {good:3} hold all rules; fixes: "
              + ", ".join(f"{f} {n}" for f, n in sorted(fixes.items())))
    for family, results in by_family.items():
        for case, problems in results:
            if problems:
                failed = True
                print(f"FAIL {family}/{case.name}: " + "; ".join(problems))
            elif a.verbose:
                print(f"ok   {family}/{case.name} ({case.source})")
    earlier = [c for c in ERROR_CASES if batch_index(c) < a.heldout]
    corpus_problems = check_corpus(cases, *BATCH_MINIMUM[a.heldout],
                                   frozenset(c.source for c in earlier), frozenset(c.name for c in earlier))
    for p in corpus_problems:
        print(f"FAIL corpus: {p}")
    print(f"{len(cases)} cases, {len({c.source for c in cases})} threads: "
          + ("all rules hold" if not (failed or corpus_problems) else "rules FAIL"))
    return 1 if failed or corpus_problems else 0


if __name__ == "__main__":
    sys.exit(main())
