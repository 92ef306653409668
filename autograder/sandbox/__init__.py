"""Running untrusted student code.

- `process`      the grader's side: Limits, WorkerProcess (request and reply)
- `isolation`    which isolation level a worker gets, and the exec path's `unshare` command
- `forkserver`   the grader's side of the fork server: start it, ask it for workers, their handles
- `zygote`       the fork server: imports JAX once, forks each worker (as `unshare` would), then stage 2
- `host`         what the grader keeps on the host: scratch folders and their sweep, uid leases
- `inside`       what runs inside the namespaces: mounts, limits, credentials, the supervisor
                 (standard library only, with `procs`, `seccomp` and `memlimit`)
- `worker`       the worker's request loop
- `wire`         the channel: pickled requests in, plain data out (decoded defensively)
- `integrity`    tamper detection in the worker, and its audit-hook alarms
- `seccomp`      the system calls a worker may not make
- `memlimit`     the memory cap a worker gets (RLIMIT_AS, a cgroup, RLIMIT_DATA)
- `devices`      the accelerators a worker gets
- `one_core`     the timing worker held to one core from its start (on a CPU)
- `compile_cache` the batch's sealed compile cache, read by a worker but never written
- `compile_effort` correctness workers on the CPU compile without XLA's costly passes
- `eager_reuse`  correctness workers compile an eager loop or branch once per program, not per call
- `lowering_context` correctness workers lower programs in a shared MLIR context, renewed now and then
- `procs`        processes read from /proc; prctl options

Kept free of imports: the sandbox's second stage runs `python -m autograder.sandbox.inside`
before the worker may import numpy or JAX."""
