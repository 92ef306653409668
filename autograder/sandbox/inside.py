"""Stage 2 of a worker: what runs inside its namespaces, before and around the worker itself.

`python -m autograder.sandbox.inside CONFIG` is started by `process.WorkerProcess` (through `unshare`
in the namespace modes), or `stage2` is called in a child of the fork server (`zygote.py`). It forks: the parent stays as the supervisor (`_supervise`), the child
confines itself (`isolate`: mounts, network, disk, limits, credentials, seccomp) and becomes the
worker (`worker.py`). It imports the standard library only (and the stdlib-only `procs`, `seccomp`,
`memlimit`): it runs before the worker may import numpy or JAX, and single-threaded.
"""
from __future__ import annotations

import ctypes
import errno
import json
import os
import resource
import select
import signal
import socket
import struct
import sys
import time
from pathlib import Path

from . import memlimit, procs, seccomp

# The worker exits with this code, instead of replying, when a request left its disk full
# (see worker.py): the request that filled it is the one charged.
DISK_FULL_EXIT = 86

# Where the worker lives inside the namespaces when its disk is the private tmpfs.
INNER_TMP = "/tmp"
INNER_WORK = "/tmp/work"

def is_within(path: str, ancestor: str) -> bool:
    path, ancestor = os.path.realpath(path), os.path.realpath(ancestor)
    return path == ancestor or path.startswith(ancestor.rstrip(os.sep) + os.sep)


_libc = None


def _lib():
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(None, use_errno=True)
    return _libc


def _check(rc: int, what: str):
    if rc != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT, MS_BIND, MS_REC = 1, 2, 4, 8, 32, 4096, 16384


def _mount(source, target: str, fstype=None, flags: int = 0, data=None):
    enc = lambda s: None if s is None else os.fsencode(s)  # noqa: E731
    _check(_lib().mount(enc(source), enc(target), enc(fstype), ctypes.c_ulong(flags), enc(data)),
           f"mount {source} on {target}")


def _cover(path: str, options: str, keep=()):
    """Mount an empty tmpfs over `path`, then bind each path of `keep` (files or folders inside
    `path`) back in place. The kept paths are held open (O_PATH) across the covering, so they
    are found even when they lie under `path` itself."""
    held = []
    for k in sorted(set(keep)):
        held.append((k, os.open(k, os.O_PATH), os.path.isdir(k)))
    _mount("tmpfs", path, "tmpfs", MS_NOSUID | MS_NODEV, options)
    for k, fd, is_dir in held:
        if is_dir:
            os.makedirs(k, exist_ok=True)
        else:
            os.makedirs(os.path.dirname(k), exist_ok=True)
            open(k, "a").close()
        _mount(f"/proc/self/fd/{fd}", k, None, MS_BIND | MS_REC)
        os.close(fd)


