"""Issue 24's bar, measured on code nobody here wrote: JAX's errors outside jit (tests/mistakes/
error_mistakes.py, reduced from public reports), told their fix in a student's own kernel (the hook
after `from autograder import check`) and in the grader's message, at least 90% in both places, in
sample and held out (cases written after the rules)."""
from __future__ import annotations

import pytest

from mistakes import case_runs, corpus, error_runs


def _all():
    return error_runs.load(False) + error_runs.load(True)


@pytest.fixture(scope="module")
def told(limits):
    """Every case, in sample and held out, in one real kernel and one sandboxed grading session."""
    return error_runs.run_all(limits=limits, cases=_all())


def test_corpus_is_large_and_names_real_sources():
    cases, heldout = error_runs.load(False), error_runs.load(True)
    assert len(cases) >= 50 and len(heldout) >= 15, (len(cases), len(heldout))
    families = {c.family for c in cases}
    assert families == {"vmap", "grad", "loops", "branches", "pytrees", "keys", "custom-rules", "shapes"}
    assert {c.family for c in heldout} == families | {"other"}      # batch 4 looked outside the families too
    for case in cases + heldout:
        assert case.source.startswith("https://"), case.name
        assert case.fix in corpus.CATEGORIES, (case.name, case.fix)


@pytest.fixture(scope="module")
def raised():
    """Each case raised and its fix run, all in one child process (mistakes/case_runs.py)."""
    return case_runs.run_all()


@pytest.mark.parametrize("case", _all(), ids=lambda c: c.name)
def test_case_raises_at_its_line_and_the_maintainers_fix_runs(raised, case):
    """Each case fails as its report did (the exception named, at the student's line), and the line
    as the maintainers fixed it runs: a message that gives that fix gives one that works."""
    ran = raised[case.name]
    assert ran["raised"] == case.raises, (ran["raised"], ran["message"])
    assert ran["line"] == case.line, (ran["line"], case.line)
    assert ran["fix_error"] is None, ran["fix_error"]


def test_a_fix_that_still_raises_and_a_line_elsewhere_are_caught():
    """The child's answers could fail: a case whose 'fix' is its failing line itself, read the same way."""
    import dataclasses
    case = error_runs.load(False)[0]
    ran = case_runs.check(dataclasses.replace(case, fixed=case.line))
    assert ran["raised"] == case.raises and ran["line"] == case.line
    assert ran["fix_error"] and ran["fix_error"].startswith(case.raises)


def _report(told, where):
    return "\n".join(f"{t.case.name}: {'; '.join(t.problems)}\n{getattr(t, where)[-800:]}"
                     for t in told if not t.tells(where))


