"""Does the primitive a structure check requires do the work? And work the jaxpr cannot show.

A structure check that only asks whether a `while`, `scan` or `cond` is *present* passes a program
that computes its answer another way (a closed form, `jnp.where`, an unrolled loop) and adds a
loop or a branch that does nothing: a `while_loop` whose condition is False, a `scan` that passes
its input through, `lax.cond(True, id, id)`. So, besides being present, the required primitive
must matter to the result. `required_work` (a probe: it runs where the student's function lives)
traces the function once, then evaluates that jaxpr again with one occurrence of the primitive
neutralised at a time, wherever it is nested:

- a `while` runs zero iterations (its condition is False): its results are its initial carry;
- a `scan` keeps its initial carry (every iteration starts from it, the final carry is it), so a
  scan whose iterations do not feed each other (a map, a pass-through) changes nothing;
- a `cond` runs one branch whatever its index, each branch in turn.

An occurrence *matters* when one of these changes the result (beyond `agreement.difference`'s
rounding tolerance) on the check's inputs moved by `agreement.perturbed` (a check's own inputs are
often all ones, and squaring ones is a loop that changes nothing), or failing that on its own
inputs. A `cond` must also choose its branch by a value computed from the function's arguments (a
constant index is no branch). Only these three are neutralised: a check that requires another
primitive (`mul`) judges its presence alone. The probe returns plain data; `require_work` takes the
verdict in the grader.

Work done on the host (`pure_callback`, `io_callback`, an FFI call: a step that returns values from
host code) is not in the jaxpr at all, so no structure check can vouch for it: `summarise_jaxpr`
lists such steps (`host_calls`) and `refuse_host_calls` fails every structure check on them. A
`jax.debug.print` or `jax.debug.callback` returns nothing into the program and is allowed.
"""
from __future__ import annotations

import jax
from jax.extend import core as jcore

from .agreement import difference, perturbed
from .failure import CheckFailure, message
from .facts import describe_exception
from .tracing import _block, _fresh_jit, _jit, _jit_source, _jit_trace, _tree_leaves, summarise_jaxpr

_eval_jaxpr = jax.core.eval_jaxpr


def _sub(value, fn):
    """`value` (a param) with every jaxpr in it replaced by `fn(jaxpr)`; the same object when none changed."""
    if isinstance(value, jcore.ClosedJaxpr):
        inner = fn(value.jaxpr)
        return value if inner is value.jaxpr else jcore.ClosedJaxpr(inner, value.consts)
    if isinstance(value, jcore.Jaxpr):
        return fn(value)
    if isinstance(value, (tuple, list)):
        new = [_sub(v, fn) for v in value]
        return value if all(a is b for a, b in zip(new, value)) else type(value)(new)
    return value


def _walk(jaxpr, visit):
    """Pre-order over every equation, nested jaxprs included, calling `visit(eqn)`."""
    for eqn in jaxpr.eqns:
        visit(eqn)
        for value in eqn.params.values():
            _sub(value, lambda j: (_walk(j, visit), j)[1])


# The primitives this module knows how to neutralise; a check that requires another (`mul`) is
# judged by presence alone.
NEUTRALISED = ("while", "scan", "cond")


def _wanted(eqn, primitives, n_branches):
    name = eqn.primitive.name
    if name not in primitives or name not in NEUTRALISED:
        return False
    return n_branches is None or name != "cond" or len(eqn.params.get("branches", ())) == n_branches


def _rewrite(jaxpr, target, counter, primitives, n_branches, change):
    """`jaxpr` with the `target`-th wanted equation (pre-order, as `_walk` counts) replaced by `change(eqn)`."""
    eqns, changed = [], False
    for eqn in jaxpr.eqns:
        mine = None
        if _wanted(eqn, primitives, n_branches):
            mine, counter[0] = counter[0], counter[0] + 1
        params = {k: _sub(v, lambda j: _rewrite(j, target, counter, primitives, n_branches, change))
                  for k, v in eqn.params.items()}
        new = eqn if all(params[k] is eqn.params[k] for k in params) else eqn.replace(params=params)
        if mine == target:
            new = change(new)
        changed |= new is not eqn
        eqns.append(new)
    return jaxpr.replace(eqns=eqns) if changed else jaxpr


def _no_iterations(eqn):
    """A while whose condition is False: its results are its initial carry."""
    cond = eqn.params["cond_jaxpr"]
    false = jcore.Literal(False, cond.jaxpr.outvars[0].aval)
    return eqn.replace(params={**eqn.params, "cond_jaxpr": jcore.ClosedJaxpr(
        cond.jaxpr.replace(eqns=[], outvars=[false], effects=frozenset()), cond.consts)})


def _carry_kept(eqn):
    """A scan whose body hands its carry on unchanged: every iteration starts from the initial carry."""
    body = eqn.params["jaxpr"]
    nc, nk = eqn.params["num_consts"], eqn.params["num_carry"]
    inner = body.jaxpr
    outvars = list(inner.invars[nc:nc + nk]) + list(inner.outvars[nk:])
    return eqn.replace(params={**eqn.params, "jaxpr": jcore.ClosedJaxpr(inner.replace(outvars=outvars), body.consts)})


def _one_branch(j):
    def change(eqn):
        branches = eqn.params["branches"]
        return eqn.replace(params={**eqn.params, "branches": (branches[j],) * len(branches)})
    return change


