"""A seccomp filter for the worker: the kernel interfaces a JAX worker never needs answer EPERM.

Installed by `inside.isolate` as the last step before the worker's interpreter starts (standard
library and ctypes only: it runs inside the sandbox), in every isolation mode, after
PR_SET_NO_NEW_PRIVS (which an unprivileged process needs to install a filter, and which keeps any
set-uid program it could run from gaining privileges). Denied:

- kernel keyrings (`add_key`, `request_key`, `keyctl`): per-uid state that outlives a worker, so a
  later worker under the same uid could read what an earlier one left;
- new namespaces (`unshare`, `setns`, `clone` with any CLONE_NEW* flag): a user namespace would
  give student code capabilities of its own;
- `ptrace`, `process_vm_readv`/`writev`: reading or writing another process's memory;
- `io_uring_*`, `bpf`, `perf_event_open`, `userfaultfd`: large kernel surfaces, no use to JAX;
- mounting and module loading (`mount`, `umount2`, `pivot_root`, the new mount API, `*_module`,
  `kexec_load`);
- `clone3` answers ENOSYS instead: its flags sit in memory a filter cannot read, and glibc then
  falls back to `clone`, whose flags it can.

The filter is a classic BPF program checked against the architecture (x86-64 and arm64; elsewhere
nothing is installed and `install` says so). x32 system calls on x86-64 are denied outright.
"""
from __future__ import annotations

import ctypes
import errno
import platform
import struct

PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2
_RET_ALLOW = 0x7FFF0000
_RET_ERRNO = 0x00050000
_LD_W_ABS, _JEQ, _JGE, _JSET, _RET = 0x20, 0x15, 0x35, 0x45, 0x06
CLONE_NEW_FLAGS = 0x7E020080   # NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET, NEWTIME

_DENIED = ("add_key", "request_key", "keyctl", "unshare", "setns", "ptrace", "process_vm_readv",
           "process_vm_writev", "io_uring_setup", "io_uring_enter", "io_uring_register", "bpf",
           "perf_event_open", "userfaultfd", "mount", "umount2", "pivot_root", "open_tree", "move_mount",
           "fsopen", "fsconfig", "fsmount", "fspick", "init_module", "finit_module", "delete_module",
           "kexec_load")

_ARCHES = {
    "x86_64": (0xC000003E, {
        "add_key": 248, "request_key": 249, "keyctl": 250, "unshare": 272, "setns": 308, "ptrace": 101,
        "process_vm_readv": 310, "process_vm_writev": 311, "io_uring_setup": 425, "io_uring_enter": 426,
        "io_uring_register": 427, "bpf": 321, "perf_event_open": 298, "userfaultfd": 323, "mount": 165,
        "umount2": 166, "pivot_root": 155, "open_tree": 428, "move_mount": 429, "fsopen": 430,
        "fsconfig": 431, "fsmount": 432, "fspick": 433, "init_module": 175, "finit_module": 313,
        "delete_module": 176, "kexec_load": 246, "clone": 56, "clone3": 435}),
    "aarch64": (0xC00000B7, {
        "add_key": 217, "request_key": 218, "keyctl": 219, "unshare": 97, "setns": 268, "ptrace": 117,
        "process_vm_readv": 270, "process_vm_writev": 271, "io_uring_setup": 425, "io_uring_enter": 426,
        "io_uring_register": 427, "bpf": 280, "perf_event_open": 241, "userfaultfd": 282, "mount": 40,
        "umount2": 39, "pivot_root": 41, "open_tree": 428, "move_mount": 429, "fsopen": 430,
        "fsconfig": 431, "fsmount": 432, "fspick": 433, "init_module": 105, "finit_module": 273,
        "delete_module": 106, "kexec_load": 104, "clone": 220, "clone3": 435}),
}


def _insn(code: int, jt: int, jf: int, k: int) -> bytes:
    return struct.pack("HBBI", code, jt, jf, k & 0xFFFFFFFF)


def program(machine: str | None = None) -> bytes:
    """The filter for `machine` (default: this one), as packed `struct sock_filter`s."""
    arch, numbers = _ARCHES[machine or platform.machine()]
    deny = sorted({numbers[name] for name in _DENIED})
    body: list[tuple] = []
    # layout: [0] load arch, [1] arch check, [2] load nr, [3] x32 check, then one jeq per denied
    # number, then the clone checks, then ALLOW, DENY, ENOSYS at the end
    n = 4 + len(deny) + 5 + 3
    allow, eperm, enosys = n - 3, n - 2, n - 1

    def jump(here, target):
        return target - here - 1

    body.append((_LD_W_ABS, 0, 0, 4))                              # seccomp_data.arch
    body.append((_JEQ, 0, jump(1, allow), arch))                  # another ABI: leave it alone
    body.append((_LD_W_ABS, 0, 0, 0))                              # seccomp_data.nr
    body.append((_JGE, jump(3, eperm), 0, 0x40000000))            # x32 system calls
    for i, nr in enumerate(deny):
        here = 4 + i
        body.append((_JEQ, jump(here, eperm), 0, nr))
    here = 4 + len(deny)
    body.append((_JEQ, jump(here, enosys), 0, numbers["clone3"]))
    body.append((_JEQ, 0, jump(here + 1, allow), numbers["clone"]))
    body.append((_LD_W_ABS, 0, 0, 16))                             # args[0], low 32 bits: the flags
    body.append((_JSET, jump(here + 3, eperm), 0, CLONE_NEW_FLAGS))
    body.append((_RET, 0, 0, _RET_ALLOW))                          # (here + 4) clone without NEW*
    body.append((_RET, 0, 0, _RET_ALLOW))
    body.append((_RET, 0, 0, _RET_ERRNO | errno.EPERM))
    body.append((_RET, 0, 0, _RET_ERRNO | errno.ENOSYS))
    assert len(body) == n
    return b"".join(_insn(*ins) for ins in body)


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def install() -> str:
    """Set no_new_privs and install the filter on this process (inherited by its children and
    kept across exec). Returns "seccomp" when installed, "no-new-privs" when this architecture has
    no filter; raises OSError when the kernel refuses."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS)")
    if platform.machine() not in _ARCHES:
        return "no-new-privs"
    code = program()
    buf = ctypes.create_string_buffer(code, len(code))
    prog = _SockFprog(len(code) // 8, ctypes.cast(buf, ctypes.c_void_p))
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_SECCOMP)")
    return "seccomp"
