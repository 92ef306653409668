"""What test cells import (`from autograder import check`); the student kit ships it.

- `check`        the assert_* checks (values, jit, retrace, structure, effects); `structure` has the
                 jaxpr checks and `performance` the run-time and compile-time checks, re-exported by `check`
- `work`         whether the loop or branch a structure check requires does the work (a probe that
                 evaluates the jaxpr with it neutralised), and host calls no structure check can vouch for
- `failure`      CheckFailure: the one message shape, and what a hidden failure may say
- `plausible`    the probes' results checked before a check reads them
- `evidence`     the probes, run where the student's function lives
- `tracing`      how probes jit, trace and count a function (JAX's entry points bound early)
- `calls`        how a function was called; what changed between two calls
- `timing`       one process's timing of a function against a reference
- `agreement`    a traced program's results against a direct call's (what is traced is what is graded)
- `plain`        plain data by exact type: the one converter of what a student's function returned
- `keyuse`       which key data each random operation consumed (the evidence for key reuse)
- `diagnose`     the lines of a message about a JAX exception; `facts` describes the exception where
                 it happened (`call_facts`: what a call on the line binds: a partial's keywords, a
                 vmapped function's keyword arguments), `rules` holds the rule tables (exception or
                 retrace -> cause and fix), with `usage_rules` (JAX's API outside jit: vmap, grad, loops,
                 branches, pytrees, keys, custom rules, shapes), `api_rules` (names JAX removed or renamed,
                 and calling conventions each told by one message: jvp tuples, pullbacks, flatten pairs,
                 key types, `in_axes` lists, custom rules' arguments, loop carries; `solver_rules`:
                 `jax.scipy.optimize.minimize` given a multi-axis or pytree `x0`), `fallback_rules` (last:
                 where no rule knows the message, a cause and at most two guesses by the error's kind),
                 `advice_rules` (read from what JAX's message says it wants and from the line's syntax: a
                 chained comparison around `&`, the dtype, platform or mode JAX names, JAX's tip, a
                 constructor or a leaf JAX's machinery handed the student's code),
                 `misuse_rules` (NumPy's names and forms,
                 values a transform cannot trace, loops and callbacks under transformations),
                 `habit_rules` (habits from NumPy and PyTorch, each told by one message: in-place
                 functions, 64-bit integers, a sampler's scale, `dim=`, a device list as a mesh),
                 `transform_rules` (first: what a jit or generic rule would misread, a value vmap mapped, a custom rule's tuples, a pytree's unflatten; shard_map's varying axes), `operand_rules` (lists and functions where arrays belong, arguments that do not fit
                 their call) and `wiring_rules` (functions wired the wrong way round: partial keywords,
                 fwd rules, vmapped keywords, static `lax.cond` predicates) and `value_rules` (values JAX
                 cannot take as arrays: a dict in arithmetic, `None` in a list, keys as data; other libraries'
                 names) and `convention_rules` (conventions one message states exactly: a reduced SVD, a
                 cotangent's containers, a class registered twice, renamed keywords) and `stated_rules`
                 (what a message or the line states outright: a static `length=`, `out_axes=` past an
                 output's rank, a function's value given to `jax.grad`), first among them `intent_rules`
                 (what the line shows was meant: a gradient per argument, several conditions, one key's
                 split, partials of one function) and `argument_rules` (an argument in a form its
                 function refuses: `lax.reduce`'s initial values, `lax.pad`'s triples, a device index)
                 and `form_rules` (a call in a form its function's convention rules out: `jnp.select`'s
                 `default=`, `jnp.piecewise`'s count, `.T` on raw keys) and `input_rules` (an input JAX's
                 message says its function refuses: `bits`' unsigned dtype, `tree.unflatten`'s treedef
                 first, `jnp.where` between two tuples) and `signature_rules` (arguments against a function's
                 signature convention: `map_with_path`'s `(path, leaf)`, NumPy's `low=` on `jax.random`)
                 and `contract_rules` (what a function's contract requires of a call: a `custom_vmap` rule's
                 pair, a `tree_unflatten` JAX calls on the class, a stack of tangents for one `jvp`)
                 in the same table;
                 `usage_texts` reads JAX's text for them; `rule_facts` is what every rule reads
- `trials`       candidate fixes of a matched rule traced with `jax.eval_shape` on the student's own
                 values, in a forked child, before the message tells them; `trial_plans` lists each
                 kind of call's candidates, `trial_rewrites` rewrites the failing line's call into
                 candidates, `trial_kinds` rewrites the failing line by the kind of its error (where no
                 rule's fix traced; `trial_kind_values` for values JAX cannot trace), `trial_texts` words the fix from what traced
- `kernel_hook`  in a notebook kernel, the cause and fix of a cell's JAX error printed under its
                 traceback (installed when `check` is imported)
- `text`         text helpers
"""