def _index_from_inputs(jaxpr) -> list:
    """For each wanted cond (in `_walk`'s order): does its index depend on the function's arguments?
    Within a nested jaxpr whose inputs do not line up one to one with its equation's, every input
    counts as an argument's when one of the equation's does (so nothing honest is missed)."""
    out = []

    def visit(jx, live):
        for eqn in jx.eqns:
            ins = [not isinstance(v, jcore.Literal) and v in live for v in eqn.invars]
            if eqn.primitive.name == "cond":
                out.append((eqn, ins[0]))
            for value in eqn.params.values():
                def inner(j, ins=ins, branch=eqn.primitive.name == "cond"):
                    args = ins[1:] if branch else ins
                    flags = args if len(args) == len(j.invars) else [any(ins)] * len(j.invars)
                    visit(j, {v for v, f in zip(j.invars, flags) if f})
                    return j
                _sub(value, inner)
            if any(ins):
                live.update(eqn.outvars)
    visit(jaxpr, set(jaxpr.invars))
    return out


def required_work(fn, args, kwargs=None, static_argnums=(), static_argnames=(), primitives=(), n_branches=None):
    """Trace `fn`; for each occurrence of `primitives` (conds: with `n_branches` branches), whether
    neutralising it changes the result (module docstring). Plain data: {'ok', 'eqns', 'host_calls',
    'occurrences': [{'primitive', 'matters', 'index_from_inputs'}]} or {'ok': False, 'error'}."""
    kwargs = dict(kwargs or {})
    primitives = tuple(primitives)
    try:
        _, nums, names = _jit_source(fn, static_argnums, static_argnames)
        nums = {n % len(args) for n in nums} if args else set()
        traced = _jit_trace(_fresh_jit(fn, static_argnums, static_argnames), *args, **kwargs)
        closed = traced.jaxpr
        jaxpr = closed.jaxpr
        eqns = []
        _walk(jaxpr, eqns.append)
        wanted = [e for e in eqns if _wanted(e, primitives, n_branches)]
        summary = summarise_jaxpr(jaxpr)
        result = {"ok": True, "eqns": summary["eqns"], "host_calls": summary["host_calls"], "occurrences": []}
        if result["host_calls"] or not wanted:
            return result
        conds = dict((id(e), flag) for e, flag in _index_from_inputs(jaxpr))

        def flat(a, k):
            return _tree_leaves(([v for i, v in enumerate(a) if i not in nums],
                                 {n: v for n, v in k.items() if n not in names}))
        moved = perturbed(tuple(args), kwargs, nums, names)
        inputs = [flat(*moved), flat(tuple(args), kwargs)]

        def runner(jx):
            jitted = _jit(lambda *a: _eval_jaxpr(jx, closed.consts, *a))
            return lambda xs: _block(jitted(*xs))
        run_base = runner(jaxpr)
        base = [run_base(xs) for xs in inputs]
        for k, eqn in enumerate(wanted):
            name = eqn.primitive.name
            changes = ([_no_iterations] if name == "while" else [_carry_kept] if name == "scan"
                       else [_one_branch(j) for j in range(len(eqn.params["branches"]))])
            matters = False
            for change in changes:
                run = runner(_rewrite(jaxpr, k, [0], primitives, n_branches, change))
                try:
                    matters = any(difference(run(xs), out) is not None for xs, out in zip(inputs, base))
                except Exception:   # the program without it cannot even run: it mattered
                    matters = True
                if matters:
                    break
            result["occurrences"].append({"primitive": name, "matters": matters,
                                          "index_from_inputs": bool(conds.get(id(eqn), True))})
    except Exception as exc:
        return {"ok": False, "error": describe_exception(exc)}
    return result


# ---------------------------------------------------------------- the verdicts, in the grader
HOST_CAUSE = ("part of the computation runs as host code through a callback (`jax.pure_callback`, "
              "`io_callback`, an FFI call); what it does is not in the jaxpr, so this check cannot see how it is computed")
HOST_FIX = "compute the result with jax.numpy and lax operations only, without a callback"


def _raise(title, evidence_text, cause, fix):
    raise CheckFailure(message(title, evidence_text, cause, fix), category="jaxpr",
                       hidden_cause=cause, hidden_fix=fix)


def refuse_host_calls(title: str, calls: list):
    """Fail a structure check whose jaxpr hands work to host code (`host_calls`)."""
    if calls:
        _raise(title, f"the jaxpr calls host code ({', '.join(calls)}), which the structure check cannot inspect",
               HOST_CAUSE, HOST_FIX)


def require_work(title: str, result: dict, primitives, fix: str):
    """Fail unless one occurrence of the required primitive matters to the result (`required_work`)."""
    refuse_host_calls(title, result["host_calls"])
    found = result["occurrences"]
    if any(o["matters"] and o["index_from_inputs"] for o in found) or not set(primitives) & set(NEUTRALISED):
        return
    what = "/".join(primitives)
    if any(o["matters"] for o in found):
        _raise(title, f"its {what} always takes the same branch: the index is a constant, not computed from the arguments",
               "the branch is chosen before the cond (a constant predicate or index), so the cond branches on nothing",
               fix)
    loops = sorted({o["primitive"] for o in found} - {"cond"})
    if loops:
        how = " or ".join({"while": "each while run for zero iterations",
                           "scan": "each scan's carry never updated (every iteration starting from the initial carry)"
                           }.get(p, f"each {p} left out") for p in loops)
        them = "it" if len(found) == 1 else "any of them"
        _raise(title, f"the jaxpr holds {len(found)} {what} but the result does not depend on {them}: with {how}, "
               "the function returns the same values",
               "the loop is there but the result is computed outside it (a closed form, an unrolled loop, "
               "jnp.where), or its iterations do not feed each other", fix)
    _raise(title, f"the jaxpr holds {len(found)} {what} but the result does not depend on which branch runs: "
           "forced to any one branch, the function returns the same values",
           "the cond is there but the result is chosen outside it (jnp.where, jnp.select), or its branches "
           "are the same function", fix)