# Fixes read by hand and found to work, though they are not the maintainers' (the category pattern,
# written from the maintainers' fix before any message was read, does not credit them).
REVIEWED_ALTERNATIVES = {
    "xent_directional_derivative": "reverse mode (`jax.grad(f)(x) @ v`) or a custom_jvp rule both work; "
                                   "the maintainers dropped the custom_vjp",
    # batch 6, read after its first run
    "brightest_pixel": "`jnp.where(g == jnp.max(g), size=1)` runs under jit and gives the brightest pixel's "
                       "indices; the maintainers used `argmax` with `unravel_index`",
    "batch_of_sequences": "'pad them to one shape first' is the maintainers' fix (`jnp.pad` to the longest); "
                          "the category's pattern wants the words 'same length'",
    "permuted_positions": "`jnp.arange(6)[i]` runs under jit; the maintainers wrote `lax.iota`, the same array",
    # batch 7, read after its first run
    "wrapped_positions": "the `functools.partial` the checks tried (`box=box_size` closed over before `jax.vmap`) "
                         "runs and gives the maintainers' result; they passed it positionally, `in_axes=(0, None)`",
    "log_density_slope": "'use `jnp.array` instead of `np.array`' is the maintainers' fix; the category's "
                         "pattern misses the wording",
    # batch 10, read after its first run
    "sho_power_slope": "the `jnp.where` the checks tried traces and gives both regimes' values elementwise; the "
                       "maintainers chose one formula up front for the parameter range they support",
    # batch 13, read after its first run
    "scalar_head_scores": "`.reshape(-1)` (the `-1` the message offers) runs and gives the same four scores the "
                          "maintainers' per-example `jax.vmap` gives",
    # batch 14, read after its first run
    "shift_each_point": "the `functools.partial` the checks tried (`shift=offsets` closed over before `jax.vmap`) "
                        "runs and gives the maintainers' result; they passed it unmapped, `in_axes=(0, None)`",
    "batched_host_solves": "`jnp.linalg.solve` runs under `jax.vmap` and solves the same systems; the maintainers' "
                           "host solver had no JAX twin, so they wrapped it in `jax.pure_callback`",
    "reproducible_dropout_mask": "comparing the keys' data (`jax.random.key_data`) with `np.testing` checks the same "
                                 "equality the maintainers checked with `==` on the keys",
    "affine_layer_on_point_columns": "`weight @ points + bias[:, None]` (tried) gives the array the maintainers' "
                                     "`jax.vmap(..., in_axes=1, out_axes=1)` gives",
    # batch 19, read after its first run and its revision
    "quill_keyword_gain": "the `functools.partial` the checks tried (`scale=gain` closed over before `jax.vmap`) runs and "
                          "gives the maintainers' result; they passed it positionally, `in_axes=(0, None)`",
    "brindle_keep_positive": "`jnp.where(pred, x, 0.0)` broadcasts and runs; the case's category wants `jnp.select`",
    "quill_shared_init": "a mapped axis in `out_axes` runs (weights drawn per example); the message's second clause is "
                         "the maintainers' fix, weights from one key passed whole (`None` in `in_axes`)",
    # batch 20, read after its first run and its revision
    "brisk_all_pairs_matvec": "`in_axes=(None, 0)` runs and gives every product (vectors first); the maintainers "
                              "nested two vmaps (matrices first)",
    "wrenfold_first_row_tick": "`jnp.where(row == 0, ...)` runs, per element; the thread branched on the loop's "
                               "counter, a scalar",
    # batch 22, read after its first run
    "kelpie_signed_gain": "`jnp.where(g > 0, g, 2 * g)` traced on the student's value and gives the same result "
                          "jitted; the guide page it comes from marks the argument static instead",
    "renewal_wait_means": "`shape=(n_draws,) + jnp.broadcast_shapes(jnp.shape(shapes))` traced, is (7, 3), the "
                          "maintainers' `(n_draws, shapes.shape[0])`",
    # batch 23, read after its first run
    "quern_guarded_ratio": "`jnp.where(c[1] >= 1.0, c[0] / c[1], 0.0)` traced and gives the same values; the page "
                           "closes over the constant instead of carrying it",
}


@pytest.mark.parametrize("batch", ["sample", "heldout", "heldout_2", "heldout_3", "heldout_4", "heldout_5"])
def test_kernel_and_grader_tell_the_fix(told, batch):
    """At least 90% in both places, for the in-sample corpus and for each held-out batch apart, and no
    wrong fix: every `fix:` line that does not give the maintainers' fix is marked as a guess, or is a
    working alternative read by hand (`REVIEWED_ALTERNATIVES`). Batch 5 told 16 of 42 on its first run
    (docs/STUDENTS.md), before the rules written after it."""
    mine = [t for t in told if error_runs.batch_of(t.case) == batch]
    assert len(mine) >= 20, f"{batch}: {len(mine)} cases"
    print("\n" + error_runs.rate_table(mine))
    rates = error_runs.rates(mine)
    assert rates["kernel"] >= 0.9, _report(mine, "kernel")
    assert rates["grader"] >= 0.9, _report(mine, "grader")
    for where in ("kernel", "grader"):
        wrong = [t for t in mine if t.verdict(where) == "wrong" and t.case.name not in REVIEWED_ALTERNATIVES]
        assert not wrong, "\n".join(f"{t.case.name}: {getattr(t, where)[-600:]}" for t in wrong)


