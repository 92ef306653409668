"""Running untrusted student code: the worker process and its limits (`process`), the code that
runs inside it (`worker`), the channel between them (`wire`), and tamper detection (`integrity`).

Kept free of imports: the sandbox's second stage runs `python -m autograder.sandbox.process`
before the worker may import numpy or JAX."""