def _hide(paths: list[str]):
    """Cover the course's hidden material (folders: an empty tmpfs; files: /dev/null)."""
    for path in paths:
        if os.path.isdir(path):
            _mount("tmpfs", path, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=1m")
        elif os.path.exists(path):
            _mount("/dev/null", path, None, MS_BIND)


# What a worker sees of the host's root besides the kept paths (the interpreter, its libraries, this
# package: `host.python_roots`): programs, libraries and configuration, the kernel's file systems
# and /tmp (its private disk). Every other top-level folder (/home, /root, /srv, /opt, /var, /mnt,
# a data folder, ...) is covered by an empty tmpfs, so a copy of a course anywhere else on the host
# (another checkout, last term's course, an instructor's notes) is out of reach, whatever its name.
SYSTEM_FOLDERS = frozenset({"bin", "sbin", "lib", "lib32", "lib64", "libx32", "usr", "etc", "dev", "proc",
                            "sys", "tmp", "nix", "gnu", "snap"})


def _only_the_system(keep: list[str]):
    """Cover every top-level folder that is not the system's, binding the kept paths inside it back,
    and every top-level file (with /dev/null)."""
    for name in sorted(os.listdir("/")):
        path = os.path.join("/", name)
        if name in SYSTEM_FOLDERS or os.path.islink(path) or any(is_within(path, k) for k in keep):
            continue
        if os.path.isdir(path):
            _cover(path, "mode=0755,size=1m", [k for k in keep if is_within(k, path)])
        elif os.path.isfile(path):
            _mount("/dev/null", path, None, MS_BIND)


def _make_reachable(paths: list[str]):
    """Let the unprivileged worker traverse to the interpreter: cover each private ancestor (e.g.
    /root, mode 700) with a world-traversable tmpfs and bind the needed subtrees back into it."""
    for path in paths:
        parts = Path(path).parts
        for depth in range(2, len(parts)):
            anc = os.path.join(*parts[:depth])
            if os.stat(anc).st_mode & 0o001:
                continue
            children = {os.path.join(anc, Path(p).parts[depth]) for p in paths
                        if is_within(p, anc) and len(Path(p).parts) > depth}
            _cover(anc, "mode=0755,size=1m", children)


def _cover_host_sockets(keep: list[str]):
    """/run (and /var/run when it is a folder of its own) holds the unix sockets of the host's
    services: name resolution (nscd, systemd-resolved), databases, D-Bus, Docker. A network
    namespace does not stop a connection to a socket file, so these folders are covered."""
    for path in ("/run", "/var/run"):
        if os.path.isdir(path) and not os.path.islink(path):
            _cover(path, "mode=0755,size=1m", [k for k in keep if is_within(k, path)])


def _loopback_up():
    """A new network namespace has one interface, `lo`, and it is down. Bring it up with the
    SIOCSIFFLAGS ioctl (no dependency on iproute2): code that talks to itself over 127.0.0.1
    works as on a laptop, while nothing outside the namespace is reachable."""
    import fcntl
    SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        req = struct.pack("16sH14x", b"lo", 0)
        flags = struct.unpack("16sH", fcntl.ioctl(s, SIOCGIFFLAGS, req)[:18])[1]
        fcntl.ioctl(s, SIOCSIFFLAGS, struct.pack("16sH14x", b"lo", flags | IFF_UP))


class _MountAttr(ctypes.Structure):
    _fields_ = [("attr_set", ctypes.c_uint64), ("attr_clr", ctypes.c_uint64),
                ("propagation", ctypes.c_uint64), ("userns_fd", ctypes.c_uint64)]


_SYS_MOUNT_SETATTR = 442  # the same number on every architecture (Linux >= 5.12)


# The kernel's own file systems stay writable for a worker that may use a GPU: cuInit fails with
# CUDA_ERROR_OPERATING_SYSTEM under a read-only root (measured on an H200 lab machine, where it runs
# once the root alone stays writable). They hold nothing an unprivileged worker can fill: /dev is
# root's (its /dev/shm is the private tmpfs), /proc and /sys are the kernel's.
KERNEL_MOUNTS = ("/dev", "/proc", "/sys")


def _read_only_root(fallback: bool = False, keep_writable: tuple = ()):
    """Make every mount of this mount namespace read-only (the host's mounts are untouched: the
    namespace has its own copies), but the mounts at and under `keep_writable`. mount_setattr(2)
    does it in one call per tree; kernels before 5.12 get a read-only bind remount of each mount,
    keeping its other flags (a user namespace forbids dropping them)."""
    if not fallback:
        attr = _MountAttr(attr_set=0x1)  # MOUNT_ATTR_RDONLY
        rc = _lib().syscall(_SYS_MOUNT_SETATTR, -100, b"/", 0x8000,  # AT_FDCWD, "/", AT_RECURSIVE
                            ctypes.byref(attr), ctypes.c_size_t(ctypes.sizeof(attr)))
        if rc == 0:
            for path in keep_writable:
                if os.path.ismount(path):
                    back = _MountAttr(attr_clr=0x1)
                    _check(_lib().syscall(_SYS_MOUNT_SETATTR, -100, os.fsencode(path), 0x8000,
                                          ctypes.byref(back), ctypes.c_size_t(ctypes.sizeof(back))),
                           f"mount_setattr({path}, clear MOUNT_ATTR_RDONLY)")
            return
        if ctypes.get_errno() not in (errno.ENOSYS, errno.EINVAL):
            _check(rc, "mount_setattr(/, MOUNT_ATTR_RDONLY, AT_RECURSIVE)")
    keep_flags = (os.ST_NOSUID | os.ST_NODEV | os.ST_NOEXEC | os.ST_NOATIME | os.ST_NODIRATIME
                  | os.ST_RELATIME)
    with open("/proc/self/mountinfo") as fh:
        points = [line.split()[4] for line in fh]
    for point in points:
        point = point.replace("\\040", " ").replace("\\011", "\t").replace("\\012", "\n") \
            .replace("\\134", "\\")
        if any(is_within(point, keep) for keep in keep_writable):
            continue
        try:
            flags = os.statvfs(point).f_flag & keep_flags
        except OSError:
            continue  # covered by a later mount: not reachable, nothing to protect
        _mount(None, point, None, MS_REMOUNT | MS_BIND | MS_RDONLY | flags)


def _private_disk(disk_mb: int, uid: int, keep: list[str]):
    """The worker's only writable storage: a tmpfs of `disk_mb` on /tmp (a cap on bytes and on
    files), holding its working folder (also HOME), bound again on /var/tmp and, through a
    subfolder, on /dev/shm. Mounted after the root was made read-only, so it alone is writable."""
    inodes = max(1024, disk_mb * 64)
    _cover(INNER_TMP, f"size={disk_mb}m,nr_inodes={inodes},mode=1777",
           [k for k in keep if is_within(k, INNER_TMP)])
    os.mkdir(INNER_WORK, 0o700)
    if uid is not None:  # namespace mode: the worker's own uid (userns: already the owner)
        os.chown(INNER_WORK, uid, uid)
    shm = os.path.join(INNER_TMP, ".shm")
    os.mkdir(shm)
    os.chmod(shm, 0o1777)
    if os.path.isdir("/var/tmp") and not os.path.islink("/var/tmp"):
        _mount(INNER_TMP, "/var/tmp", None, MS_BIND | MS_REC)
    if os.path.isdir("/dev/shm"):
        _mount(shm, "/dev/shm", None, MS_BIND)


def _set_limits(limits: dict, memory: dict | None):
    memlimit.apply_rlimit(memory)   # RLIMIT_AS or RLIMIT_DATA; a cgroup was entered in stage2
    resource.setrlimit(resource.RLIMIT_FSIZE, (limits["output_bytes"], limits["output_bytes"]))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_NPROC, (limits["max_procs"], limits["max_procs"]))


