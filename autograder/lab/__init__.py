"""What a lab admin runs on a new GPU/TPU image.

- `selftest`    `autograder selftest`: the expected verdicts on this machine's backend
- `labcheck`    `make labcheck`: one prepared check of a GPU machine; its stages in `stages`, how it
                starts on a machine with no network in `bootstrap`, what they share in `common`,
                its CPU scaling stage in `scaling`
- `hub`         `autograder lab-hub` (`make hub`): JupyterHub for one course, prepared and started
- `hub_spawn`   what runs inside that JupyterHub: its settings, each server's role and GPU share
"""
