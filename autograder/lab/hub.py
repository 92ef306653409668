"""`autograder lab-hub DIR` (`make hub`): JupyterHub for one course, on this machine, in one command.

It prepares DIR, then runs JupyterHub in the foreground (Ctrl-C stops the hub, the proxy and every
server). Each step is skipped when already done, so the same command restarts a hub:

    DIR/state/      the hub's database, cookie secret and pid files (0700, root's)
    DIR/env/        the class environment: a venv of a Python every user can run, with the student
                    kit installed by its own install.sh and the hub's jupyterhub (or --env ENV: a
                    lab image's environment, prepared the same way)
    DIR/exchange/   nbgrader's exchange (mkdir, chmod ugo+rw, as nbgrader's docs say)
    DIR/config/     the Jupyter settings of each role (lab/hub_spawn.py says how they reach a server)
    DIR/hub.json    the settings; DIR/jupyterhub_config.py loads them (lab/hub_spawn.configure), then
                    DIR/jupyterhub_config.local.py when there is one (the lab's own additions)
    ~INSTRUCTOR/COURSE_ID/   the course directory, made by `autograder quickstart --exchange`

The proxy, configurable-http-proxy, comes from the npm registry into `.hub/proxy/` of the checkout
(never a global install). Users are local accounts (LocalProcessSpawner runs each server under its
user's uid): `--create-users` makes the missing ones (root only).
"""
from __future__ import annotations

import json
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import sys
from pathlib import Path

from ..course.packaging import INSTRUCTOR_LAB_PLUGINS, INSTRUCTOR_SERVER_EXTENSIONS

PROXY_PACKAGE = "configurable-http-proxy@5.3.0"
ROOT = Path(__file__).resolve().parents[2]


class HubError(Exception):
    """What stops the hub from starting: one line for the lab admin."""