def _enter_nested_user_namespace():
    """Drop the capabilities this process holds in its user namespace: the mounts made above
    become locked, so student code cannot unmount them to reveal what they cover."""
    if _lib().unshare(0x10000000) != 0:  # CLONE_NEWUSER
        raise OSError(ctypes.get_errno(), "unshare(CLONE_NEWUSER) failed")


def isolate(config: dict):
    """Every confinement step of the worker, in order, in one place.

    Runs in the process that becomes the worker: in the namespace modes it starts as root of fresh
    mount, PID, network and IPC namespaces; in `process` mode, as the grader's user. After it, the
    process holds the request/reply channel on fds 3 and 4 and only has to start the worker: exec a
    fresh interpreter (`_exec_worker`), or, forked from the fork server that already imported JAX
    (`zygote.py`, after the same namespaces by unshare(2)), call the worker's main in place.
    """
    mode, without = config["mode"], set(config.get("without", ()))
    keep = config["reachable"]
    if mode in ("namespace", "userns"):
        # 1. what the student must not read: the course's hidden material, other workers' scratch,
        #    and every folder of the host that is neither the system's nor the interpreter's
        _hide(config["hide"])
        if "files" not in without:
            _only_the_system(keep)
        if mode == "namespace":
            _make_reachable(keep)
        # 2. network: only loopback in the namespace, and no host socket files
        if "network" not in without:
            _cover_host_sockets(keep)
            _loopback_up()
        # 3. disk: nothing writable but a private tmpfs of the budget's size
        if "disk" not in without:
            _read_only_root(keep_writable=KERNEL_MOUNTS if config.get("accelerator") else ())
            _private_disk(int(config["limits"]["disk_mb"]),
                          config["uid"] if mode == "namespace" else None, keep)
    # 4. resource limits, then credentials (after them nothing above can be undone)
    _set_limits(config["limits"], config.get("memory"))
    if mode == "userns":
        _enter_nested_user_namespace()
    if mode == "namespace":
        os.setgroups([])
        os.setgid(config["uid"])
        os.setuid(config["uid"])
    os.chdir(config["work"])
    # 5. no new privileges, and the system calls a JAX worker never needs denied (seccomp.py)
    if "seccomp" not in without:
        try:
            seccomp.install()
        except OSError as exc:  # a kernel without seccomp filters: the other layers still hold
            print(f"autograder: seccomp filter not installed: {exc}", file=sys.stderr)
    # 6. the request, reply and alarm channels become fds 3, 4 and 5 (see worker.py), and the
    #    compile cache's folder, when there is one, fd 6 (compile_cache.py)
    channels = config["fds"]
    targets = tuple(range(3, 3 + len(channels)))
    moved = [os.dup(fd) for fd in channels]
    for fd in channels:
        os.close(fd)
    for target, fd in zip(targets, moved):
        os.dup2(fd, target)
    for fd in moved:
        if fd not in targets:
            os.close(fd)
    for target in targets:
        os.set_inheritable(target, True)  # dup2 onto the same number keeps close-on-exec
    signal.signal(signal.SIGXFSZ, signal.SIG_DFL)