@pytest.mark.parametrize("batch", ["heldout_6", "heldout_7", "heldout_8", "heldout_9", "heldout_10", "heldout_11",
                                   "heldout_12", "heldout_13", "heldout_14", "heldout_15", "heldout_16", "heldout_17",
                                   "heldout_18", "heldout_19", "heldout_20", "heldout_21", "heldout_22",
                                   "heldout_23", "heldout_24"])
def test_the_newer_batches_get_no_wrong_fix(told, batch):
    """Batches 6 to 24 were written blind to the rules of their time. Batch 6's first run told 13 of
    44, with 11 wrong fixes, before and after the rules written for batch 5; batch 7's told 22 of 46
    before the rules2 merge and 24 of 46 after it, with 7 wrong; batch 8's told 20 of 46 before the
    rules8 merge and 25 of 46 after it, with 2 wrong; batch 9's told 20 of 46 before the advice rules
    and 21 of 46 after them, with 8 wrong; batch 10's told 28 of 44, with 5 wrong once read by hand
    (docs/STUDENTS.md); batch 11's told 28 of 44, with 5 wrong by the automatic verdict; batch 12's told
    23 of 41, with 7 wrong by the automatic verdict; batch 13's told 25 of 49, with 11 wrong by the automatic
    verdict; batch 14's told 20 of 53, with 16 wrong by the automatic verdict; batch 15's told 18 of 50, with 11
    wrong by the automatic verdict; batch 16's told 21 of 50, with 7 wrong by the automatic verdict; batch 17's told 23 of 44, with 10 wrong
    by the automatic verdict; batch 18's told 39 of 53, with 4 wrong by the automatic verdict;
    batch 19's told 27 of 52, with 6 wrong by the automatic verdict; batch 20's told 26 of 43, with 5 wrong by the
    automatic verdict; batch 21's told 26 of 51, with 5 wrong by the automatic verdict (one told case removed since);
    batch 22's told 20 of 52, with 7 wrong by the automatic verdict; batch 23's told 27 of 52, with 6 wrong by the
    automatic verdict; batch 24's told 34 of 51, with 5 wrong by the automatic verdict. The 90% bar is not claimed for them;
    what the rules say about them must not be a wrong fix: every `fix:` line that is not the
    maintainers' fix is a guess, or a working alternative read by hand."""
    mine = [t for t in told if error_runs.batch_of(t.case) == batch]
    assert len(mine) >= 40
    for where in ("kernel", "grader"):
        wrong = [t for t in mine if t.verdict(where) == "wrong" and t.case.name not in REVIEWED_ALTERNATIVES]
        assert not wrong, "\n".join(f"{t.case.name}: {getattr(t, where)[-600:]}" for t in wrong)


def test_grader_messages_quote_the_students_line(told):
    for t in told:
        if t.tells("grader"):
            assert f"`{t.case.line}`" in t.grader, t.grader


@pytest.mark.parametrize("batch", range(25))
def test_each_batch_keeps_its_own_threads_and_minimums(batch):
    """A held-out batch measures rules on mistakes they were not written from only if no earlier batch
    (nor the in-sample corpus) used its threads: check_error_cases.py's rules across a batch (its
    minimums, at most three cases per thread, no thread or name of an earlier batch)."""
    from mistakes import check_error_cases as rules
    _all()
    cases = [c for c in corpus.ERROR_CASES if rules.batch_index(c) == batch]
    earlier = [c for c in corpus.ERROR_CASES if rules.batch_index(c) < batch]
    assert rules.check_corpus(cases, *rules.BATCH_MINIMUM[batch], frozenset(c.source for c in earlier),
                              frozenset(c.name for c in earlier)) == []
