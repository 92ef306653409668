"""Run the corpus of real mistakes through `check.assert_jittable` / `check.assert_max_traces`.

Each case names the fix category the maintainers (or the accepted answer) gave. A message
"tells" a case when it matches the category's pattern below; a jit message "names the line" when
it quotes the student's failing line.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

# fix category -> pattern a message must match to count as giving that fix
CATEGORIES = {
    # jit failures
    "numpy-shape-math": r"np\.prod|math\.ceil|np\.maximum|plain Python",
    "static-arg": r"static_arg(names|nums)=",
    "logical": r"jnp\.logical_(and|or|not)",
    "checkify": r"checkify",
    "asarray-index": r"jnp\.asarray\([^`]+\)\[",
    "switch": r"(?s)lax\.switch.*jnp\.clip",
    "pad-mask": r"(?s)(maximum|fixed) size.*mask",
    "while_loop": r"lax\.while_loop",
    "cond": r"lax\.cond|jnp\.where\(",
    "fori_loop": r"lax\.fori_loop",
    "where": r"jnp\.where\(",
    "size": r"size=",
    "jnp": r"`jnp\.\w+`[^\n]*instead of `np\.\w+`",
    "stay-jnp": r"astype",
    "debug-print": r"jax\.debug\.print",
    "pure": r"(?i)pass it (in|as an argument)|return it",
    "dynamic_slice": r"lax\.dynamic_slice",
    "hashable-static": r"(?s)hashable.*(tuple|frozen=True)",
    # retraces
    "cast": r"\.astype\(jnp\.\w+\)|jnp\.asarray\([^)]*jnp\.\w+\)",
    "same-structure": r"(?s)same structure.*placeholder",
    "value-hash": r"(?s)`__hash__`.*`__eq__`",
    "define-once": r"define it once",
    "leaf": r"a leaf",
    "pad-bucket": r"(?s)pad.*bucket",
    "weak-type": r"(?s)weak.*jnp\.(float32|int32|asarray)",
    "traced-not-static": r"(?s)static.*pass it as a traced",
    # JAX's API outside jit (issue 24: error_mistakes.py)
    "vmap-in-axes-none": r"in_axes=\([^)]*None",
    "vmap-in-axes-entries": r"one entry per positional argument",
    "vmap-in-axes-axis": r"map along an axis it has|no axis to map|map at least one argument|on axis \d+, not axis \d+",
    "vmap-out-axes": r"give `out_axes` the structure|a mapped axis in `out_axes`",
    "grad-scalar": r"jnp\.sum|jnp\.mean|jax\.jacrev|jax\.vmap\(jax\.grad",
    "grad-float": r"pass floats|\.astype\(jnp\.float32\)",
    "grad-has-aux": r"has_aux",
    "grad-argnums": r"pass the argument positionally|`argnums` that counts|with `argnums=`",
    "carry-dtype": r"with the dtype the body produces|cast the new value back",
    "carry-shape": r"one fixed shape|scan stacks",
    "scan-pair": r"return `\(carry, y\)`",
    "loop-scalar-pred": r"jnp\.all|jnp\.any",
    "branch-types": r"both branches return the same",
    "scalar-pred": r"jnp\.where\(pred",
    "switch-int-index": r"astype\(jnp\.int32\)",
    "tree-same-structure": r"give the trees the same structure|the containers it came in with",
    "register-pytree": r"register_dataclass|register_pytree_node_class|NamedTuple",
    "prng-key": r"jax\.random\.key\(|PRNGKey\(",
    "key-one-style": r"wrap_key_data|key_data",
    "key-no-arith": r"fold_in|jax\.random\.split\(key\)",
    "key-vmap": r"jax\.vmap\(lambda k|jax\.vmap\(jax\.random\.(key|PRNGKey)\)",
    "bwd-tuple": r"return a tuple from `bwd`",
    "bwd-shape": r"shape and dtype of its input",
    "jvp-pair": r"\(primal_out, tangent_out\)|the primal output's shape and dtype",
    "broadcast-axes": r"\[:, None\]|keepdims=True",
    "concat-shapes": r"`axis=\d*`|make the other dimensions equal|use `jnp\.concatenate`",
    "contract-dims": r"\.T`|jnp\.einsum",
    "reshape-size": r"write `-1`|multiply to the same total",
    # the third held-out batch's new kinds of mistakes (patterns written from the fix alone, before
    # any message for them was read)
    "vmap-axis-name": r"axis_name=",
    "grad-real-output": r"jax\.jacfwd|jax\.jvp|real-valued|jnp\.real|jnp\.abs",
    "loop-int-bounds": r"(?i)integer (lower |upper )?bounds?|int\(",
    "scan-length": r"length=",
    "loop-body-callable": r"(?i)pass the (body )?function( itself)?|not (its|the) result",
    "branch-operands": r"(?i)operands?\b",
    "select-where": r"jnp\.where",
    "random-dtype": r"(?i)sample floats|\.astype\(|a float dtype",
    "sample-size": r"(?i)replace=True|no more samples",
    "vjp-reverse-mode": r"(?i)jax\.grad|jax\.jacrev|reverse[- ]mode",
    "fwd-pair": r"(?i)residuals",
    "split-sections": r"(?i)array_split|divide",
    "update-shape": r"(?i)shape of the (indexed )?(slice|entries)|\.at\[[^]]*\]\.set",
    # the fourth held-out batch's new kinds (patterns written from the fix alone, before any message
    # for them was read)
    "vmap-nested": r"jax\.vmap\(\s*jax\.vmap\(|(?i:\bnest(ed|ing)?\b[^\n]{0,30}vmap|vmap[^\n]{0,30}\bnest(ed|ing)?\b|one `?vmap`? per (axis|argument))",
    "vmap-no-zip": r"(?i)(not|instead of|without|rather than|drop|remove|avoid|no)\b[^\n]{0,30}\bzip\b|\bzip\b[^\n]{0,40}\b(is not|isn't|cannot|can't|not an? (array|pytree))",
    "stack-leaves": r"jnp\.stack|tree\.map\(lambda \*|tree_map\(lambda \*|(?i:struct(ure)?[- ]of[- ]arrays)",
    "vmap-method": r"vmap_method=",
    "vmap-in-axes-kw": r"(?i)`?in_axes`?[^\n]{0,20}(instead of|not) `?axis|in_axes=0",
    "static-loop-bounds": r"lax\.scan|(?i:static (start|stop|bounds?|upper|trip)|(fixed|static|constant) (number of (iterations|steps)|bounds?)|python int(eger)? bounds?)",
    "non-array-leaf": r"(?i)(keep|move|take|leave|pass)\b[^\n]{0,40}(out of|outside|separately)|clos(e|ing) over|meta_fields|static=True|only the arrays?",
    # (`jnp.f` instead of `np.f` added after batch 8's first run, which read two right fixes as wrong;
    # dotted names, `jnp.linalg.det` instead of `np.linalg.det`, after batch 9's, which read one so)
    "np-to-jnp": r"jnp\.asarray|(?i:`?jnp`? instead of `?np`?|jax\.numpy instead of numpy)|`jnp\.[\w.]+` instead of `np\.[\w.]+`",
    "no-float-cast": r"(?i)(remove|drop|avoid|without|instead of|don't use|do not use)\b[^\n]{0,25}`?float\(|keep (it|the value) as an? (jax )?array",
    "carry-singleton": r"(?<!shape)\[[^\]\n]*\b0\]|squeeze|reshape\(\(\)\)",
    "carry-keep-dtype": r"astype\((\w+\.)?dtype\)|(?i:cast\b[^\n]{0,30}\bback\b|same dtype as (the )?(initial|init|input|incoming) (carry|value)|keep the carry'?s? dtype|(initial|init)\w*( carry| value)?[^\n]{0,40}\b(float|dtype))",
    "elementwise-and": r"\) & \(|`&`|jnp\.logical_and",
    "is-none-check": r"is not None|is None",
    "none-leaf": r"is_leaf=",
    "close-over": r"(?i)clos(e|es|ing)\b[^\n]{0,15}\bover\b|closure|functools\.partial|\bpartial\(",
    "shape-tuple": r"(?i)as a tuple|tuple\(|(tuple|sequence) of (ints|integers)",
    # (a key made inside the `split` call allowed after batch 8's first run, which read it as wrong)
    "keys-array": r"jax\.random\.split\((\w+|jax\.random\.(key|PRNGKey)\(\w+\)), \w+\)|(?i:array of keys|(not|instead of) a (python )?tuple|stacked keys)",
    "jvp-primal-only": r"(?i)primal (output|out|result)s?\b[^\n]{0,60}\b(from|of|on) (the )?primals?|(must|should|may) not depend on (the )?tangents?|call (the function|`?\w+`?) on (the )?primals",
    "nondiff-arrays": r"(?i)(remove|drop|take|without|not|don't|do not|never|no longer)\b[^\n]{0,50}nondiff_argnums|nondiff_argnums[^\n]{0,80}\b(only for|not for|non-array|static|hashable)",
    "nondiff-static": r"nondiff_argnums=\(",
    "stack-scalars": r"jnp\.stack|jnp\.atleast_1d|jnp\.array\(\[",
    "solve-vector": r"\[\.\.\., None\]|squeeze\(-1\)|\[\.\.\., 0\]",
    "int-index": r"astype\(jnp\.int32\)|astype\(int\)|\bint\(|\s//\s|(?i:integer (index|indices|dtype))",
    "at-set": r"\.at\[",
    "clip-min-max": r"(?s)\bmin=.*\bmax=|\bmax=.*\bmin=",
    # the fifth held-out batch's new kinds (patterns written from the fix alone, before any message
    # for them was read)
    "vmap-kwargs-positional": r"(?i)\bpositional(ly| argument)|(not|instead of|rather than)\b[^\n]{0,12}\b(by |as )?(a )?keyword",
    "grad-wrt-params": r"(?i)(with respect to|w\.r\.t\.?|\bwrt\b)[^\n]{0,30}\b(the )?(param\w*|weights?|model)\b|jax\.(value_and_)?grad\([^\n]{0,40}\)\((params|model|p)\b",
    "init-carry-shape": r"(?i)(initial|init)\w*\b[^\n]{0,50}\b(shape|zeros\(|zeros_like|full\()|jnp\.(zeros|full|ones)\(\(",
    "body-signature": r"(?i)(move|put|make)\b[^\n]{0,40}\b(last|end)\b|\bpositional(ly)?\b|lambda (i|\w+), \w+: \w+\(|first two (positional )?(arguments|parameters)",
    "python-if-static": r"(?i)\b(python|plain|ordinary|regular) `?if\b|`if` (statement|expression)|static (predicate|condition)|(known|decided|resolved) at trace time",
    "sample-shape-match": r"(?i)broadcast_shapes|shape=[^\n]{0,25}\.shape|\b(shape|size)\b[^\n]{0,40}\b(match\w*|same as|equal to|consistent with)\b[^\n]{0,40}\b(minval|maxval|p|probabilit\w+|mean|low|high|logits|param\w*|bounds?)\b",
    "key-not-seed": r"(?i)already (is )?a key|pass the key (itself|directly|as is)|(don't|do not|no need to|never) (wrap|pass|call|re-?seed)\b[^\n]{0,40}\b(PRNGKey|random\.key)|use (it|the key) (directly|as is)",
    "drop-custom-vjp": r"(?i)\b(plain|undecorated|original|straightforward)\b[^\n]{0,40}\b(function|definition|version|loss)|(without|drop|remove)\b[^\n]{0,15}`?(jax\.)?custom_vjp",
    "layout-transpose": r"(?i)transpose|moveaxis|NCHW|NHWC|dimension_numbers|channels?[- ](first|last)",
    "add-batch-dim": r"\[None(, ?\.\.\.)?\]|\[jnp\.newaxis|expand_dims|reshape\(\(1, |(?i:(add|insert)\w*\b[^\n]{0,30}\b(batch|leading) (axis|dim\w*))",
    "pad-width-rank": r"(?i)(one|a) (pair|\(before, ?after\)|tuple)\b[^\n]{0,30}\b(per|for each|for every|each) (axis|dim\w*)|pad_width[^\n]{0,60}\b(ndim|rank|number of (axes|dim\w*))",
    "list-to-array": r"jnp\.(asarray|array|stack)\(|(?i:(convert|turn|wrap)\b[^\n]{0,30}\b(list|tuple)\b[^\n]{0,30}\barray|pass (a |an |the )?(scalar|float|number|array) (instead|not|rather))",
    "static-python-value": r"\bint\(|\.item\(\)|(?i:python (int|integer|scalar|number|value)|\bhashable\b)",
    "unmark-static": r"(?i)(remove|drop|take)\b[^\n]{0,40}\bstatic_arg(nums|names)|(not|don't|do not)\b[^\n]{0,20}\b(mark|make|declare|treat)\b[^\n]{0,30}\bstatic|static_arg(nums|names)=\(\)|pass it as a traced|(as|a) (regular|normal|traced|dynamic) (argument|input)",
    # the sixth held-out batch's new kinds (patterns written from the maintainers' fixes alone, by a
    # session that never read the rules nor any message the course prints)
    "batch-leading-axis": r"(?i)(stack|batch)\w*\b[^\n]{0,50}\b(leading|first|mapped) (axis|dim\w*)|same (leading|batch|mapped) (axis )?size|jnp\.stack",
    "cotangent-dtype": r"(?i)(dtype|type) of (the )?(primal |function'?s? )?output|ones_like|same dtype as (the )?(primal )?output|astype\(\w+\.dtype\)|jnp\.float16",
    "vjp-unpacked": r"(?i)\bunpack\w*|separate (positional )?arguments|not (as )?a (single )?tuple|jax\.vjp\(\w+, \w+, \w+\)|\*primals",
    "map-tuple-xs": r"(?i)lax\.map\(lambda \w+: [^\n]*\(\w+, \w+\)\)|(pack|bundle|group|pass)\w*\b[^\n]{0,40}\b(a |one |single )?(tuple|pytree)\b|\b(a single|one) (tuple|pytree)\b|xs=\(",
    "xs-shape": r"(?i)reshape\(-1, ?\d\)|shape \(\w*, ?\d\)|each (element|slice|row) of `?xs`?|leading axis of `?xs`?",
    "branchless-sign": r"(?i)jnp\.sign|arithmetic(ally)?|without (an? )?(python )?(`if`|if|branch|boolean)",
    "argmax-index": r"argmax|unravel_index",
    "jax-scalar": r"(?i)jnp\.(asarray|array)\(|\b(jax|jnp) (array|scalar)\b[^\n]{0,40}\b(instead of|rather than|not)\b",
    "uniform-dict-keys": r"(?i)(same|one|single|consistent|uniform) (type|kind) of (dict(ionary)? )?keys?|keys?\b[^\n]{0,30}\b(the )?same (type|kind)\b|keys? (all )?of (the )?(same|one|a single) type|(mixed|mixing)[^\n]{0,20}key types|(all|only) (string|str|int|integer) keys|sortable",
    "permutation-not-shuffle": r"random\.permutation",
    "split-count": r"(?i)split\([^\n]{0,40}, (num=)?\d+\)|number of (keys|subkeys|outputs|names)|(as many|one) (keys|subkeys) (as|per|for)",
    "nondiff-first": r"(?i)nondiff\w*[^\n]{0,80}\b(first|front|leading)\b|\b(first|leading|front)\b[^\n]{0,60}\b(nondiff\w*|non-differentiable|static)\b",
    "use-custom-vjp": r"custom_vjp",
    "pad-to-same": r"(?i)jnp\.pad|\bpad\w*\b[^\n]{0,40}\b(same|common|max\w*|equal) (length|size|shape)",
    "args-tuple": r"(?i)args=\([^)\n]*,\)|\bargs\b[^\n]{0,30}\b(a |as a |in a )?tuple",
    "no-bool-cast": r"(?i)jnp\.bool_|astype\((jnp\.)?bool|(remove|drop|without|instead of|don't|do not|avoid)\b[^\n]{0,30}`?bool\(|keep (it|the (value|flag)) as an? (jax )?array",
    "arange-scalars": r"(?i)arange\(\s*\w+\s*,\s*\w+|(start|stop)\b[^\n]{0,30}\b(separate|positional|scalar)|scalars?,? not a (list|sequence)",
    # the seventh held-out batch's new kinds (patterns written from the maintainers' fixes alone, by a
    # session that never read the rules nor any message the course prints)
    "tree-api": r"jax\.tree\.map|jax\.tree_util\.tree_map",
    "jax-array-type": r"jax\.Array\b",
    "callback-api": r"jax\.pure_callback|jax\.debug\.callback|io_callback",
    "tangent-like-primal": r"(?i)ones_like|zeros_like|same shape (and dtype )?as (the |its |each )?(primal|input)s?",
    "jvp-tuples": r"(?i)\(\w+,\), ?\(\w+,\)|tuples? of (primals|tangents)|(primals|tangents)\b[^\n]{0,30}\b(tuples?|lists?)\b",
    "in-axes-tuple": r"(?i)in_axes=\(|\ba tuple\b[^\n]{0,30}\bnot a list|tuple instead of a list",
    "flatten-pair": r"(?i)\(children, ?aux(_data)?\)|\breturns?\b[^\n]{0,20}\b(a )?(pair|2-tuple)\b",
    "carry-tuple": r"(?i)(initial|init)\w*( carry| value| state)?\b[^\n]{0,40}\btuple|\(\w+\[0\], ?0\.0\)",
    "key-first": r"(?i)\bkey\b[^\n]{0,30}\bfirst (positional )?argument|random\.split\(\w*key\w*, ",
    "last-axis": r"(?i)axis=-1\b|\blast axis\b",
    "aux-to-children": r"(?i)(children|leaves)\b[^\n]{0,60}\barrays?\b|\barrays?\b[^\n]{0,40}\b(children|leaves)\b|\baux(_data)?\b[^\n]{0,60}\bhashable",
    # the seventh batch's second pass (patterns written from the maintainers' fixes alone)
    "pullback-one-arg": r"(?i)\b(a single|one) (argument|cotangent|tuple)\b|without (the )?`?\*",
    "vectorized-combine": r"(?i)jax\.vmap\(|\bvectori[sz]ed?\b|(batch|stack)\w* of elements",
    # added with the eighth held-out batch, part 1 (written from the maintainers' fixes alone)
    "in-axes-prefix": r"(?i)\btree prefix\b|\bprefix of\b[^\n]{0,40}\b(argument|input|value|structure)|in_axes\b[^\n]{0,60}\bsame (pytree )?structure|\b(an|one) (axis|entry) for (each|every) (leaf|element|entry|field)",
    "complex-input": r"(?i)\bcomplex(-valued)? (dtype )?(inputs?|arguments?|arrays?|values?|primals?)\b|astype\((jnp\.|np\.)?complex|jnp\.complex(64|128)|dtype=(jnp\.|np\.)?complex|\+ ?0j\b",
    "holomorphic-flag": r"holomorphic=True",
    "eigvec-derivs": r"enable_eigvec_derivs=True|jax\.lax\.linalg\.eig\(",
    "host-numpy-check": r"np\.(less|less_equal|greater|greater_equal|equal|not_equal)\(|\bnp\.(all|any)\(np\.|(?i:\b(plain |host )?numpy\b[^\n]{0,40}\b(concrete|constant|static|at trace time|outside (of )?(the )?(trace|jit)))",
    "nullary-branches": r"lambda: |(?i:\b(no|zero)[- ](argument|arg|parameter|operand)s?\b|\btakes? no (arguments|parameters|operands)\b|\bpass\w*\b[^\n]{0,30}\boperands?\b)",
    "dataclass-init-fields": r"(?i)\bfields?\b[^\n]{0,40}\bkeywords?\b[^\n]{0,40}\b(constructor|__init__)|(constructor|__init__)\b[^\n]{0,60}\b(accepts?|takes?)\b[^\n]{0,30}\b(fields?|attributes?)|(remove|drop|don't|do not|avoid|without)\b[^\n]{0,30}\b(custom|own) `?__init__|\bclassmethod\b|__post_init__",
    # added with the eighth held-out batch, part 2 (written from the maintainers' fixes alone)
    "reshape-shape-arg": r"(?i)\breshape\(\s*\w+\s*,\s*\(|\breshape\([^\n]*?(?<!new)\bshape=|(?<!new)\bshape=[^\n]{0,40}\b(instead of|not|rather than)\b[^\n]{0,10}`?newshape|\bpass (the )?(new )?shape positionally|\bshape\b[^\n]{0,20}\bas (the )?second positional",
    "scipy-convolve": r"jax\.scipy\.signal\.(convolve2?d?|fftconvolve)|(?i:scipy\.signal\.convolve)",
    "jit-lower": r"jax\.jit\([^\n]*\)\.lower\(|\.lower\([^\n]*\)\.(as_text|compiler_ir|compile)\(|`?\.lower\(\)?`? (and|then) `?\.?(as_text|compiler_ir)",
    "cpu-platform": r"(?i)devices\(\s*['\"]cpu['\"]\s*\)|jax\.devices\(\)|platforms?\b[^\n]{0,20}\bcpu\b|\bJAX_PLATFORMS\b|\b(run|fall back|default) (it )?on (the )?cpu\b|jax\.default_backend\(\)",
    "take-mode": r"mode=['\"]?(clip|fill|wrap|promise_in_bounds)\b",
    "jnp-promote": r"jnp\.(add|subtract|multiply|divide|true_divide|maximum|minimum)\(|(?i:\bpromot\w+\b[^\n]{0,40}\b(jnp|jax\.numpy)\b|\b(jnp|jax\.numpy)\b[^\n]{0,40}\bpromot\w+)|convert_element_type|\.astype\(",
    "trapezoid": r"trapezoid\(|integrate\.trapezoid",
    "isin": r"jnp\.isin\b|jax\.numpy\.isin\b",
    "callback-custom-rule": r"(jax\.)?custom_(jvp|vjp)\b[^\n]{0,80}\b(callback|rule|derivative)|(?i:(wrap|define|give|attach)\w*\b[^\n]{0,40}\bcustom_(jvp|vjp))|\bdefjvp\(|\bdefvjp\(",
    "pass-closed-over": r"(?i)pass\w*\b[^\n]{0,40}\b(in|into|as)\b[^\n]{0,20}\b(explicit |extra |an? )?(argument|input|parameter)s?\b|(as|an) explicit (argument|input|parameter)|(instead of|rather than|not|don't|do not|avoid)\b[^\n]{0,20}\bclos(e|ing)\b[^\n]{0,10}\bover",
    "vmap-rule-structure": r"(?i)\bsame (pytree |container |tree )?structure\b[^\n]{0,60}\b(original|primal|custom[- ]vmapped|function)|\b(not|instead of|rather than|without)\b[^\n]{0,20}\b(wrapped )?in (a |one-element )?lists?\b|\breturn (the )?(bare )?output and (a |one |the )?(single )?(bool|flag|batched)",
    "devices-method": r"\.devices\(\)|\.device\b(?!\s*\()|(?i:\bdevice\b`? is (now )?(a |an )?(property|attribute))",
    "tree-util-flatten": r"jax\.tree_util\.tree_(flatten|leaves)\b|jax\.tree\.(flatten|leaves)\b",
    # the ninth held-out batch's new kinds (patterns written from the fix alone, before any message for them
    # was read), part a
    "python-loop": r"(?i)\b(python|plain|ordinary|regular)\b[^\n]{0,25}\b(for[- ])?loops?\b|\blist comprehension|\bloop\b[^\n]{0,30}\bin python\b|\bunroll\w*\b[^\n]{0,30}\bin python\b",
    "jit-returns-arrays": r"(?i)\b(return|output)\w*\b[^\n]{0,40}\bonly\b[^\n]{0,20}\barrays?\b|\bonly\b[^\n]{0,20}\barrays?\b[^\n]{0,40}\b(returned|outputs?)\b|\b(function|callable)s?\b[^\n]{0,50}\b(outside|out of)\b[^\n]{0,20}\b(jit|the jitted|the compiled)|lambda \w+: \w+\(\w+\)\[0\]",
    "unflatten-any-leaf": r"(?i)unflatten\w*\b[^\n]{0,80}\b(as[- ]is|unchanged|untouched|directly|any (leaf|leaves|value|object)|arbitrary (leaf|leaves|values?|objects?)|tracers?|without (convert|cast|validat|check)\w*)|object\.__new__|cls\(\*children\)",
    "plain-dict-container": r"(?i)\b(plain|built-?in|regular|ordinary|standard|python)\b[^\n]{0,15}\bdict(ionary|ionaries|s)?\b",
    # the ninth held-out batch's new kinds (patterns written from the fix alone, before any message for
    # them was read), part b (keys, custom rules, shapes, other)
    "rescale-standard-sample": r"jax\.random\.\w+\([^\n]*\)\s*[*/]\s*\w+|\w+\s*\*\s*jax\.random\.\w+\(|(?i:\b(multiply|divide|scale|rescale)\w*\b[^\n]{0,40}\b(the )?(standard|unit|unscaled)?\s*(sample|draw|variate)s?\b|\bno `?scale`? (argument|parameter)\b)",
    "split-then-slice": r"\w+\[0\],\s*\w+\[1:\]|\[1:\]|(?i:\b(first|one) key\b[^\n]{0,40}\b(rest|remaining|others)\b|\bslice\b[^\n]{0,30}\bkeys\b)",
    "unpack-primals": r"\w+, = (primals?|tangents?)\b|\(\w+,\) = (primals?|tangents?)\b|\b(primals?|tangents?)\[0\]|(?i:\bunpack\w*\b[^\n]{0,30}\b(primals?|tangents?)\b|\b(primals?|tangents?)\b[^\n]{0,30}\b(are|is) (a )?tuples?\b)",
    "bwd-none": r",\s*None\)|(?i:\bNone\b[^\n]{0,50}\b(cotangent|position|slot|entry|argument|input)s?\b|\b(one|a) cotangent (for|per) (each|every) (argument|input)\b)",
    "primal-value": r"\.value\b|CustomVJPPrimal|(?i:(drop|remove|without)\b[^\n]{0,20}`?symbolic_zeros)",
    "distinct-axes": r"expand_dims\([^)\n]*\(0, ?1\)|(?i:\b(distinct|different|unique|separate) (axes|axis (positions|indices))\b|\beach new axis\b[^\n]{0,30}\b(own|different|distinct)\b)",
    "total-repeat-length": r"total_repeat_length=",
    "reduce-last-axis": r"sum\([^\n]*axis=-1|(?i:\b(sum|reduce)\w*\b[^\n]{0,30}\b(only )?(over|along) the last axis\b|\bkeep (the )?(batch|leading|first|example) axis\b)",
    "host-asarray": r"np\.asarray\(|np\.array\(|jax\.device_get\(",
    "inplace-false": r"inplace=False",
    "functools-partial": r"functools\.partial",
    "sort-stable": r"stable=(True|False)",
    "parse-host": r"np\.(array|asarray)\([^\n]*\)\.astype\(|np\.(array|asarray)\([^\n]*dtype=(np\.)?float|(?i:\b(parse|convert)\w*\b[^\n]{0,40}\bstrings?\b[^\n]{0,40}\b(numpy|np|floats?|numbers?)\b)",
    "enable-x64": r"enable_x64|JAX_ENABLE_X64|jax_enable_x64",
    # added with the tenth held-out batch, part a (written from the maintainers' fixes alone)
    "choose-branch-upfront": r"(?i)\b(pick|choose|select|use|call)\b[^\n]{0,40}\b(one|the|a single|that)\b[^\n]{0,30}\b(branch|formula|version|regime|term|case)\b[^\n]{0,40}\b(directly|up ?front|ahead of time|beforehand|yourself|outside)|\brestrict\w*\b[^\n]{0,40}\b(range|domain|regime|valid)|\bdrop\b[^\n]{0,20}\b(the )?(branch|`?if`?)\b",
    "compute-outside-trace": r"(?i)\b(outside|before|out of)\b[^\n]{0,30}\b(the )?(jit\w*|loop|scan|traced|transformed|compiled)\b|\bhoist\w*|\bprecompute\w*|\bonce,? (outside|before)\b",
    # added with the tenth held-out batch, part b (written from the maintainers' fixes alone)
    "axis-not-dim-b10": r"(?i)\baxis=|`axis`[^\n]{0,40}\b(instead of|not|rather than)\b[^\n]{0,10}`?dim\b|\bdim\b`?[^\n]{0,40}\b(is|to|becomes?|renamed?)\b[^\n]{0,10}`?axis\b",
    "mesh-devices-shape-b10": r"(?i)\.reshape\(|jax\.make_mesh|mesh_utils\.create_device_mesh|\bndim\b[^\n]{0,60}\baxis[_ ]names\b|\baxis[_ ]names\b[^\n]{0,60}\b(ndim|dimensions?|number of axes)\b|\bone (axis )?name (per|for each) (mesh |device )?(axis|dimension)\b",
    "fwd-out-structure-b10": r"(?i)\b(same|matching|identical) (container|pytree|tree)( structure| type)?\b[^\n]{0,60}\b(primal|decorated|original|function'?s?)\b|\b(a )?list\b[^\n]{0,25}\b(not|instead of|rather than)\b[^\n]{0,6}\b(a )?tuple\b|\b(a )?tuple\b[^\n]{0,25}\b(not|instead of|rather than)\b[^\n]{0,6}\b(a )?list\b|\bfwd\b[^\n]{0,40}\b(call|reuse|return)\w*\b[^\n]{0,30}\b(primal|decorated|original) function\b",
    "neg-inf-b10": r"-(jnp|np)\.inf\b|-float\(['\"]inf['\"]\)|(?i:\bnegative infinity\b)",
    "standardize-b10": r"jax\.nn\.standardize\b|(?i:\bstandardi[sz]e\b)",
    "prod-not-product-b10": r"jnp\.prod\(|(?i:`?\bprod\b`?[^\n]{0,25}\b(instead of|not|rather than)\b[^\n]{0,10}`?(jnp\.)?product\b|\bproduct\b`?[^\n]{0,40}\b(renamed|removed|replaced)\b[^\n]{0,30}\bprod\b)",
    # added with the tenth held-out batch, part c (written from the maintainers' fixes alone)
    "vstack-b10c": r"jnp\.vstack\(|(?i:`?\bvstack\b`?[^\n]{0,30}\b(instead of|not|rather than|replaces?)\b[^\n]{0,15}`?(jnp\.)?row_stack\b|\brow_stack\b`?[^\n]{0,40}\b(removed|alias|renamed|replaced)\b[^\n]{0,30}\bvstack\b)",
    # added with the tenth held-out batch, part d (written from the fixes alone)
    "init-no-conversion-b10d": r"(?i)\b(avoid|skip|drop|remove|without|no|don't|do not|never)\b[^\n]{0,40}\b(array )?(conversion|convert\w*|validation|validat\w*|checks?)\b[^\n]{0,60}\b(__init__|__new__|constructor|initiali[sz]\w*)|\b(__init__|__new__|constructor)\b[^\n]{0,60}\b(avoid|skip|without|no|don't|do not|never)\b[^\n]{0,30}\b(conver|validat|check)\w*|type\(\w+\) is object|object\.__new__",
    "use-custom-jvp-b10d": r"jax\.custom_jvp\b|\bcustom_jvp\b|\.defjvps?\(",
    # added with the eleventh held-out batch, part a (written from the maintainers' fixes alone)
    "list-to-tuple-b11a": r"(?i)\btuple\(\w*|\b(convert|cast|turn|wrap|make)\w*\b[^\n]{0,40}\blists?\b[^\n]{0,30}\b(to|into|as|a) (a )?tuples?\b|\ba tuple\b[^\n]{0,20}\b(not|instead of|rather than)\b[^\n]{0,6}\b(a )?list\b",
    "switch-branches-b11a": r"lax\.switch\(|(?i:\bpre-?(comput|generat|build|defin)\w*\b[^\n]{0,50}\b(derivatives?|functions?|branches|grads?|gradients?)\b|\b(list|tuple|table|sequence) of (functions|branches|branch functions|derivative functions|gradient functions)\b)",
    "jacobian-b11a": r"jax\.jacobian\b|jax\.jac(?:fwd|rev)\b|(?i:\b(full|whole|the) jacobian\b[^\n]{0,40}\b(instead of|rather than|not)\b[^\n]{0,20}\bgrad)",
    # added with the eleventh held-out batch, part b (written from the maintainers' fixes alone)
    "example-libraries-b11b": r"jax\.example_libraries\b|(?i:\bexample_libraries\b[^\n]{0,40}\b(instead of|not|rather than|moved|new location)\b)",
    "config-import-b11b": r"from jax import config\b|jax\.config\.(update|read)\(|(?i:\bimport jax\b[^\n]{0,60}\bjax\.config\b|\bjax\.config\b`?[^\n]{0,30}\b(object|attribute)\b[^\n]{0,30}\b(not|instead of|rather than)\b[^\n]{0,20}\b(sub)?module)",
    "sph-harm-y-b11b": r"sph_harm_y\b",
    "device-put-b11b": r"jax\.device_put\b|(?i:\bdevice_put\b[^\n]{0,40}\b(NamedSharding|sharding|mesh)\b)",
    "jnp-round-b11b": r"jnp\.round\b|(?i:\bround\b`?[^\n]{0,30}\b(instead of|not|rather than)\b[^\n]{0,10}`?(jnp\.)?round_)",
    "jnp-split-b11b": r"jnp\.split\(|(?i:\b(jnp|jax\.numpy)\.split\b[^\n]{0,40}\b(instead of|not|rather than)\b[^\n]{0,20}\bmethod\b|\bno `?\.?split`? method\b)",
    "randint-range-b11b": r"random\.bits\(|jnp\.uint32\(|(?i:\b(maxval|minval|bounds?)\b[^\n]{0,60}\b(uint32|the (same|requested|target) dtype|dtype=)|\b(give|pass|make)\b[^\n]{0,30}\b(maxval|bound)\b[^\n]{0,30}\b(unsigned|uint))",
    "feature-dim-b11b": r"\(-1, ?1\)|(?i:\b(add|append|include|give|keep)\w*\b[^\n]{0,40}\b(trailing|feature|input|last|example)\b[^\n]{0,20}\b(dimension|dim|axis)\b|\bin_shape\b[^\n]{0,60}\b(feature|example|input) (size|dimension|axis)\b)",
    "norm-flatten-b11b": r"\.ravel\(\)|\.flatten\(\)|(?i:\b(flatten|ravel)\w*\b[^\n]{0,40}\b(first|before|the (array|input|tensor))\b|\bnorm\b[^\n]{0,40}\b(of the )?(flattened|raveled)\b)",
    "drop-tie-in-b11b": r"(?i)\b(remove|drop|delete|omit|without|no need for|stop using)\w*\b[^\n]{0,30}`?(lax\.)?tie_in\b|\btie_in\b[^\n]{0,60}\b(no-?op|not needed|unnecessary|no longer (needed|necessary|does anything)|relic)|\b(use|pass) (the )?(second )?(value|argument|array) (directly|itself)\b",
    # added with the twelfth held-out batch, part d (written from the maintainers' fixes alone)
    "identity-filter-b12d": r"(?i)\bid\(\w*\)|\bby (object )?identity\b|\bidentity\b[^\n]{0,30}\b(rather than|instead of|not)\b[^\n]{0,20}\b(value|equality|==)|\bis not\b[^\n]{0,40}\b(instead of|rather than)\b[^\n]{0,20}(==|!=|`?\.?remove)|(instead of|rather than|avoid|don't use|do not use|not)\b[^\n]{0,20}`?(list\.|\w+\.)?remove\(",
    "class-once-b12d": r"(?i)\b(define|create|declare|build|make)\w*\b[^\n]{0,40}\b(class|namedtuple|type)\b[^\n]{0,40}\b(once|at (the )?module level|outside (the|of|its|your))|\b(same|one|single) (class|type) object\b|\b(reuse|re-use)\b[^\n]{0,30}\b(class|type)\b|\._replace\(",
    "grad-all-then-select-b12d": r"argnums=\(0, ?1(, ?\d)*\)|(?i:\b(differentiate|gradients?|grad|derivatives?)\b[^\n]{0,40}\b(both|all|every)\b[^\n]{0,60}\b(select|pick|index|choose|jnp\.where|lax\.switch)|\b(both|all|every)\b[^\n]{0,20}\b(gradients?|derivatives?|partials?)\b[^\n]{0,40}\b(select|pick|index|choose)|\b(select|pick|index|choose)\w*\b[^\n]{0,40}\b(gradients?|derivatives?)\b[^\n]{0,40}\b(traced|dynamic|runtime|array) (index|value)|\bargnums\b[^\n]{0,40}\b(static|fixed|python int)\b[^\n]{0,60}\b(select|pick|index|choose))",
    # added with the twelfth held-out batch, part b (written from the maintainers' fixes alone)
    "cumprod-b12b": r"jnp\.cumprod\b|(?i:`?\bcumprod\b`?[^\n]{0,30}\b(instead of|not|rather than|replaces?)\b[^\n]{0,10}`?(jnp\.)?cumproduct\b|\bcumproduct\b`?[^\n]{0,40}\b(renamed|removed|replaced|deprecated)\b[^\n]{0,30}\bcumprod\b)",
    "all-not-alltrue-b12b": r"jnp\.(all|any)\(|(?i:`?\b(jnp\.)?(all|any)\b`?[^\n]{0,25}\b(instead of|not|rather than|replaces?)\b[^\n]{0,10}`?(jnp\.)?(alltrue|sometrue)\b|\b(alltrue|sometrue)\b`?[^\n]{0,40}\b(renamed|removed|replaced|deprecated)\b[^\n]{0,30}\b(all|any)\b)",
    "tree-util-namespace-b12b": r"jax\.tree_util\.tree_\w+|jax\.tree\.\w+\(|(?i:\bjax\.tree_util\b`?[^\n]{0,40}\b(instead of|not|rather than)\b[^\n]{0,20}`?jax\.tree_\w+|\bjax\.tree_\w+`?[^\n]{0,40}\b(removed|moved|deprecated)\b[^\n]{0,40}\b(jax\.tree_util|jax\.tree)\b)",
    # added with the twelfth held-out batch, part c (written from the maintainers' fixes alone)
    "broadcast-full-shape-b12c": r"broadcast_to\(\w+, ?\w+\.shape\)|(?i:\b(target|new|output) shape\b[^\n]{0,60}\b(at least as many|as many|all( of)?( the)?|every one of)\b[^\n]{0,25}\b(dimensions|axes)\b|\b(keep|include|add|give)\b[^\n]{0,30}\b(leading|batch|missing|every|all)\b[^\n]{0,20}\b(dimensions?|axes|axis)\b[^\n]{0,40}\b(target|new|output) shape\b)",
    "zip-strict-b12c": r"\bzip\([^\n]*strict=True|(?i:\b(built-?in|python'?s?|plain)\b[^\n]{0,15}`?zip\b[^\n]{0,60}\bstrict\b|\bstrict=True\b[^\n]{0,40}\bzip\b)",
    "index-ndim-b12c": r"\[\.\.\., ?None, ?None\]|expand_dims\(|(?i:\b(add|insert|append|keep)\w*\b[^\n]{0,30}\b(size-1|singleton|length-1|dummy|trailing|new|missing)\b[^\n]{0,20}\b(axis|axes|dim\w*)\b[^\n]{0,60}\bindices\b|\bindices\b[^\n]{0,60}\b(add|insert|append|expand)\w*\b[^\n]{0,30}\b(axis|axes|dim\w*|None|newaxis)\b)",
    "sort-axis0-b12c": r"jnp\.sort\([^\n]*axis=0|(?i:`?\bsort\b`?[^\n]{0,40}\baxis=0\b[^\n]{0,40}\b(instead of|not|rather than|replaces?)\b|\bmsort\b`?[^\n]{0,40}\b(removed|deprecated|replaced)\b[^\n]{0,40}\bsort\b)",
    "issubdtype-b12c": r"\bissubdtype\(|(?i:`?\bissubdtype\b`?[^\n]{0,30}\b(instead of|not|rather than|replaces?)\b[^\n]{0,10}`?(jnp\.)?issubsctype\b|\bissubsctype\b`?[^\n]{0,40}\b(removed|deprecated|replaced)\b[^\n]{0,40}\bissubdtype\b)",
    "bwd-output-cotangents-b12c": r"\bg\[0\]|\b\w+, _ = g\b|(?i:\bcotangents?\b[^\n]{0,50}\b(is|are|comes?|arrives?|passed)\b[^\n]{0,25}\b(as )?(a )?(tuple|pair|one per output)\b|\bunpack\w*\b[^\n]{0,30}\b(the )?(output )?cotangents?\b|\b(one|a) cotangent (for|per) (each|every) output\b|\bonly the (output'?s? )?(grad|cotangent)\b)",
    "fold-in-int-b12c": r"fold_in\([^\n]*\b(hash\w*|crc32|int\(|ord\()|(?i:\b(deterministic|stable|reproducible)\b[^\n]{0,20}\bhash\w*\b|\bhash\w*\b[^\n]{0,40}\b(string|name)s?\b[^\n]{0,40}\b(integer|int)s?\b|\b(integer|int)\b[^\n]{0,30}\b(not|instead of|rather than)\b[^\n]{0,10}\b(a )?string\b)",
    "split-shape-b12c": r"split\(\w+, ?(num=|shape=)?\(|(?i:\bsplit\b`?[^\n]{0,40}\b(a )?(shape|tuple)\b[^\n]{0,30}\b(of keys|directly|instead of reshap\w*)|\b(don'?t|do not|instead of|rather than|not|without)\b[^\n]{0,20}\breshap\w*\b[^\n]{0,40}\bkeys?\b)",
    # added with the thirteenth held-out batch, part b (written from the maintainers' fixes alone)
    "key-impl-b13b": r"jax\.random\.key_impl\(|(?i:`?\bkey_impl\b`?[^\n]{0,40}\b(instead of|not|rather than)\b[^\n]{0,20}`?\.impl\b|\b(pass|give)\b[^\n]{0,20}\bimpl\b[^\n]{0,30}\b(as )?(a )?(string|name)\b)",
    # added with the thirteenth held-out batch, part c (written from the maintainers' fixes alone)
    "linear-tangent-b13c": r"(?i)\blinear (in|function of|map of|with respect to) (the )?(input |incoming )?tangents?\b|\b(multiply|scale)\w*\b[^\n]{0,30}\b(the )?(input |incoming )?tangents?\b[^\n]{0,20}\bby\b|\bderivative\b[^\n]{0,30}\btimes (the )?(input |incoming )?tangents?\b|\bno (powers?|nonlinear \w+) of (the )?tangents?\b",
    "minimum-not-clip-b13c": r"jnp\.minimum\(|(?i:`?\b(jnp\.)?minimum\b`?[^\n]{0,40}\b(instead of|rather than|not|in place of)\b[^\n]{0,20}`?(jnp\.)?clip\b|\b(replace|swap)\w*\b[^\n]{0,30}`?(jnp\.)?clip\b[^\n]{0,40}\b(with|by)\b[^\n]{0,10}`?(jnp\.)?minimum\b)",
    "vmap-per-example-b13c": r"jax\.vmap\(\w+(, ?in_axes=\w+)?(, ?out_axes=\w+)?\)\(|(?i:\b(single|one|per)[- ](example|sample|vector|input|data point)\b[^\n]{0,60}\bvmap\b|\bvmap\b[^\n]{0,60}\b(over|across|along)\b[^\n]{0,15}\b(the )?(batch|examples|samples|columns|rows|data points)\b)",
    "scalar-multiply-b13c": r"jnp\.multiply\(|(?i:\buse `?\*`?( \([^)\n]*\))?( instead| rather| for)|`\*` (instead of|rather than|not) `?@|\b(elementwise|element-wise|scalar) (multiplication|product|multiply)\b|\bmultiply\b[^\n]{0,30}\bby (the|a) scalar\b)",
    "nan-not-none-b13c": r"\b(jnp|np)\.nan\b|float\(['\"]nan['\"]\)|(?i:\bNaN\b[^\n]{0,40}\b(instead of|not|rather than|in place of|for)\b[^\n]{0,20}`?None\b|\b(replace|fill|mark|encode)\w*\b[^\n]{0,40}\b(missing|None)\b[^\n]{0,40}\bNaN\b)",
    "object-to-numeric-b13c": r"\.astype\((np\.|jnp\.)?(float|int)\w*\)|(np|jnp)\.(asarray|array)\([^\n]*dtype=(np\.|jnp\.)?(float|int)|(?i:\b(convert|cast)\w*\b[^\n]{0,40}\bobject\b[^\n]{0,40}\b(numeric|float|int)\w*|\bobject[- ]dtype\b[^\n]{0,60}\b(numeric|float\w*|int\w*) dtype\b)",
    "jnp-clip-b13c": r"jnp\.clip\(|jax\.numpy\.clip\b|(?i:`?\b(jnp\.)?clip\b`?[^\n]{0,30}\b(instead of|not|rather than|in place of)\b[^\n]{0,15}`?(jnp\.|tf\.)?clip_by_value\b|\bclip_by_value\b`?[^\n]{0,40}\b(is|comes from) (TensorFlow|tf)\b)",
    # added with the fourteenth held-out batch, part a (written from the maintainers' fixes alone)
    "pcast-carry-b14a": r"jax\.lax\.(pvary|pcast)\(|(?i:\b(pvary|pcast)\b[^\n]{0,60}\b(initial|init)\w*\b|\b(initial|init)\w*( carry| value)?\b[^\n]{0,60}\b(pvary|pcast|varying)\b[^\n]{0,30}\b(before|first)\b)",
    "xs-equal-length-b14a": r"(?i)\b(same|equal|matching|consistent)\b[^\n]{0,30}\b(leading[- ]axis |leading[- ]dimension |first[- ]axis )?(length|size|number of (steps|elements|rows))s?\b[^\n]{0,50}\b(xs|scanned|scan|schedule)\b|\b(xs|scanned arrays?|arrays? (you )?scan(ned)? over)\b[^\n]{0,60}\b(same|equal|matching)\b[^\n]{0,25}\b(length|leading[- ]axis( size)?|size)\b|\b(off[- ]by[- ]one|one (element|entry|step) (short|too (few|many)))\b",
    "pcast-cotangent-b14a": r"jax\.lax\.(pvary|pcast)\(|(?i:\b(pvary|pcast)\b[^\n]{0,60}\b(cotangents?|seeds?|basis|ones|eye)\b|\b(cotangents?|seeds?|basis)\b[^\n]{0,60}\b(pvary|pcast|varying)\b)",
    # added with the fourteenth held-out batch, part b (written from the maintainers' fixes alone)
    "key-equality-b14b": r"(?i)\bcompare\b[^\n]{0,50}\bkeys?\b[^\n]{0,50}(==|\bequality\b|\bequal\b)|\bkeys?\b[^\n]{0,30}(==|\bequality\b)[^\n]{0,50}\b(instead of|rather than|not)\b[^\n]{0,30}(assert_array_equal|np\.|numpy)|assertEqual\(|\bassert bool\(\w+ == \w+\)",
    "typed-key-scalar-b14b": r"(?i)\btyped (PRNG )?keys?\b[^\n]{0,60}\b(shape \(\)|scalars?|0-d|0-dimensional|zero-dimensional|ndim (of )?0)\b|\b(single|one) (typed )?key\b[^\n]{0,40}\bshape \(\)|shape \(\)[^\n]{0,40}\b(not|instead of|rather than)\b[^\n]{0,10}`?\(2,\)|\w+\.shape == \(\)|\w+\.ndim == 0\b|\bis_prng_key\(",
    "vmap-cond-b14b": r"(?i)\b(jax\.)?vmap\b[^\n]{0,60}\b(lax\.)?(cond|switch)\b|\b(lax\.)?(cond|switch)\b[^\n]{0,60}\b(inside|under|in|with|within) (a )?`?(jax\.)?vmap\b|\b(map|vmap)\b[^\n]{0,30}\bover the batch\b[^\n]{0,40}\b(predicate|condition|branch)",
    "per-instance-aux-b14b": r"(?i)\b(field|attribute|attr|key)\s*names?\b[^\n]{0,60}\baux(_data| data)?\b|\baux(_data| data)?\b[^\n]{0,60}\b(field|attribute|attr|key)\s*names?\b|\bper[- ]instance\b[^\n]{0,40}\b(flatten\w*|names|fields|attributes|aux\w*)\b|\b(flatten\w*)\b[^\n]{0,40}\b(each|the) instance'?s? own\b|vars\(\w+\)",
    "tree-transpose-b14b": r"tree_transpose\(|jax\.tree\.transpose\(|(?i:\btranspose\w*\b[^\n]{0,40}\b(the )?(py)?trees?\b|\btree of (tuples|pairs)\b[^\n]{0,40}\b(into|to) (a )?(tuple|pair) of trees\b)",
    "drop-assert-b14b": r"(?i)\b(remove|drop|delete|omit|skip|take out|get rid of)\w*\b[^\n]{0,30}\b(the |this |that |python'?s? )?`?assert\b|\bassert\w*\b[^\n]{0,60}\b(cannot|can't|won't|does not|doesn't|will not)\b[^\n]{0,30}\b(work|run|be checked|be evaluated)\b[^\n]{0,30}\b(trac\w+|jit\w*|vmap\w*|transform\w*)|\b(instead of|rather than|not)\b[^\n]{0,15}(a |an )?(python )?`?assert\b[^\n]{0,40}\b(error_if|checkify|debug\.callback)",
    "default-factory-b14b": r"default_factory|(?i:\b(build|create|make)\w*\b[^\n]{0,30}\b(the )?key\b[^\n]{0,30}\b(per|for each|in each|every) instance\b|\bfactory\b[^\n]{0,30}\b(for|of|that returns) (the |a )?(default|key))",
    "ravel-pytree-b14b": r"ravel_pytree|(?i:\b(flatten|ravel|concatenate)\w*\b[^\n]{0,40}\b(the )?(py)?tree\b[^\n]{0,40}\b(into |to )?(a |one )?(1-?d|one-dimensional|single|flat) (array|vector)\b|\bunravel\w*\b[^\n]{0,40}\b(inside|in) the (objective|loss|function)\b)",
    # added with the fourteenth held-out batch, part c (written from the maintainers' fixes alone)
    "addressable-shards-b14c": r"\.addressable_shards\b|\.addressable_data\(|(?i:\b(one|each|every|per)[- ](shard|device)\b[^\n]{0,40}\b\.?data\b)",
    "sharding-module-b14c": r"from jax\.sharding import|jax\.sharding\.(PartitionSpec|Mesh|NamedSharding)\b|(?i:\b(import|take|get)\b[^\n]{0,30}\bPartitionSpec\b[^\n]{0,30}\bfrom `?jax\.sharding\b)",
    "rule-as-function-b14c": r"(?i)\b(plain|module-level|top-level|free|standalone|ordinary)\b[^\n]{0,20}\bfunctions?\b[^\n]{0,60}\b(method|class)\b|\b(outside|out of)\b[^\n]{0,20}\b(the|your) class\b|\bpass\w*\b[^\n]{0,20}`?self`?[^\n]{0,30}\bexplicitly\b|\b[A-Z]\w*\.\w+\(self, |\bwrapper method\b",
    "jax-extend-b14c": r"jax\.extend\b|(?i:\bextend\.linear_util\b)",
    "core-shapedarray-b14c": r"jax\.core\.ShapedArray\b|jax\.ShapeDtypeStruct\b|(?i:\bShapedArray\b[^\n]{0,40}\b(from|in|lives in|moved to) `?jax\.core\b)",
    "flat-x0-b14c": r"\.ravel\(\)|\.flatten\(\)|ravel_pytree|\.reshape\(-1\)|(?i:\b(1-?d|one-dimensional|flat|flattened|raveled)\b[^\n]{0,30}\b(x0|initial (guess|point|parameters?|value))\b|\b(x0|initial guess)\b[^\n]{0,40}\b(1-?d|one-dimensional|flat\w*|ravel\w*|vector)\b)",
    "drop-initial-b14c": r"(?i)\b(remove|drop|omit|delete|without|stop passing|no longer (needs?|accepts?|takes?))\b[^\n]{0,30}`?initial\b|\binitial\b`?[^\n]{0,50}\b(was )?(removed|deprecated|no longer (needed|accepted|supported)|not needed|unnecessary)\b|softmax\(\w+, (axis=[^,\n]+, )?where=\w+\)",
    "no-squeeze-b14c": r"(?i)\b(remove|drop|delete|don'?t|do not|avoid|without|no|stop)\b[^\n]{0,30}`?(jnp\.|np\.)?squeeze\b|\bsqueeze\b`?[^\n]{0,50}\b(drops?|removes?|collapses?|alters?|changes?)\b[^\n]{0,30}\b(axis|axes|dimensions?|rank)\b|\bkeep\b[^\n]{0,30}\b(size-1|singleton|length-1|unit)\b[^\n]{0,20}\b(axis|axes|dimensions?)\b",
    # added with the fifteenth held-out batch, part a (written from the maintainers' fixes alone)
    "svd-reduced-b15a": r"full_matrices=False|(?i:\b(reduced|thin|economy)\b[^\n]{0,20}\b(SVD|decomposition|singular value)|\bfull_matrices\b[^\n]{0,40}\b(False|off|turn off|disable))",
    "unordered-callback-b15a": r"ordered=False|(?i:\b(drop|remove|without|don't use|do not use|no)\b[^\n]{0,20}`?ordered=True|\bunordered\b[^\n]{0,40}\bcallback)",
    "static-nse-b15a": r"\bnse=|(?i:\b(static|concrete|fixed|python int)\b[^\n]{0,40}\bnse\b|\bnse\b[^\n]{0,40}\b(static|concrete|fixed)\b|\bnumber of (stored|specified) elements\b)",
    "aux-wrapper-b15a": r"register_pytree_node|(?i:\baux(_data| data)?\b[^\n]{0,60}\b(non-array|object|string|str|label|value)s?\b|\b(non-array|object|string)\b[^\n]{0,60}\baux(_data| data)?\b|\bpytree (node|class)\b[^\n]{0,40}\bno (children|leaves)\b)",
    # added with the fifteenth held-out batch, part b (written from the maintainers' fixes alone)
    "select-broadcast-b15b": r"jnp\.broadcast_arrays\(|jnp\.broadcast_to\(|lax\.broadcast(?:_in_dim)?\(|(?i:\bbroadcast\w*\b[^\n]{0,60}\b(operands?|arguments?|inputs?|cases|on_true|on_false|both|all three)\b[^\n]{0,40}\b(same|common|equal|matching|full) shape\b|\b(lax\.)?select\b`?[^\n]{0,60}\b(does not|doesn't|won't|will not|cannot|can't|no)\b[^\n]{0,15}\bbroadcast)",
    "last-step-b15b": r"\[\.\.\., ?-1\]|\[:, ?-1\]|\bdone\w*\[-1\]|(?i:\b(last|final)\b[^\n]{0,15}\b(time ?step|step|entry|element|flag|done)\b)",
    # added with the fifteenth held-out batch, part c (written from the maintainers' fixes alone)
    "reduce-initializer-b15c": r"jax\.tree\.reduce\([^\n]*, ?0\.?0?\)|tree_reduce\([^\n]*, ?0\.?0?\)|(?i:\binitiali[sz]er\b|\binitial (value|accumulator)\b|\b(start|seed)\w*\b[^\n]{0,30}\b(at|with|from) (zero|0)\b)",
    "register-once-b15c": r"(?i)\bregist\w*\b[^\n]{0,60}\b(once|only once|a single time|twice|again|more than once)\b|\balready (been )?registered\b|\bnot in\b[^\n]{0,40}\bregist\w*|\b(guard|flag|check)\w*\b[^\n]{0,40}\bregist\w*",
    "fold-in-uint32-b15c": r"% ?\(?2 ?\*\* ?32\)?|& ?\(?2 ?\*\* ?32 ?- ?1\)?|& ?0x[fF]{8}\b|(?i:\b(lower|low|least significant) 32 bits\b|\buint32 range\b|\bfits? in(to)? (a )?(uint32|32 bits|32-bit)\b|\b(truncat|wrap|reduc)\w*\b[^\n]{0,30}\b(to )?32 bits\b)",
    "split-fresh-key-b15c": r"jax\.random\.split\(|(?i:\b(fresh|new|separate|distinct|unused|different|other) (sub)?keys?\b|\b(never|don'?t|do not|avoid)\b[^\n]{0,15}\breus\w*\b[^\n]{0,20}\bkeys?\b|\b(each|every)\b[^\n]{0,20}\bkeys? (only )?once\b)",
    "list-meta-field-b15c": 'meta_fields=\\[[^\\]\\n]*[\'\\"]\\w+|(?i:\\b(add|list|include|put|name|declare|register)\\w*\\b[^\\n]{0,40}\\bmeta_fields\\b|\\bmeta_fields\\b[^\\n]{0,40}\\b(missing|must (also )?(list|include|name|contain)|every|all)\\b|\\b(every|each|all)\\b[^\\n]{0,15}\\b(dataclass )?fields?\\b[^\\n]{0,40}\\b(data_fields|meta_fields)\\b)',
    "namedtuple-replace-b15c": r"\._replace\(|(?i:`?_replace`?\b[^\n]{0,40}\b(instead of|not|rather than)\b[^\n]{0,10}`?\.?replace\b|\bnamedtuples?\b[^\n]{0,40}\b_replace\b)",
    "skip-empty-leaves-b15c": r"(jnp\.|np\.)?size\(\w+\) ?== ?0|\.size ?== ?0|\binitial=|(?i:\b(skip|drop|ignore|exclude|filter)\w*\b[^\n]{0,30}\b(empty|zero-size|zero-sized|size-0)\b|\b(empty|zero-size|zero-sized|size-0)\b[^\n]{0,30}\b(leaf|leaves|arrays?)\b[^\n]{0,50}\b(None|skip\w*|initial\w*|identity)\b)",
    "vmap-split-b15c": r"jax\.vmap\(\s*(jax\.random\.|random\.|jr\.)?split\b|jax\.vmap\(lambda \w+: (jax\.random\.|random\.|jr\.)?split\(|(?i:\b(vmap|map)\w*\b[^\n]{0,40}\bsplit\b|\bsplit\b[^\n]{0,40}\b(each|every|per)\b[^\n]{0,15}\bkey\b)",
    "atleast-2d-cov-b15c": r"atleast_2d|reshape\(\(?1, ?1\)?\)|(?i:\b(2-?d|two-dimensional)\b[^\n]{0,30}\b(cov\w*|matri(x|ces))\b|\(1, ?1\)[^\n]{0,30}\b(cov\w*|matri(x|ces))\b|\bcov\w*\b[^\n]{0,40}\b(scalar|0-d|0-dimensional|zero-dimensional|ndim (of )?0)\b)",
    # added with the fifteenth held-out batch, part d (written from the maintainers' fixes alone)
    "mask-before-stack-b15d": r"(?i)\bwhere\b[^\n]{0,80}\bbefore\b[^\n]{0,40}\b(stack|concatenat)\w*|\b(stack|concatenat)\w*\b[^\n]{0,60}\bafter\b[^\n]{0,40}\bwhere\b|\[:, ?None\]|\[\.\.\., ?None\]|jnp\.stack\(\[jnp\.where\(",
    "reduce-to-scalar-b15d": r"\.mean\(\)|jnp\.mean\(\w+\)|(?i:\b(reduce|average|collapse|aggregate)\w*\b[^\n]{0,40}\b(to )?(a |one )?(single )?scalar\b|\bscalar\b[^\n]{0,30}\b(mean|average)\b)",
    "in-shardings-b15d": r"\b(in|out)_shardings\b|(?i:\b(in|out)_axis_resources\b[^\n]{0,50}\b(renamed|replaced|removed|deleted|deprecated|no longer)\b)",
    "typeof-b15d": r"jax\.typeof\(|\btypeof\(\w+\)\.(shape|dtype)",
    "dlpack-direct-b15d": r"(?i)\b(without|instead of|rather than|not|no need (for|to)|don'?t|do not|drop|remove|skip|stop)\b[^\n]{0,40}`?(jax\.dlpack\.)?to_dlpack\b|\bpass\w*\b[^\n]{0,40}\b(jax )?arrays?\b[^\n]{0,30}\bdirectly\b|__dlpack__|from_dlpack\((x|arr|array|\w+_array)\)",
    "check-vma-b15d": r"\bcheck_vma\b|(?i:\bcheck_rep\b[^\n]{0,40}\b(renamed|replaced|removed|deprecated|no longer)\b)",
    "float0-tangent-b15d": r"(jax\.)?dtypes\.float0|(?i:zeros?(_like)?\([^\n]{0,40}\bfloat0\b|\b(zeros?|zero[- ]valued)\b[^\n]{0,40}\b(of )?(dtype )?`?float0\b|\bfloat0\b[^\n]{0,40}\bzeros?\b)",
    "hashable-static-b15d": r"(?i)\bhashable\b[^\n]{0,80}\b(tuples?|frozen|frozenset|namedtuple)\b|\b(tuples?|frozen|namedtuple)\b[^\n]{0,80}\bhashable\b|tuple\((sorted\()?\w*\.items\(\)",
    "drop-transpose-b15d": r"(?i)\b(remove|drop|delete|omit|without|no need for|don'?t need|get rid of)\w*\b[^\n]{0,30}`?\.?transpose\b|\btranspose\b`?[^\n]{0,60}\b(unnecessary|not needed|redundant|superfluous|can be (removed|dropped))\b",
    "ndim-not-len-b15d": r"\.ndim\b|len\(\w+\.shape\)|(?i:\bndim\b[^\n]{0,40}\b(instead of|not|rather than)\b[^\n]{0,20}\blen\(|\blen\(\w*\)[^\n]{0,40}\b(first axis|leading axis|batch size)\b)",
    "padded-weights-b15d": r"(?i)\bweights_truncated\b|\bzero[- ]?pad\w*\b[^\n]{0,60}\bweights?\b|\bweights?\b[^\n]{0,60}\b(zero[- ]?)?padd?\w*\b[^\n]{0,40}\b(population|popsize|pop_size|all (the )?(samples|members)|full)\b|\bpadded_weights\b",
    "closure-convert-b15d": r"(?i)\bclosure_convert\b|\bclosure[- ]conver(t|ts|ted|sion)\b",
    "direct-solve-b15d": r"(?i)jnp\.linalg\.solve|\blinalg\.solve\b|\bdirect\b[^\n]{0,20}\b(linear )?(solve|solver)\b|\b(instead of|rather than|replace|not|avoid|don'?t use)\b[^\n]{0,30}\b(gmres|cg|bicgstab|iterative solver)\b",
    # added with the sixteenth held-out batch, part a (written from the maintainers' fixes alone)
    # give jnp.bincount a static `length=` so its output size does not depend on the mapped values
    "bincount-length-b16a": r"\blength=|(?i:\b(static|fixed|concrete|known)\b[^\n]{0,30}\blength\b"
                            r"|\blength\b`?[^\n]{0,40}\b(static(ally)?|fixed|concrete|known)\b)",
    # out_axes must name an axis the per-example output has (a scalar output can only go to axis 0)
    "out-axes-rank-b16a": r"out_axes=0\b|(?i:\bout_axes\b[^\n]{0,60}\b(rank|ndim|number of (axes|dimensions)"
                          r"|out of (bounds|range)|scalar output)\b|\bscalar\b[^\n]{0,40}\bout_axes\b)",
    # pass the input to jax.jacobian as a flat 1-D vector of shape (n,), not an (n, 1) column
    "one-d-input-b16a": r"\.ravel\(\)|\.reshape\(-1\)|\.flatten\(\)|(?i:\b(1-?d|one-dimensional|flat)\b[^\n]{0,30}"
                        r"\b(array|vector|input)\b|\bshape \(n,\)|\binstead of\b[^\n]{0,20}\(n, ?1\))",
    # added with the sixteenth held-out batch, part b (written from the maintainers' fixes alone)
    # wrap the callable object (a module holding arrays) in a lambda or plain function before handing it to
    # `lax.scan`, instead of passing the object itself as the body
    "lambda-wrap-b16b": r"lax\.scan\(lambda|(?i:\bwrap\w*\b[^\n]{0,50}\b(in|with|inside|into) (a |an )?(lambda|plain function|python function|function)\b|\blambda\b[^\n]{0,40}\b(wrap\w*|around|that calls)\b)",
    # added with the sixteenth held-out batch, part c (written from the maintainers' fixes alone)
    # cast the seed to a Python int before making the key
    "int-seed-b16c": r"PRNGKey\(int\(|random\.key\(int\(|(?i:\b(cast|convert|turn|round)\w*\b[^\n]{0,30}\bseed\b[^\n]{0,40}\b(an? )?(python )?int(eger)?\b|\bint\(seed\)|\b(pass|use|give)\b[^\n]{0,15}\ban? (python )?integer seed\b)",
    # a dataclass field goes in data_fields or in meta_fields, never in both
    "disjoint-fields-b16c": r"(?i)\b(disjoint|overlap\w*)\b[^\n]{0,60}\b(data_fields|meta_fields)\b|\b(data_fields|meta_fields)\b[^\n]{0,80}\b(disjoint|not both|only one of|exactly one of|either)\b|\b(remove|drop|take|delete)\b[^\n]{0,40}\bfrom\b[^\n]{0,10}`?(data_fields|meta_fields)\b|\b(not|never)\b[^\n]{0,20}\bboth\b[^\n]{0,20}`?(data_fields|meta_fields)\b",
    # give wrap_key_data the dtype (or impl) of the key the data came from
    "wrap-key-dtype-b16c": r"wrap_key_data\([^\n]*\b(dtype|impl)=|jax\.random\.key_impl\(|(?i:\b(pass|give|supply|use|keep|save|store|record)\w*\b[^\n]{0,40}\b(dtype|impl\w*)\b[^\n]{0,60}\bwrap_key_data\b|\bwrap_key_data\b[^\n]{0,60}\b(with|pass\w*|giv\w*)\b[^\n]{0,30}\b(its |the |original |same |key'?s? )*(dtype|impl\w*)\b)",
    # added with the sixteenth held-out batch, part d (written from the maintainers' fixes alone)
    # name the missing batching rule: register it with `def_vmap` on the custom_vmap function
    "def-vmap-b16d": r"\.def_vmap\b|(?i:\b(define|register|add|attach|supply|provide)\w*\b[^\n]{0,40}\b(a |the )?(custom )?(vmap|batching) rule\b)",
    # the JVP rule's tangent must have the primal output's (real) dtype: take its real part
    "real-tangent-b16d": r"jnp\.real\(|\.real\b|(?i:\breal part\b|\btangents?\b[^\n]{0,50}\b(real|float32|same dtype|primal'?s? dtype)\b[^\n]{0,30}\b(not|instead of|rather than)\b[^\n]{0,15}\bcomplex\b)",
    # enumerate the support from one scalar low/high shared by the whole batch (then add trailing singleton
    # axes), instead of adding the batched `low` to the range
    "scalar-bounds-b16d": r"reshape\(\w+, ?-1\)\[0\]|\barange\(\s*\w+\[0\]|(?i:\b(scalar|single|one|shared|common)\b[^\n]{0,20}\b(low|high|lower|upper|bounds?|endpoints?|start)\b|\b(low|high|bounds?)\b[^\n]{0,40}\b(the same|shared|identical|equal)\b[^\n]{0,40}\b(batch|across|for all|every)\b)",
    # functionalize the checks: wrap the (jitted) function with `checkify.checkify`
    "checkify-wrap-b16d": r"checkify\.checkify\(|@checkify\.checkify|(?i:\b(wrap|decorat)\w*\b[^\n]{0,40}\bcheckify\.checkify\b)",
    # don't donate a buffer that is also passed as another argument: drop `donate_argnums` (or pass a copy)
    "drop-donate-b16d": r"(?i)\b(remove|drop|delete|without|don'?t use|do not use|no|omit)\b[^\n]{0,30}`?donate_arg(nums|names)\b|\bdonate_arg(nums|names)\b`?[^\n]{0,40}\b(removed|dropped|deleted|unnecessary)\b|\b(pass|use|make)\b[^\n]{0,20}\b(a )?copy\b[^\n]{0,40}\b(donat\w+|argument)\b",
    # compute the inner product of two same-shaped arrays over all their entries (elementwise product and sum,
    # `jnp.vdot`, or the JVP of the scalar function along the tangent), not with `jnp.dot` on 2-D arrays
    "inner-product-b16d": r"jnp\.vdot\(|jnp\.sum\(\w+ ?\* ?\w+\)|jax\.jvp\(|(?i:\b(inner|dot) product\b[^\n]{0,60}\b(elementwise|element-wise|flatten\w*|ravel\w*|all (the )?(entries|elements)|sum of (the )?products?)\b|\b(elementwise|element-wise)\b[^\n]{0,20}\b(multipl\w+|product)\b[^\n]{0,40}\bsum\w*\b|\bdirectional derivative\b)",
    # a reduction's `initial` must be a scalar: give each row its own scalar initial by vmapping the reduction
    # over the rows
    "vmap-scalar-initial-b16d": r"jax\.vmap\(lambda[^\n]{0,80}\binitial=|(?i:\binitial\b[^\n]{0,80}\b(vmap|map over|per[- ]row|each row)\b|\b(vmap|map)\w*\b[^\n]{0,60}\b(scalar )?initial\b)",
    # give the conversion a dtype (`other.dtype`), not the array itself
    "pass-dtype-b16d": r",\s*\w+\.dtype\)|(?i:\bpass\w*\b[^\n]{0,40}\b(the |its |a )?dtype\b[^\n]{0,40}\b(not|instead of|rather than)\b[^\n]{0,20}\b(the |an )?array\b|\b(new_dtype|second argument)\b[^\n]{0,40}\b(must|should|needs to) be a dtype\b)",
    # added with the seventeenth held-out batch, part a (written from the maintainers' fixes alone)
    "hessian-b17a": r"jax\.hessian\b",
    "value-and-grad-b17a": r"jax\.value_and_grad\b",
    "scalar-shape-b17a": r"(?i)shape `?\(\)`?|\.reshape\(\(\)\)|\[0\]|\bsqueeze\b|0-d (array|scalar)",
    "aux-nesting-b17a": r"\(\w+, ?\w+\), ?\w+ =|\(\((value|loss|val), ?aux\w*\), ?grad\w*\)",
    # added with the seventeenth held-out batch, part c (written from the maintainers' fixes alone)
    # wrap the Python function in `jax.tree_util.Partial` so that it becomes a pytree JAX can carry through a
    # transformation (scan's carry, a jit argument), instead of passing the bare function object
    "tree-partial-b17c": r"tree_util\.Partial\b|\bPartial\(|(?i:\bwrap\w*\b[^\n]{0,40}\bPartial\b)",
    # in a multi-tree `jax.tree.map`, the tree whose structure is a prefix of the others (the shallower one) goes
    # first: the structure is taken from the first tree, so swap the trees (and the function's parameters)
    "prefix-first-b17c": r"(?i)\b(shallow\w*|prefix)\b[^\n]{0,60}\b(first|before)\b|\bfirst\b[^\n]{0,40}\b(tree|argument)\b[^\n]{0,60}\b(prefix|shallow\w*)\b|\bswap\w*\b[^\n]{0,30}\b(trees|arguments|order)\b|\b(order|position)\b[^\n]{0,20}\bof the (trees|arguments)\b",
    # added with the seventeenth held-out batch, part d (written from the maintainers' fixes alone)
    # the thread's fix: give the 0-d time value a dimension before the matmul (`jnp.atleast_1d`, `[None]`)
    "scalar-to-1d-b17d": r"atleast_1d|\w\[None\]|reshape\(1\)|reshape\(\(1,\)\)|(?i:\b(add|give|insert)\w*\b[^\n]{0,30}\b(a |one |an extra |a new )?(dimension|axis)\b[^\n]{0,40}\b(scalar|0-d|zero-dim\w*|time)\b|\b(scalar|0-d|time)\b[^\n]{0,40}\b(to|into|as) (a )?(1-?d|one-dimensional|length-1|shape \(1,\)))",
    # the thread's fix: describe the callback's result with `jax.ShapeDtypeStruct`, not a bare shape tuple
    "shape-dtype-struct-b17d": r"ShapeDtypeStruct",
    # the thread's fix: take the bound from `jnp.iinfo` of a dtype JAX holds, not Python's `sys.maxsize`
    # the page's fix: promote by hand before calling `lax` (`jnp.float32(...)`, `.astype(...)`), or use `jnp`
    "explicit-promotion-b17d": r"jnp\.float32\(|\.astype\(|convert_element_type|jnp\.add\(|(?i:\bexplicit\w*\b[^\n]{0,30}\b(type )?promot\w*|\bsame dtypes?\b[^\n]{0,40}\b(cast|convert|promot)\w*)",
    # the page's fix: transform the jitted function, not the AOT-compiled executable
    "vmap-jitted-not-compiled-b17d": r"jax\.vmap\(jax\.jit\(|(?i:\b(jit(ted)?|jax\.jit)\b[^\n]{0,40}\b(function|version|callable)\b[^\n]{0,40}\b(instead of|rather than|not)\b[^\n]{0,30}\b(compiled|aot|lowered)\b|\b(compiled|aot|lowered)\b[^\n]{0,60}\b(cannot|can't|can ?not)\b[^\n]{0,30}\b(be )?(transform|vmap|grad)\w*)",
    "iinfo-bound-b17d": r"iinfo\(|(?i:\b(int32|int16|32-bit)\b[^\n]{0,40}\b(max|maximum|limit|bound|range)\b|\b(max|maximum|limit|bound)\b[^\n]{0,40}\b(int32|int16)\b)",
    # added with the eighteenth held-out batch, part a (written from the maintainers' fixes alone)
    # the maintainer's fix in jax-ml/jax#673: vmap one function over an array of its parameter (e.g. an
    # `arange` of the indices/scales), instead of vmapping over a Python list of functions
    "params-not-functions-b18a": r"(?i)\b(array|jnp\.arange|np\.arange)\b[^\n]{0,40}\b(of )?(the )?"
                                 r"(parameters?|indices|index values|scales?|coefficients?|factors?)\b"
                                 r"|\b(one|a single) function\b[^\n]{0,60}\b(vmap|map)\w*\b"
                                 r"|\b(vmap|map)\w*\b[^\n]{0,60}\b(one|a single) function\b"
                                 r"|\b(not|instead of|rather than)\b[^\n]{0,20}\b(a )?(python )?(list|sequence)"
                                 r" of (functions|callables|partials)\b",
    # added with the eighteenth held-out batch, part b (written from the maintainers' fixes alone)
    # choose among several conditions with `jnp.select(condlist, choicelist, default=...)`
    "jnp-select-b18b": r"jnp\.select\(|(?i:\bselect\b[^\n]{0,40}\b(condlist|choicelist|list of conditions|conditions and (the )?(choices|values))\b)",
    # added with the eighteenth held-out batch, part c (written from the maintainers' fixes alone)
    # unflatten the leaves with the treedef of the very tree they were flattened from
    "own-treedef-b18c": r"(?i)\b(same|matching|its own|their own|original|corresponding)\b[^\n]{0,40}\btreedef\b"
                        r"|\btreedef\b[^\n]{0,60}\b(same|matching|that (produced|matches)|from the same|of the same)\b"
                        r"|jax\.tree\.structure\(|tree_structure\(",
    # call the shard_mapped function with one argument for every entry of in_specs
    "all-args-b18c": r"(?i)\b(pass|call|give|supply)\w*\b[^\n]{0,40}\b(both|all|every|each|one)\b[^\n]{0,30}"
                     r"\b(arguments?|inputs?|args|operands?)\b|\bone (argument|input) (per|for each)\b"
                     r"|\bin_specs\b[^\n]{0,60}\b(number of|as many)\b[^\n]{0,20}\b(arguments|inputs|args)\b"
                     r"|\bmissing\b[^\n]{0,20}\b(argument|input)\b",
    # give split the single key (index it out of the stray batch axis), not the batch of keys
    "single-key-b18c": r"\w+\[0\]|(?i:\b(a single|one|scalar|the original)\b[^\n]{0,15}\bkey\b[^\n]{0,40}"
                       r"\b(instead of|not|rather than)\b|\b(drop|remove|strip|index out|restore)\w*\b[^\n]{0,30}"
                       r"\b(leading|batch|extra|stray)\b[^\n]{0,15}\b(axis|dimension)\b)",
    # added with the eighteenth held-out batch, part d (written from the maintainers' fixes alone)
    # use `defjvp` (one rule taking the nondiff arguments first) instead of the `defjvps` wrapper
    "defjvp-not-defjvps-b18d": r"\.defjvp\(|(?i:`?\bdefjvp\b`?(?!s)[^\n]{0,60}\b(instead of|rather than|not)\b[^\n]{0,20}`?\bdefjvps\b"
                               r"|`?\bdefjvps\b`?[^\n]{0,80}\b(cannot|can't|does not|doesn't|won't)\b[^\n]{0,40}\bnondiff_arg(nums|names)\b"
                               r"[^\n]{0,80}\bdefjvp\b(?!s))",
    # a custom_gradient function returns the pair (value, vjp function), not the value alone
    "custom-gradient-pair-b18d": r"(?i)\breturn\w*\b[^\n]{0,40}\b(a )?(pair|2-tuple|tuple)\b[^\n]{0,80}\b(vjp|gradient|backward|cotangent)"
                                 r"|\(\s*(value|out\w*|y|primal\w*|val)\s*,\s*(lambda\b|vjp\w*|grad\w*|bwd\w*)",
    # pass a NumPy dtype JAX supports (cast float128/longdouble to float64/float32 first)
    "supported-dtype-b18d": r"(?i)\.astype\((np\.|jnp\.)?float(16|32|64)\)|\b(cast|convert)\w*\b[^\n]{0,40}\b(float32|float64)\b"
                            r"|\b(float32|float64)\b[^\n]{0,30}\b(instead of|rather than)\b[^\n]{0,20}\b(float128|longdouble)\b",
    # give array-creation functions an integer shape (integer division or int(...))
    "int-shape-b18d": r"(?i)\bint\(|\s//\s|\binteger (shape|size|length|dimension)s?\b|\b(shape|size|length)\b[^\n]{0,30}\b(an? )?(python )?int(eger)?s?\b",
    # added with the nineteenth held-out batch, part a (written from the maintainers' fixes alone)
    # the mapped axis in `out_axes` must exist in each per-example output: for a scalar result only axis 0
    # (the default) is possible
    "out-axes-rank-b19a": r"out_axes=0|(?i:\bout_axes\b[^\n]{0,60}\b(rank|ndim|number of (axes|dim\w*)|scalar|out of (bounds|range))\b|\b(drop|remove|omit)\b[^\n]{0,20}`?out_axes)",
    # vmap over a function whose inputs are all unmapped: give vmap the batch size itself (`axis_size=`) or
    # hand it one key per batch member (split the key into as many keys as layers)
    "axis-size-b19a": r"axis_size=|random\.split\(\s*\w+\s*,\s*\d+\s*\)|(?i:\bsplit\w*\b[^\n]{0,30}\b(into|one) [^\n]{0,20}\bkeys?\b)",
    # added with the nineteenth held-out batch, part b (written from the maintainers' fixes alone)
    # lax.reduce wants one scalar initial value per operand, not an array shaped like the result
    "scalar-init-b19b": r"(?i)\bscalars?\b[^\n]{0,40}\binit(ial)?[_ ]?(values?)?\b|\binit(ial)?[_ ]?(values?)?\b[^\n]{0,40}\bscalars?\b|jnp\.zeros\(\(\)",
    # the reducer given to reduce_window must return the bare array, not a list holding it
    "reducer-single-array-b19b": r"(?i)\breturns?\b[^\n]{0,40}\b(a single|one|the bare|a bare|the) (array|value)\b|\b(not|instead of|rather than|without)\b[^\n]{0,20}\b(wrapped )?in (a |one-element )?lists?\b|\blax\.(min|max|add)\b(?!\()",
    # lax.select does not broadcast; use the NumPy-style jnp.select
    "jnp-select-b19b": r"jnp\.select\b",
    # added with the nineteenth held-out batch, part c (written from the maintainers' fixes alone)
    # let tree_transpose infer the inner structure (pass None) instead of spelling out a wrong inner treedef
    "infer-inner-b19c": r"(?i)inner_treedef=None|transpose\([^\n]*,\s*None\s*,|\bNone\b[^\n]{0,40}\binner\b|\binfer\w*\b[^\n]{0,40}\binner\b|\binner\b[^\n]{0,40}\binfer\w*",
    # unflatten needs every leaf back, one per leaf of the treedef (transform all, keep the others unchanged)
    "all-leaves-b19c": r"(?i)\b(all|every|each)\b[^\n]{0,25}\bleaves\b[^\n]{0,60}\b(unflatten|treedef|back)|\bsame number of leaves\b|\bone (new )?(value|leaf) (per|for each|for every) leaf\b|\bkeep\b[^\n]{0,30}\b(other|remaining|unchanged)\b[^\n]{0,20}\bleaves\b|\bas many leaves as\b",
    # the second tree must use the same dict keys as the first (rename the key)
    "match-dict-keys-b19c": r"(?i)\b(same|matching|identical|consistent)\b[^\n]{0,20}\b(dict(ionary)? )?keys\b|\brenam\w*\b[^\n]{0,40}\bkeys?\b|\bkeys?\b[^\n]{0,40}\b(match|renam\w*)\b",
    # categorical's `shape` must end with the logits' batch shape (sample dims first, then the batch dims)
    "shape-ends-batch-b19c": r"(?i)\bshape\b[^\n]{0,60}\b(end|ends|ending|suffix|trailing)\b[^\n]{0,40}\b(batch|logits)\b|\b(batch|logits)\b[^\n]{0,40}\bshape\b[^\n]{0,30}\b(at the end|last|trailing|suffix)\b|shape=\(\w+, ?\w+\.shape\[0\]\)|\+ ?\w+\.shape\[:-1\]",
    # choose along the axis the probabilities describe: pass `axis=`
    # a key path entry is not always a DictKey: use its str() form (or keystr) instead of `.key`
    "key-str-b19c": r"(?i)\bstr\((entry|k|key|p|part|path\w*)\)|\bkeystr\b|\bcanonical\b[^\n]{0,30}\bstr|\bnot (every|all)\b[^\n]{0,40}\b(have|has) (a )?`?\.key\b|\bonly\b[^\n]{0,20}\bDictKey\b[^\n]{0,60}`?\.key\b|GetAttrKey\b[^\n]{0,60}(`?\.name\b|\bno\b[^\n]{0,20}`?\.key\b)",
    "choice-axis-b19c": r"(?i)\baxis=\d|\bpass\b[^\n]{0,20}`?axis\b|\balong\b[^\n]{0,20}\b(axis|columns?|rows?)\b",
    # added with the nineteenth held-out batch, part d (written from the maintainers' fixes alone)
    # bwd returns one cotangent for every positional input of the primal function, not fewer
    "bwd-per-input-b19d": r"(?i)\b(one|a|an)\s+(cotangent|gradient)s?\b[^\n]{0,30}\b(for|per)\s+(each|every)\s+(primal\s+)?(input|argument|arg|parameter)s?\b|\b(tuple|cotangents?|gradients?)\b[^\n]{0,50}\b(length|number|count)\b[^\n]{0,30}\b(equal|match\w*|same)\b[^\n]{0,40}\b(inputs|arguments|args|parameters)\b|\b(length|number|count)\b[^\n]{0,20}\b(equal|match\w*)\b[^\n]{0,40}\bnumber of\b[^\n]{0,20}\b(inputs|arguments|args|parameters)\b",
    # with symbolic_zeros=True the fwd rule gets CustomVJPPrimal objects: read `.value` (or drop the flag)
    "primal-value-attr-b19d": r"\.value\b|(?i:\bCustomVJPPrimal\b[^\n]{0,80}\bvalue\b|\b(drop|remove|omit|without)\b[^\n]{0,30}\bsymbolic_zeros\b|\bsymbolic_zeros=False\b)",
    # conv padding is a string or one (low, high) pair per spatial dimension
    "conv-pad-pairs-b19d": r"\(\(\s*\d+,\s*\d+\s*\),\s*\(\s*\d+,\s*\d+\s*\)\)|\[\(\s*\d+,\s*\d+\s*\),\s*\(\s*\d+,\s*\d+\s*\)\]|(?i:\(low,\s*high\)\s+pairs?|\bpairs?\b[^\n]{0,30}\b(per|for each|for every|one for each)\b[^\n]{0,20}\bspatial\b)",
    # tensordot's axes are ints or tuples/lists of ints, not arrays
    "axes-tuples-b19d": r"(?i)\baxes\b[^\n]{0,80}\b(tuples?|lists?)\b|\btuple\([^\n]{0,40}\)|\.tolist\(\)",
    # the backend of local_devices/devices is a keyword argument (`backend=`), not the first positional one
    # jax.debug.print formats lazily: a plain template string with the values passed as arguments, not an f-string
    "plain-template-b19d": r"(?i)\bf-?strings?\b|\b(plain|regular|ordinary|normal) (format |template )?string\b|debug\.print\(\"[^\"\n]*\{\w+\}[^\"\n]*\",\s*\w+=",
    # every {name} field of the debug.print template needs a matching keyword argument
    "fmt-field-kwarg-b19d": r"(?i)\b(pass|add|supply|provide|give)\w*\b[^\n]{0,40}\b(keyword|kwarg|argument|value)s?\b[^\n]{0,40}\b(for|named|matching)\b[^\n]{0,30}\b(field|placeholder|name|each|every|\{)|debug\.print\([^\n]*,\s*\w+=\w+,\s*\w+=\w+\)|\b(every|each)\b[^\n]{0,20}\b(field|placeholder)\b[^\n]{0,40}\b(keyword|argument)",
    # device_put's target is a Device object (e.g. jax.devices()[i]) or a Sharding, not an integer index
    "device-object-b19d": r"jax\.(local_)?devices\([^)]*\)\[\d+\]|(?i:\b(a|an)\s+`?(jax\.)?Device`?\s+(object|instance)\b|\bDevice\b[^\n]{0,40}\b(not|instead of|rather than)\b[^\n]{0,20}\b(an? )?(int|integer|index|number)\b)",
    # lax.pad takes one (low, high, interior) triple per dimension, not numpy-style (before, after) pairs
    "pad-triples-b19d": r"\(\s*\d+,\s*\d+,\s*\d+\s*\)|(?i:\(low,\s*high,\s*interior\)|\binterior\b[^\n]{0,40}\b(padding|entry|element|value|third)\b|\bthird\b[^\n]{0,30}\binterior\b|\btriples?\b)",
    # lax.pad's padding value must have the operand's dtype (a Python 0 is int32 here)
    "pad-value-dtype-b19d": r"jnp\.(array|asarray|zeros|full)\([^)\n]*\.dtype\)|(?i:\bsame dtype as\b[^\n]{0,30}\b(the )?(operand|array|input|signal)\b|\bpadding[_ ]value\b[^\n]{0,60}\b(float|dtype)\b|\b0\.0\b[^\n]{0,30}\b(not|instead of|rather than)\b[^\n]{0,10}\b0\b)",
    "backend-keyword-b19d": r"backend=|(?i:\bbackend\b[^\n]{0,40}\b(keyword|second (positional )?argument)\b|\bfirst (positional )?argument\b[^\n]{0,40}\bprocess_index\b)",
    # added with the twentieth held-out batch, part a (written from the maintainers' fixes alone)
    "skip-check-b20a": r"check_bracket=False|(?i:\b(skip|disable|turn off|switch off|drop|remove|without)\b[^\n]{0,40}\b(bracket\w*|host|python)?[- ]?(check|validation))",
    "float-args-only-b20a": r"float0|argnums=\(?0\b|(?i:(don't|do not|not|stop|avoid)\b[^\n]{0,30}\bdifferentiat\w*\b[^\n]{0,40}\binteger)",
    # added with the twentieth held-out batch, part b (written from the maintainers' fixes alone)
    "valid-axis-b20b": r"(?i)axis=None|(drop|remove|omit|without|no)\b[^\n]{0,20}`?axis\b|atleast_1d",
    "return-state-b20b": r"(?i)\breturn\b[^\n]{0,30}\b(it|state|value|result)s?\b[^\n]{0,40}\b(from|out of)\b|"
                         r"(extra|additional|second) output|pass it back",
    "debug-callback-b20b": r"(?i)jax\.debug\.(callback|print)|\bunbatched predicate|predicate\b[^\n]{0,30}\bnot batched",
    "double-where-b20b": r"(?i)double[- ]where|\bsafe_?\w*\b[^\n]{0,40}jnp\.where|jnp\.where\([^\n]*jnp\.where\(|"
                         r"(both|either|unselected|untaken|other) branch(es)?\b[^\n]{0,40}\b(evaluated|computed|differentiated)",
    "scalar-step-pred-b20b": r"(?i)(iteration|step|loop) (number|index|counter|count)|jnp\.arange\(|"
                             r"scalar (predicate|pred|index|counter)",
    # added with the twentieth held-out batch, part d (written from the maintainers' fixes alone)
    "pad-width-pairs-b20d": r"(?i)\bpad_width\b[^\n]{0,80}\b(tuples?|lists?|python int\w*|static)\b|\b(tuples?|lists?) of (int )?pairs\b|\bnot (be )?an? (jax |jnp )?array\b",
    "full-permutation-b20d": r"(?i)\bpermutation\b[^\n]{0,60}\b(every|each|all)\b[^\n]{0,20}\b(axis|axes|dim\w*)\b|\bone entry per (axis|dim\w*)\b|\(1, 0, 2\)",
    "struct-dtype-b20d": r"(?i)\bdtype\b[^\n]{0,40}\b(must|needs to|should|has to) be (specified|given|passed|set)\b|ShapeDtypeStruct\([^)\n]*dtype=\w+\.dtype|\b(pass|give|specify|supply|set)\w*\b[^\n]{0,25}\b(an? |the |its |explicit )?dtype\b[^\n]{0,30}\b(ShapeDtypeStruct|struct|spec)\b",
    "cols-of-rhs-b20d": r"(?i)b\.shape\[1\]|b\.shape\[-1\]|_, n = b\.shape|\bcolumns? of (the )?(right|second|rhs|`?b`?)\b|\b(last|second) (axis|dim\w*) of (the )?(right|second|rhs|`?b`?)\b",
    # added with the twenty-first held-out batch, part a (written from the maintainers' fixes alone)
    # blackjax#927: vmap the per-step kernel inside the scan (scan of vmap), not the whole loop that logs
    # progress through a callback under a cond
    "vmap-inside-loop-b21a": r"(?i)\bscan\w*\([^\n]{0,60}\bvmap\(|\bvmap\w*\b[^\n]{0,50}\b(inside|within|into|in) "
                             r"(the |each |every )?(scan|loop|body|kernel|step)\b|\b(scan|loop)\b[^\n]{0,20}\bof\b"
                             r"[^\n]{0,20}\bvmap|\b(move|push|put)\w*\b[^\n]{0,25}\bvmap\b[^\n]{0,30}\b(inside|inwards|into|in)\b",
    # jax#15861: split the tree so that only the float leaves are differentiated and the integer ones travel in a
    # separate, non-differentiated argument (or filter them out, as equinox's filter_grad does)
    "split-int-leaves-b21a": r"(?i)\bsplit\w*\b[^\n]{0,40}\b(tree|dict\w*|params|parameters|leaves|pytree)\b"
                             r"|\b(int|integer)\w*\b[^\n]{0,40}\b(separate|own|another|second|other|extra)\b[^\n]{0,20}"
                             r"\b(argument|input|tree|dict\w*|parameter)\b|\bfilter_grad\b|\bpartition\b[^\n]{0,40}\b(tree|params)\b",
    # docs jax.numpy.vectorize: give `signature=` (the core dimensions, e.g. "(n,n)->()") so that the function is
    # called on whole matrices/vectors rather than on scalars
    "vectorize-signature-b21a": r"\bsignature=|(?i:\bsignature\b[^\n]{0,60}(->|\bcore dim\w*|\(n|\(m)|\bcore dim\w*\b[^\n]{0,40}\bsignature\b)",
    # added with the twenty-first held-out batch, part b (written from the maintainers' fixes alone)
    # the loop's cond_fun (like its body_fun) takes the whole carry as ONE argument and unpacks it inside
    "carry-one-arg-b21b": r"(?i)\b(one|a single|the whole|the entire|the full)\b[^\n]{0,25}\b(argument|parameter|carry|state|tuple)\b"
                          r"|\bsame (arguments?|signature|parameters?) as\b[^\n]{0,30}\bbody"
                          r"|\bunpack\w*\b[^\n]{0,40}\b(carry|state|tuple)\b|lambda (s|state|carry|c|val): ",
    # jnp.piecewise wants one function per condition (or one more, the default): add the missing function
    "piecewise-count-b21b": r"(?i)len\(condlist\)\s*\+\s*1|\b(one|a) (function|entry|value) (per|for each|for every) (condition|cond)\b"
                            r"|\b(same (length|number)|as many)\b[^\n]{0,40}\b(functions?|funclist|entries)\b"
                            r"|\bfunclist\b[^\n]{0,60}\b(length|len|number|entries|missing)\b",
    # jnp.select takes as many choices as conditions; the fallback value goes in `default=`
    "select-default-b21b": r"(?i)\bdefault=|\b(same (length|number)|as many)\b[^\n]{0,40}\b(choices|choicelist|conditions|condlist)\b"
                           r"|\b(choicelist|condlist)\b[^\n]{0,60}\b(same length|match\w*|equal length)\b",
    # jnp.where takes a condition alone or a condition with BOTH x and y: give the value for the False case
    "where-three-args-b21b": r"jnp\.where\([^,\n]+,[^,\n]+,[^,\n]+\)|(?i:\bthree[- ]argument\b|\bboth\b[^\n]{0,20}\bx\b[^\n]{0,10}\by\b"
                             r"|\b(third|y) argument\b|\bvalue (for|where) (the )?(condition is )?false\b)",
    # added with the twenty-first held-out batch, part c (written from the maintainers' fixes alone)
    # swap only the two batch axes of a stack of raw uint32 keys (jnp.swapaxes / moveaxis); `.T` reverses every axis,
    # the trailing key-data axis included
    "swap-batch-axes-b21c": r"swapaxes|moveaxis|(?i:\.T\b[^\n]{0,60}\b(all|every|each)\b[^\n]{0,20}\baxes\b|\b(reverses?|transposes?)\b[^\n]{0,30}\b(all|every)\b[^\n]{0,20}\baxes\b|\btrailing\b[^\n]{0,30}\b(key|key-data|key data|uint32)\b[^\n]{0,20}\b(axis|dim\w*)\b)",
    # name a registered PRNG implementation ("threefry2x32", "rbg", "unsafe_rbg", ...) in `impl=`, not a shorthand
    "impl-name-b21c": r"impl=['\"](threefry2x32|rbg|unsafe_rbg|philox\w*)['\"]|(?i:\bthreefry2x32\b[^\n]{0,40}\b(not|instead of|rather than)\b|\b(registered|valid|full|exact|accepted)\b[^\n]{0,30}\b(impl\w*|PRNG)\b[^\n]{0,20}\bnames?\b|\bimpl\w*\b[^\n]{0,30}\bnames?\b[^\n]{0,30}\b(threefry2x32|registered|listed)\b)",
    # a registered unflatten function takes the aux data first and the children second: (aux_data, children)
    "unflatten-order-b21c": r"\(aux(_data)?, ?(children|kids|ch|values|leaves|xs)\)|lambda (aux\w*|_|meta\w*|label\w*|names?|keys?), (children|kids|ch|values|leaves|xs)\b|(?i:\baux(iliary)?[_ ]data\b[^\n]{0,40}\bfirst\b|\bfirst\b[^\n]{0,40}\baux(iliary)?[_ ]data\b|\b(argument|parameter) order\b[^\n]{0,40}\bunflatten|\bunflatten\w*\b[^\n]{0,60}\b(swap\w*|revers\w*|order)\b)",
    # dirichlet's alpha is the concentration vector itself, shape (..., n): one value per category, not a scalar
    "alpha-vector-b21c": r"jnp\.(full|ones)\(\(?\w+|(?i:\balpha\b[^\n]{0,50}\b(shape `?\(\.\.\., ?n\)|vector|1-?d\b|one-dimensional|at least one (axis|dim\w*)|one (entry|value|concentration) (per|for each))|\b(one|a) (concentration|alpha)\b[^\n]{0,20}\b(per|for each) (category|component|class|outcome)\b)",
    # register_pytree_with_keys: flatten_with_keys returns (key, child) pairs (GetAttrKey/DictKey/SequenceKey), not bare children
    "key-child-pairs-b21c": r"(GetAttrKey|DictKey|SequenceKey|FlattenedIndexKey)\(|(?i:\(key(_?path)?, ?(child|leaf|value)\)|key_leaf_pairs|\bpairs?\b[^\n]{0,40}\b(key|key path)\b[^\n]{0,30}\b(child|children|leaf|leaves)\b|\b(each|every) (child|leaf)\b[^\n]{0,40}\b(with|and) its key\b)",
    # added with the twenty-first held-out batch, part d (written from the maintainers' fixes alone)
    # the result spec of a host callback must use 32-bit dtypes while x64 is off (or turn x64 on)
    "callback-32bit-b21d": r"(?i)\b32-?bit\b|\bfloat32\b|\bint32\b|enable_x64|JAX_ENABLE_X64",
    # a shard_map in_specs entry may have at most as many entries as its input has axes: a scalar takes P()
    # squeeze only axes of length 1: name the singleton axes (or give no axis at all)
    "squeeze-unit-axis-b21d": r"(?i)\b(length|size)[- ](1|one)\b[^\n]{0,40}\bax[ie]s\b|\bax[ie]s\b[^\n]{0,40}\b(of )?(length|size)[- ](1|one)\b|\bsingleton (axis|axes|dimensions?)\b|\bunit (axis|axes|dimensions?)\b|squeeze\(\w+\)|squeeze\(\w+, ?axis=\(|\b(without|drop|omit|remove)\b[^\n]{0,20}`?axis=",
    # for a pairwise table give the two operands their new axes in different positions ((n, 1) against (1, m)
    # or (m,)), not the same trailing axis on both
    "pairwise-axes-b21d": r"\[None, ?:\]|\[jnp\.newaxis, ?:\]|\[np\.newaxis, ?:\]|\.outer\(|(?i:\bpairwise\b|\b(different|opposite|other|separate|distinct)\b[^\n]{0,25}\b(axis|axes|positions?|dimensions?)\b[^\n]{0,40}\b(operand|array|input|other)s?\b|\b(leading|first)\b[^\n]{0,20}\b(new |singleton |size-1 )?(axis|dimension)\b[^\n]{0,40}\b(second|other)\b)",
    "spec-rank-b21d": r"(?i)\bP\(\)|PartitionSpec\(\)|\b(shorter|fewer entries)\b[^\n]{0,40}\b(spec|in_specs|PartitionSpec)\b|\b(spec|in_specs|PartitionSpec)\b[^\n]{0,60}\b(shorter|no longer than|at most as many|no more entries)\b|\bone entry per (axis|dimension)\b|\bempty (spec|PartitionSpec)\b",
    # added with the twenty-second held-out batch, part a (written from the maintainers' fixes alone)
    # pull a cotangent back through a nonlinear function with `jax.vjp` (or grad); `jax.linear_transpose` only
    # transposes functions that are linear in their input
    "vjp-not-transpose-b22a": r"jax\.vjp\(|(?i:\bvjp\b[^\n]{0,40}\b(instead of|rather than|not)\b[^\n]{0,20}"
                              r"`?(jax\.)?linear_transpose|\blinear_transpose\b[^\n]{0,80}\b(only|requires?|must be|"
                              r"is for|assumes?)\b[^\n]{0,30}\blinear\b)",
    # added with the twenty-second held-out batch, part b (written from the maintainers' fixes alone)
    # choose between two pytrees (a tuple of several values) with `lax.cond`, whose branches may return any
    # matching structure, instead of `jnp.where`, which takes arrays only
    "cond-pytree-b22b": r"lax\.cond\(|(?i:\b(lax\.)?cond\b[^\n]{0,60}\b(tuples?|pytrees?|structures?|containers?|several (values|outputs|arrays)|multiple (values|outputs|arrays))\b|\bjnp\.where\b[^\n]{0,60}\b(arrays? only|only (takes|accepts) arrays|not (a )?tuples?)\b)",
    # differentiate through `lax.cond`, which evaluates (and differentiates) only the branch taken, instead of
    # `jnp.where`, whose untaken branch (a log at zero) still feeds a nan into the gradient
    "cond-one-branch-b22b": r"lax\.cond\(|(?i:\b(lax\.)?cond\b[^\n]{0,80}\b(only|just)\b[^\n]{0,30}\b(one|the taken|the selected|the chosen|the active)\b[^\n]{0,20}\bbranch)",
    # added with the twenty-second held-out batch, part c (written from the maintainers' fixes alone)
    # jax.random.bits draws raw bits: its dtype must be an unsigned integer dtype (uint8/16/32/64)
    "uint-bits-b22c": r"jnp\.uint(8|16|32|64)\b|(?i:\bunsigned\b[^\n]{0,30}\b(int\w*|dtype)\b|\buint(8|16|32|64)?\b[^\n]{0,20}\bdtype\b)",
    # a key that is meant to be used twice under key-reuse checking is passed through jax.random.clone first
    "clone-key-b22c": r"jax\.random\.clone\(|(?i:\bclone\w*\b[^\n]{0,40}\bkeys?\b|\bkeys?\b[^\n]{0,40}\bclone\w*\b)",
    # jax.tree.unflatten takes the treedef first and the leaves second
    "unflatten-arg-order-b22c": r"unflatten\((\w*def\w*|\w*struct\w*), ?\w+\)|(?i:\btreedef\b[^\n]{0,40}\bfirst\b|\bfirst\b[^\n]{0,40}\btreedef\b|\b(swap|revers|switch)\w*\b[^\n]{0,40}\b(arguments?|order|treedef)\b|\b(argument|parameter) order\b)",
    # a key path entry of a dict is a DictKey, whose field is `.key` (`.name` belongs to GetAttrKey)
    "dictkey-field-b22c": r"\.key\b|(?i:\bDictKey\b[^\n]{0,60}\bkey\b)",
    # reduce over whole container nodes (here NamedTuples) by telling the traversal to stop at them: is_leaf=
    "whole-node-leaf-b22c": r"is_leaf=lambda \w+: isinstance\(\w+, \w+\)|(?i:\bis_leaf\b[^\n]{0,60}\b(NamedTuple|node|whole|class|instances?|containers?|struct\w*)\b|\b(treat|stop at|keep)\b[^\n]{0,40}\b(each|the|whole)\b[^\n]{0,30}\b(NamedTuple|node|container|struct\w*)s?\b[^\n]{0,30}\bleaf\b)",
    # is_leaf returns True to STOP the traversal (the node becomes a leaf), False to descend into it: the
    # predicate was written the wrong way round and has to be inverted
    "is-leaf-true-stops-b22c": r"is_leaf=lambda \w+: isinstance\(|(?i:\bis_leaf\b[^\n]{0,80}\bTrue\b[^\n]{0,40}\b(leaf|stop\w*|whole)\b|\bTrue\b[^\n]{0,30}\b(stops?|halts?|ends?)\b[^\n]{0,30}\b(traversal|flattening|descent)\b|\b(invert|negat|flip|revers)\w*\b[^\n]{0,30}\b(the )?(predicate|is_leaf|condition|test)\b)",
    # added with the twenty-second held-out batch, part d (written from the maintainers' fixes alone)
    # lax.custom_linear_solve calls `solve(matvec, b)`: the solve function takes the matvec and the right-hand side
    "solve-matvec-b22d": r"solve=lambda \w+, \w+:|solve\(\s*matvec\s*,|(?i:\bsolve\b[^\n]{0,60}\btwo (arguments|parameters)\b"
                         r"|\b(takes|receives?|accepts?|called with|signature)\b[^\n]{0,30}\bmatvec\b[^\n]{0,30}"
                         r"\b(and|,)\b[^\n]{0,10}\b(the )?(right-hand side|rhs|b)\b)",
    # a custom_vmap rule returns the pair (batched outputs, which outputs are batched)
    "vmap-rule-pair-b22d": r"out_batched|(?i:\b(pair|tuple|two things)\b[^\n]{0,60}\b(batched|batch(ing)? (flags?|status))\b"
                           r"|\b(outputs?|results?)\b[^\n]{0,30}\b(and|with|plus)\b[^\n]{0,40}\bwhether\b[^\n]{0,30}\bbatched\b)",
    # defjvps takes one rule per positional argument of the primal, None where the argument has none
    "defjvps-none-b22d": r"defjvps\(None|(?i:\bNone\b[^\n]{0,60}\b(for|in place of|placeholder|in the slot)\b[^\n]{0,40}"
                         r"\b(argument|input|position|rule)s?\b|\b(one|a) (rule|function|entry|jvp|tangent function) "
                         r"(per|for each|for every) (positional )?(argument|input)\b)",
    # jnp.convolve is 1-D only: a 2-D convolution goes to jax.scipy.signal.convolve2d (or signal.convolve / lax.conv)
    "convolve2d-b22d": r"convolve2d|signal\.convolve\b|conv_general_dilated",
    # a non-square matrix has no inverse: use the pseudo-inverse (or a least-squares solve)
    "pinv-b22d": r"\bpinv\b|\blstsq\b|(?i:\bpseudo-?inverse\b)",
    # jnp.interp interpolates one 1-D table at a time: map it over the rows of a 2-D fp (vmap)
    "interp-rows-b22d": r"jax\.vmap\(|(?i:\b(each|every|one|per)\b[^\n]{0,20}\b(row|curve|series|table)\b[^\n]{0,60}"
                        r"\b(separately|at a time|vmap|map)\b|\bfp\b[^\n]{0,40}\b(1-?d|one-dimensional)\b)",
    # an einsum operand needs one subscript letter per axis (a vector gets one letter)
    "einsum-subscripts-b22d": r"(?i)\b(one|a) (letter|index|subscript|label)\b[^\n]{0,30}\b(per|for each|for every)\b"
                              r"[^\n]{0,20}\b(axis|dimension)\b|\bsubscripts?\b[^\n]{0,80}\b(ndim|number of (axes|dimensions)"
                              r"|rank)\b|\b(number of (axes|dimensions)|ndim|rank)\b[^\n]{0,80}\bsubscripts?\b"
                              r"|['\"]ij,j->i['\"]",
    # meshgrid builds the grid from 1-D coordinate vectors: pass the vectors themselves, not columns or grids
    "meshgrid-1d-b22d": r"(?i)\b(1-?d|one-dimensional|flat)\b[^\n]{0,40}\b(coordinate|vectors?|arrays?|inputs?)\b"
                        r"|\.ravel\(\)|\.reshape\(-1\)|\bsqueeze\b|(drop|remove|without)\b[^\n]{0,20}`?\[:, ?None\]",
    # pmap maps over devices: the mapped axis can be no longer than the device count (reshape to local_device_count)
    "device-count-b22d": r"local_device_count|device_count\(\)|(?i:\b(leading|mapped) (axis|dimension)\b[^\n]{0,60}"
                         r"\b(number of|available) devices\b|\bnumber of (available )?devices\b[^\n]{0,60}"
                         r"\b(leading|mapped) (axis|dimension)\b|xla_force_host_platform_device_count)",
    # added with the twenty-third held-out batch, part a (written from the maintainers' fixes alone)
    # grad differentiates a floating-point result: give the function a float output (cast it back with astype)
    "float-output-b23a": r"(?i)\.astype\((jnp\.|np\.)?float(16|32|64)?\)|\bfloat(ing[- ]point)?\b[^\n]{0,20}\b(output|result|loss|value)\b"
                         r"|\b(output|result|loss|return value)\b[^\n]{0,40}\bfloat(ing[- ]point)?\b"
                         r"|\b(remove|drop|avoid|without)\b[^\n]{0,30}\b(integer|int32|int)\b[^\n]{0,10}\b(cast|conversion)",
    # dynamic_slice_in_dim / dynamic_slice: the start index may be traced, the slice size must be a static Python int
    "static-slice-size-b23a": r"(?i)\bslice[_ ]sizes?\b[^\n]{0,60}\b(static|python int\w*|concrete|fixed|constant|known)\b"
                              r"|\b(static|python int\w*|concrete|fixed|constant)\b[^\n]{0,40}\bslice[_ ]sizes?\b"
                              r"|dynamic_slice_in_dim\([^\n,]+,[^\n,]+, ?\d+\)",
    # a vjp pullback takes a cotangent shaped like the primal output (a bare array here), not wrapped in a tuple
    "cotangent-structure-b23a": r"(?i)\bsame (tree |pytree |container )?structure as (the )?(primal )?(output|out|result)"
                                r"|\b(not|without|instead of|rather than|drop|remove)\b[^\n]{0,30}\b(wrapp\w*|inside|in)\b"
                                r"[^\n]{0,10}\b(a |one-element |single-element )?tuple\b|\bbare (array|cotangent)\b",
    # added with the twenty-third held-out batch, part b (written from the maintainers' fixes alone)
    # docs.jax.dev jax.ensure_compile_time_eval: a value computed only from constants, needed by Python control flow
    # inside jit, is evaluated eagerly inside `with jax.ensure_compile_time_eval():`
    "compile-time-eval-b23b": r"ensure_compile_time_eval",
    # added with the twenty-third held-out batch, part c (written from the maintainers' fixes alone)
    # jax.random.uniform names its bounds `minval` and `maxval` (not NumPy's `low`/`high`)
    "minval-maxval-b23c": r"\bminval=|\bmaxval=|(?i:\bminval\b[^\n]{0,20}\b(and|/|,)\b[^\n]{0,6}`?maxval\b"
                          r"|\b(low|high)\b`?[^\n]{0,40}\b(minval|maxval)\b)",
    # multivariate_normal takes a full (n, n) covariance matrix: build it from per-coordinate variances with jnp.diag
    "diag-cov-b23c": r"jnp\.diag\(|(?i:\bdiagonal (covariance )?matri(x|ces)\b|\b(full|square)\b[^\n]{0,20}"
                     r"\b\(?n, ?n\)?\b[^\n]{0,20}\bcov\w*|\bcov\w*\b[^\n]{0,40}\bshape `?\(\.\.\., ?n, ?n\))",
    # fold_in folds one integer into a key: fold a batch of integers in by vmapping fold_in over them
    "vmap-fold-in-b23c": r"jax\.vmap\(lambda \w+: jax\.random\.fold_in\(|(?i:\bvmap\w*\b[^\n]{0,40}\bfold_in\b"
                         r"|\bfold_in\b[^\n]{0,60}\bvmap\b|\bfold_in\b[^\n]{0,40}\b(one|a single|scalar) (integer|int|value)\b)",
    # jax.tree.all calls Python's all() on the leaves: reduce each array leaf to one bool first (jnp.all per leaf)
    "bool-leaves-b23c": r"jax\.tree\.all\(jax\.tree\.map\(|tree_all\(jax\.tree_util\.tree_map\(|(?i:\b(reduce|map|turn|convert)\w*"
                        r"\b[^\n]{0,40}\b(each|every)\b[^\n]{0,20}\bleaf\b[^\n]{0,40}\b(bool\w*|jnp\.all|single (truth )?value)"
                        r"|\bleaves\b[^\n]{0,40}\b(must|should|need to) be\b[^\n]{0,20}\b(bool\w*|scalars?|truth values?)\b)",
    # the function given to jax.tree.map_with_path receives the key path first, then the leaf
    "path-first-b23c": r"lambda (path|kp|p|keypath|key_path|_), \w+:|(?i:\b(key )?path\b[^\n]{0,40}\bfirst (positional )?"
                       r"(argument|parameter)\b|\bfirst (positional )?(argument|parameter)\b[^\n]{0,40}\b(key )?path\b"
                       r"|\btwo (arguments|parameters)\b[^\n]{0,40}\bpath\b)",
    # the unravel function of ravel_pytree takes a flat vector of the same length as the one ravel_pytree returned
    "unravel-length-b23c": r"\.shape\[0\]\]|(?i:\bsame (length|size)\b[^\n]{0,60}\b(flat|raveled|ravelled|vector|ravel_pytree)"
                           r"|\b(flat|raveled|ravelled)\b[^\n]{0,40}\b(vector|array)\b[^\n]{0,40}\b(same|matching|full) "
                           r"(length|size)\b|\bunravel\w*\b[^\n]{0,60}\b(length|size)\b[^\n]{0,30}\b(match\w*|equal|same)\b)",
    # jax.tree.reduce calls its function with two arguments (accumulator, leaf): give it a binary function
    "binary-reducer-b23c": r"lambda (acc|a|x|total|carry|s), \w+:|operator\.add\b|jnp\.add\b|(?i:\b(two|binary|2)\b[^\n]{0,20}"
                           r"\b(arguments?|parameters?|function|operation)\b|\b(accumulator|running (total|value))\b[^\n]{0,40}"
                           r"\b(leaf|next|each)\b)",
    # jax.tree.transpose's outer_treedef describes only the outer container (one star per inner tree), not the full tree
    "outer-only-treedef-b23c": r"jax\.tree\.structure\(\[['\"]\*['\"]\]|jax\.tree\.structure\(\[0\]|(?i:\bouter\b[^\n]{0,40}"
                               r"\b(container|level|list|structure)\b[^\n]{0,40}\b(only|alone|stars?|placeholders?|leaves)\b"
                               r"|\bouter_treedef\b[^\n]{0,60}\b(not|instead of|rather than)\b[^\n]{0,30}\b(whole|full|entire)\b)",
    # jax.random samplers take the output shape as `shape` (a sequence of ints), not NumPy's `size`
    "shape-not-size-b23c": r"\bshape=\(|(?i:`?\bshape\b`?[^\n]{0,30}\b(instead of|not|rather than)\b[^\n]{0,10}`?size\b"
                           r"|`?\bsize\b`?[^\n]{0,40}\b(is )?(numpy|np\.random)'?s?\b[^\n]{0,30}\bshape\b)",
    # added with the twenty-third held-out batch, part d (written from the maintainers' fixes alone)
    # lax.custom_root's tangent_solve takes two positional arguments: the linearized function g and the
    # right-hand side y (for a scalar, `lambda g, y: y / g(1.0)`)
    "tangent-solve-args-b23d": r"lambda g, ?y:|(?i:\btangent_solve\b[^\n]{0,80}\b(two|2) (positional )?(arguments|parameters)\b"
                               r"|\btangent_solve\b[^\n]{0,80}\b(linear(i[sz]ed)? )?(function|map) `?g`?\b"
                               r"|\b(takes?|receives?|gets?|accepts?)\b[^\n]{0,30}\b(the )?(linear(i[sz]ed)? )?(function|map)"
                               r"\b[^\n]{0,20}\b(and|as well as)\b[^\n]{0,20}\b(the )?(right-hand side|rhs|`?y`?)\b)",
    # reverse-mode differentiation of lax.custom_linear_solve needs a transpose_solve (or symmetric=True)
    "transpose-solve-b23d": r"transpose_solve=|symmetric=True|(?i:\btranspose[_ ]solve\b[^\n]{0,60}\b(required|needed|missing"
                            r"|supply|provide|pass|give|add)\w*|\b(supply|provide|pass|give|add|define)\w*\b[^\n]{0,40}"
                            r"\btranspose[_ ]solve\b)",
    # lax.reduce_window takes one window size (and stride) per operand axis: (1, 2, 2, 1) for NHWC pooling
    "window-per-axis-b23d": r"\(1, ?\d+, ?\d+, ?1\)|(?i:\b(one|an?) (window )?(entry|size|dimension|value|stride)s?\b[^\n]{0,30}"
                            r"\b(per|for (each|every))\b[^\n]{0,20}\b(axis|dimension|operand (axis|dimension))\b"
                            r"|\bwindow_(dimensions|strides)\b[^\n]{0,60}\b(same length|as many|rank|ndim|number of (axes"
                            r"|dimensions))\b|\b(size|length) 1\b[^\n]{0,40}\b(batch|channel)\w*\b)",
    # take the diagonals of a stack of matrices with jnp.diagonal over the last two axes (diag is 1-D/2-D only)
    "diagonal-b23d": r"jnp\.diagonal\(|\baxis1=|\baxis2=|(?i:`?\bdiagonal\b`?[^\n]{0,40}\b(instead of|not|rather than)\b"
                     r"[^\n]{0,10}`?(jnp\.)?diag\b|\bvmap\w*\b[^\n]{0,40}\bdiag\b)",
    # say which axis of each operand tensordot contracts: a pair of axis sequences, not an int
    "tensordot-axes-b23d": r"axes=\(\(|axes=\(\[|axes=\[\[|(?i:\bpair of (axis )?(sequences|lists|tuples)\b|\b(which|one) axis "
                           r"(of|for) each (operand|array|argument)\b|\baxes=\d\b[^\n]{0,60}\b(last|first)\b[^\n]{0,40}\b"
                           r"(first|last)\b)",
    # give jnp.average the axis its 1-D weights run along when their shape differs from the data's
    "weights-axis-b23d": r"average\([^\n]*\baxis=|(?i:\b(pass|give|specify|set|name)\w*\b[^\n]{0,30}`?\baxis\b`?[^\n]{0,60}"
                         r"\bweights?\b|\bweights?\b[^\n]{0,80}\b(pass|give|specify|set|name)\w*\b[^\n]{0,30}`?\baxis\b`?)",
    # added with the twenty-fourth held-out batch, part a (written from the maintainers' fixes alone)
    "split-axis-size-b24a": (
        r"(?i)\bsplit_axis\b[^\n]{0,80}\b(size|length|equal\w*|match\w*|same)\b"
        r"|\b(size|length)\b[^\n]{0,60}\b(mapped axis|axis size|named axis|batch)\b[^\n]{0,60}\bsplit_axis\b"
        r"|\bsplit_axis=\d"),
    "transpose-output-shape-b24a": (
        r"(?i)\b(cotangent|input|argument)s?\b[^\n]{0,60}\b(shape|structure|dtype)s?\b[^\n]{0,40}"
        r"\b(of|as|like) (the )?(function'?s? |fun'?s? |linear (function|map)'?s? )?(output|result)\b"
        r"|\bfun\(\*primals\)|\bshaped like the output\b"),
    # added with the twenty-fourth held-out batch, part c (written from the maintainers' fixes alone)
    "every-field-b24c": r"(?i)\b(list|include|name|add|register|put)\w*\b[^\n]{0,40}\b(every|all|each|missing|forgotten|"
                        r"remaining)\b[^\n]{0,30}\b(dataclass )?(fields?|attributes?)\b|\b(every|all|each)\b[^\n]{0,20}"
                        r"\b(fields?|attributes?)\b[^\n]{0,60}\b(data_fields|meta_fields|drop_fields)\b|\bdrop_fields\b",
    "unflatten-classmethod-b24c": r"@classmethod|(?i:\bclassmethod\b|\btree_unflatten\b[^\n]{0,60}\b(cls|class)\b)",
    # added with the twenty-fourth held-out batch, part d (written from the maintainers' fixes alone)
    "resize-full-shape-b24d": (
        r"(?i)\bresize\b[^\n]{0,60}\b(full|whole|complete|entire)\b[^\n]{0,20}\b(output )?shape\b"
        r"|\b(every|all|each)\b[^\n]{0,20}\b(dimensions?|axes)\b[^\n]{0,40}\b(batch|channels?)\b"
        r"|\b(batch|channels?)\b[^\n]{0,40}\b(dimensions?|axes)\b[^\n]{0,40}\b(output|target|new) shape\b"
        r"|\(\w+\.shape\[0\], ?\d+, ?\d+, ?\w+\.shape\[(-1|3)\]\)"),
    "broadcast-dims-b24d": (
        r"broadcast_dimensions=\(\d,?\)"
        r"|(?i:\bbroadcast_dimensions\b[^\n]{0,60}\b(one|an?) (entry|index|position|element)\b[^\n]{0,20}"
        r"\b(per|for each|for every)\b[^\n]{0,20}\b(operand|input)\b"
        r"|\b(operand|input)('s)? (axis|axes|dimensions?)\b[^\n]{0,60}\bbroadcast_dimensions\b)"),
    "mesh-axis-name-b24d": (
        r"\bmesh\.axis_names\b"
        r"|(?i:\b(axis )?names?\b[^\n]{0,40}\b(of|in|from|defined (by|in)) (the |your )?mesh\b"
        r"|\bmesh'?s? (own )?axis names?\b|\bPartitionSpec\b[^\n]{0,60}\b(axis|axes) (of|in) the mesh\b)"),
}


@dataclass
class Case:
    name: str
    fn: Callable
    pattern: str                  # the mistake, in a few words (rates are printed by pattern)
    fix: str                      # a key of CATEGORIES
    source: str                   # public issue or discussion the case is reduced from
    raises: str = ""              # exception class name on jax 0.10.2 (jit cases)
    line: str = ""                # the student's failing line (jit cases)
    make_args: Callable | None = None
    static_argnums: tuple = ()
    max_traces: int = 1
    note: str = ""
    kind: str = "jit"


JIT_CASES: list[Case] = []
RETRACE_CASES: list[Case] = []


def jit_case(*, pattern, fix, source, raises, line, args, static_argnums=(), note=""):
    """Register a function that must fail `check.assert_jittable` on `args()`."""
    assert fix in CATEGORIES, fix

    def register(fn):
        JIT_CASES.append(Case(fn.__name__, fn, pattern, fix, source, raises, line, args,
                              tuple(static_argnums), note=note))
        return fn
    return register


def retrace_case(*, pattern, fix, source, calls, static_argnums=(), max_traces=1, note=""):
    """Register a function whose `calls()` must trace more than `max_traces` times."""
    assert fix in CATEGORIES, fix

    def register(fn):
        RETRACE_CASES.append(Case(fn.__name__, fn, pattern, fix, source, make_args=calls,
                                  static_argnums=tuple(static_argnums), max_traces=max_traces,
                                  note=note, kind="retrace"))
        return fn
    return register


@dataclass
class ErrorCase:
    """A function that raises one of JAX's errors outside jit (issue 24): vmap, grad, loops,
    branches, pytrees, keys, custom rules, shapes."""
    name: str
    fn: Callable
    family: str
    fix: str                      # a key of CATEGORIES: the kind of fix the maintainers gave
    source: str
    raises: str                   # exception class name on the pinned jax
    line: str                     # the student's failing line (innermost student frame)
    fixed: str                    # that line as the maintainers fixed it (the fixed function runs)
    make_args: Callable


ERROR_CASES: list[ErrorCase] = []


def error_case(*, family, fix, source, raises, line, fixed, args):
    """Register a function that raises `raises` at `line` when called eagerly on `args()`."""
    def register(fn):
        ERROR_CASES.append(ErrorCase(fn.__name__, fn, family, fix, source, raises, line, fixed, args))
        return fn
    return register


@dataclass
class Outcome:
    case: Case
    message: str = ""
    failed: bool = False          # the check failed, as it must
    told_fix: bool = False
    named_line: bool = False
    raised: str = ""              # the exception type the message reports (jit cases)
    problems: list = field(default_factory=list)


def run_case(case: Case) -> Outcome:
    from autograder import check
    out = Outcome(case)
    try:
        if case.kind == "jit":
            check.assert_jittable(case.fn, *case.make_args(), static_argnums=case.static_argnums)
        else:
            check.assert_max_traces(case.fn, case.make_args(), max_traces=case.max_traces,
                                    static_argnums=case.static_argnums)
    except AssertionError as exc:
        out.message = str(exc)
        out.failed = True
    if not out.failed:
        out.problems.append("the check passed")
        return out
    out.told_fix = re.search(CATEGORIES[case.fix], out.message) is not None
    if case.kind == "jit":
        out.named_line = case.line in out.message
        m = re.search(r"failed: (\w+)", out.message)
        out.raised = m.group(1) if m else ""
        if case.raises and out.raised != case.raises:
            out.problems.append(f"raised {out.raised}, expected {case.raises}")
    if not out.told_fix:
        out.problems.append(f"fix category {case.fix!r} not in the message")
    if case.kind == "jit" and not out.named_line:
        out.problems.append(f"line {case.line!r} not in the message")
    return out


def load(heldout: bool = False) -> tuple[list[Case], list[Case]]:
    """The in-sample corpus the rules were written against, or (`heldout`) the cases written
    after them (heldout_mistakes.py)."""
    from . import heldout_mistakes, jit_mistakes, retrace_mistakes  # noqa: F401  (registers the cases)

    def chosen(case: Case) -> bool:
        return case.fn.__module__.endswith("heldout_mistakes") == heldout
    return [c for c in JIT_CASES if chosen(c)], [c for c in RETRACE_CASES if chosen(c)]


def run_all(heldout: bool = False) -> tuple[list[Outcome], list[Outcome]]:
    jit, retrace = load(heldout)
    return [run_case(c) for c in jit], [run_case(c) for c in retrace]


def rate_table(outcomes: list[Outcome], with_line: bool) -> str:
    """Rates by pattern and overall, as a Markdown table."""
    by_pattern: dict[str, list[Outcome]] = {}
    for o in outcomes:
        by_pattern.setdefault(o.case.pattern, []).append(o)
    head = "| pattern | cases | told the fix |" + (" named the line |" if with_line else "")
    rows = [head, "|---|---|---|" + ("---|" if with_line else "")]
    for pattern in list(by_pattern) + ["**all**"]:
        items = outcomes if pattern == "**all**" else by_pattern[pattern]
        fixes = sum(o.told_fix for o in items)
        row = f"| {pattern} | {len(items)} | {fixes}/{len(items)} |"
        if with_line:
            row += f" {sum(o.named_line for o in items)}/{len(items)} |"
        rows.append(row)
    return "\n".join(rows)


def summary(jit: list[Outcome], retrace: list[Outcome]) -> dict:
    def rate(items, attr):
        return sum(getattr(o, attr) for o in items) / max(len(items), 1)
    return {"jit_cases": len(jit), "jit_fix_rate": rate(jit, "told_fix"),
            "jit_line_rate": rate(jit, "named_line"), "retrace_cases": len(retrace),
            "retrace_fix_rate": rate(retrace, "told_fix")}