def _exec_worker(config: dict):
    os.execve(sys.executable, [sys.executable, "-m", "autograder.sandbox.worker"], config["env"])


def _supervise(worker: int, lifeline: int, mode: str):
    """Wait for the worker to end, or for the grader to go; then end everything and exit.

    The lifeline is a socket whose other end only the grader holds. The grader sends nothing on
    it: it becomes readable when that end is closed, by `WorkerProcess.close()` or by the kernel
    when the grader dies, whatever killed it (SIGKILL, the OOM killer, a CI time limit). Reading
    EOF is level-triggered, so a grader that died before this loop started is seen at once.

    Why this and not a parent-death signal (PR_SET_PDEATHSIG): that signal fires when the parent
    *thread* exits, and the grader starts workers from a thread pool, so a worker would die with
    the pool thread that started it; setting it on `unshare` would need a preexec_fn, which can
    deadlock in a threaded grader; and it is cleared when the worker changes uid, so every link of
    grader -> unshare -> pid 1 -> worker would need re-arming, each with a race against a parent
    that already died. One socket closes reliably, whatever the threads and uids.

    In the namespace modes this process is pid 1: when it exits, the kernel kills every process
    left in the PID namespace (fork bombs and double-forked daemons included), and student code
    cannot signal it (pid 1 only receives signals it handles, and it handles none) nor ptrace it
    (it is not dumpable). In `process` mode it is a child subreaper and kills what is left of its
    descendants itself; there, student code running as the same user can still kill it first.

    When the worker ends on its own, its wait status is written on the lifeline ("exit N" /
    "signal N") for the grader's death report, since pid 1 cannot die of a signal to pass it on.
    """
    lib = _lib()
    lib.prctl(procs.PR_SET_DUMPABLE, 0, 0, 0, 0)
    if mode == "process":
        lib.prctl(procs.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    try:
        pidfd = os.pidfd_open(worker)
    except (AttributeError, OSError):
        pidfd = None
    poller = select.poll()
    poller.register(lifeline, select.POLLIN | select.POLLHUP | select.POLLERR)
    if pidfd is not None:
        poller.register(pidfd, select.POLLIN)
    status = None
    while status is None:
        events = poller.poll(1000 if pidfd is not None else 100)
        status = _reap(worker)  # also reaps orphans re-parented to this process
        if status is None and any(fd == lifeline for fd, _ in events):
            _end_all(mode)     # the grader is gone, or done with this worker
            os._exit(0)
    if os.WIFSIGNALED(status):
        report, code = f"signal {os.WTERMSIG(status)}", 128 + os.WTERMSIG(status)
    else:
        report, code = f"exit {os.WEXITSTATUS(status)}", os.WEXITSTATUS(status)
    try:
        os.write(lifeline, report.encode() + b"\n")
    except OSError:
        pass
    _end_all(mode)
    os._exit(code)


def _reap(worker: int):
    """Collect every finished child; return the worker's wait status once it has ended."""
    found = None
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return found
        if pid == 0:
            return found
        if pid == worker:
            found = status


def _end_all(mode: str):
    """Namespace modes: nothing to do, the kernel ends the PID namespace with its pid 1. Process
    mode: kill the descendants (orphans came back here, as a subreaper) until none is left."""
    if mode != "process":
        return
    me = os.getpid()
    for _ in range(200):
        kids = procs.descendants(me)
        if not kids:
            return
        for pid in kids:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        _reap(-1)
        time.sleep(0.01)


def stage2(config: dict, run_worker=None):
    """The supervisor and the worker; `run_worker(config)` starts the worker once it is confined
    (never returns): by default it execs `python -m autograder.sandbox.worker`."""
    run_worker = run_worker or _exec_worker
    memlimit.enter(config.get("memory"))  # before the fork: the worker starts inside its cgroup
    lifeline = config.get("lifeline")
    if lifeline is None:  # benchmarks only: no supervisor, the worker is the first process
        isolate(config)
        run_worker(config)
    supervisor = os.getpid()
    worker = os.fork()
    if worker == 0:
        try:
            os.close(lifeline)
            if config["mode"] == "process":
                # no PID namespace to end it with the supervisor: die with it instead
                _lib().prctl(procs.PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
                if os.getppid() != supervisor:
                    os._exit(1)
            isolate(config)
            run_worker(config)
        except BaseException:
            import traceback
            traceback.print_exc()
            os._exit(1)
    for fd in config["fds"]:
        os.close(fd)  # only the worker may hold the channel: its death must reach the grader as EOF
    _supervise(worker, lifeline, config["mode"])


if __name__ == "__main__":
    stage2(json.loads(sys.argv[1]))