def free_port(ip: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((ip, 0))
        return s.getsockname()[1]


def runnable_by_all(path) -> bool:
    """Whether every user may run `path` (the file, and every folder above it, open to others)."""
    real = Path(os.path.realpath(path))
    if not real.is_file() or not os.stat(real).st_mode & 0o001:
        return False
    return all(os.stat(p).st_mode & 0o001 for p in real.parents)


def python_for_everyone() -> str:
    """A Python 3.11+ every user can run: this one, else the system's python3 (a pyenv or conda
    Python under /root cannot start a student's server)."""
    candidates = [sys.executable, "/usr/bin/python3", "/usr/local/bin/python3"]
    for cand in candidates:
        if not runnable_by_all(cand):
            continue
        out = subprocess.run([cand, "-c", "import sys, venv; print(sys.version_info >= (3, 11))"],
                             capture_output=True, text=True, timeout=60)
        if out.stdout.strip() == "True":
            return cand
    raise HubError(f"no Python 3.11+ with venv that every user may run among {candidates}: give one with --python")


def node_problem() -> str:
    """Why configurable-http-proxy cannot be installed here ("" when it can): it needs npm and
    Node.js 20 or newer (Debian 12's own nodejs is 18: take NodeSource's or nvm's)."""
    if not shutil.which("npm") or not shutil.which("node"):
        return "JupyterHub's proxy needs Node.js 20+ and npm (none found on PATH)"
    out = subprocess.run(["node", "--version"], capture_output=True, text=True, timeout=30).stdout.strip()
    major = out.lstrip("v").split(".")[0]
    if not major.isdigit() or int(major) < 20:
        return f"JupyterHub's proxy ({PROXY_PACKAGE}) needs Node.js 20 or newer, found {out or 'none'}"
    return ""


def ensure_proxy(folder: Path = ROOT / ".hub" / "proxy") -> Path:
    """configurable-http-proxy from the npm registry into `folder` (installed once, then reused)."""
    exe = folder / "node_modules" / ".bin" / "configurable-http-proxy"
    if exe.exists():
        return exe
    problem = node_problem()
    if problem:
        raise HubError(problem)
    npm = shutil.which("npm")
    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = folder.parent / f".proxy-{os.getpid()}"
    shutil.rmtree(staging, ignore_errors=True)
    done = subprocess.run([npm, "install", "--prefix", str(staging), "--no-audit", "--no-fund",
                           "--loglevel=error", PROXY_PACKAGE], capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise HubError(f"npm install {PROXY_PACKAGE} failed: {done.stderr.strip()[-500:]}")
    try:
        staging.rename(folder)
    except OSError:          # another hub installed it meanwhile
        shutil.rmtree(staging, ignore_errors=True)
    return exe


def _hub_version() -> str:
    from importlib.metadata import version
    return version("jupyterhub")


def ensure_env(env: Path, python: str, course_root: Path) -> Path:
    """The class environment: a venv with the student kit (its install.sh) and the hub's jupyterhub."""
    stamp = env / ".jax-course-hub"
    if stamp.exists():
        return env
    steps = [[python, "-m", "venv", str(env)]]
    kit = env.parent / "kit"
    shutil.rmtree(kit, ignore_errors=True)
    steps.append([sys.executable, "-m", "autograder.cli", "student-kit", "--out", str(kit),
                  "--course-root", str(course_root)])
    steps.append(["sh", str(kit / "install.sh"), str(env)])
    for step in steps:
        print("lab-hub:", " ".join(step), flush=True)
        done = subprocess.run(step, timeout=1800)
        if done.returncode != 0:
            raise HubError(f"{' '.join(step[:3])} failed (exit {done.returncode})")
    add_hub(env)
    stamp.write_text("made by autograder lab-hub\n")
    return env


def add_hub(env: Path):
    """The hub's own jupyterhub release in `env` (its servers run `jupyterhub-singleuser`)."""
    if (env / "bin" / "jupyterhub-singleuser").exists():
        return
    done = subprocess.run([str(env / "bin" / "python"), "-m", "pip", "install", "--quiet",
                           f"jupyterhub=={_hub_version()}"], capture_output=True, text=True, timeout=900)
    if done.returncode != 0:
        raise HubError(f"pip install jupyterhub into {env} failed: {done.stderr.strip()[-500:]}")


def ensure_users(names: list[str], create: bool) -> dict[str, pwd.struct_passwd]:
    """The local accounts the hub spawns servers for (made with useradd when `create`)."""
    found = {}
    for name in names:
        try:
            found[name] = pwd.getpwnam(name)
            continue
        except KeyError:
            pass
        if not create:
            raise HubError(f"no local user {name!r}: create it (useradd -m {name}) or pass --create-users")
        if os.geteuid() != 0:
            raise HubError(f"--create-users needs root (user {name!r})")
        done = subprocess.run(["useradd", "--create-home", "--user-group", "--shell", "/bin/bash", name],
                              capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            raise HubError(f"useradd {name} failed: {done.stderr.strip()}")
        found[name] = pwd.getpwnam(name)
    return found


def _chown_tree(top: Path, user: pwd.struct_passwd):
    for folder, dirs, files in os.walk(top):
        for name in [folder, *(os.path.join(folder, n) for n in dirs + files)]:
            os.lchown(name, user.pw_uid, user.pw_gid)


def ensure_course(env: Path, course_root: Path, instructor: pwd.struct_passwd, course_id: str,
                  exchange: Path) -> Path:
    """The instructor's course directory (`autograder quickstart --exchange`), in their home."""
    course = Path(instructor.pw_dir) / course_id
    if (course / "nbgrader_config.py").exists():
        return course
    done = subprocess.run([str(env / "bin" / "python"), "-m", "autograder.cli", "quickstart", str(course),
                           "--course-root", str(course_root), "--exchange", str(exchange),
                           "--course-id", course_id], capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise HubError(f"autograder quickstart failed: {done.stderr.strip()[-500:]}")
    if os.geteuid() == 0:
        _chown_tree(course, instructor)
    return course


def write_role_settings(config: Path, course: Path, course_id: str, exchange: Path) -> dict:
    """The Jupyter settings folder of each role (what is not in the environment's own etc/jupyter)."""
    common = f"c.CourseDirectory.course_id = {course_id!r}\nc.Exchange.root = {str(exchange)!r}\n"
    dirs = {}
    for role in ("student", "instructor"):
        folder = config / role
        (folder / "labconfig").mkdir(parents=True, exist_ok=True)
        folder.chmod(0o755)
        nbgrader = "c = get_config()  # noqa: F821\n" + common
        if role == "instructor":
            nbgrader += f"c.CourseDirectory.root = {str(course)!r}\n"
            # the student kit's settings (in the environment) hide these: the instructor's win
            (folder / "labconfig" / "page_config.json").write_text(json.dumps(
                {"disabledExtensions": {p: False for p in INSTRUCTOR_LAB_PLUGINS}}, indent=1))
            (folder / "jupyter_server_config.json").write_text(json.dumps(
                {"ServerApp": {"jpserver_extensions": {e: True for e in INSTRUCTOR_SERVER_EXTENSIONS},
                               # Formgrader is shown in an iframe of the same server (nbgrader #1870)
                               "tornado_settings": {"headers": {
                                   "Content-Security-Policy": "frame-ancestors 'self'"}}}}, indent=1))
        (folder / "nbgrader_config.py").write_text(nbgrader)
        for path in folder.rglob("*"):
            path.chmod(0o755 if path.is_dir() else 0o644)
        dirs[role] = str(folder)
    return dirs


LAB_DEFAULTS = {  # every user's JupyterLab on the hub: no news or update checks from a lab machine
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False},
}


def write_lab_defaults(env: Path):
    folder = env / "share" / "jupyter" / "lab" / "settings" / "overrides.d"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "jax-course-hub.json").write_text(json.dumps(LAB_DEFAULTS, indent=1))


def prepare(args) -> Path:
    """Everything but starting the hub; returns the jupyterhub_config.py to start it with."""
    if os.geteuid() != 0:
        raise HubError("LocalProcessSpawner starts each user's server under that user's uid: run as root")
    top = Path(args.folder).expanduser().resolve()
    top.mkdir(parents=True, exist_ok=True)
    top.chmod(0o755)                       # the environment and the exchange inside are everyone's
    state = top / "state"
    state.mkdir(exist_ok=True)
    state.chmod(0o700)
    course_root = Path(args.course_root or ROOT).resolve()
    proxy = ensure_proxy()
    env = Path(args.env).resolve() if args.env else ensure_env(top / "env", args.python or python_for_everyone(),
                                                               course_root)
    if not runnable_by_all(env / "bin" / "python"):
        raise HubError(f"{env}/bin/python is not runnable by every user: the environment must be made "
                       f"with a Python they can run (--python /usr/bin/python3), in folders they can enter")
    add_hub(env)
    write_lab_defaults(env)
    students = [s for s in args.students.split(",") if s]
    users = ensure_users([args.instructor, *students], args.create_users)
    exchange = top / "exchange"
    exchange.mkdir(exist_ok=True)
    exchange.chmod(0o777)
    course = ensure_course(env, course_root, users[args.instructor], args.course_id, exchange)
    settings = {
        "course_id": args.course_id, "ip": args.ip, "port": args.port, "hub_port": free_port(),
        "proxy_api_port": free_port(), "state_dir": str(state), "env": str(env), "proxy": str(proxy),
        "config_dirs": write_role_settings(top / "config", course, args.course_id, exchange),
        "students": students, "instructor": args.instructor, "auth": args.auth,
        "password": args.password or _saved_password(top) or secrets.token_urlsafe(9),
        "gpus": args.gpus.split(",") if args.gpus else None,
        "grading_gpus": [g for g in (args.grading_gpus or "").split(",") if g],
        "students_per_gpu": args.students_per_gpu, "mem_limit": args.mem_limit, "cpu_limit": args.cpu_limit,
        "course_dir": str(course), "exchange": str(exchange),
    }
    from .hub_spawn import Shares
    shares = Shares(settings["gpus"], settings["grading_gpus"], settings["students_per_gpu"])
    path = top / "hub.json"
    path.write_text(json.dumps(settings, indent=1))
    path.chmod(0o600)
    config = top / "jupyterhub_config.py"
    config.write_text("# written by `autograder lab-hub`: the settings are in hub.json beside it\n"
                      "from autograder.lab.hub_spawn import configure\n"
                      f"configure(c, {str(path)!r})  # noqa: F821\n"
                      "# a lab's own additions (an OAuth authenticator, ...) go in this file, never rewritten:\n"
                      "load_subconfig('jupyterhub_config.local.py')  # noqa: F821\n")
    _announce(settings, shares)
    return config


def _saved_password(top: Path):
    path = top / "hub.json"
    return json.loads(path.read_text()).get("password") if path.exists() else None


def _announce(s: dict, shares):
    print(f"lab-hub: http://{s['ip']}:{s['port']}/ for course {s['course_id']}")
    login = f"password {s['password']}" if s["auth"] == "dummy" else "their system password (PAM)"
    print(f"lab-hub: instructor {s['instructor']}, students {', '.join(s['students'])}; log in with {login}")
    print(f"lab-hub: course directory {s['course_dir']}, exchange {s['exchange']}")
    for line in shares.table():
        print(f"lab-hub: {line}")
    sys.stdout.flush()


def main(args) -> int:
    try:
        config = prepare(args)
    except (HubError, ValueError, OSError) as exc:
        print(f"autograder: error: {exc}", file=sys.stderr)
        return 2
    if args.prepare_only:
        return 0
    state = config.parent / "state"
    os.chdir(state)
    path = os.environ.get("PATH", "")
    os.environ["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{path}"   # the hub's own commands
    os.execv(sys.executable, [sys.executable, "-m", "jupyterhub", "-f", str(config)])


def add_parser(sub):
    h = sub.add_parser("lab-hub", help="JupyterHub for one course on this machine (lab admins; docs/LABS.md)")
    h.add_argument("folder", type=Path, help="the hub's folder (state, class environment, exchange)")
    h.add_argument("--instructor", required=True, help="the instructor's local user name")
    h.add_argument("--students", required=True, help="students' local user names, comma-separated")
    h.add_argument("--create-users", action="store_true", help="useradd the missing users (root)")
    h.add_argument("--course-id", default="jax-course")
    h.add_argument("--course-root", type=Path, help="where source/ and nbgrader_config.py are (default: this checkout)")
    h.add_argument("--env", type=Path, help="an existing class environment (install.sh ENV run on it)")
    h.add_argument("--python", help="the Python the class environment is made with (every user must run it)")
    h.add_argument("--ip", default="127.0.0.1", help="where the hub listens (default: loopback only)")
    h.add_argument("--port", type=int, default=8000)
    h.add_argument("--auth", choices=("dummy", "pam"), default="dummy",
                   help="dummy: one shared password, for a trial; pam: the users' system passwords")
    h.add_argument("--password", help="the dummy authenticator's password (default: generated, kept in hub.json)")
    h.add_argument("--gpus", help="GPU ids the hub may hand out (default: every GPU found)")
    h.add_argument("--grading-gpus", help="GPU ids kept for grading: never given to a student")
    h.add_argument("--students-per-gpu", type=int, default=4, help="students sharing one card (its memory split)")
    h.add_argument("--mem-limit", help="memory per student server, e.g. 8G (exported only, see docs/LABS.md)")
    h.add_argument("--cpu-limit", help="CPUs per student server (exported only, see docs/LABS.md)")
    h.add_argument("--prepare-only", action="store_true", help="prepare everything, do not start the hub")
